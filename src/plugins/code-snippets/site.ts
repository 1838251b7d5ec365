import type { PageContext, Site, SiteHooks } from '../../core/site.ts';
import { wpautop } from '../../format/format.ts';
import { attributeMap, type ShortcodeAttributes } from '../../format/shortcodes.ts';
import type { Store } from '../../store/index.ts';
import type { Snippet, SnippetsRepo } from './repo.ts';

/** The active snippets a page can use, grouped by scope, each group in execution order. */
interface ActiveSnippets {
  byScope: Map<string, Snippet[]>;
  byId: Map<number, Snippet>;
}

/** The shared-state topic every snippet write moves on (see src/core/shared-state.ts). */
export const ACTIVE_SNIPPETS_TOPIC = 'code-snippets';

/**
 * Active snippets per site, loaded on the first page view after a change: pages cost no query
 * beyond that one. A cache built at another version of the topic than the site has now seen (a
 * write here, or on another instance sharing the database) is loaded again.
 */
const activeCache = new WeakMap<Site, { version: number; active: Promise<ActiveSnippets> }>();

function activeSnippets(site: Site, repo: () => SnippetsRepo): Promise<ActiveSnippets> {
  const version = site.shared.version(ACTIVE_SNIPPETS_TOPIC);
  const cached = activeCache.get(site);
  if (cached?.version === version) return cached.active;
  const active = repo().active().then((list) => {
    const byScope = new Map<string, Snippet[]>();
    for (const s of list) byScope.set(s.scope, [...(byScope.get(s.scope) ?? []), s]);
    return { byScope, byId: new Map(list.map((s) => [s.id, s])) };
  });
  // a failed load is not kept: the next page view tries again
  active.catch(() => activeCache.get(site)?.active === active && activeCache.delete(site));
  activeCache.set(site, { version, active });
  return active;
}

const codeOf = (active: ActiveSnippets, scope: string) => (active.byScope.get(scope) ?? []).map((s) => s.code);

/** One element holding every active snippet of a scope, the way the plugin bundles them; nothing when there are none. */
function bundled(active: ActiveSnippets, scope: string, tag: 'style' | 'script'): string {
  const code = codeOf(active, scope);
  return code.length ? `<${tag} id="code-snippets-${scope}">\n${code.join('\n')}\n</${tag}>\n` : '';
}

const raw = (active: ActiveSnippets, scope: string) => codeOf(active, scope).map((c) => `${c}\n`).join('');

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);

/** What `[code_snippet id=N]` renders: an active `content` snippet's HTML (wpautop'd with format=true), else nothing. */
function renderShortcode(active: ActiveSnippets, atts: ShortcodeAttributes): string {
  const attr = attributeMap(atts);
  const snippet = active.byId.get(Number(attr.get('id')));
  if (!snippet || snippet.scope !== 'content') return '';
  return TRUE_WORDS.has((attr.get('format') ?? '').toLowerCase()) ? wpautop(snippet.code) : snippet.code;
}

/**
 * Code Snippets on the rendered site: front-end CSS and head scripts and HTML in the head, footer
 * HTML and scripts before `</body>`, content snippets where a post holds their shortcode. PHP and
 * admin scopes are never run by this server.
 */
export const snippetsSiteHooks = (repoOf: (store: Store) => SnippetsRepo): SiteHooks => ({
  async head(ctx: PageContext) {
    const active = await activeSnippets(ctx.site, () => repoOf(ctx.store));
    return bundled(active, 'site-css', 'style') + raw(active, 'head-content') + bundled(active, 'site-head-js', 'script');
  },
  async footer(ctx: PageContext) {
    const active = await activeSnippets(ctx.site, () => repoOf(ctx.store));
    return raw(active, 'footer-content') + bundled(active, 'site-footer-js', 'script');
  },
  shortcodes: {
    async code_snippet(atts, _content, _tag, { page }) {
      return renderShortcode(await activeSnippets(page.site, () => repoOf(page.store)), atts);
    },
  },
  // the store is only used when the active snippets are loaded: a rendering with them in memory may be kept until they change
  topics: [ACTIVE_SNIPPETS_TOPIC],
});
