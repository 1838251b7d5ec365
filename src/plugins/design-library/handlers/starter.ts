import type { Ctx } from '../../../core/context.ts';
import { RestError } from '../../../engine/index.ts';
import { cachedAnswer, expectObject, libraryCall, type LibraryCall } from '../calls.ts';
import { domainOf } from '../services.ts';
import { create, createItems, itemsOf, recordOption, setOption, undoImports, withImportedImages, type StarterItem } from '../starter-import.ts';
import { changeMenuLocations, MENU_LOCATIONS } from '../../../core/menus.ts';
import { changeThemeMods, parseObject, THEME_MODS_OPTION } from '../../../core/theme-mods.ts';
import { updateCustomCss } from '../../../core/custom-css.ts';
import { INACTIVE_SIDEBAR, SIDEBARS } from '../../../core/widgets.ts';

/**
 * The starter library's own routes (Kadence Starter Templates): its catalogues, and importing a
 * starter site (pages, posts, products, events, menus, widgets, settings, images) into this one,
 * all of which remove-content takes out again (src/plugins/design-library/starter-import.ts).
 */

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The starter base service's API, for one starter site (`key`, its id) or for all. */
const basePath = (site: string, path: string) => `${site ? `${encodeURIComponent(site)}/` : ''}wp-json/kadence-starter-base/v1/${path}`;

/** A catalogue of a starter service, kept in the store (force_reload asks again); decoded. */
async function catalogueOf(ctx: Ctx, base: 'starter' | 'base', path: string, query: Record<string, string> = {}) {
  const call = await libraryCall(ctx);
  const service = call.service('starter', base === 'starter' ? call.settings.starterUrl : call.settings.starterBaseUrl);
  return cachedAnswer(call, 'starter-catalogue', [base, path, query], { reload: Boolean(ctx.args.force_reload) }, async () => expectObject(service, path, await service.json({ path, query })));
}

/** The license query the starter catalogue is asked with (the real plugin's get_template_data). */
async function licenseQuery(ctx: Ctx): Promise<Record<string, string>> {
  const call = await libraryCall(ctx);
  const q: Record<string, string> = { site: domainOf(ctx.site) };
  const key = text(ctx.args.api_key) || call.settings.licenseKey;
  const email = text(ctx.args.api_email) || call.settings.licenseEmail;
  if (key) q.api_key = key;
  if (email) q.api_email = email;
  return q;
}

/** GET get: the starter template catalogue (through the REST envelope; the real plugin writes it raw and exits). */
export async function catalogue(ctx: Ctx<'design-library:starter.catalogue'>) {
  return catalogueOf(ctx, 'starter', 'get/', await licenseQuery(ctx));
}

/** GET starter-help-docs: the help articles the wizard links to, from the starter service's `help-docs/` (`search` passes through). */
export async function helpDocs(ctx: Ctx<'design-library:starter.helpDocs'>) {
  const search = text(ctx.args.search);
  return catalogueOf(ctx, 'starter', 'help-docs/', { page: String(ctx.args.page ?? 1), per_page: String(ctx.args.per_page ?? 10), ...(search ? { search } : {}) });
}

/** GET ai-base: the starter sites the AI wizard builds from (the base service's `sites`). */
export const aiBase = (ctx: Ctx<'design-library:starter.aiBase'>) => catalogueOf(ctx, 'base', basePath('', 'sites'));

/** The starter site a content catalogue is asked for: `key` (the real plugin's site id; `library=soap` meant its g32 site). */
const siteOf = (ctx: Ctx) => text(ctx.args.key) || (text(ctx.args.library) === 'soap' ? 'g32' : '');

/** GET get-posts: a starter site's blog posts, to be chosen for install-posts. */
export const getPosts = (ctx: Ctx<'design-library:starter.getPosts'>) => catalogueOf(ctx, 'base', basePath(siteOf(ctx), 'posts'));
/** POST get-products: a starter site's products. */
export const getProducts = (ctx: Ctx<'design-library:starter.getProducts'>) => catalogueOf(ctx, 'base', basePath(siteOf(ctx), 'products'));
/** POST get-events: a starter site's events. */
export const getEvents = (ctx: Ctx<'design-library:starter.getEvents'>) => catalogueOf(ctx, 'base', basePath(siteOf(ctx), 'events'));

