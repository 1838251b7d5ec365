import type { Kysely } from 'kysely';

/**
 * The scheduler's recurring events (WordPress keeps them in its `cron` option): one row per hook,
 * with its interval and when it runs next, claimed by the instance that runs it (see
 * src/store/cron.ts). Scheduled posts need no row: their date is their schedule, found through
 * the index on (status, date_gmt), which also finds old auto-drafts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cron_events')
    .addColumn('hook', 'varchar(191)', (c) => c.primaryKey())
    // seconds between runs
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    // unix seconds, as WordPress's cron timestamps
    .addColumn('next_run', 'bigint', (c) => c.notNull())
    .addColumn('last_run', 'bigint')
    .execute();
  await db.schema.createIndex('posts_status_date_gmt').on('posts').columns(['status', 'date_gmt']).execute();
}
