import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { DatabaseIntrospector, Driver, Kysely, KyselyPlugin, Migrator, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, SqliteDatabase, UnknownRow, ValueNode } from 'kysely';
import { kysely, sql } from './kysely.ts';
import type { DB } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { PostgresAsSqlitePlugin } from './postgres-plugin.ts';
import { PostgresDriver } from './postgres-driver.ts';
import { SiteSchemaIntrospector } from './postgres-introspector.ts';
import { isPostgres } from './portable.ts';
import { attachReadCache, ReadCache } from './read-cache.ts';
import { GroupCommit } from './group-commit.ts';
import { SyncThread } from './sync-thread.ts';
import { attachTableVersions, TableVersions } from './table-versions.ts';
import { WalIndexHeader } from './wal-index.ts';

export interface DatabaseOptions {
  /** Connections a PostgreSQL pool keeps at most (ignored for SQLite, which has one). */
  poolSize?: number;
  /**
   * SQLite: commit without waiting for the disk, and make commits durable in groups for whoever
   * awaits `durableWrites(db)` (the server, before it answers a write). Without it every commit
   * waits for its own sync (`synchronous = FULL`), as a CLI command or a script wants.
   * PostgreSQL groups concurrent commits into one WAL flush itself: nothing changes there.
   */
  groupCommit?: boolean;
}

/** True for a location that names a PostgreSQL database (`postgres://user@host:port/db`). */
export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);

/** A location as a person may print it: a PostgreSQL URL without its password. */
export function describeLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  const u = new URL(location);
  if (u.password) u.password = '***';
  return u.href;
}

/**
 * A database that does not answer, refuses the connection or its credentials, or names no schema:
 * the message names it as a person may print it (no password) and says what went wrong.
 */
export class DatabaseUnreachableError extends Error {
  constructor(location: string, reason: string) {
    super(`Cannot reach the database ${describeLocation(location)}: ${reason}. Check that PostgreSQL is running there and that the URL's user, password and database are right.`);
  }
}

/**
 * Opens the site's database and brings the core's schema up to date: embedded SQLite for a file
 * path (or `:memory:`), PostgreSQL for a `postgres://` URL. The same migrations run on both.
 */
export async function openDatabase(location: string, o: DatabaseOptions = {}): Promise<Kysely<DB>> {
  const db = await connectDatabase(location, o);
  try {
    await migrateCore(db);
    // a database analyzed before this was done keeps its samples until now
    await withoutSampledStatistics(db);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  return db;
}

/**
 * Drops SQLite's sampled statistics (`sqlite_stat4`, which ANALYZE writes when SQLite is built
 * with them, as better-sqlite3's is) and keeps the per-index averages (`sqlite_stat1`). With
 * samples, a statement comparing a bound value with an indexed column is prepared again at every
 * run, as SQLite may plan it anew for the value: a count by an index took 22 µs instead of 4.4 µs,
 * a slug check 27 instead of 4.3 (measured on a 2,000-post site); the averages pick the same
 * indexes for this store's queries. Nothing on PostgreSQL.
 */
export async function withoutSampledStatistics(db: Kysely<DB>): Promise<void> {
  if (isPostgres(db)) return;
  const { rows } = await sql`select 1 from sqlite_master where name = 'sqlite_stat4'`.execute(db);
  if (!rows.length || !(await sql`select 1 from sqlite_stat4 limit 1`.execute(db)).rows.length) return;
  await sql`delete from sqlite_stat4`.execute(db);
  // the statistics are read with the schema: this reads them again
  await sql`analyze sqlite_schema`.execute(db);
}

/** Opens the database without migrating it; a PostgreSQL that cannot be reached throws DatabaseUnreachableError. */
export async function connectDatabase(location: string, o: DatabaseOptions = {}): Promise<Kysely<DB>> {
  if (!isPostgresUrl(location)) return openSqlite(location, o.groupCommit ?? false);
  const db = openPostgres(location, o);
  let schema: string | null;
  try {
    schema = await currentSchema(db);
  } catch (e) {
    await db.destroy();
    const code = (e as { code?: string }).code;
    throw new DatabaseUnreachableError(location, (code && CONNECTION_FAILURES[code]) || (e instanceof Error ? e.message : String(e)));
  }
  if (schema === null) {
    await db.destroy();
    throw new DatabaseUnreachableError(location, 'its search_path names no schema that exists');
  }
  return db;
}

/** What a failed connection means, by socket error code; PostgreSQL's own refusals (no such database or role, bad password) say it in their message. */
const CONNECTION_FAILURES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing accepts connections there',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name does not resolve',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'its host cannot be reached',
};

