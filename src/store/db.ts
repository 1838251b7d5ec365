import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { kysely } from './kysely.ts';
import type { DB } from './schema.ts';
import { migrations } from './migrations/index.ts';

/**
 * Opens (creating if needed) the embedded SQLite database and brings its schema up to date.
 * WAL lets readers run beside the single writer; synchronous=FULL makes every acknowledged
 * commit durable, which the crash test relies on.
 */
export async function openDatabase(path: string): Promise<Kysely<DB>> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new kysely.Kysely<DB>({ dialect: new kysely.SqliteDialect({ database: sqlite }) });
  const migrator = new kysely.Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return db;
}