/**
 * GET get_auth_data: the site's domain and the license key it uses, masked (the real plugin
 * answers the key itself; a key is a secret, and the wizard only needs to know there is one).
 */
export async function authData(ctx: Ctx<'design-library:starter.authData'>) {
  const { settings } = await libraryCall(ctx);
  const key = settings.licenseKey;
  return { domain: domainOf(ctx.site), key: key ? `${'•'.repeat(Math.max(0, key.length - 4))}${key.slice(-4)}` : '', has_key: key !== '' };
}

// --- importing ---

/** POST install-pages: the starter's pages (`pages: [{title, content}]`) created, published, their images imported. */
export async function installPages(ctx: Ctx<'design-library:starter.installPages'>) {
  const items = itemsOf(ctx, 'pages', () => ctx.fail('no_pages', {}, { params: ['pages'] }));
  return createItems(await libraryCall(ctx), 'pages', items);
}

/**
 * POST process-pages: the pages' markup with their images imported and rewritten, not created
 * (what install-pages did in Kadence Starter Templates 2.1.2, for a client that creates them itself).
 */
export async function processPages(ctx: Ctx<'design-library:starter.processPages'>) {
  const items = itemsOf(ctx, 'pages', () => ctx.fail('no_pages', {}, { params: ['pages'] }));
  const call = await libraryCall(ctx);
  const out = [];
  for (const item of items) out.push({ post_title: item.title, post_content: (await withImportedImages(call, item.content)).markup });
  return out;
}

/** The terms of a taxonomy a post names (names, or {name, slug}), found by slug or created (and recorded); their ids. */
async function termIds(call: LibraryCall, collection: 'categories' | 'tags', given: unknown): Promise<number[]> {
  const ids: number[] = [];
  for (const t of Array.isArray(given) ? given : []) {
    const name = text(typeof t === 'object' && t ? (t as { name?: unknown }).name : t);
    if (!name) continue;
    const slug = text(typeof t === 'object' && t ? (t as { slug?: unknown }).slug : '') || name;
    const found = await call.ctx.dispatch('GET', `/cms/v2/${collection}`, { search: name, per_page: 100 });
    const existing = Array.isArray(found.data) ? (found.data as { id: number; name: string; slug: string }[]).find((x) => x.name === name || x.slug === slug) : undefined;
    ids.push(existing ? existing.id : (await create(call, collection, { name, ...(slug !== name ? { slug } : {}) })).id);
  }
  return ids;
}

/** POST install-posts: the chosen blog posts (`posts: [{title, content, image?, categories?, tags?}]`) with their terms and featured images. */
export async function installPosts(ctx: Ctx<'design-library:starter.installPosts'>) {
  const items = itemsOf(ctx, 'posts', () => ctx.fail('no_posts', {}, { params: ['posts'] }));
  const call = await libraryCall(ctx);
  return createItems(call, 'posts', items, async (item: StarterItem) => {
    const categories = await termIds(call, 'categories', item.raw.categories);
    const tags = await termIds(call, 'tags', item.raw.tags);
    return { ...(categories.length ? { categories } : {}), ...(tags.length ? { tags } : {}) };
  });
}

/** Post types this plugin registers for a starter's shop, events, courses and donation forms (plugin.ts). */
const STARTER_TYPES = { products: 'designkit_product', events: 'designkit_event', courses: 'designkit_course', forms: 'designkit_donation' } as const;