/** The schema a PostgreSQL connection works in (null when its search_path names none that exists). */
const currentSchema = async (db: Kysely<any>) => (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0].schema;

/** kysely's record of the core's migrations, in the schema the site lives in. */
async function coreMigrator(db: Kysely<any>): Promise<Migrator> {
  // kysely looks for its migration tables in every schema it can see; on PostgreSQL, name the one this site lives in
  const migrationTableSchema = isPostgres(db) ? ((await currentSchema(db)) ?? undefined) : undefined;
  return new kysely.Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema });
}

/** The core's migrations, by name in the order they run. */
export const coreMigrationNames = (): string[] => Object.keys(migrations).sort();

/** The core's migrations the database has run, in order (none on a new database). */
export async function coreMigrationsRun(db: Kysely<any>): Promise<string[]> {
  return (await (await coreMigrator(db)).getMigrations()).filter((m) => m.executedAt).map((m) => m.name);
}

/**
 * Runs the core's migrations not run yet, all of them or up to and including `upTo`; returns the
 * names it ran. `upTo` must not be behind what has run (the migrations have no way down).
 */
export async function migrateCore(db: Kysely<DB>, upTo?: string): Promise<string[]> {
  const migrator = await coreMigrator(db);
  const { error, results } = upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(upTo);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * WAL lets readers run beside the single writer. Every acknowledged commit is durable, which the
 * crash test relies on: with synchronous=FULL each commit syncs the WAL itself; with group commit
 * (synchronous=NORMAL) the commits are counted as they happen and synced together by GroupCommit,
 * and whoever acknowledges a write first awaits `durableWrites(db)`.
 */
async function openSqlite(path: string, groupCommit: boolean): Promise<Kysely<DB>> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  // loaded here: a site on PostgreSQL never needs the SQLite binding
  const { default: Database } = await import('better-sqlite3');
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  // a database in memory has nothing to sync; the WAL's path is fixed now, whatever the working directory becomes
  const wal = groupCommit && path !== ':memory:' ? `${resolve(path)}-wal` : undefined;
  // the WAL's syncs run on a thread of their own, never queued behind the libuv pool's work
  const syncs = wal === undefined ? undefined : new SyncThread();
  const group = wal === undefined ? undefined : new GroupCommit(() => syncs!.sync(wal, resolve(path)));
  sqlite.pragma(group ? 'synchronous = NORMAL' : 'synchronous = FULL');
  // the sync thread checkpoints the WAL (sync-thread.ts); SQLite's own checkpoint, on the committing
  // call in the event loop with two syncs of its own, stays only as the backstop should it fall behind
  if (group) sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const versions = new TableVersions('sqlite');
  const readCache = new ReadCache();
  versions.onWritten((tables) => readCache.wrote(tables));
  const walIndex = path === ':memory:' ? undefined : new WalIndexHeader(`${resolve(path)}-shm`);
  const db = new kysely.Kysely<DB>({ dialect: versions.wrap(new kysely.SqliteDialect({ database: reusingStatements(sqlite, group, syncs, walIndex) })), plugins: [new LimitInText()] });
  attachReadCache(db, readCache);
  attachTableVersions(db, versions);
  if (walIndex) walIndexes.set(db, walIndex);
  else inMemory.add(db);
  if (group) groupCommits.set(db, group);
  return db;
}

