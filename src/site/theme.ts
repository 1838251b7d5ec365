import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Site } from '../core/site.ts';
import type { Store } from '../store/index.ts';
import type { PostRow } from '../store/posts.ts';
import type { TermRow } from '../store/terms.ts';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import { permalink, termPermalink } from './permalinks.ts';
import type { NavLink, SiteChrome } from './templates.ts';

/** Where the default theme's stylesheet is served (WordPress keeps themes under wp-content/themes). */
export const STYLESHEET_PATH = '/cms-content/themes/default/style.css';

const stylesheet = readFileSync(new URL('./theme/style.css', import.meta.url));
/** A hash of the stylesheet's bytes: its `?ver=`, and its ETag. */
const stylesheetVersion = createHash('sha256').update(stylesheet).digest('hex').slice(0, 12);
const stylesheetEtag = `"${stylesheetVersion}"`;

/** The stylesheet's URL with its version, so a changed stylesheet is a new URL that caches may keep for good. */
export function stylesheetUrl(site: Site): string {
  return site.url(`${STYLESHEET_PATH}?ver=${stylesheetVersion}`);
}

/**
 * The stylesheet, read once at start. The versioned URL the pages link to is immutable for a year;
 * any other URL of it must be revalidated, and a matching ETag gets a 304.
 */
export function stylesheetResponse(req: PageRequest): PageResponse {
  const headers: Record<string, string> = {
    'Content-Type': 'text/css; charset=UTF-8',
    'Cache-Control': req.query.ver === stylesheetVersion ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    ETag: stylesheetEtag,
    'X-Content-Type-Options': 'nosniff',
  };
  if (req.headers['if-none-match'] === stylesheetEtag) return { status: 304, headers, body: '' };
  return { status: 200, headers: { ...headers, 'Content-Length': String(stylesheet.length) }, body: stylesheet };
}

const RECENT_POSTS = 5;
const MENU_PAGES = 100;

/**
 * The menu and widgets of every themed page: the published top-level pages (wp_page_menu, by
 * menu order then title), the five latest posts (Recent Posts widget) and the categories that
 * have posts, by name (Categories widget).
 */
export async function siteChrome(store: Store, site: Site, currentUrl: string, search: string): Promise<SiteChrome> {
  const category = site.types.taxonomy('category')!;
  const [pages, recent, categories] = await Promise.all([
    store.posts.query({ types: ['page'], statuses: ['publish'], parent: [0], orderby: 'menu_order', order: 'asc', offset: 0, limit: MENU_PAGES }),
    store.posts.query({ types: ['post'], statuses: ['publish'], orderby: 'date', order: 'desc', offset: 0, limit: RECENT_POSTS }),
    store.terms.query({ taxonomy: 'category', hideEmpty: true, orderby: 'name', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER }),
  ]);
  const postLink = (p: PostRow): NavLink => ({ url: permalink(site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date }), text: p.title || '(no title)' });
  const byOrderThenTitle = [...pages.rows].sort((a, b) => a.menu_order - b.menu_order || a.title.localeCompare(b.title));
  const menu = byOrderThenTitle.map((p) => {
    const item = postLink(p);
    return { ...item, current: item.url === currentUrl };
  });
  const byId = new Map(categories.rows.map((t) => [t.id, t]));
  const ancestorSlugs = async (t: TermRow): Promise<string[]> => {
    const slugs: string[] = [];
    const seen = new Set([t.id]);
    for (let parent = t.parent; parent && !seen.has(parent); ) {
      const p = byId.get(parent);
      if (!p) return store.terms.ancestorSlugs(t); // an ancestor without posts is not listed
      seen.add(parent);
      slugs.unshift(p.slug);
      parent = p.parent;
    }
    return slugs;
  };
  const categoryLinks: NavLink[] = [];
  for (const t of categories.rows) categoryLinks.push({ url: termPermalink(site, category, t, await ancestorSlugs(t)), text: t.name });
  return {
    menu,
    recentPosts: recent.rows.map(postLink),
    categories: categoryLinks,
    search,
  };
}