/** POST install-products: the starter's products (`products: [{title, content, excerpt?, image?}]`) as designkit_product posts. */
export const installProducts = async (ctx: Ctx<'design-library:starter.installProducts'>) => createItems(await libraryCall(ctx), STARTER_TYPES.products, itemsOf(ctx, 'products', () => ctx.fail('no_products', {}, { params: ['products'] })));
/** POST install-events: the starter's events (`events: [...]`) as designkit_event posts. */
export const installEvents = async (ctx: Ctx<'design-library:starter.installEvents'>) => createItems(await libraryCall(ctx), STARTER_TYPES.events, itemsOf(ctx, 'events', () => ctx.fail('no_events', {}, { params: ['events'] })));
/** POST install-course: a starter's course and its lessons (`courses: [...]`) as designkit_course posts. */
export const installCourse = async (ctx: Ctx<'design-library:starter.installCourse'>) => createItems(await libraryCall(ctx), STARTER_TYPES.courses, itemsOf(ctx, 'courses', () => ctx.fail('no_courses', {}, { params: ['courses'] })));
/** POST install-donation-form: a starter's donation forms (`forms: [...]`) as designkit_donation posts. */
export const installDonationForm = async (ctx: Ctx<'design-library:starter.installDonationForm'>) => createItems(await libraryCall(ctx), STARTER_TYPES.forms, itemsOf(ctx, 'forms', () => ctx.fail('no_forms', {}, { params: ['forms'] })));

/** The block post types a starter's blocks refer to (headers, navigation, forms, queries): the block-queries plugin's. */
const BLOCK_TYPES = new Set(['designkit_form', 'designkit_navigation', 'designkit_header', 'designkit_query', 'designkit_query_card']);

/**
 * POST install-block-cpt: the posts a starter's blocks refer to (`posts: [{post_type, title,
 * content}]`, e.g. its header or its contact form), as those block post types; a type that is not
 * one of them, or whose plugin (block-queries) is not active, is a 400.
 */
export async function installBlockCpt(ctx: Ctx<'design-library:starter.installBlockCpt'>) {
  const items = itemsOf(ctx, 'posts', () => ctx.fail('no_posts', {}, { params: ['posts'] }));
  const call = await libraryCall(ctx);
  const served = new Set(ctx.site.types.postTypes.map((t) => t.slug));
  for (const item of items) {
    const type = text(item.raw.post_type);
    if (!BLOCK_TYPES.has(type)) throw ctx.fail('kb_starter_invalid_post_type', { type, types: [...BLOCK_TYPES] }, { params: ['posts'] });
    if (!served.has(type)) throw ctx.fail('kb_starter_post_type_inactive', { type }, { plugin: 'block-queries' });
  }
  const made = [];
  for (const item of items) made.push(...(await createItems(call, text(item.raw.post_type), [item])));
  return made;
}

/**
 * POST update-pages: of the pages given (`pages: [{id, title}]`, title a string or {rendered}),
 * the one titled "Home" becomes the front page (page_on_front, show_on_front=page); the values
 * before are restored by remove-content. Answers which page, or none.
 */
export async function updatePages(ctx: Ctx<'design-library:starter.updatePages'>) {
  const pages = ctx.args.pages;
  // no_pages's other wording: nothing to update rather than to import
  if (!Array.isArray(pages) || !pages.length) throw new RestError('no_pages', 'There is nothing to update: send the pages as a non-empty list.', 400, { params: ['pages'] });
  const titleOf = (p: Record<string, any>) => text(typeof p?.title === 'object' && p.title ? p.title.rendered : p?.title);
  const home = pages.find((p) => titleOf(p) === 'Home');
  const id = Number(home?.id);
  if (!home) return { success: true, page_on_front: null };
  const page = await ctx.dispatch('GET', `/cms/v2/pages/${id}`, {});
  if (!Number.isInteger(id) || page.status >= 400) throw ctx.fail('kb_starter_invalid_page', { id: String(home.id) }, { params: ['pages'] });
  const call = await libraryCall(ctx);
  await setOption(call, 'page_on_front', String(id));
  await setOption(call, 'show_on_front', 'page');
  await ctx.site.optionsChanged();
  return { success: true, page_on_front: id };
}

