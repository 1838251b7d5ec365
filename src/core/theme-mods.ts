import type { Store } from '../store/index.ts';
import { storedObject } from '../store/stored-json.ts';
import { STYLESHEET } from './active-theme.ts';

/**
 * The active theme's mods (get_theme_mods, set_theme_mod), kept where WordPress keeps them: the
 * option `theme_mods_{stylesheet}`, a JSON object here where WordPress serialises a PHP array.
 * The menus' locations (`nav_menu_locations`), the Additional CSS post (`custom_css_post_id`) and
 * the logo (`custom_logo`) are mods; a theme reads the others by name.
 */

export const THEME_MODS_OPTION = `theme_mods_${STYLESHEET}`;

/** Values WordPress keeps serialised are kept as JSON here; a value that is not an object reads as empty. */
export function parseObject(stored: string | undefined): Record<string, unknown> {
  return storedObject(stored) ?? {};
}

/** get_theme_mods: every mod of the active theme. */
export async function themeMods(store: Store): Promise<Record<string, unknown>> {
  return parseObject(await store.options.get(THEME_MODS_OPTION));
}

/** set_theme_mod for several at once: `change` gets the mods as stored and answers them as they are to be; in one read-modify-write. */
export async function changeThemeMods(store: Store, change: (mods: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  await store.options.update(THEME_MODS_OPTION, (stored) => JSON.stringify(change(parseObject(stored))));
}
