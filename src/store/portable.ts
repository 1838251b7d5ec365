import type { CreateTableBuilder, Kysely, SelectQueryBuilder } from 'kysely';
import { kysely, sql } from './kysely.ts';

/**
 * Schema pieces that differ between the two databases the store runs on (SQLite embedded,
 * PostgreSQL for scale-out), so that every migration, core or plugin, is written once.
 */

/** True when the connection is PostgreSQL's (false for SQLite). */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof kysely.PostgresAdapter;
}

/**
 * Adds an auto-numbered integer primary key: `integer primary key autoincrement` on SQLite,
 * `serial primary key` on PostgreSQL. Use it for every table's id.
 */
export function addIdColumn<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>, db: Kysely<any>, column = 'id'): CreateTableBuilder<TB, C | string> {
  return isPostgres(db) ? table.addColumn(column, 'serial', (c) => c.primaryKey()) : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * The tables of this database (on PostgreSQL: of the schema the site lives in, see
 * postgres-introspector.ts), without kysely's migration bookkeeping. Migrations that adopt or
 * check tables use it.
 */
export async function tableNames(db: Kysely<any>): Promise<string[]> {
  return (await db.introspection.getTables()).map((t) => t.name);
}

/**
 * Serialises writers that read-then-write under one key (a slug made unique among its siblings)
 * until the transaction ends: on PostgreSQL a transaction-scoped advisory lock, on SQLite nothing,
 * as its writers are serialised already. Call it inside a transaction. The key is written into
 * the statement: without parameters, a transaction's first statement travels with its begin in
 * one round trip (postgres-driver.ts).
 */
export async function lockUntilCommit(db: Kysely<any>, key: string): Promise<void> {
  if (isPostgres(db)) await sql`select pg_advisory_xact_lock(hashtext(${sql.lit(key)}))`.execute(db);
}

/** lockUntilCommit of each key, in one statement, in one order whoever asks (so two holders of several never wait on each other in a circle). */
export async function lockAllUntilCommit(db: Kysely<any>, keys: readonly string[]): Promise<void> {
  if (!keys.length || !isPostgres(db)) return;
  await sql`select pg_advisory_xact_lock(hashtext(k)) from unnest(${[...new Set(keys)].sort()}::text[]) as k`.execute(db);
}

/**
 * As lockUntilCommit, shared: holders of the shared lock do not wait for one another, only for
 * (and keep out) an exclusive holder. `thenExclusive` is a key locked as lockUntilCommit does
 * once the shared one is held, in the same statement (one round trip for the two).
 */
export async function shareLockUntilCommit(db: Kysely<any>, key: string, thenExclusive?: string): Promise<void> {
  if (!isPostgres(db)) return;
  if (thenExclusive === undefined) await sql`select pg_advisory_xact_lock_shared(hashtext(${sql.lit(key)}))`.execute(db);
  else await sql`select pg_advisory_xact_lock_shared(hashtext(${sql.lit(key)})), pg_advisory_xact_lock(hashtext(${sql.lit(thenExclusive)}))`.execute(db);
}

/**
 * A select that, inside a transaction on PostgreSQL, also holds the rows it reads until the
 * transaction ends (FOR UPDATE), so that a concurrent edit or delete of them waits instead of
 * interleaving (a trash after a delete would write meta for a post that is gone). SQLite's
 * writers take turns already, and outside a transaction a lock would end with the statement.
 */
export function forUpdate<DB, TB extends keyof DB, O>(db: Kysely<any>, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return db.isTransaction && isPostgres(db) ? query.forUpdate() : query;
}
