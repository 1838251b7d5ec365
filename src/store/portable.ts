import type { CreateTableBuilder, Kysely } from 'kysely';
import { kysely } from './kysely.ts';

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
