import type { Kysely, Migration } from 'kysely';
import { addIdColumn } from '{{src}}/store/portable.ts';

/** The plugin's table; a migration runs once per site, when the plugin is first activated, in name order. */
const createItems: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db.schema.createTable('{{table}}'), db)
      .addColumn('title', 'text', (c) => c.notNull())
      .execute();
  },
};

export const migrations: Record<string, Migration> = { '001-items-table': createItems };
