import type { Kysely } from 'kysely';

/** Proxied oEmbed answers, as WordPress keeps them in `oembed_<md5>` transients. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oembed_cache')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    // milliseconds since the epoch; a bigint so PostgreSQL keeps it too
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oembed_cache_expires').on('oembed_cache').column('expires_at').execute();
}
