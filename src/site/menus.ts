import type { Site } from '../core/site.ts';
import type { Store } from '../store/index.ts';
import { MENU_ITEM_TYPE, MENU_LOCATIONS, MENU_TAXONOMY, menuLocations, setupMenuItems, type MenuItem } from '../core/menus.ts';
import { escapeAttr, escapeHtml } from '../format/format.ts';

/**
 * The theme's classic menus on the page (wp_nav_menu with Walker_Nav_Menu): the menu assigned to a
 * location, its published items in menu order, nested under their parents, the current page's
 * item and its ancestors marked. A location without a menu shows the theme's fallback instead.
 */

/** A menu entry as the templates show it. */
/** A link the theme shows: a menu entry, a term, an adjacent post, a feed. */
export interface NavLink {
  url: string;
  text: string;
}

export interface MenuLink extends NavLink {
  current: boolean;
  /** The `<li>` classes (menu-item, menu-item-type-*, current-menu-item...); none for a page-list entry. */
  classes: string[];
  /** The `<li>` id (`menu-item-12`); none for a page-list entry. */
  id?: string;
  /** The link's title, target and rel attributes. */
  attrTitle?: string;
  target?: string;
  rel?: string;
  children: MenuLink[];
}

/** A location's menu: its slug (the `<ul>` id is `menu-{slug}`) and its entries. */
export interface ShownMenu {
  slug: string;
  items: MenuLink[];
}

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** The menus assigned to the theme's locations, ready to show; a location without one (or whose menu was deleted) is left out: the theme falls back. */
export async function locationMenus(store: Store, site: Site, currentUrl: string): Promise<Partial<Record<string, ShownMenu>>> {
  const assigned = Object.entries(await menuLocations(store)).filter(([location, id]) => id && Object.hasOwn(MENU_LOCATIONS, location));
  const shown = await Promise.all(assigned.map(async ([location, id]) => [location, await shownMenu(store, site, id, currentUrl)] as const));
  return Object.fromEntries(shown.filter((s): s is readonly [string, ShownMenu] => s[1] !== null));
}

async function shownMenu(store: Store, site: Site, menuId: number, currentUrl: string): Promise<ShownMenu | null> {
  const menu = await store.terms.get(menuId);
  if (!menu || menu.taxonomy !== MENU_TAXONOMY) return null;
  const { rows } = await store.posts.query({
    types: [MENU_ITEM_TYPE], statuses: ['publish'], termIds: [{ taxonomy: MENU_TAXONOMY, ids: [menu.id] }], orderby: 'menu_order', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER,
  });
  // an item whose object is gone is left out on the site (_is_valid_nav_menu_item)
  const items = (await setupMenuItems(store, site, rows)).filter((i) => !i.invalid);
  return { slug: menu.slug, items: menuTree(items, currentUrl) };
}

/**
 * Walker::walk: each item under its parent; an item whose parent is not shown goes at the top, after
 * the others. The current item's ancestors get current-menu-ancestor, its parent current-menu-parent.
 */
function menuTree(items: MenuItem[], currentUrl: string): MenuLink[] {
  const ids = new Set(items.map((i) => i.post.id));
  const parentOf = new Map(items.map((i) => [i.post.id, ids.has(i.parent) && i.parent !== i.post.id ? i.parent : 0]));
  const current = new Set(items.filter((i) => sameUrl(i.url, currentUrl)).map((i) => i.post.id));
  const ancestors = new Set<number>();
  const parents = new Set<number>();
  for (const id of current) {
    const seen = new Set([id]);
    for (let p = parentOf.get(id) ?? 0, first = true; p && !seen.has(p); p = parentOf.get(p) ?? 0, first = false) {
      seen.add(p);
      ancestors.add(p);
      if (first) parents.add(p);
    }
  }
  const hasChildren = new Set([...parentOf.values()].filter(Boolean));
  const links = new Map<number, MenuLink>();
  for (const i of items) {
    const id = i.post.id;
    const classes = [
      ...i.classes.filter(Boolean),
      'menu-item',
      `menu-item-type-${i.type}`,
      `menu-item-object-${i.object}`,
      ...(current.has(id) ? ['current-menu-item'] : []),
      ...(ancestors.has(id) ? ['current-menu-ancestor'] : []),
      ...(parents.has(id) ? ['current-menu-parent'] : []),
      ...(hasChildren.has(id) ? ['menu-item-has-children'] : []),
      `menu-item-${id}`,
    ];
    // Walker_Nav_Menu: a link opening a new tab gets rel=noopener unless it names its own relation
    const rel = i.xfn.trim() || (i.target === '_blank' ? 'noopener' : '');
    links.set(id, { url: i.url, text: i.title, current: current.has(id), classes, id: `menu-item-${id}`, attrTitle: i.attrTitle, target: i.target, rel, children: [] });
  }
  const top: MenuLink[] = [];
  for (const i of items) {
    const parent = parentOf.get(i.post.id)!;
    (parent ? links.get(parent)!.children : top).push(links.get(i.post.id)!);
  }
  return top;
}

function entryHtml(m: MenuLink): string {
  const attrs = [
    m.attrTitle ? ` title="${escapeAttr(m.attrTitle)}"` : '',
    m.target ? ` target="${escapeAttr(m.target)}"` : '',
    m.rel ? ` rel="${escapeAttr(m.rel)}"` : '',
    ` href="${escapeAttr(m.url)}"`,
    m.current ? ' aria-current="page"' : '',
  ].join('');
  const li = `${m.id ? ` id="${escapeAttr(m.id)}"` : ''}${m.classes.length ? ` class="${escapeAttr(m.classes.join(' '))}"` : ''}`;
  const sub = m.children.length ? `<ul class="sub-menu">${m.children.map(entryHtml).join('')}</ul>` : '';
  return `<li${li}><a${attrs}>${escapeHtml(m.text)}</a>${sub}</li>`;
}

/**
 * A menu's `<nav>`: nothing when it has no entries. With `toggle`, a "Menu" button before the list
 * that the theme's script and stylesheet use to fold it away on a phone (aria-expanded tells
 * screen readers; without script the list stays shown).
 */
export function menuHtml(className: string, label: string, items: MenuLink[], slug?: string, toggle = false): string {
  if (!items.length) return '';
  const listId = slug ? `menu-${slug}` : toggle ? `${className}-list` : undefined;
  const button = toggle ? `<button class="menu-toggle" type="button" aria-controls="${escapeAttr(listId!)}" aria-expanded="false">Menu</button>` : '';
  return `<nav class="${escapeAttr(className)}" aria-label="${escapeAttr(label)}">${button}<ul${listId ? ` id="${escapeAttr(listId)}"` : ''} class="menu">${items.map(entryHtml).join('')}</ul></nav>`;
}
