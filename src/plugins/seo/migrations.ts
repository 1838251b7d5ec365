import type { Kysely, Migration } from 'kysely';
import { addIdColumn } from '../../store/portable.ts';
import { META_KEYS } from './settings.ts';

/**
 * The plugin's tables, written once for SQLite and PostgreSQL:
 * - `seo_indexables` (Yoast's wp_yoast_indexable): one row per post, term, post-type archive and
 *   general page (home, search, 404, date archive), with its URL, overrides, scores and link counts;
 * - `seo_links` (wp_yoast_seo_links): the links found in each indexable's content;
 * - `seo_cache`: computed dashboard answers (statistics, scores), emptied whenever indexables change.
 * Dates are 'YYYY-MM-DD HH:MM:SS' UTC; booleans 0/1; analysis results JSON text.
 */
const createTables: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db.schema.createTable('seo_indexables'), db)
      .addColumn('object_type', 'varchar(32)', (c) => c.notNull())
      .addColumn('object_sub_type', 'varchar(64)')
      .addColumn('object_id', 'integer')
      .addColumn('permalink', 'text')
      .addColumn('author_id', 'integer')
      .addColumn('post_parent', 'integer')
      .addColumn('title', 'text')
      .addColumn('description', 'text')
      .addColumn('breadcrumb_title', 'text')
      .addColumn('post_status', 'varchar(20)')
      .addColumn('is_public', 'integer')
      .addColumn('is_protected', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('canonical', 'text')
      .addColumn('primary_focus_keyword', 'text')
      .addColumn('primary_focus_keyword_score', 'integer')
      .addColumn('readability_score', 'integer')
      .addColumn('seo_assessments', 'text')
      .addColumn('readability_assessments', 'text')
      .addColumn('is_cornerstone', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_robots_noindex', 'integer')
      .addColumn('is_robots_nofollow', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('open_graph_title', 'text')
      .addColumn('open_graph_description', 'text')
      .addColumn('open_graph_image', 'text')
      .addColumn('twitter_title', 'text')
      .addColumn('twitter_description', 'text')
      .addColumn('twitter_image', 'text')
      .addColumn('link_count', 'integer')
      .addColumn('external_link_count', 'integer')
      .addColumn('incoming_link_count', 'integer')
      .addColumn('estimated_reading_time_minutes', 'integer')
      .addColumn('is_stale', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('object_last_modified', 'varchar(19)')
      .addColumn('object_published_at', 'varchar(19)')
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    // indexing finds what is not indexed yet by object; the head and link targets are found by URL
    await db.schema.createIndex('seo_indexables_object').on('seo_indexables').columns(['object_type', 'object_id']).execute();
    await db.schema.createIndex('seo_indexables_permalink').on('seo_indexables').column('permalink').execute();
    await db.schema.createIndex('seo_indexables_links_pending').on('seo_indexables').columns(['object_type', 'link_count']).execute();

    await addIdColumn(db.schema.createTable('seo_links'), db)
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('indexable_id', 'integer', (c) => c.notNull())
      .addColumn('type', 'varchar(8)', (c) => c.notNull())
      .addColumn('target_indexable_id', 'integer')
      .addColumn('target_post_id', 'integer')
      .execute();
    await db.schema.createIndex('seo_links_source').on('seo_links').column('indexable_id').execute();
    await db.schema.createIndex('seo_links_target').on('seo_links').column('target_indexable_id').execute();

    await db.schema
      .createTable('seo_cache')
      .addColumn('key', 'varchar(191)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(19)', (c) => c.notNull())
      .execute();
  },
};

/**
 * The remote integrations' tables:
 * - `seo_remote_cache`: answers of the remote services kept for a while (related keyphrases for a
 *   day, the AI service's usage), apart from `seo_cache`, which every indexable change empties;
 * - `seo_ai_usage`: AI suggestion requests and tokens per month, user and kind (content or store
 *   products), which get_usage reports and the monthly limit is checked against.
 */
const createRemoteTables: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('seo_remote_cache')
      .addColumn('key', 'varchar(191)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('seo_ai_usage')
      .addColumn('month', 'varchar(7)', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('entity', 'varchar(16)', (c) => c.notNull())
      .addColumn('requests', 'integer', (c) => c.notNull())
      .addColumn('tokens', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('seo_ai_usage_key', ['month', 'entity', 'user_id'])
      .execute();
  },
};

/**
 * The posts' SEO meta under Yoast's own keys (`_yoast_wpseo_title`...), which earlier versions
 * kept as `_seo_title`...: a site's data lines up with a Yoast site's, in exports and imports.
 */
const yoastMetaKeys: Migration = {
  async up(db: Kysely<any>) {
    for (const key of META_KEYS) {
      const earlier = key.replace(/^_yoast_wpseo_/, '_seo_');
      await db.updateTable('post_meta').set({ key }).where('key', '=', earlier).execute();
    }
  },
};

export const migrations: Record<string, Migration> = { '001-indexables-links-cache': createTables, '002-remote-integrations': createRemoteTables, '003-yoast-meta-keys': yoastMetaKeys };
