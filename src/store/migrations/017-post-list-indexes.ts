import type { Kysely } from 'kysely';
import { sql } from '../kysely.ts';
import { isPostgres } from '../portable.ts';

/**
 * An index for each order a post collection offers (orderby date, modified, menu_order, slug, id,
 * author, parent, title), within a type and status, ending with the id that breaks ties, so a
 * page is read in order from the index (a deep page walks index entries, never sorts the type's
 * posts): without them, orderby=slug or title sorted every post of the type (25 and 36 ms for a
 * page of 10,000 posts on SQLite), and PostgreSQL sorted a deep page by date (42 ms at offset
 * 5,000). The date, modified and menu_order indexes of migrations 002 and 009 lacked the id
 * (SQLite ends every index with it, PostgreSQL does not); their successors replace them.
 * Slugs are ordered in byte order on both databases (PostgreSQL's "C" collation, SQLite's own).
 * A whole title cannot be indexed on PostgreSQL (an index entry is limited to about 2.7 KB), so
 * there the title order keeps the 191-character prefix of migration 009; SQLite takes the whole.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const listIndex = (name: string, column: ReturnType<typeof sql>) => sql`create index ${sql.id(name)} on posts (type, status, ${column}, id)`.execute(db);
  for (const column of ['date', 'modified', 'menu_order', 'author', 'parent']) await listIndex(`posts_list_${column}`, sql.ref(column));
  await listIndex('posts_list_slug', pg ? sql`(slug collate "C")` : sql.ref('slug'));
  await sql`create index posts_list_id on posts (type, status, id)`.execute(db);
  for (const superseded of ['posts_type_status_date', 'posts_type_status_modified', 'posts_type_status_menu_order']) await db.schema.dropIndex(superseded).execute();
  if (!pg) {
    await db.schema.dropIndex('posts_type_status_title').execute();
    await sql`create index posts_list_title on posts (type, status, substr(title, 1, 191), title, id)`.execute(db);
  }
}