/** SQLite's automatic checkpoint under group commit: ten times the size at which the sync thread checkpoints. */
const BACKSTOP_CHECKPOINT_PAGES = 10_000;

/** The wal-index header of each SQLite file database opened here, by its Kysely instance. */
const walIndexes = new WeakMap<object, WalIndexHeader>();

/** The wal-index header of a SQLite database's file; undefined in memory, on PostgreSQL, or for a transaction's Kysely. */
export const walIndexOf = (db: Kysely<DB>): WalIndexHeader | undefined => walIndexes.get(db);

/** The SQLite databases opened in memory: each is its one connection's alone, which no other process can write. */
const inMemory = new WeakSet<object>();

export const isSqliteInMemory = (db: Kysely<DB>): boolean => inMemory.has(db);

/** The group commit of each SQLite database opened with one, by its Kysely instance. */
const groupCommits = new WeakMap<object, GroupCommit>();

/**
 * Settles once every commit made so far on `db` is durable; undefined when each already is (a
 * database without group commit, PostgreSQL, or nothing committed since the last sync).
 */
export const durableWrites = (db: Kysely<DB>): Promise<void> | undefined => groupCommits.get(db)?.durable();

/** Compiled statements kept per connection: enough for every query shape a request path uses. */
const KEPT_STATEMENTS = 500;

/**
 * kysely prepares every query it runs, and better-sqlite3 compiles each prepare anew (about 40 µs,
 * a quarter of a posts list's time in SQLite). The statements are kept by their text, the least
 * recently used dropped past KEPT_STATEMENTS (lists of ids give texts of many lengths); one still
 * being iterated is not handed out twice.
 */
