import { RestError } from '../engine/errors.ts';
import type { Store } from '../store/index.ts';
import type { PostRow } from '../store/posts.ts';
import type { TermRow } from '../store/terms.ts';
import { trimWords } from '../format/format.ts';
import { permalink, termLink } from './permalinks.ts';
import { changeThemeMods, parseObject, themeMods } from './theme-mods.ts';
import type { ContentEvent, Site } from './site.ts';

/**
 * Classic navigation menus as WordPress keeps them (wp-includes/nav-menu.php): a menu is a term of
 * the `nav_menu` taxonomy, its items are `nav_menu_item` posts carrying that term, with what they
 * link to in `_menu_item_*` post meta; the theme's locations map to menus in the
 * `nav_menu_locations` theme mod, and `nav_menu_options` lists the menus that take new top-level
 * pages (auto_add).
 */

export const MENU_TAXONOMY = 'nav_menu';
export const MENU_ITEM_TYPE = 'nav_menu_item';

/** register_nav_menus of the default theme: its header and footer menus. */
export const MENU_LOCATIONS: Readonly<Record<string, string>> = {
  primary: 'Primary menu',
  footer: 'Footer menu',
};

const NAV_MENU_OPTIONS = 'nav_menu_options';

function locationsOf(mods: Record<string, unknown>): Record<string, number> {
  const raw = mods.nav_menu_locations;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return Object.fromEntries(Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, Number(v) || 0]));
}

/** get_nav_menu_locations: location → menu id, as stored (0 for a location a deleted menu left). */
export async function menuLocations(store: Store): Promise<Record<string, number>> {
  return locationsOf(await themeMods(store));
}

/** set_theme_mod('nav_menu_locations', change(current)), the other theme mods kept. */
export async function changeMenuLocations(store: Store, change: (current: Record<string, number>) => Record<string, number>): Promise<void> {
  await changeThemeMods(store, (mods) => ({ ...mods, nav_menu_locations: change(locationsOf(mods)) }));
}

/** The locations a menu is assigned to, in the stored order (WP_REST_Menus_Controller::get_menu_locations). */
export const locationsOfMenu = (locations: Record<string, number>, menuId: number) =>
  Object.entries(locations)
    .filter(([, id]) => id === menuId)
    .map(([name]) => name);

function autoAddOf(stored: string | undefined): number[] {
  const list = parseObject(stored).auto_add;
  return Array.isArray(list) ? list.map(Number).filter(Number.isInteger) : [];
}

/** The menus that take new top-level pages. */
export async function autoAddMenus(store: Store): Promise<number[]> {
  return autoAddOf(await store.options.get(NAV_MENU_OPTIONS));
}

/** handle_auto_add: adds the menu to nav_menu_options' auto_add list, or takes it out. */
export async function setAutoAdd(store: Store, menuId: number, on: boolean): Promise<void> {
  await store.options.update(NAV_MENU_OPTIONS, (stored) => {
    const options = parseObject(stored);
    const list = autoAddOf(stored).filter((id) => id !== menuId);
    return JSON.stringify({ ...options, auto_add: on ? [...list, menuId] : list });
  });
}

/**
 * wp_delete_nav_menu: its items go, then the term, and every location showing it is left empty
 * (0, as WordPress leaves it); it leaves the auto_add list too.
 */
export async function deleteMenu(store: Store, menuId: number): Promise<void> {
  await store.transaction(async (s) => {
    const items = await s.posts.query({ types: [MENU_ITEM_TYPE], termIds: [{ taxonomy: MENU_TAXONOMY, ids: [menuId] }], offset: 0, limit: Number.MAX_SAFE_INTEGER });
    await s.posts.deleteMany(items.rows.map((p) => p.id));
    await s.terms.delete(menuId);
    await changeMenuLocations(s, (locations) => Object.fromEntries(Object.entries(locations).map(([k, id]) => [k, id === menuId ? 0 : id])));
    if ((await autoAddMenus(s)).includes(menuId)) await setAutoAdd(s, menuId, false);
  });
}

// --- menu items ---

/** The post meta a menu item keeps what it links to in (wp_update_nav_menu_item). */
const META = {
  type: '_menu_item_type',
  parent: '_menu_item_menu_item_parent',
  objectId: '_menu_item_object_id',
  object: '_menu_item_object',
  target: '_menu_item_target',
  classes: '_menu_item_classes',
  xfn: '_menu_item_xfn',
  url: '_menu_item_url',
  orphaned: '_menu_item_orphaned',
} as const;
const META_KEYS = Object.values(META);

