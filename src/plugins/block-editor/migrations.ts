import type { Kysely, Migration } from 'kysely';

/** URL details of fetched pages, as WordPress keeps them in `g_url_details_response_<md5>` site transients. */
const createCache: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('block_editor_url_details')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('data', 'text', (c) => c.notNull())
      // milliseconds since the epoch; a bigint so PostgreSQL keeps it too
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('block_editor_url_details_expires').on('block_editor_url_details').column('expires_at').execute();
  },
};

export const migrations: Record<string, Migration> = { '001-url-details-cache': createCache };
