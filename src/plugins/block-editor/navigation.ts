import type { Site } from '../../core/site.ts';
import type { Store } from '../../store/index.ts';
import type { PostRow } from '../../store/posts.ts';
import { permalink } from '../../core/permalinks.ts';

/** The post type of block navigation menus (WordPress's wp_navigation). */
export const NAVIGATION_TYPE = 'cms_navigation';

/**
 * serialize_block_attributes: JSON with the characters that could end the HTML comment around it,
 * or be read as markup, escaped as \u sequences.
 */
function blockAttributes(attrs: Record<string, unknown>): string {
  return JSON.stringify(attrs)
    .replace(/--/g, '\\u002d\\u002d')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\\"/g, '\\u0022');
}

/** The navigation blocks of pages: a link per page, a submenu holding its children for a page that has some. */
function pageBlocks(site: Site, pages: PostRow[], parent: number, parentPath: string): string {
  return pages
    .filter((p) => p.parent === parent)
    .map((p) => {
      const attrs = blockAttributes({ label: p.title, type: 'page', id: p.id, url: permalink(site, { ...p, parentPath }), kind: 'post-type' });
      const children = pageBlocks(site, pages, p.id, parentPath ? `${parentPath}/${p.slug}` : p.slug);
      return children ? `<!-- wp:navigation-submenu ${attrs} -->${children}<!-- /wp:navigation-submenu -->` : `<!-- wp:navigation-link ${attrs} /-->`;
    })
    .join('');
}

/** WP_Navigation_Fallback::get_most_recently_published_navigation */
async function latestNavigation(store: Store): Promise<PostRow | undefined> {
  const { rows } = await store.posts.query({ types: [NAVIGATION_TYPE], statuses: ['publish'], orderby: 'date', order: 'desc', offset: 0, limit: 1 });
  return rows[0];
}

/**
 * WP_Navigation_Fallback::get_fallback: the most recently published navigation menu, else a new
 * one made from the published pages (WordPress stores a page-list block, which lists them when
 * rendered; this server renders no blocks, so the menu is written out: the pages in menu order,
 * then by title, children in submenus). This site has no classic menus to convert first. Returns
 * the menu and whether it was made now.
 */
export async function fallbackNavigation(store: Store, site: Site, author: number): Promise<{ post: PostRow; created: boolean }> {
  return store.transaction(async (trx) => {
    const existing = await latestNavigation(trx);
    if (existing) return { post: existing, created: false };
    const { rows: pages } = await trx.posts.query({ types: ['page'], statuses: ['publish'], orderby: 'menu_order', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
    pages.sort((a, b) => a.menu_order - b.menu_order || a.title.localeCompare(b.title));
    const id = await trx.posts.insert({ type: NAVIGATION_TYPE, status: 'publish', title: 'Navigation', slug: 'navigation', content: pageBlocks(site, pages, 0, ''), author });
    return { post: (await trx.posts.get(id))!, created: true };
  });
}
