import type { Kysely, Migration } from 'kysely';
import { addIdColumn, tableNames } from '../../store/portable.ts';

const TABLE = 'code_snippets';
/** The table's name from before snippets became a plugin (core migration 004 made it). */
const OLD_TABLE = 'snippets';

/**
 * Code Snippets' own table (wp_snippets): one row per snippet, tags kept as the plugin keeps them,
 * comma-separated. A database from before the plugin boundary has the same table under its old
 * name: it is renamed, snippets and all.
 */
const createTable: Migration = {
  async up(db: Kysely<any>) {
    if ((await tableNames(db)).includes(OLD_TABLE)) {
      await db.schema.dropIndex('snippets_active_priority').ifExists().execute();
      await db.schema.alterTable(OLD_TABLE).renameTo(TABLE).execute();
    } else {
      await addIdColumn(db.schema.createTable(TABLE), db)
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
    }
    // the rendered site loads the active snippets in execution order
    await db.schema.createIndex('code_snippets_active_priority').on(TABLE).columns(['active', 'priority', 'id']).execute();
  },
};

export const migrations: Record<string, Migration> = { '001-snippets-table': createTable };
