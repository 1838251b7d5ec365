import type { Kysely } from 'kysely';

/**
 * A post's revisions and autosaves (posts of type `revision` whose parent is the post), newest
 * first: counted for every post a list shows (its version-history link), looked up on every
 * update (is the post different from its latest revision?) and listed by date. Without it a
 * lookup by parent would walk every revision of the site through the type and status index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('posts_parent_type_status_date').on('posts').columns(['parent', 'type', 'status', 'date']).execute();
}
