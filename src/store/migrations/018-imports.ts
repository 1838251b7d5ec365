import type { Kysely } from 'kysely';
import { addIdColumn } from '../portable.ts';

/**
 * What importing a WordPress site needs: term meta (wp_termmeta, which a WordPress export carries
 * for its terms), kept as the other meta are; and an index for WordPress's post_exists (a post of
 * the type at the date), which the import asks of every item so a second run adds nothing twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await addIdColumn(db.schema.createTable('term_meta'), db)
    .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('term_meta_term_key').on('term_meta').columns(['term_id', 'key']).execute();
  await db.schema.createIndex('posts_type_date').on('posts').columns(['type', 'date']).execute();
}
