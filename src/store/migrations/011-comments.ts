import type { Kysely } from 'kysely';
import { addIdColumn } from '../portable.ts';

/**
 * Comments and their meta, as WordPress keeps them (wp_comments, wp_commentmeta). `approved` holds
 * comment_approved's values: '1', '0', 'spam', 'trash', 'post-trashed'. No foreign key on `post`:
 * WordPress keeps comments of post 0 (and the store removes a deleted post's comments itself).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addIdColumn(db.schema.createTable('comments'), db)
    .addColumn('post', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('author', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('author_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('author_email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('author_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('author_ip', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('author_user_agent', 'text', (c) => c.notNull().defaultTo(''))
    // 'YYYY-MM-DD HH:MM:SS', site-local and GMT, as posts keep theirs
    .addColumn('date', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('karma', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('approved', 'varchar(20)', (c) => c.notNull().defaultTo('1'))
    .addColumn('type', 'varchar(20)', (c) => c.notNull().defaultTo('comment'))
    .execute();
  // a post's approved comments by date (the site's thread, comment_count), replies of a comment,
  // the newest comments of a status (the REST list, the comments feed), and the flood check's lookups
  await db.schema.createIndex('comments_post_approved_date').on('comments').columns(['post', 'approved', 'date_gmt']).execute();
  await db.schema.createIndex('comments_parent').on('comments').columns(['parent']).execute();
  await db.schema.createIndex('comments_approved_date').on('comments').columns(['approved', 'date_gmt']).execute();
  await db.schema.createIndex('comments_author').on('comments').columns(['author', 'date_gmt']).execute();
  await db.schema.createIndex('comments_author_ip').on('comments').columns(['author_ip', 'date_gmt']).execute();
  await db.schema.createIndex('comments_author_email').on('comments').columns(['author_email', 'date_gmt']).execute();
  await addIdColumn(db.schema.createTable('comment_meta'), db)
    .addColumn('comment_id', 'integer', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comment_meta_comment_key').on('comment_meta').columns(['comment_id', 'key']).execute();
}
