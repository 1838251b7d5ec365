import { definePlugin, type PluginDefinition } from '../../core/plugin.ts';
import { oembedDiscoveryLinks } from './discovery-links.ts';
import { migrations } from './migrations.ts';
import { providerHosts } from '../../core/oembed/providers.ts';
import type { ExpiringCache } from '../../store/expiring-cache.ts';
import { oembedCache } from './repo.ts';

/**
 * oEmbed (WordPress core's WP_REST_oEmbed_Controller, served at oembed/1.0): embed data for this
 * site's posts and pages, a proxy to the providers' endpoints with a cache, and the discovery
 * links in the head of every post and page.
 */
export const oembed: PluginDefinition<ExpiringCache> = definePlugin({
  name: 'oembed',
  title: 'oEmbed',
  version: '1.0.0',
  description: 'Embeds this site’s posts elsewhere, and other sites’ media here, through oEmbed.',
  author: 'cms-spec',
  namespaces: ['oembed/1.0'],
  migrations,
  repo: oembedCache,
  site: oembedDiscoveryLinks,
  caches: [{ entry: 'cached oEmbed answer', flush: (store) => store.plugin(oembed).clear() }],
  // the guard's own limits are kept for the discovery page read; CMS_SPEC_OEMBED_MAX_BYTES caps provider answers
  outbound: { hosts: () => providerHosts() },
});

export default oembed;
