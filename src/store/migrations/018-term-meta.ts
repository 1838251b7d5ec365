import type { Kysely } from 'kysely';
import { addIdColumn } from '../portable.ts';

/** Term meta (wp_termmeta): what a WordPress export carries for its terms, kept as post meta is. */
export async function up(db: Kysely<any>): Promise<void> {
  await addIdColumn(db.schema.createTable('term_meta'), db)
    .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('term_meta_term_key').on('term_meta').columns(['term_id', 'key']).execute();
}