/** A menu item as wp_setup_nav_menu_item decorates it. */
export interface MenuItem {
  post: PostRow;
  /** The menu (nav_menu term) it belongs to; 0 for an orphan. */
  menuId: number;
  type: string;
  typeLabel: string;
  object: string;
  objectId: number;
  /** The menu item it sits under (menu_item_parent), 0 at the top. */
  parent: number;
  title: string;
  url: string;
  target: string;
  attrTitle: string;
  description: string;
  classes: string[];
  xfn: string;
  /** The object it links to no longer exists (or is trashed). */
  invalid: boolean;
}

/** sanitize_html_class: only letters, digits, `_` and `-` stay. */
export const sanitizeHtmlClass = (c: string) => c.replace(/%[a-fA-F0-9]{2}/g, '').replace(/[^A-Za-z0-9_-]/g, '');

/** sanitize_key: lowercase letters, digits, `_` and `-`. */
export const sanitizeKey = (k: string) => k.toLowerCase().replace(/[^a-z0-9_-]/g, '');

function classesOf(stored: string | undefined): string[] {
  if (!stored) return [''];
  try {
    const v: unknown = JSON.parse(stored);
    return Array.isArray(v) ? v.map(String) : [String(v)];
  } catch {
    return [stored];
  }
}

/** get_post_type_archive_link: the blog for posts, `{home}/{type}/` for a type with an archive, '' for none. */
async function archiveLink(store: Store, site: Site, typeSlug: string): Promise<string> {
  const type = site.types.postType(typeSlug);
  if (!type) return '';
  if (typeSlug === 'post') {
    const blog = site.info.show_on_front === 'page' && site.info.page_for_posts ? await store.posts.get(site.info.page_for_posts) : undefined;
    return blog ? postLink(store, site, blog) : `${site.home}/`;
  }
  if (!type.hasArchive) return '';
  return site.options.permalink_structure ? `${site.home}/${type.slug}/` : `${site.home}/?post_type=${type.slug}`;
}

async function postLink(store: Store, site: Site, post: PostRow): Promise<string> {
  const parentPath = post.parent ? (await store.posts.ancestorSlugs(post)).join('/') || undefined : undefined;
  return permalink(site, { id: post.id, type: post.type, slug: post.slug, status: post.status, date: post.date, parentPath });
}

/** wp_setup_nav_menu_item for a page of items: their meta, menus and linked objects read in one go each. */
export async function setupMenuItems(store: Store, site: Site, posts: PostRow[]): Promise<MenuItem[]> {
  const ids = posts.map((p) => p.id);
  const [meta, menus] = await Promise.all([store.posts.meta.ofMany(ids, META_KEYS), store.terms.termsOfPosts(ids, MENU_TAXONOMY)]);
  const typeOf = (id: number) => meta.get(id)?.[META.type] ?? '';
  const objectIdOf = (id: number) => Number(meta.get(id)?.[META.objectId]) || 0;
  const [linkedPosts, linkedTerms] = await Promise.all([
    store.posts.getMany(ids.filter((id) => typeOf(id) === 'post_type').map(objectIdOf)),
    store.terms.getMany(ids.filter((id) => typeOf(id) === 'taxonomy').map(objectIdOf)),
  ]);
  const postById = new Map(linkedPosts.map((p) => [p.id, p]));
  const termById = new Map<number, TermRow>(linkedTerms.map((t) => [t.id, t]));
  const out: MenuItem[] = [];
  for (const post of posts) {
    const m = meta.get(post.id) ?? {};
    const type = m[META.type] ?? '';
    const object = m[META.object] ?? '';
    const objectId = Number(m[META.objectId]) || 0;
    let typeLabel = 'Custom Link';
    let title = post.title;
    let url = m[META.url] ?? '';
    let invalid = false;
    if (type === 'post_type') {
      const objectType = site.types.postType(object);
      typeLabel = objectType ? objectType.singular : object;
      const linked = postById.get(objectId);
      invalid = !objectType || !linked || linked.status === 'trash';
      url = linked ? await postLink(store, site, linked) : '';
      if (title === '') title = linked?.title || `#${objectId} (no title)`;
    } else if (type === 'post_type_archive') {
      const objectType = site.types.postType(object);
      typeLabel = 'Post Type Archive';
      invalid = !objectType;
      if (title === '' && objectType) title = `${objectType.singular} Archives`;
      url = await archiveLink(store, site, object);
    } else if (type === 'taxonomy') {
      const tax = site.types.taxonomy(object);
      typeLabel = tax ? tax.singular : object;
      const term = termById.get(objectId);
      const linked = term && term.taxonomy === object ? term : undefined;
      invalid = !tax || !linked;
      url = tax && linked ? await termLink(store, site, tax, linked) : '';
      if (title === '') title = linked?.name || `#${objectId} (no title)`;
    }
    out.push({
      post,
      menuId: menus.get(post.id)?.[0]?.id ?? 0,
      type,
      typeLabel,
      object,
      objectId,
      parent: Number(m[META.parent]) || 0,
      title,
      url,
      target: m[META.target] ?? '',
      attrTitle: post.excerpt,
      description: trimWords(post.content, 200),
      classes: classesOf(m[META.classes]),
      xfn: m[META.xfn] ?? '',
      invalid,
    });
  }
  return out;
}

