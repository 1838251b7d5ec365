import type { Kysely, Migration } from 'kysely';
import { tableNames } from '../../store/portable.ts';

const TABLE = 'oembed_cache';

/**
 * Proxied oEmbed answers, as WordPress keeps them in `oembed_<md5>` transients. A database from
 * before the plugin boundary has this table already (core migration 005 made it, under the same
 * name): it is kept, with what it caches.
 */
const createCache: Migration = {
  async up(db: Kysely<any>) {
    if ((await tableNames(db)).includes(TABLE)) return;
    await db.schema
      .createTable(TABLE)
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('data', 'text', (c) => c.notNull())
      // milliseconds since the epoch; a bigint so PostgreSQL keeps it too
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oembed_cache_expires').on(TABLE).column('expires_at').execute();
  },
};

export const migrations: Record<string, Migration> = { '001-cache-table': createCache };