/** A starter site's part (navigation, widgets, settings) from the base service, as an object. */
async function sitePart(call: LibraryCall, part: string): Promise<Record<string, any>> {
  const site = text(call.ctx.args.key);
  if (!site) throw call.ctx.fail('kb_design_library_missing_params', { params: 'key (the starter site to import from)' }, { params: ['key'] });
  const service = call.service('starter', call.settings.starterBaseUrl);
  const path = basePath(site, part);
  return expectObject(service, path, await service.json({ path }));
}

/**
 * POST install-navigation: the starter's menus (`key`: its site; {location: {name, items}}) as
 * WordPress menus (a nav_menu term and its nav_menu_item posts, made through cms/v2's menus and
 * menu-items routes), an item named as an imported page linking to that page, the others to
 * their URL, nested as the starter nests them; each menu assigned to its location in the active
 * theme's mod nav_menu_locations, where the theme has that location (`assigned` says so).
 */
export async function installNavigation(ctx: Ctx<'design-library:starter.installNavigation'>) {
  const call = await libraryCall(ctx);
  const menus = await sitePart(call, 'navigation');
  const pages = await ctx.dispatch('GET', '/cms/v2/pages', { per_page: 100, context: 'view' });
  const pageByTitle = new Map((Array.isArray(pages.data) ? (pages.data as { id: number; title: { rendered: string } }[]) : []).map((p) => [p.title.rendered, p]));
  // the locations are a theme mod: recorded before the menus, so remove-content puts the mods back after deleting them
  await recordOption(call, THEME_MODS_OPTION);
  const made = [];
  for (const [location, menu] of Object.entries(menus)) {
    if (!menu || typeof menu !== 'object' || !Array.isArray(menu.items)) continue;
    const items = (menu.items as unknown[]).filter((i): i is Record<string, any> => Boolean(i) && typeof i === 'object').sort((a, b) => Number(a.menu_order) - Number(b.menu_order));
    const name = text(menu.name) || location;
    const menuId = Number((await create(call, 'menus', { name })).id);
    const children = (parent: unknown) => items.filter((i) => String(i.menu_item_parent ?? '0') === String(parent));
    let position = 0;
    const add = async (item: Record<string, any>, parent: number): Promise<void> => {
      const title = text(item.title);
      const page = pageByTitle.get(title);
      const target = page ? { type: 'post_type', object: 'page', object_id: page.id } : { type: 'custom', url: text(item.url) || '#' };
      const id = Number((await create(call, 'menu-items', { title, menus: menuId, parent, menu_order: ++position, status: 'publish', ...target })).id);
      for (const child of children(item.id)) await add(child, id);
    };
    for (const top of children(0)) await add(top, 0);
    const assigned = Object.hasOwn(MENU_LOCATIONS, location);
    if (assigned) await changeMenuLocations(ctx.store, (current) => ({ ...current, [location]: menuId }));
    made.push({ id: menuId, location, assigned, name, items: position });
  }
  return made;
}

/**
 * POST install-widgets: the starter's widgets (`key`: its site; {sidebar: {"<type>-<n>": settings}})
 * stored as WordPress keeps them (sidebars_widgets, widget_<type>), `context` (the site's name)
 * replacing the demo's placeholder names in their text. A starter's widget area that the active
 * theme does not register would show nothing: its widgets go to the inactive widgets, as
 * WordPress's retrieve_widgets moves them, and the answer says so (`inactive`).
 */