/** What a menu item is saved with (the `menu-item-*` fields of wp_update_nav_menu_item). */
export interface MenuItemData {
  menuId: number;
  type: string;
  object: string;
  objectId: number;
  parent: number;
  position: number;
  title: string;
  url: string;
  description: string;
  attrTitle: string;
  target: string;
  classes: string[];
  xfn: string[];
  status: string;
}

/** The saved fields of an item, as update requests start from them. */
export const dataOfItem = (item: MenuItem): MenuItemData => ({
  menuId: item.menuId,
  type: item.type,
  object: item.object,
  objectId: item.objectId,
  parent: item.parent,
  position: item.post.menu_order || 1,
  // a linked object's own title is not stored: the item keeps following it
  title: item.post.title,
  url: item.type === 'custom' ? item.url : '',
  description: item.post.content,
  attrTitle: item.post.excerpt,
  target: item.target,
  classes: item.classes,
  xfn: item.xfn.split(' '),
  status: item.post.status,
});

/**
 * wp_update_nav_menu_item: creates the item (id 0) or updates it, in its menu (0 leaves it an
 * orphan draft). A linked item stores no URL and, when its title is the object's own, no title, so
 * it follows the object; a custom item links to itself. `author` owns a new item. Returns the item's id.
 */
export async function saveMenuItem(store: Store, site: Site, itemId: number, d: MenuItemData, author: number): Promise<number> {
  return store.transaction(async (s) => {
    if (d.menuId !== 0) {
      const menu = await s.terms.get(d.menuId);
      if (!menu || menu.taxonomy !== MENU_TAXONOMY) throw new RestError('invalid_menu_id', 'Invalid menu ID.', 400);
    }
    let position = d.menuId === 0 ? 1 : d.position;
    if (position === 0) {
      // after the menu's last item
      const last = await s.posts.query({ types: [MENU_ITEM_TYPE], statuses: ['publish', 'draft'], termIds: [{ taxonomy: MENU_TAXONOMY, ids: [d.menuId] }], orderby: 'menu_order', order: 'desc', offset: 0, limit: 1 });
      position = last.rows.length ? last.rows[0].menu_order + 1 : 0;
    }
    let title = d.title;
    let description = d.description;
    let url = d.type === 'custom' ? d.url.trim() : '';
    let parentOfObject = itemId ? ((await s.posts.get(itemId))?.parent ?? 0) : 0;
    if (d.type !== 'custom') {
      let original = '';
      if (d.type === 'taxonomy') {
        const term = await s.terms.get(d.objectId);
        parentOfObject = term?.parent ?? 0;
        original = term?.name ?? '';
      } else if (d.type === 'post_type') {
        const post = await s.posts.get(d.objectId);
        parentOfObject = post?.parent ?? 0;
        original = post?.title ?? '';
      } else if (d.type === 'post_type_archive') {
        const type = site.types.postType(d.object);
        original = type ? `${type.singular} Archives` : '';
      }
      if (title === original) title = '';
      url = '';
    }
    // wp_insert_post refuses a post without title and content: WordPress gives linked items a blank description
    if (d.type !== 'custom' && title === '' && description === '') description = ' ';
    const fields = { title, content: description, excerpt: d.attrTitle, menu_order: position, parent: parentOfObject };
    let id = itemId;
    if (!id) id = await s.posts.insert({ type: MENU_ITEM_TYPE, status: d.status === 'publish' ? 'publish' : 'draft', author, ping_status: 'closed', comment_status: 'closed', ...fields });
    if (d.menuId && (!itemId || !(await s.terms.termIdsOfPost(id, MENU_TAXONOMY)).includes(d.menuId))) await s.terms.setPostTerms(id, MENU_TAXONOMY, [d.menuId]);
    const objectId = d.type === 'custom' ? id : d.objectId;
    const object = d.type === 'custom' ? 'custom' : d.object;
    const values: Record<string, string> = {
      [META.type]: sanitizeKey(d.type),
      // an item cannot sit under itself
      [META.parent]: String(d.parent === id ? 0 : d.parent),
      [META.objectId]: String(objectId),
      [META.object]: sanitizeKey(object),
      [META.target]: sanitizeKey(d.target),
      [META.classes]: JSON.stringify(d.classes.join(' ').split(' ').map(sanitizeHtmlClass)),
      [META.xfn]: d.xfn.join(' ').split(' ').map(sanitizeHtmlClass).join(' '),
      [META.url]: url,
    };
    for (const [key, value] of Object.entries(values)) await s.posts.meta.set(id, key, value);
    if (d.menuId === 0) await s.posts.meta.set(id, META.orphaned, String(Math.floor(Date.now() / 1000)));
    else await s.posts.meta.delete(id, META.orphaned);
    if (itemId) await s.posts.update(id, { ...fields, status: d.status === 'draft' ? 'draft' : 'publish' });
    return id;
  });
}

