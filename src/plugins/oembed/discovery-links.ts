import type { SiteHooks } from '../../core/site.ts';
import { escapeAttr } from '../../format/format.ts';

/** The page kinds WordPress announces oEmbed for (wp_oembed_add_discovery_links: singular views). */
const SINGULAR = new Set(['post', 'page']);

/** oEmbed discovery in `<head>`: the JSON and XML embed endpoints for the shown post or page. */
export const oembedDiscoveryLinks: SiteHooks = {
  head(ctx) {
    if (!SINGULAR.has(ctx.kind) || !ctx.postId) return '';
    const endpoint = `${ctx.site.restUrl('oembed/1.0/embed')}?url=${encodeURIComponent(ctx.url)}`;
    return (
      `<link rel="alternate" title="oEmbed (JSON)" type="application/json+oembed" href="${escapeAttr(endpoint)}">\n` +
      `<link rel="alternate" title="oEmbed (XML)" type="text/xml+oembed" href="${escapeAttr(`${endpoint}&format=xml`)}">\n`
    );
  },
};
