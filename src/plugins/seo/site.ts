import type { PageContext, SiteHooks } from '../../core/site.ts';
import { headHtml, headMeta, present, type Presentation } from './head.ts';
import { PLUGIN_VERSION } from './settings.ts';
import { pageTarget } from './targets.ts';

/**
 * The plugin on the rendered site: the theme's title, description, canonical and robots come from
 * the head (headMeta), and wp_head prints the rest of it (Open Graph, X, article times, author,
 * the schema graph). One page's head is made once: both hooks get the same page context.
 */
export function seoSiteHooks(): SiteHooks {
  const made = new WeakMap<PageContext, Promise<Presentation | null>>();
  const presentationOf = (ctx: PageContext) => {
    let p = made.get(ctx);
    if (!p) {
      p = pageTarget(ctx).then((target) => (target ? present(ctx.store, ctx.site, target) : null));
      made.set(ctx, p);
    }
    return p;
  };
  return {
    async headMeta(meta, ctx) {
      const p = await presentationOf(ctx);
      if (!p) return meta;
      // a page without an SEO description keeps the theme's, where Yoast's head would print none
      const own = headMeta(p);
      return own.description ? own : { ...own, description: meta.description };
    },
    async head(ctx) {
      const p = await presentationOf(ctx);
      return p ? `${headHtml(p, { version: PLUGIN_VERSION, withThemeTags: false, seoManager: false })}\n` : '';
    },
  };
}
