import type { Kysely } from 'kysely';
import { sql } from '../kysely.ts';
import { isPostgres } from '../portable.ts';

/**
 * Indexes for the orders and filters block queries use on big sites (the page-builder plugins'
 * post queries): sticky posts first, newest first, and lists by title, modified date, menu order
 * and comment count, each within a type and status. The title is indexed by its first 191
 * characters: a whole title could pass PostgreSQL's limit on an index entry, and the store orders
 * by that prefix, then the whole title, in byte order (PostgreSQL's "C" collation, SQLite's own).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('posts_type_status_sticky_date').on('posts').columns(['type', 'status', 'sticky', 'date']).execute();
  await db.schema.createIndex('posts_type_status_modified').on('posts').columns(['type', 'status', 'modified']).execute();
  await db.schema.createIndex('posts_type_status_menu_order').on('posts').columns(['type', 'status', 'menu_order']).execute();
  await db.schema.createIndex('posts_type_status_comment_count').on('posts').columns(['type', 'status', 'comment_count']).execute();
  const titlePrefix = isPostgres(db) ? sql`(substr(title, 1, 191) collate "C")` : sql`substr(title, 1, 191)`;
  await sql`create index posts_type_status_title on posts (type, status, ${titlePrefix})`.execute(db);
}
