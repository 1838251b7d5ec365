import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Kysely } from 'kysely';
import { kysely, sql } from './kysely.ts';
import type { DB } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { PostgresAsSqlitePlugin } from './postgres-plugin.ts';

export interface DatabaseOptions {
  /** Connections a PostgreSQL pool keeps at most (ignored for SQLite, which has one). */
  poolSize?: number;
}

/** Opening a database failed for a reason its owner can fix: unreachable, refused, not there, not a database. */
export class DatabaseOpenError extends Error {}

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
 * Opens the site's database and brings the core's schema up to date: embedded SQLite for a file
 * path (or `:memory:`), PostgreSQL for a `postgres://` URL. The same migrations run on both.
 */
export async function openDatabase(location: string, o: DatabaseOptions = {}): Promise<Kysely<DB>> {
  const postgres = isPostgresUrl(location);
  const db = postgres ? openPostgres(location, o) : await openSqlite(location);
  // kysely looks for its migration tables in every schema it can see; on PostgreSQL, name the one this site lives in
  const migrationTableSchema = postgres ? await currentSchema(db) : undefined;
  const migrator = new kysely.Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return db;
}

/**
 * WAL lets readers run beside the single writer; synchronous=FULL makes every acknowledged
 * commit durable, which the crash test relies on.
 */
async function openSqlite(path: string): Promise<Kysely<DB>> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  // loaded here: a site on PostgreSQL never needs the SQLite binding
  const { default: Database } = await import('better-sqlite3');
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new kysely.Kysely<DB>({ dialect: new kysely.SqliteDialect({ database: sqlite }) });
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

/** PostgreSQL's answers to a connection that its owner can fix, by SQLSTATE or socket error code. */
const CONNECTION_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections there (is PostgreSQL running?)',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name does not resolve',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'its host cannot be reached',
  '3D000': '', // database does not exist: PostgreSQL's own message says which
  '28000': '', // no such role / not allowed by pg_hba.conf
  '28P01': '', // password authentication failed
  '57P03': '', // the database system is starting up
  '53300': '', // too many connections
};

/** The schema the site lives in (the first of the URL's search_path that exists); a connection failure becomes a DatabaseOpenError. */
async function currentSchema(db: Kysely<DB>): Promise<string> {
  let schema: string | null;
  try {
    schema = (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0].schema;
  } catch (e) {
    await db.destroy();
    const code = (e as { code?: string }).code;
    const told = code === undefined ? undefined : CONNECTION_FAILURES[code];
    if (told === undefined) throw e;
    throw new DatabaseOpenError(told || (e as Error).message);
  }
  if (schema === null) {
    await db.destroy();
    throw new DatabaseOpenError('no schema of its search_path exists (create it first, or leave search_path out for public)');
  }
  return schema;
}

function openPostgres(url: string, o: DatabaseOptions): Kysely<DB> {
  const { Pool } = pg();
  // a host that drops packets must fail the start (or the request) rather than hang it
  const pool = new Pool({ connectionString: url, max: o.poolSize ?? 10, connectionTimeoutMillis: 10_000 });
  // an idle client that loses its connection must not take the process down; the next query reconnects
  pool.on('error', () => {});
  return new kysely.Kysely<DB>({ dialect: new kysely.PostgresDialect({ pool }), plugins: [new PostgresAsSqlitePlugin()] });
}
