import type { Kysely } from 'kysely';
import { addIdColumn } from '../portable.ts';

/**
 * Terms of every taxonomy (WordPress's wp_terms + wp_term_taxonomy folded into one row: the REST
 * interface only ever sees a term with its taxonomy) and which posts carry them. `count` is kept
 * by the store: the published posts carrying the term, as _update_post_term_count keeps it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addIdColumn(db.schema.createTable('terms'), db)
    .addColumn('taxonomy', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('term_group', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('terms_taxonomy_slug').on('terms').columns(['taxonomy', 'slug']).unique().execute();
  await db.schema.createIndex('terms_taxonomy_name').on('terms').columns(['taxonomy', 'name']).execute();
  await db.schema.createIndex('terms_taxonomy_parent').on('terms').columns(['taxonomy', 'parent']).execute();
  await db.schema
    .createTable('term_relationships')
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
    .addColumn('term_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('term_relationships_pk', ['post_id', 'term_id'])
    .execute();
  await db.schema.createIndex('term_relationships_term_post').on('term_relationships').columns(['term_id', 'post_id']).execute();
}
