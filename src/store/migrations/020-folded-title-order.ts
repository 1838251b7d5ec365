import type { Kysely } from 'kysely';
import { sql } from '../kysely.ts';
import { isPostgres } from '../portable.ts';
import { TITLE_PREFIX } from '../post-rows.ts';
import { foldedOrder } from '../transact.ts';

/**
 * Titles sort as WordPress's MySQL collation sorts them, case folded (`apple` before `Banana`,
 * `_under` after `Zebra`), where migrations 009 and 017 indexed them in byte order: the list index
 * by title is made again on the folded prefix the store now orders by (transact.ts `foldedOrder`),
 * within a type and status, ending with the whole title and the id on SQLite, which can index them
 * whole. The index serves only while foldedOrder writes the same expression: a change to it needs
 * a migration of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const folded = foldedOrder(db, TITLE_PREFIX);
  if (isPostgres(db)) {
    await db.schema.dropIndex('posts_type_status_title').execute();
    await sql`create index posts_list_title_folded on posts (type, status, (${folded}))`.execute(db);
  } else {
    await db.schema.dropIndex('posts_list_title').execute();
    await sql`create index posts_list_title_folded on posts (type, status, ${folded}, title, id)`.execute(db);
  }
}
