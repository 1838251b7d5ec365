import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Site } from '../core/site.ts';
import type { Store } from '../store/index.ts';
import type { PostRow } from '../store/posts.ts';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import { permalink } from '../core/permalinks.ts';
import { newEnv, sidebarWidgetsHtml } from './widgets.ts';
import { THEME_SIDEBAR } from '../core/widgets.ts';
import type { NavLink, SiteChrome } from './templates.ts';
import { locationMenus } from './menus.ts';
import { footerPartHtml } from './template-parts.ts';
import { globalStylesHtml } from './global-styles.ts';
import { customizerHead } from './customizer-head.ts';
import type { BlockSupportsState } from '../core/block-library/supports/state.ts';

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

const MENU_PAGES = 100;

/**
 * The menus and widgets of every themed page: the menu assigned to the primary location, else the
 * published top-level pages (wp_page_menu, by menu order then title); the footer location's menu
 * when one is assigned (site/menus.ts); the widgets of the theme's sidebar, as stored (site/widgets.ts), and the
 * footer template part and global styles the site stores, if any (site/template-parts.ts, global-styles.ts);
 * the site icon and Additional CSS at the end of `<head>` (site/customizer-head.ts).
 */
export async function siteChrome(store: Store, site: Site, currentUrl: string, search: string, supports?: BlockSupportsState): Promise<SiteChrome> {
  const [{ primary, footer: footerMenu }, widgets, footerPart, globalStyles, headEnd] = await Promise.all([
    locationMenus(store, site, currentUrl),
    sidebarWidgetsHtml(newEnv(store, site, search), THEME_SIDEBAR),
    footerPartHtml(store, site, currentUrl, supports),
    globalStylesHtml(store),
    customizerHead(store),
  ]);
  if (primary) return { menu: primary.items, menuSlug: primary.slug, footerMenu, widgets, footerPart, globalStyles, headEnd };
  const pages = await store.posts.query({ types: ['page'], statuses: ['publish'], parent: [0], orderby: 'menu_order', order: 'asc', offset: 0, limit: MENU_PAGES });
  const postLink = (p: PostRow): NavLink => ({ url: permalink(site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date }), text: p.title || '(no title)' });
  const byOrderThenTitle = [...pages.rows].sort((a, b) => a.menu_order - b.menu_order || a.title.localeCompare(b.title));
  const menu = byOrderThenTitle.map((p) => {
    const item = postLink(p);
    return { ...item, current: item.url === currentUrl, classes: [], children: [] };
  });
  return { menu, footerMenu, widgets, footerPart, globalStyles, headEnd };
}
