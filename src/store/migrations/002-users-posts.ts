import type { Kysely } from 'kysely';
import { addIdColumn } from '../portable.ts';

/** Users and posts of every type, as WordPress keeps them (wp_users, wp_usermeta, wp_posts, wp_postmeta). */
// Text people type (logins, names, addresses, post passwords) is `text`: SQLite never enforced the
// varchar lengths, and PostgreSQL would refuse what SQLite stored; WordPress's own limits are checked
// where it checks them (slugs cut to 200, logins to 60...).
export async function up(db: Kysely<any>): Promise<void> {
  await addIdColumn(db.schema.createTable('users'), db)
    .addColumn('login', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('nicename', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'varchar(50)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('registered', 'varchar(19)', (c) => c.notNull())
    .execute();
  await addIdColumn(db.schema.createTable('user_meta'), db)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_meta_user_key').on('user_meta').columns(['user_id', 'key']).execute();

  await addIdColumn(db.schema.createTable('posts'), db)
    .addColumn('author', 'integer', (c) => c.notNull().defaultTo(0))
    // dates as WordPress writes them: 'YYYY-MM-DD HH:MM:SS', site-local and GMT
    .addColumn('date', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('modified', 'varchar(19)', (c) => c.notNull())
    .addColumn('modified_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('publish'))
    .addColumn('comment_status', 'varchar(20)', (c) => c.notNull().defaultTo('open'))
    .addColumn('ping_status', 'varchar(20)', (c) => c.notNull().defaultTo('open'))
    .addColumn('password', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('slug', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('guid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('menu_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('type', 'varchar(20)', (c) => c.notNull().defaultTo('post'))
    .addColumn('mime_type', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('sticky', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('format', 'varchar(20)', (c) => c.notNull().defaultTo('standard'))
    .addColumn('template', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // lists sort on the site-local date as WP_Query does (post_date); the rowid (id) closes the index
  await db.schema.createIndex('posts_type_status_date').on('posts').columns(['type', 'status', 'date']).execute();
  await db.schema.createIndex('posts_sticky').on('posts').columns(['sticky', 'type', 'status']).execute();
  await db.schema.createIndex('posts_slug').on('posts').columns(['slug', 'type']).execute();
  await db.schema.createIndex('posts_author').on('posts').columns(['author', 'type', 'status']).execute();
  await db.schema.createIndex('posts_parent').on('posts').columns(['parent']).execute();
  await addIdColumn(db.schema.createTable('post_meta'), db)
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('post_meta_post_key').on('post_meta').columns(['post_id', 'key']).execute();
  await db.schema.createIndex('post_meta_key').on('post_meta').columns(['key']).execute();
}
