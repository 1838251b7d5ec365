import { mayWrite, noteRead, observeReads } from './table-versions.ts';
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/** Answers kept by a read cache, each with the generation it was read at. */
const KEPT_ANSWERS = 1000;

/**
 * Answers of expensive reads (the `X-WP-Total` count of a post list: a scan of every match, 4 ms at
 * 100,000 posts) kept while nothing could have changed them. The generation moves with every
 * statement that may write, seen as the database's Kysely plugin (so a transaction's writes, the
 * scheduler's and a test's direct ones count too), and when another process committed: on SQLite
 * when SQLite says so (SharedStateRepo.otherWriters); on PostgreSQL after each commit of this
 * process that moved a table's version (a read on another connection of the pool may have read
 * before it) and when the shared versions, read by every catch-up, moved (SharedStateRepo.versions:
 * another instance's write, which bumps them in its own transaction). An answer read at an older
 * generation is read again. So on PostgreSQL, as the response cache and the answer fragments,
 * it sees the writes of cms-spec instances, not of other clients that bump no version.
 */
export class ReadCache implements KyselyPlugin {
  private generation = 0;
  private readonly kept = new Map<string, { generation: number; value: unknown; tables: ReadonlySet<string> }>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (mayWrite(args.node)) this.generation++;
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }

  /** Something was written that transformQuery did not see (another process) or saw before it committed (another connection of this process's pool): nothing kept is known to be current. */
  changedElsewhere(): void {
    this.generation++;
  }

  /** The kept answer of `key` if nothing was written since it was read, else `read()`'s, kept. */
  async get<T>(key: string, read: () => Promise<T>): Promise<T> {
    const found = this.kept.get(key);
    if (found && found.generation === this.generation) {
      // most recently used last, so the oldest goes first past the cap
      this.kept.delete(key);
      this.kept.set(key, found);
      // what is answered from it depends on the tables it read, as if it had read them now
      noteRead(found.tables);
      return found.value as T;
    }
    const generation = this.generation;
    const { value, tables } = await observeReads(read);
    // a write while it was read leaves it unkept: it may predate that write
    if (generation === this.generation) {
      this.kept.set(key, { generation, value, tables });
      if (this.kept.size > KEPT_ANSWERS) this.kept.delete(this.kept.keys().next().value!);
    }
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