function reusingStatements(sqlite: BetterSqlite3.Database, group: GroupCommit | undefined, syncs: SyncThread | undefined, walIndex: WalIndexHeader | undefined): SqliteDatabase {
  const kept = new Map<string, SqliteStatement>();
  return {
    close: () => {
      sqlite.close();
      walIndex?.close();
      // idle by now (the store syncs before it closes), and holding nothing open
      void syncs?.close();
    },
    prepare(text) {
      const found = kept.get(text);
      if (found && !found.busy) {
        kept.delete(text);
        kept.set(text, found);
        return found;
      }
      const compiled = sqlite.prepare(text);
      const read = compiled.reader ? rowsMadeInJs(compiled) : compiled;
      const statement = group && mayCommit(compiled) ? countingCommits(read, sqlite, group) : read;
      kept.set(text, statement);
      if (kept.size > KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
      return statement;
    },
  };
}

/** What kysely's SQLite driver uses of a statement (and `busy`, which reusingStatements reads). */
type SqliteStatement = Pick<BetterSqlite3.Statement, 'reader' | 'busy' | 'all' | 'run' | 'iterate'>;

/**
 * A statement that returns rows, giving them as objects made by a function made for its columns:
 * better-sqlite3 sets an object's properties one by one from C++, and a row of a post's 21 head
 * columns took twice as long as its values read as an array and made into an object by a literal
 * (ten rows: 84 µs against 41 µs, best of 15 runs each). Made once per statement text, kept with
 * the statement. A literal sets what better-sqlite3 sets, a column named `__proto__` included
 * (`test/store/sqlite-statements.test.ts`).
 */
function rowsMadeInJs(statement: BetterSqlite3.Statement): SqliteStatement {
  const names = statement.columns().map((c) => c.name);
  // a literal of the names, quoted as JSON (a name is any text), each taking its place in the array
  const row = new Function('values', `return { ${names.map((n, i) => `${JSON.stringify(n)}: values[${i}]`).join(', ')} };`) as (values: unknown[]) => unknown;
  const raw = statement.raw(true);
  return {
    reader: true,
    get busy() {
      return raw.busy;
    },
    all: (...params: unknown[]) => (raw.all(...params) as unknown[][]).map(row),
    run: (...params: unknown[]) => raw.run(...params),
    *iterate(...params: unknown[]) {
      for (const values of raw.iterate(...params) as IterableIterator<unknown[]>) yield row(values);
    },
  } as SqliteStatement;
}

/**
 * Writes a query's LIMIT into its text on SQLite: with its LIMIT bound, SQLite (3.53) prepares a
 * statement again at every run (a page of ten ids: 30 µs bound, 11 µs with the number in the text,
 * measured), and a query's limits take few values (the page sizes asked), so the kept statements
 * (`reusingStatements`) hold few texts more. Only a SELECT's own LIMIT; a subquery's stays bound.
 */
class LimitInText implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (node.kind !== 'SelectQueryNode' || node.limit?.limit.kind !== 'ValueNode') return node;
    const { value } = node.limit.limit as ValueNode;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return node;
    return { ...node, limit: kysely.LimitNode.create(kysely.ValueNode.createImmediate(value)) };
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

/** Transaction control that ends a transaction: SQLite calls these read-only, as they write nothing themselves. */
const ENDS_TRANSACTION = /^\s*(commit|end|release)\b/i;

/** Whether running a statement may commit: one that writes (in autocommit mode, its own commit), or one that ends a transaction. */
const mayCommit = (s: BetterSqlite3.Statement) => !s.readonly || ENDS_TRANSACTION.test(s.source);

/**
 * A statement that tells the group commit each time it returns outside a transaction, i.e. just
 * after the commit it made or ended (a statement that failed made none). Counting at the very
 * moment, before anything else runs, is what lets a sync that begins later count it as covered.
 */
function countingCommits(statement: SqliteStatement, sqlite: BetterSqlite3.Database, group: GroupCommit): SqliteStatement {
  const after = <T>(result: T): T => {
    if (!sqlite.inTransaction) group.committed();
    return result;
  };
  return {
    get reader() {
      return statement.reader;
    },
    get busy() {
      return statement.busy;
    },
    all: (...params: unknown[]) => after(statement.all(...params)),
    run: (...params: unknown[]) => after(statement.run(...params)),
    *iterate(...params: unknown[]) {
      // counted however the iteration ends (a reader that stops early ends it too)
      try {
        yield* statement.iterate(...params);
      } finally {
        after(undefined);
      }
    },
  } as SqliteStatement;
}

type Pg = typeof import('pg');
let pgModule: Pg | undefined;

/** node-postgres, loaded on first use, with 64-bit integers (counts, millisecond times) read as numbers, as SQLite gives them. */
function pg(): Pg {
  if (!pgModule) {
    pgModule = createRequire(import.meta.url)('pg') as Pg;
    const asNumber = (v: string) => Number(v);
    pgModule.types.setTypeParser(pgModule.types.builtins.INT8, asNumber);
    pgModule.types.setTypeParser(pgModule.types.builtins.NUMERIC, asNumber);
  }
  return pgModule;
}

/** kysely's PostgreSQL dialect with this store's driver (postgres-driver.ts), whose introspection (used by its migrator) sees the site's schema only. */
class SitePostgresDialect extends kysely.PostgresDialect {
  constructor(private readonly pool: import('pg').Pool) {
    super({ pool });
  }

  override createDriver(): Driver {
    return new PostgresDriver(this.pool);
  }

  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SiteSchemaIntrospector(db);
  }
}

function openPostgres(url: string, o: DatabaseOptions): Kysely<DB> {
  const { Pool } = pg();
  // a host that drops packets must fail the start (or the request) rather than hang it
  const pool = new Pool({ connectionString: url, max: o.poolSize ?? 10, connectionTimeoutMillis: 10_000 });
  // an idle client that loses its connection must not take the process down; the next query reconnects
  pool.on('error', () => {});
  const versions = new TableVersions('postgres');
  const readCache = new ReadCache();
  // told after the commit: the pool's other connections read the rows as they were until then
  versions.onWritten((tables) => readCache.wrote(tables));
  const db = new kysely.Kysely<DB>({ dialect: versions.wrap(new SitePostgresDialect(pool)), plugins: [new PostgresAsSqlitePlugin()] });
  attachReadCache(db, readCache);
  attachTableVersions(db, versions);
  return db;
}
