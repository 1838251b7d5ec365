import type { Store } from '../store/index.ts';
import { STYLESHEET, THEME_STYLE_FILES } from './active-theme.ts';
import { TEMPLATE_META } from './templates.ts';

/**
 * The site's own global styles (WordPress's wp_global_styles post, `cms_global_styles` here): one
 * post per theme holding a theme.json-shaped object in its content, the user's layer over the
 * theme's theme.json (WP_Theme_JSON_Resolver's user data).
 */

export const GLOBAL_STYLES_TYPE = 'cms_global_styles';

/** WP_Theme_JSON::LATEST_SCHEMA in WordPress 6.1. */
export const THEME_JSON_VERSION = 2;

type Json = Record<string, unknown>;

/**
 * The newest published global styles post of the active theme (get_user_data_from_wp_global_styles),
 * made on the first call that asks for it (`create`), as WordPress does for the active theme.
 */
export async function userGlobalStylesId(store: Store, create: boolean): Promise<number | null> {
  const rows = await store.posts.list({ types: [GLOBAL_STYLES_TYPE], statuses: ['publish'], orderby: 'date', order: 'desc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
  const themes = await store.posts.meta.ofMany(rows.map((r) => r.id), [TEMPLATE_META.theme]);
  const own = rows.find((r) => themes.get(r.id)?.[TEMPLATE_META.theme] === STYLESHEET);
  if (own) return own.id;
  if (!create) return null;
  return store.transaction(async (trx) => {
    const id = await trx.posts.insert({
      type: GLOBAL_STYLES_TYPE,
      status: 'publish',
      // WordPress's own title and content for a new one, untranslated
      title: 'Custom Styles',
      slug: `wp-global-styles-${encodeURIComponent(STYLESHEET)}`,
      content: `{"version": ${THEME_JSON_VERSION}, "isGlobalStylesUserThemeJSON": true }`,
      comment_status: 'closed',
      ping_status: 'closed',
    });
    await trx.posts.meta.set(id, TEMPLATE_META.theme, STYLESHEET);
    return id;
  });
}

// WP_Theme_JSON (6.1): the settings and style properties theme.json knows; `null` takes any value
const VALID_SETTINGS: Readonly<Record<string, readonly string[] | null>> = {
  appearanceTools: null,
  border: ['color', 'radius', 'style', 'width'],
  color: ['background', 'custom', 'customDuotone', 'customGradient', 'defaultDuotone', 'defaultGradients', 'defaultPalette', 'duotone', 'gradients', 'link', 'palette', 'text'],
  custom: null,
  layout: ['contentSize', 'wideSize'],
  spacing: ['blockGap', 'margin', 'padding', 'units', 'customSpacingSize', 'spacingSizes', 'spacingScale'],
  typography: ['customFontSize', 'dropCap', 'fluid', 'fontFamilies', 'fontSizes', 'fontStyle', 'fontWeight', 'letterSpacing', 'lineHeight', 'textDecoration', 'textTransform'],
};
const VALID_STYLES: Readonly<Record<string, readonly string[] | null>> = {
  border: ['color', 'radius', 'style', 'width', 'top', 'right', 'bottom', 'left'],
  color: ['background', 'gradient', 'text'],
  filter: ['duotone'],
  spacing: ['margin', 'padding', 'blockGap'],
  typography: ['fontFamily', 'fontSize', 'fontStyle', 'fontWeight', 'letterSpacing', 'lineHeight', 'textDecoration', 'textTransform'],
};
const ELEMENTS = ['link', 'heading', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'button', 'caption'];
/** The states theme.json styles for these elements (WP_Theme_JSON::VALID_ELEMENT_PSEUDO_SELECTORS). */
const PSEUDO: Readonly<Record<string, readonly string[]>> = { link: [':hover', ':focus', ':active', ':visited'], button: [':hover', ':focus', ':active', ':visited'] };
const BLOCK_NAME = /^[a-z][a-z0-9-]*\/[a-z][a-z0-9-]*$/;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** remove_keys_not_in_schema: the known sections and their known keys, nothing else; empty sections dropped. */
function keepKnown(tree: unknown, schema: Readonly<Record<string, readonly string[] | null>>): Json {
  const out: Json = {};
  if (!isObject(tree)) return out;
  for (const [section, keys] of Object.entries(schema)) {
    const value = tree[section];
    if (value === undefined) continue;
    if (keys === null) out[section] = value;
    else if (isObject(value)) {
      const kept = Object.fromEntries(Object.entries(value).filter(([k]) => keys.includes(k)));
      if (Object.keys(kept).length) out[section] = kept;
    }
  }
  return out;
}

function sanitizeStyles(styles: unknown, withBlocks: boolean): Json {
  const out = keepKnown(styles, VALID_STYLES);
  if (!isObject(styles)) return out;
  if (isObject(styles.elements)) {
    const elements: Json = {};
    for (const name of ELEMENTS) {
      const el = styles.elements[name];
      if (!isObject(el)) continue;
      const kept = keepKnown(el, VALID_STYLES);
      for (const state of PSEUDO[name] ?? []) {
        const s = keepKnown(el[state], VALID_STYLES);
        if (Object.keys(s).length) kept[state] = s;
      }
      if (Object.keys(kept).length) elements[name] = kept;
    }
    if (Object.keys(elements).length) out.elements = elements;
  }
  if (withBlocks && isObject(styles.blocks)) {
    const blocks: Json = {};
    for (const [name, block] of Object.entries(styles.blocks)) {
      const kept = BLOCK_NAME.test(name) ? sanitizeStyles(block, false) : {};
      if (Object.keys(kept).length) blocks[name] = kept;
    }
    if (Object.keys(blocks).length) out.blocks = blocks;
  }
  return out;
}

function sanitizeSettings(settings: unknown): Json {
  const out = keepKnown(settings, VALID_SETTINGS);
  if (isObject(settings) && isObject(settings.blocks)) {
    const blocks: Json = {};
    for (const [name, block] of Object.entries(settings.blocks)) {
      const kept = BLOCK_NAME.test(name) ? keepKnown(block, VALID_SETTINGS) : {};
      if (Object.keys(kept).length) blocks[name] = kept;
    }
    if (Object.keys(blocks).length) out.blocks = blocks;
  }
  return out;
}

/** Where theme.json keeps presets (WP_Theme_JSON::PRESETS_METADATA paths). */
const PRESET_PATHS = [['color', 'palette'], ['color', 'gradients'], ['color', 'duotone'], ['typography', 'fontSizes'], ['typography', 'fontFamilies'], ['spacing', 'spacingSizes']] as const;

/** WP_Theme_JSON's constructor: a list of presets becomes `{origin: list}` (at the top and in each block's settings). */
function presetsByOrigin(settings: Json, origin: string): Json {
  const keyed = (node: Json): Json => {
    const out: Json = { ...node };
    for (const [section, key] of PRESET_PATHS) {
      const s = out[section];
      if (isObject(s) && Array.isArray(s[key])) out[section] = { ...s, [key]: { [origin]: s[key] } };
    }
    return out;
  };
  const out = keyed(settings);
  if (isObject(out.blocks)) out.blocks = Object.fromEntries(Object.entries(out.blocks).map(([name, b]) => [name, isObject(b) ? keyed(b) : b]));
  return out;
}

/** A theme.json object as WP_Theme_JSON keeps it for an origin (`default` for WordPress's own, `theme`, or `custom` for the user's): what it knows of settings and styles. */
export function themeJsonData(config: { settings?: unknown; styles?: unknown }, origin: 'default' | 'theme' | 'custom'): { settings: Json; styles: Json } {
  return { settings: presetsByOrigin(sanitizeSettings(config.settings), origin), styles: sanitizeStyles(config.styles, true) };
}

/** The stored content read back: null unless it is a user theme.json (isGlobalStylesUserThemeJSON). */
export function userConfigOf(content: string): { settings?: unknown; styles?: unknown } | null {
  try {
    const parsed: unknown = JSON.parse(content);
    return isObject(parsed) && parsed.isGlobalStylesUserThemeJSON === true ? parsed : null;
  } catch {
    return null;
  }
}

/** WP_Theme_JSON_Resolver::get_style_variations: each of the theme's variations as theme.json data, titled by its file name unless it has a title. */
export function styleVariations(): Json[] {
  return THEME_STYLE_FILES.flatMap(({ name, json }) => {
    if (!isObject(json)) return [];
    const { settings, styles } = themeJsonData(json, 'theme');
    const variation: Json = { version: THEME_JSON_VERSION };
    if (Object.keys(settings).length) variation.settings = settings;
    if (Object.keys(styles).length) variation.styles = styles;
    variation.title = typeof json.title === 'string' && json.title ? json.title : name;
    return [variation];
  });
}

/** The site's own settings and styles for the active theme (its published global styles post), as read back; null when it has none. */
export async function userThemeJson(store: Store): Promise<{ settings: Json; styles: Json } | null> {
  const id = await userGlobalStylesId(store, false);
  const post = id ? await store.posts.get(id) : undefined;
  const config = post ? userConfigOf(post.content) : null;
  return config ? themeJsonData(config, 'custom') : null;
}
