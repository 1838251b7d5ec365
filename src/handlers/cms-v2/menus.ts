import { invalidParams, missingObject, RestError, RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { escapeHtml } from '../../format/format.ts';
import { kses } from '../../format/kses.ts';
import type { Store } from '../../store/index.ts';
import type { TermRow } from '../../store/terms.ts';
import { cap } from '../../core/content-types.ts';
import { checkListContext, queryTermsOfRoute } from '../../core/term-list.ts';
import { contentChanged } from '../../core/events.ts';
import { autoAddMenus, changeMenuLocations, deleteMenu as deleteNavMenu, locationsOfMenu, MENU_LOCATIONS, MENU_TAXONOMY, menuLocations, setAutoAdd } from '../../core/menus.ts';
import { collection, contextOf, CURIES, denied, nsUrl, pick, routeTaxonomy, type Context } from '../../core/rest.ts';

/** WP_REST_Menus_Controller's schema: a term without count, link, taxonomy (and parent), plus locations and auto_add. */
const FIELDS: Record<Context, readonly string[]> = {
  view: ['id', 'description', 'name', 'slug', 'meta', 'locations', 'auto_add'],
  edit: ['id', 'description', 'name', 'slug', 'meta', 'locations', 'auto_add'],
  embed: ['id', 'name', 'slug'],
};


/** check_has_read_only_access: whoever may edit the theme's options or posts of any type reads menus. */
function requireReadAccess(ctx: Ctx): void {
  if (ctx.can('edit_theme_options') || ctx.can('edit_posts') || ctx.site.types.postTypes.some((t) => ctx.can(cap(t, 'edit_posts')))) return;
  throw denied(ctx, 'rest_cannot_view', { action: 'view menus' });
}

interface MenuState {
  locations: Record<string, number>;
  autoAdd: number[];
}

const menuState = async (ctx: Ctx): Promise<MenuState> => {
  const [locations, autoAdd] = await Promise.all([menuLocations(ctx.store), autoAddMenus(ctx.store)]);
  return { locations, autoAdd };
};

function prepareMenu(ctx: Ctx, term: TermRow, context: Context, state: MenuState): Record<string, unknown> {
  const locations = locationsOfMenu(state.locations, term.id);
  const data: Record<string, unknown> = {
    id: term.id,
    description: term.description,
    name: term.name,
    slug: term.slug,
    // no term meta is registered for the API
    meta: [],
    locations,
    auto_add: state.autoAdd.includes(term.id),
  };
  const out = pick(data, FIELDS[context]);
  const links: Record<string, unknown> = {
    self: [{ href: nsUrl(ctx, `menus/${term.id}`) }],
    collection: [{ href: nsUrl(ctx, 'menus') }],
    about: [{ href: nsUrl(ctx, `taxonomies/${MENU_TAXONOMY}`) }],
    'wp:post_type': [{ href: nsUrl(ctx, `menu-items?menus=${term.id}`) }],
  };
  if (locations.length) links['wp:menu-location'] = locations.map((l) => ({ embeddable: true, href: nsUrl(ctx, `menu-locations/${l}`) }));
  links.curies = CURIES;
  out._links = links;
  return out;
}

async function menuOfRoute(ctx: Ctx): Promise<TermRow> {
  const term = await ctx.store.terms.get(Number(ctx.args.id));
  if (!term || term.taxonomy !== MENU_TAXONOMY) throw missingObject(ctx.fail('rest_term_invalid'));
  return term;
}

/** get_items_permissions_check: the terms controller's, then check_has_read_only_access. */
export function mayListMenus(ctx: Ctx): void {
  checkListContext(ctx, routeTaxonomy(ctx));
  requireReadAccess(ctx);
}

/** get_item_permissions_check: the menu, edit_term for the edit context, then check_has_read_only_access. */
export async function mayGetMenu(ctx: Ctx): Promise<void> {
  await menuOfRoute(ctx);
  if (ctx.args.context === 'edit' && !ctx.can(routeTaxonomy(ctx).capabilities.edit_terms)) throw denied(ctx, 'rest_forbidden_context', { action: 'edit this term' });
  requireReadAccess(ctx);
}

export async function listMenus(ctx: Ctx<'cms-v2:menus.listMenus'>) {
  const tax = routeTaxonomy(ctx);
  const context = contextOf(ctx);
  const { rows, total, page } = await queryTermsOfRoute(ctx, tax);
  const state = await menuState(ctx);
  return collection(ctx, ctx.request.head ? [] : rows.map((t) => prepareMenu(ctx, t, context, state)), total, page);
}

export async function getMenu(ctx: Ctx<'cms-v2:menus.getMenu'>) {
  const term = await menuOfRoute(ctx);
  const context = contextOf(ctx);
  return prepareMenu(ctx, term, context, await menuState(ctx));
}

/** The `locations` arg: each one a location the theme registers (the schema's validate_callback). */
function requestedLocations(ctx: Ctx): string[] | undefined {
  // a JSON null is no value, as isset() sees it
  const asked = ctx.args.locations as string[] | null | undefined;
  if (!Array.isArray(asked)) return undefined;
  const unknown = asked.find((l) => !Object.hasOwn(MENU_LOCATIONS, l));
  if (unknown !== undefined)
    throw invalidParams(new Map([['locations', { code: 'rest_invalid_menu_location', message: 'Invalid menu location.', data: { location: unknown } }]]));
  return asked;
}

/** The menu's name and description as wp_update_nav_menu_object stores them; a menu's slug always follows its name. */
async function menuName(ctx: Ctx, store: Store, id: number, name: string): Promise<string> {
  const trimmed = name.trim();
  if (!trimmed) throw ctx.fail('empty_term_name');
  const taken = await store.terms.byName(MENU_TAXONOMY, trimmed);
  if (taken && taken.id !== id) {
    const exists = ctx.fail('menu_exists', { name: escapeHtml(trimmed) }, { term_id: taken.id });
    // create_item adds the existing menu's id, then {status, term_id}: WP_Error keeps the first as additional_data
    if (id === 0) exists.additionalData = [taken.id];
    throw exists;
  }
  return trimmed;
}

// pre_term_description's wp_filter_kses, for callers without unfiltered_html
const description = async (ctx: Ctx) =>
  typeof ctx.args.description === 'string' ? (ctx.can('unfiltered_html') ? ctx.args.description : await kses(ctx.args.description, 'data')) : undefined;

/** handle_locations and handle_auto_add: the menu shows in exactly the asked locations, and takes new pages or not. */
async function applyMenuSettings(ctx: Ctx, store: Store, menuId: number, locations: string[] | undefined): Promise<void> {
  if (locations !== undefined) {
    await changeMenuLocations(store, (current) => {
      const kept = Object.fromEntries(Object.entries(current).filter(([, id]) => id !== menuId));
      return { ...kept, ...Object.fromEntries(locations.map((l) => [l, menuId])) };
    });
  }
  if (typeof ctx.args.auto_add === 'boolean') await setAutoAdd(store, menuId, ctx.args.auto_add);
}

export async function createMenu(ctx: Ctx<'cms-v2:menus.createMenu'>) {
  const tax = routeTaxonomy(ctx);
  if (ctx.args.parent !== undefined && ctx.args.parent !== null) throw ctx.fail('rest_taxonomy_not_hierarchical');
  const locations = requestedLocations(ctx);
  const term = await ctx.store.transaction(async (store) => {
    const name = await menuName(ctx, store, 0, String(ctx.args.name));
    // the slug comes from the name: wp_update_nav_menu_object passes none on
    const id = await store.terms.insert({ taxonomy: tax.slug, name, description: await description(ctx) });
    await applyMenuSettings(ctx, store, id, locations);
    return (await store.terms.get(id))!;
  });
  await contentChanged(ctx, { type: 'termSaved', termId: term.id, taxonomy: tax.slug });
  return new RestResponse(prepareMenu(ctx, term, 'view', await menuState(ctx)), 201, { Location: nsUrl(ctx, `menus/${term.id}`) });
}

export async function updateMenu(ctx: Ctx<'cms-v2:menus.updateMenu'>) {
  const tax = routeTaxonomy(ctx);
  if (ctx.args.parent !== undefined && ctx.args.parent !== null) throw ctx.fail('rest_taxonomy_not_hierarchical');
  const locations = requestedLocations(ctx);
  const term = await ctx.store.transaction(async (store) => {
    const current = await store.terms.get(Number(ctx.args.id), true);
    if (!current || current.taxonomy !== MENU_TAXONOMY) throw missingObject(ctx.fail('rest_term_invalid'));
    const name = await menuName(ctx, store, current.id, typeof ctx.args.name === 'string' ? ctx.args.name : current.name);
    const desc = await description(ctx);
    await store.terms.update(current.id, { name, slug: name, ...(desc === undefined ? {} : { description: desc }) });
    await applyMenuSettings(ctx, store, current.id, locations);
    return (await store.terms.get(current.id))!;
  });
  await contentChanged(ctx, { type: 'termSaved', termId: term.id, taxonomy: tax.slug });
  return prepareMenu(ctx, term, 'view', await menuState(ctx));
}

export async function deleteMenu(ctx: Ctx<'cms-v2:menus.deleteMenu'>) {
  const tax = routeTaxonomy(ctx);
  const term = await menuOfRoute(ctx);
  if (ctx.args.force !== true) throw new RestError('rest_trash_not_supported', "Menus do not support trashing. Set 'force=true' to delete.", 501);
  const previous = prepareMenu(ctx, term, 'view', await menuState(ctx));
  await deleteNavMenu(ctx.store, term.id);
  await contentChanged(ctx, { type: 'termDeleted', termId: term.id, taxonomy: tax.slug });
  return { deleted: true, previous };
}
