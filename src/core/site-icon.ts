import type { Store } from '../store/index.ts';
import { attachmentImageSrc, attachmentImageUrlAt } from './attachment-image.ts';
import { themeMods } from './theme-mods.ts';

/**
 * The site's icon and logo (wp-includes/general-template.php, blocks/site-logo.php): the icon is
 * the attachment the `site_icon` option names, the logo the one the `site_logo` option names, else
 * the theme mod `custom_logo` (_override_custom_logo_theme_mod); 0 for none.
 */

const attachmentId = (v: unknown): number => {
  const n = Number.parseInt(String(v ?? ''), 10);
  return Number.isInteger(n) && n > 0 ? n : 0;
};

/** get_option('site_icon'): the icon's attachment id, 0 for none. */
export const siteIconId = async (store: Store): Promise<number> => attachmentId(await store.options.get('site_icon'));

/** get_theme_mod('custom_logo') as WordPress 6.1 filters it: the `site_logo` option when stored, else the mod. */
export async function siteLogoId(store: Store): Promise<number> {
  const option = await store.options.get('site_logo');
  return attachmentId(option !== undefined ? option : (await themeMods(store)).custom_logo);
}

/** get_site_icon_url: the icon at `size` px (512 and over: the full image; smaller: the size of that square that fits best); '' for none. */
export async function siteIconUrl(store: Store, size = 512): Promise<string> {
  const id = await siteIconId(store);
  if (!id) return '';
  return size >= 512 ? ((await attachmentImageSrc(store, id, 'full'))?.[0] ?? '') : attachmentImageUrlAt(store, id, [size, size]);
}

/** The icon tags wp_site_icon prints, each with its size: the icon at 32 and 192 px, Apple's touch icon at 180, Windows' tile at 270. */
const ICON_TAGS: readonly [number, (url: string) => string][] = [
  [32, (url) => `<link rel="icon" href="${url}" sizes="32x32" />`],
  [192, (url) => `<link rel="icon" href="${url}" sizes="192x192" />`],
  [180, (url) => `<link rel="apple-touch-icon" href="${url}" />`],
  [270, (url) => `<meta name="msapplication-TileImage" content="${url}" />`],
];

/** wp_site_icon: the icon's tags for `<head>`, one a line, each URL escaped by `escapeUrl` (esc_url); '' without an icon (has_site_icon: its full-size URL). */
export async function siteIconTags(store: Store, escapeUrl: (url: string) => string): Promise<string> {
  if (!(await siteIconUrl(store))) return '';
  let out = '';
  for (const [size, tag] of ICON_TAGS) {
    const url = await siteIconUrl(store, size);
    if (url) out += `${tag(escapeUrl(url))}\n`;
  }
  return out;
}
