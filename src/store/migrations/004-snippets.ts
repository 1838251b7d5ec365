import type { Kysely } from 'kysely';

/** Code Snippets' own table (wp_snippets): one row per snippet, tags kept as the plugin keeps them, comma-separated. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('snippets')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('scope', 'varchar(15)', (c) => c.notNull().defaultTo('global'))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('network', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shared_network', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON `[message, line]` of the last failed validation, null when the code passed
    .addColumn('code_error', 'text')
    // 'YYYY-MM-DDTHH:MM:SSZ' UTC
    .addColumn('modified', 'varchar(20)', (c) => c.notNull())
    .execute();
  // the rendered site loads the active snippets in execution order
  await db.schema.createIndex('snippets_active_priority').on('snippets').columns(['active', 'priority', 'id']).execute();
}
