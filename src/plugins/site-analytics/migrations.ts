import type { Kysely, Migration } from 'kysely';

/**
 * `site_analytics_views`: one counter per day (the site's calendar), path and referrer class,
 * incremented by each page view; no row per visit, no visitor identifier of any kind.
 */
const createViews: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('site_analytics_views')
      .addColumn('day', 'varchar(10)', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('referrer_class', 'varchar(16)', (c) => c.notNull())
      .addColumn('views', 'integer', (c) => c.notNull())
      // reports read ranges of days: the key starts with the day
      .addPrimaryKeyConstraint('site_analytics_views_key', ['day', 'path', 'referrer_class'])
      .execute();
  },
};

export const migrations: Record<string, Migration> = { '001-views': createViews };
