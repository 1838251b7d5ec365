import type { Ctx } from '../../core/context.ts';
import { MENU_LOCATIONS, MENU_TAXONOMY, menuLocations } from '../../core/menus.ts';
import { CURIES, nsUrl } from '../../core/rest.ts';

/**
 * WP_REST_Menu_Locations_Controller: the theme's registered locations and the menu each shows
 * (0 for none); every field shows in every context. A location's `wp:menu` link names its menu
 * while that menu exists.
 */
async function prepareLocations(ctx: Ctx, names: string[]): Promise<Record<string, unknown>[]> {
  const assigned = await menuLocations(ctx.store);
  const menuIds = names.map((n) => assigned[n] ?? 0).filter(Boolean);
  const existing = new Set((await ctx.store.terms.getMany(menuIds)).filter((t) => t.taxonomy === MENU_TAXONOMY).map((t) => t.id));
  return names.map((name) => {
    const menu = assigned[name] ?? 0;
    const links: Record<string, unknown> = {
      self: [{ href: nsUrl(ctx, `menu-locations/${name}`) }],
      collection: [{ href: nsUrl(ctx, 'menu-locations') }],
    };
    if (existing.has(menu)) {
      links['wp:menu'] = [{ embeddable: true, href: nsUrl(ctx, `menus/${menu}`) }];
      links.curies = CURIES;
    }
    return { name, description: MENU_LOCATIONS[name], menu, _links: links };
  });
}

export async function listMenuLocations(ctx: Ctx<'cms-v2:menu-locations.listMenuLocations'>) {
  const names = Object.keys(MENU_LOCATIONS);
  const prepared = await prepareLocations(ctx, names);
  return Object.fromEntries(names.map((name, i) => [name, prepared[i]]));
}

export async function getMenuLocation(ctx: Ctx<'cms-v2:menu-locations.getMenuLocation'>) {
  const name = String(ctx.args.location);
  if (!Object.hasOwn(MENU_LOCATIONS, name)) throw ctx.fail('rest_menu_location_invalid');
  return (await prepareLocations(ctx, [name]))[0];
}
