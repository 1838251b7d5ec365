import type { Migration } from 'kysely';
import * as options from './001-options.ts';
import * as usersPosts from './002-users-posts.ts';
import * as terms from './003-terms.ts';
import * as appPasswords from './006-app-passwords.ts';
import * as pluginMigrations from './007-plugin-migrations.ts';
import * as sharedState from './008-shared-state.ts';
import * as postOrderIndexes from './009-post-order-indexes.ts';
import * as searchTrigrams from './010-search-trigrams.ts';
import * as cron from './016-cron.ts';
import * as postListIndexes from './017-post-list-indexes.ts';
import * as comments from './011-comments.ts';
import * as revisions from './012-revisions.ts';
import * as imports from './018-imports.ts';
import * as slugPrefixIndexes from './019-slug-prefix-indexes.ts';
import * as foldedTitleOrder from './020-folded-title-order.ts';

/**
 * 004 and 005 created the snippets and oEmbed cache tables before those moved into their plugins
 * (whose own first migrations now take the tables over). They stay here, doing nothing, because
 * a database that ran them must still find them: kysely refuses to migrate a database whose
 * recorded migrations are missing.
 */
const movedToPlugin: Migration = { up: async () => {} };

/** Every core migration, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '001-options': options,
  '002-users-posts': usersPosts,
  '003-terms': terms,
  '004-snippets': movedToPlugin,
  '005-oembed-cache': movedToPlugin,
  '006-app-passwords': appPasswords,
  '007-plugin-migrations': pluginMigrations,
  '008-shared-state': sharedState,
  '009-post-order-indexes': postOrderIndexes,
  '010-search-trigrams': searchTrigrams,
  '011-comments': comments,
  '012-revisions': revisions,
  '016-cron': cron,
  '017-post-list-indexes': postListIndexes,
  '018-imports': imports,
  '019-slug-prefix-indexes': slugPrefixIndexes,
  '020-folded-title-order': foldedTitleOrder,
};
