import type { Kysely } from 'kysely';
import { editorType, type PostTypeInfo } from '../../core/content-types.ts';
import { definePlugin, type PluginDefinition } from '../../core/plugin.ts';
import { migrations } from './migrations.ts';
import { DesignLibraryRepo, type DesignLibraryTables } from './repo.ts';
import { DEFAULTS, hostsOf } from './settings.ts';

/**
 * Kadence's design library (kb-design-library/v1) and starter library
 * (designkit-starter-library/v1) as one plugin, since they are one set of pieces: catalogues from
 * the library services cached in the store, AI content jobs, stock images imported into the media
 * library, editor events kept and forwarded, and, for the starter library, whole starter sites
 * imported into this one and removed again.
 */
/** A post type of a starter's content: title, content, excerpt and a featured image. */
const starterType = (slug: string, name: string, singular: string): PostTypeInfo => ({ ...editorType(slug, name, singular), supports: ['title', 'editor', 'excerpt', 'thumbnail', 'revisions'] });

export const designLibrary: PluginDefinition<DesignLibraryRepo> = definePlugin({
  name: 'design-library',
  title: 'Design Library',
  version: '1.0.0',
  description: 'Patterns, pages and starter sites from Kadence’s libraries (or your own Kadence Cloud), with AI-written content and stock images imported into the media library.',
  author: 'cms-spec',
  namespaces: ['kb-design-library/v1', 'designkit-starter-library/v1'],
  migrations,
  repo: (db) => new DesignLibraryRepo(db as Kysely<DesignLibraryTables>),
  settings: DEFAULTS,
  // what a starter site's shop, events, courses and donation forms are imported as (handlers/starter.ts)
  postTypes: [
    starterType('designkit_product', 'Products', 'Product'),
    starterType('designkit_event', 'Events', 'Event'),
    starterType('designkit_course', 'Courses', 'Course'),
    starterType('designkit_donation', 'Donation Forms', 'Donation Form'),
  ],
  // an expired catalogue is asked for again on its next use; meanwhile it only takes room
  jobs: [{ hook: 'design_library_purge_expired_cache', interval: 86400, run: async ({ store }) => void (await store.plugin(designLibrary).answers.purgeExpired()) }],
  // the AI jobs are not a cache: their content was paid for in credits (the reset route forgets them)
  caches: [{ entry: 'cached design library answer', flush: (store) => store.plugin(designLibrary).answers.clear() }],
  outbound: { hosts: hostsOf },
});

export default designLibrary;