export async function installWidgets(ctx: Ctx<'design-library:starter.installWidgets'>) {
  const call = await libraryCall(ctx);
  const sidebars = await sitePart(call, 'widgets');
  const siteName = text(ctx.args.context) || ctx.site.info.name;
  const placement: Record<string, string[]> = {};
  const byType: Record<string, Record<string, unknown>> = {};
  for (const [sidebar, widgets] of Object.entries(sidebars)) {
    if (sidebar === 'wp_inactive_widgets' || !widgets || typeof widgets !== 'object') continue;
    placement[sidebar] = [];
    for (const [instance, settings] of Object.entries(widgets as Record<string, unknown>)) {
      const m = /^([a-z0-9_-]+?)-(\d+)$/.exec(instance);
      if (!m || !settings || typeof settings !== 'object') continue;
      const s = { ...(settings as Record<string, unknown>) };
      if (typeof s.content === 'string') s.content = s.content.replace(/\b(Redwood|Laurel|Acorn|Cedar|Maple)\b/g, siteName);
      (byType[m[1]] ??= {})[m[2]] = s;
      placement[sidebar].push(instance);
    }
  }
  const registered = new Set(SIDEBARS.map((s) => s.id));
  const shown = Object.fromEntries(Object.entries(placement).filter(([sidebar]) => registered.has(sidebar)));
  const unshown = Object.fromEntries(Object.entries(placement).filter(([sidebar]) => !registered.has(sidebar)));
  const existing = parseObject(await ctx.store.options.get('sidebars_widgets'));
  // what the sidebars held before is kept, as inactive widgets (the real plugin moves them there too)
  const replaced = Object.entries(existing).flatMap(([k, v]) => (k in shown && Array.isArray(v) ? (v as string[]) : []));
  const inactiveBefore = Array.isArray(existing[INACTIVE_SIDEBAR]) ? (existing[INACTIVE_SIDEBAR] as string[]) : [];
  await setOption(call, 'sidebars_widgets', JSON.stringify({ ...existing, ...shown, [INACTIVE_SIDEBAR]: [...inactiveBefore, ...replaced, ...Object.values(unshown).flat()] }));
  for (const [type, instances] of Object.entries(byType)) {
    const before = parseObject(await ctx.store.options.get(`widget_${type}`));
    await setOption(call, `widget_${type}`, JSON.stringify({ ...before, ...instances }));
  }
  const counts = (sidebars: Record<string, string[]>) => Object.fromEntries(Object.entries(sidebars).map(([k, v]) => [k, v.length]));
  return { sidebars: counts(shown), inactive: counts(unshown) };
}

/** Site options a starter's settings may set: reading and media settings, not the site's identity or addresses. */
const STARTER_OPTIONS = new Set(['posts_per_page', 'date_format', 'time_format', 'start_of_week', 'thumbnail_size_w', 'thumbnail_size_h', 'medium_size_w', 'medium_size_h', 'large_size_w', 'large_size_h', 'blogdescription']);

/**
 * Theme mods a starter's settings may not bring: they name the demo site's menus and Additional
 * CSS post by id (install-navigation assigns the menus, the CSS comes as `wp_css`).
 */
const DEMO_ID_MODS = new Set(['nav_menu_locations', 'custom_css_post_id']);

/**
 * POST install-settings: the starter's design (`key`: its site; {mods, wp_css, options}) as the
 * real plugin imports it: its theme settings merged into the active theme's mods (set_theme_mod;
 * those naming the demo's ids are skipped), its CSS as the theme's Additional CSS
 * (wp_update_custom_css_post, printed in every page's head), and those of its options this site
 * has (reading and media settings). Answers what it applied and what it skipped, by name.
 */
