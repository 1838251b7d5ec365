import type { Kysely } from 'kysely';
import { definePlugin, type PluginDefinition } from '../../core/plugin.ts';
import { registerSeoCommands } from './cli.ts';
import { indexInBackground } from './indexing.ts';
import { migrations } from './migrations.ts';
import { SeoRepo, type SeoTables } from './repo.ts';
import { PLUGIN_VERSION, POST_META, SETTINGS } from './settings.ts';
import { seoSiteHooks } from './site.ts';
import { headFields } from './rest-fields.ts';

/**
 * SEO (Yoast SEO's role), served at seo/v1 (spec/namespaces/seo.yaml): indexables of every post,
 * term, archive and general page with their SEO and readability analysis and link counts, the
 * head of every page (title templates, robots, canonical, Open Graph, X, schema.org graph) on the
 * rendered site and through get_head, the dashboards' scores, the first-time configuration and the
 * plugin's per-user state, and the remote integrations (AI suggestions, keyword research, rank
 * tracking, search metrics: integrations/). `cms-spec seo index` indexes the whole site.
 */
export const seo: PluginDefinition<SeoRepo> = definePlugin({
  name: 'seo',
  title: 'SEO',
  version: PLUGIN_VERSION,
  description: 'Indexables, SEO and readability analysis, link counts, the head of every page with its schema.org graph, and the site’s search appearance settings.',
  namespaces: ['seo/v1'],
  migrations,
  repo: (db) => new SeoRepo(db as Kysely<SeoTables>),
  settings: SETTINGS,
  capabilities: {
    administrator: ['wpseo_manage_options', 'wpseo_bulk_edit', 'wpseo_edit_advanced_metadata'],
    editor: ['wpseo_bulk_edit'],
  },
  postMeta: POST_META,
  restFields: [headFields],
  site: seoSiteHooks(),
  async onContentChange(event, store) {
    const repo = store.plugin(seo);
    // a saved object is indexed again (and its links read again) by the next indexing run
    if ('postId' in event) await (event.type === 'postSaved' ? repo.markStale('post', event.postId) : repo.deleteObject('post', event.postId));
    else await (event.type === 'termSaved' ? repo.markStale('term', event.termId) : repo.deleteObject('term', event.termId));
  },
  // Yoast's Background_Indexing_Integration: what was saved since is indexed a batch at a time
  jobs: [{ hook: 'wpseo_indexable_index_batch', interval: 15 * 60, run: ({ store, site }) => indexInBackground(store, site, (s) => s.plugin(seo)) }],
  caches: [
    { entry: 'stored SEO dashboard answer', flush: (store) => store.plugin(seo).dashboards.clear() },
    { entry: 'remote SEO service answer', flush: (store) => store.plugin(seo).remote.clear() },
  ],
  cli: (cli) => registerSeoCommands(cli, (store) => store.plugin(seo)),
  outbound: { hosts: (options) => serviceHosts(options) },
});

/** The hosts of the remote services whose base URLs are set. */
function serviceHosts(options: Readonly<Record<string, string>>): string[] {
  const urls = Object.keys(options).filter((name) => name.endsWith('_base_url') && options[name]);
  const hosts = new Set<string>();
  for (const name of urls) {
    try {
      const u = new URL(options[name]);
      hosts.add(u.protocol === 'https:' && !u.port ? u.hostname : u.origin);
    } catch {
      // a base URL that is not one is reported when its service is called
    }
  }
  return [...hosts];
}

export default seo;