// --- what menus do when content changes ---

/** The menu items that link to this post or term (`post_type` or `taxonomy` items). */
async function itemsLinkingTo(store: Store, type: 'post_type' | 'taxonomy', objectId: number): Promise<number[]> {
  const { rows } = await store.posts.query({ types: [MENU_ITEM_TYPE], offset: 0, limit: Number.MAX_SAFE_INTEGER });
  const meta = await store.posts.meta.ofMany(rows.map((r) => r.id), [META.type, META.objectId]);
  return rows.filter((r) => meta.get(r.id)?.[META.type] === type && Number(meta.get(r.id)?.[META.objectId]) === objectId).map((r) => r.id);
}

/**
 * The menus' side of a content change: a top-level page published for the first time joins every
 * auto_add menu it is not in yet (_wp_auto_add_pages_to_menu, at the end of the menu); the items
 * linking to a deleted post or term go with it (_wp_delete_post_menu_item, _wp_delete_tax_menu_item).
 */
export async function menusAfterChange(store: Store, site: Site, event: ContentEvent): Promise<void> {
  if (event.type === 'postDeleted' && event.postType !== MENU_ITEM_TYPE) {
    await store.posts.deleteMany(await itemsLinkingTo(store, 'post_type', event.postId));
  } else if (event.type === 'termDeleted' && event.taxonomy !== MENU_TAXONOMY) {
    await store.posts.deleteMany(await itemsLinkingTo(store, 'taxonomy', event.termId));
  } else if (event.type === 'postSaved' && event.postType === 'page' && event.previousStatus !== undefined && event.previousStatus !== 'publish') {
    const page = await store.posts.get(event.postId);
    if (!page || page.status !== 'publish' || page.parent !== 0) return;
    const menus = await autoAddMenus(store);
    if (!menus.length) return;
    const linking = new Set(await itemsLinkingTo(store, 'post_type', page.id));
    const inMenu = await store.terms.termsOfPosts([...linking], MENU_TAXONOMY);
    for (const menuId of menus) {
      if ([...inMenu.values()].some((terms) => terms.some((t) => t.id === menuId))) continue;
      const data: MenuItemData = { ...BLANK_MENU_ITEM, menuId, type: 'post_type', object: 'page', objectId: page.id, status: 'publish' };
      // a menu deleted behind the option's back is skipped, as wp_update_nav_menu_item refuses it
      if (await store.terms.get(menuId)) await saveMenuItem(store, site, 0, data, page.author);
    }
  }
}

/** A new item's fields before a request or a change fills them in (position 0: after the menu's last item). */
export const BLANK_MENU_ITEM: MenuItemData = {
  menuId: 0, type: 'custom', object: '', objectId: 0, parent: 0, position: 0, title: '', url: '', description: '', attrTitle: '', target: '', classes: [], xfn: [], status: 'publish',
};