export async function installSettings(ctx: Ctx<'design-library:starter.installSettings'>) {
  const call = await libraryCall(ctx);
  const settings = await sitePart(call, 'settings');
  const applied: string[] = [];
  const skipped: string[] = [];
  const mods = settings.mods && typeof settings.mods === 'object' && !Array.isArray(settings.mods) ? (settings.mods as Record<string, unknown>) : {};
  const kept = Object.entries(mods).filter(([name]) => !DEMO_ID_MODS.has(name));
  skipped.push(...Object.keys(mods).filter((name) => DEMO_ID_MODS.has(name)).map((name) => `${THEME_MODS_OPTION}.${name}`));
  const css = typeof settings.wp_css === 'string' ? settings.wp_css : '';
  if (kept.length || css) await recordOption(call, THEME_MODS_OPTION);
  if (kept.length) {
    await changeThemeMods(ctx.store, (current) => ({ ...current, ...Object.fromEntries(kept) }));
    applied.push(THEME_MODS_OPTION);
  }
  if (css) {
    const post = await updateCustomCss(ctx.store, css, ctx.user!.id);
    await call.repo.recordImport(post.previous === null ? { kind: 'post', ref: String(post.id), previous: null } : { kind: 'post_content', ref: String(post.id), previous: post.previous });
    applied.push('custom_css');
  }
  for (const [name, value] of Object.entries((settings.options ?? {}) as Record<string, unknown>)) {
    if (!STARTER_OPTIONS.has(name) || (typeof value !== 'string' && typeof value !== 'number')) {
      skipped.push(name);
      continue;
    }
    await setOption(call, name, String(value));
    applied.push(name);
  }
  await ctx.site.optionsChanged();
  return { applied, skipped };
}

/**
 * GET remove-content: deletes everything the imports created (posts, pages, media, terms,
 * menus) and puts back every option they changed, so the site is as before them.
 */
export async function removeContent(ctx: Ctx<'design-library:starter.removeContent'>) {
  return { success: true, ...(await undoImports(await libraryCall(ctx))) };
}

// --- plugins ---

/**
 * The plugins a starter names (Kadence's slugs) and those of this server that give a site what
 * they gave it; a name of this server's own plugins stands for itself.
 */
const FEATURES: Record<string, readonly string[]> = {
  'kadence-blocks': ['design-library', 'lottie', 'vectors', 'image-picker', 'block-queries', 'mail-connectors'],
  'kadence-blocks-pro': ['block-queries', 'dynamic-content', 'vectors'],
  'kadence-pro': ['block-queries'],
  'kadence-starter-templates': ['design-library'],
  'wordpress-seo': ['seo'],
  'code-snippets': ['code-snippets'],
};

/**
 * Activates the plugins a starter needs (`names`: Kadence slugs, or this server's plugin names);
 * any this server does not have is a 400 naming it, and then nothing is activated.
 */
async function activate(ctx: Ctx, names: string[]) {
  const have = new Set(ctx.site.plugins.list().map((p) => p.name));
  const wanted = names.map((n) => n.trim().replace(/\/.*$/, '')).filter(Boolean);
  const unknown = wanted.filter((n) => !FEATURES[n] && !have.has(n));
  if (unknown.length)
    throw ctx.fail('kb_starter_unknown_plugin', { plugins: unknown }, { plugins: unknown });
  const activated: string[] = [];
  const active: string[] = [];
  for (const name of [...new Set(wanted.flatMap((n) => FEATURES[n] ?? [n]))]) {
    if (!have.has(name)) continue;
    if (ctx.site.plugins.get(name)?.status === 'active') active.push(name);
    else if ((await ctx.site.plugins.setActive(name, true)).status === 'active') activated.push(name);
    else throw ctx.fail('kb_starter_activation_failed', { plugin: name, reason: ctx.site.plugins.get(name)?.error ?? 'it stayed inactive' });
  }
  return { success: true, activated, already_active: active };
}

/** GET install-plugins: the starter's plugins (`plugins[]`) made active. */
export async function installPlugins(ctx: Ctx<'design-library:starter.installPlugins'>) {
  const plugins = Array.isArray(ctx.args.plugins) ? ctx.args.plugins : [];
  // kb_design_library_missing_params's other wording
  if (!plugins.length) throw new RestError('kb_design_library_missing_params', 'Name the plugins to install (plugins[]=…).', 400, { params: ['plugins'] });
  return activate(ctx, plugins);
}

/** GET install-plugin: one plugin (`plugin`) made active. */
export async function installPlugin(ctx: Ctx<'design-library:starter.installPlugin'>) {
  const plugin = text(ctx.args.plugin);
  if (!plugin) throw ctx.fail('kb_design_library_missing_params', { params: 'plugin' }, { params: ['plugin'] });
  return activate(ctx, [plugin]);
}
