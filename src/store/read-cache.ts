import { noteRead, observeReads } from './table-versions.ts';
import type { Kysely } from 'kysely';

/** Answers kept by a read cache, each with the generation it was read at. */
const KEPT_ANSWERS = 1000;

interface Kept {
  /** The generation when its read began. */
  readonly generation: number;
  readonly value: unknown;
  readonly tables: ReadonlySet<string>;
}

/**
 * Answers of reads that are expensive or made by most requests (the `X-WP-Total` count of a post
 * list, a scan of every match: 4 ms at 100,000 posts; a post's head; options; users) kept while nothing
 * they read has changed. Told by the database's table versions (`TableVersions.onWritten`) which
 * tables each commit of this process changed, after the commit and before its request can answer:
 * an answer is current while none of the tables it read was changed since its read began. Told
 * also when another process committed something (`changedElsewhere`): on SQLite when SQLite says so
 * (SharedStateRepo.otherWriters), on PostgreSQL when the shared versions, read by every catch-up,
 * moved (SharedStateRepo.versions: another instance's write). Then nothing kept is current. So on
 * PostgreSQL, as the response cache and the answer fragments, it sees the writes of cms-spec
 * instances, not of other clients that bump no version.
 */
export class ReadCache {
  /** Moves on with every change told. */
  private generation = 0;
  /** The generation of the latest change told of each table. */
  private readonly changedAt = new Map<string, number>();
  /** The generation of the latest change whose tables are not known. */
  private anythingChangedAt = 0;
  private readonly kept = new Map<string, Kept>();

  /** This process committed a change of `tables` (undefined: of tables not known). */
  wrote(tables: ReadonlySet<string> | undefined): void {
    const generation = ++this.generation;
    if (tables === undefined) this.anythingChangedAt = generation;
    else for (const t of tables) this.changedAt.set(t, generation);
  }

  /** Something was written by another process: nothing kept is known to be current. */
  changedElsewhere(): void {
    this.wrote(undefined);
  }

  /** Whether nothing `tables` holds has changed since `generation`. */
  private unchangedSince(generation: number, tables: ReadonlySet<string>): boolean {
    if (this.anythingChangedAt > generation) return false;
    for (const t of tables) if ((this.changedAt.get(t) ?? 0) > generation) return false;
    return true;
  }

  /** The kept answer of `key` if nothing it read was written since it was read, else `read()`'s, kept. */
  async get<T>(key: string, read: () => Promise<T>): Promise<T> {
    const found = this.kept.get(key);
    if (found && this.unchangedSince(found.generation, found.tables)) {
      // most recently used last, so the oldest goes first past the cap
      this.kept.delete(key);
      this.kept.set(key, found);
      // what is answered from it depends on the tables it read, as if it had read them now
      noteRead(found.tables);
      return found.value as T;
    }
    const generation = this.generation;
    const { value, tables } = await observeReads(read);
    // a change of what it read, told while it was read, leaves it unkept: it may predate that change
    if (this.unchangedSince(generation, tables)) {
      this.kept.set(key, { generation, value, tables });
      if (this.kept.size > KEPT_ANSWERS) this.kept.delete(this.kept.keys().next().value!);
    } else this.kept.delete(key);
    return value;
  }
}

const caches = new WeakMap<object, ReadCache>();

/** Registers the cache of a database's root Kysely instance (its transactions have none). */
export function attachReadCache(db: Kysely<any>, cache: ReadCache): void {
  caches.set(db, cache);
}

/** The read cache of a root Kysely instance; undefined inside a transaction. */
export const readCacheOf = (db: Kysely<any>): ReadCache | undefined => caches.get(db);
