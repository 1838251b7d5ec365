import type { Kysely } from 'kysely';
import { sql } from './kysely.ts';
import { sqlDate } from './transact.ts';
import { noteUnrepeatable } from './table-versions.ts';
import { compiledOnce } from './compiled-once.ts';

/**
 * How a cache table's `expires_at` column counts time: milliseconds or seconds since the epoch
 * (a bigint), or a UTC `YYYY-MM-DD HH:MM:SS` (a varchar(19), which sorts as the time does).
 */
export type ExpiryClock = 'epoch-ms' | 'epoch-s' | 'datetime';

/** A table that caches: its key and value columns (text; the value JSON) and how its `expires_at` counts. */
export interface ExpiringCacheTable {
  table: string;
  key: string;
  value: string;
  clock: ExpiryClock;
}

const STORED_TIME: Readonly<Record<ExpiryClock, (ms: number) => number | string>> = {
  'epoch-ms': (ms) => ms,
  'epoch-s': (ms) => Math.floor(ms / 1000),
  datetime: (ms) => sqlDate(new Date(ms)),
};

/**
 * How long an entry is kept after it expires: the answer a service gave last, for when it cannot
 * be asked again (src/net/kept.ts serves it, saying it is stale).
 */
export const KEPT_AFTER_EXPIRY_SECONDS = 7 * 24 * 3600;

/**
 * Answers kept in one table until they expire (what WordPress keeps in transients): a read sees
 * an entry only before its expiry, `kept` after it too; a write replaces the key's entry and drops
 * the entries expired for longer than KEPT_AFTER_EXPIRY_SECONDS, which would otherwise grow the
 * table forever. Values are stored as JSON.
 */
export class ExpiringCache {
  constructor(
    private readonly db: Kysely<any>,
    private readonly t: ExpiringCacheTable,
    /** Milliseconds since the epoch; a test gives its own clock. */
    private readonly now: () => number = Date.now,
  ) {}

  private stored(ms: number): number | string {
    return STORED_TIME[this.t.clock](ms);
  }

  /** The entry of a key, or undefined when there is none or it has expired. */
  get<T = unknown>(key: string): Promise<T | undefined> {
    return this.read<T>(key, this.now());
  }

  /** The entry of a key even after it expired (the last answer, to serve stale when none can be had), or undefined when there is none any more. */
  kept<T = unknown>(key: string): Promise<T | undefined> {
    return this.read<T>(key, this.now() - KEPT_AFTER_EXPIRY_SECONDS * 1000);
  }

  /** The entry of a key that expires after `after`. */
  private async read<T>(key: string, after: number): Promise<T | undefined> {
    // what it answers changes as the entry expires, with no write: nothing made from it is kept
    noteUnrepeatable();
    const row = await this.db
      .selectFrom(this.t.table)
      .select(sql.ref<string>(this.t.value).as('value'))
      .where(this.t.key, '=', key)
      .where('expires_at', '>', this.stored(after))
      .executeTakeFirst();
    return row ? (JSON.parse(row.value as string) as T) : undefined;
  }

  /** Keeps `value` under `key` for `ttlSeconds`; `columns` fills a table's other columns (what kind of answer it is). */
  async set(key: string, value: unknown, ttlSeconds: number, columns: Record<string, string | number> = {}): Promise<void> {
    const now = this.now();
    const values = { ...columns, [this.t.value]: JSON.stringify(value), expires_at: this.stored(now + ttlSeconds * 1000) };
    await this.db
      .insertInto(this.t.table)
      .values({ [this.t.key]: key, ...values })
      .onConflict((oc) => oc.column(this.t.key).doUpdateSet(values))
      .execute();
    await this.purgeExpired(now);
  }

  /** Drops the entries expired for longer than they are kept; how many there were. */
  async purgeExpired(now = this.now()): Promise<number> {
    const { numDeletedRows } = await this.db.deleteFrom(this.t.table).where('expires_at', '<=', this.stored(now - KEPT_AFTER_EXPIRY_SECONDS * 1000)).executeTakeFirst();
    return Number(numDeletedRows);
  }

  /**
   * Drops every entry whose key starts with `prefix` (every entry without one: `cms-spec cache
   * flush`); how many there were. `within`: a transaction of the caller's to drop them in.
   */
  async clear(prefix = '', within: Kysely<any> = this.db): Promise<number> {
    const everything = () => within.deleteFrom(this.t.table);
    const query = prefix
      ? everything().where(sql<string>`substr(${sql.ref(this.t.key)}, 1, ${sql.lit(prefix.length)})`, '=', prefix).compile()
      : compiledOnce(within, `expiring cache clear\0${this.t.table}`, [], everything);
    return Number((await within.executeQuery(query)).numAffectedRows ?? 0n);
  }
}
