import { THEME_JSON } from '../core/active-theme.ts';
import { kebabCase } from '../core/block-library/supports/style-engine.ts';
import { CORE_THEME_JSON } from '../core/core-theme-json.ts';
import { themeJsonData, userThemeJson } from '../core/global-styles.ts';
import { spacingSizes } from '../core/spacing-sizes.ts';
import type { Store } from '../store/index.ts';

/**
 * The global styles stylesheet (wp_get_global_stylesheet), printed on every page as WordPress 6.1
 * prints it: the presets of WordPress's own theme.json, the theme's and the site's, merged as
 * WP_Theme_JSON_Resolver::get_merged_data merges them (spacing sizes generated from the merged
 * scale), as custom properties on `body` and as their `.has-…` classes. This theme has a
 * theme.json and block templates, so WordPress would also print its `styles` (layout, elements,
 * blocks); the theme's stylesheet already styles the page, so of those only the site's own
 * global styles are printed (the page and its elements: links, headings, buttons, captions, the
 * site's over the theme's), between the variables and the classes, where WordPress prints styles.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface PresetKind {
  path: readonly [string, string];
  /** The preset's value: a key of it, or computed from it (value_func). */
  value: (preset: Json) => unknown;
  prefix: string;
  /** The setting that keeps the theme from redefining a default preset's slug (prevent_override). */
  preventOverride?: readonly [string, string];
  /** The classes each slug gets, and the CSS property each sets. */
  classes: readonly (readonly [string, string])[];
}

/**
 * WP_Theme_JSON::PRESETS_METADATA in WordPress 6.1, in its order. A font size is its size as is:
 * this theme does not turn on fluid typography (wp_get_typography_font_size_value).
 */
const PRESETS: readonly PresetKind[] = [
  {
    path: ['color', 'palette'], value: (p) => p.color, prefix: 'color', preventOverride: ['color', 'defaultPalette'],
    classes: [['.has-$slug-color', 'color'], ['.has-$slug-background-color', 'background-color'], ['.has-$slug-border-color', 'border-color']],
  },
  { path: ['color', 'gradients'], value: (p) => p.gradient, prefix: 'gradient', preventOverride: ['color', 'defaultGradients'], classes: [['.has-$slug-gradient-background', 'background']] },
  // wp_get_duotone_filter_property: the SVG filter of that slug, or none
  { path: ['color', 'duotone'], value: (p) => (p.colors === 'unset' ? 'none' : `url('#wp-duotone-${String(p.slug)}')`), prefix: 'duotone', preventOverride: ['color', 'defaultDuotone'], classes: [] },
  { path: ['typography', 'fontSizes'], value: (p) => p.size, prefix: 'font-size', classes: [['.has-$slug-font-size', 'font-size']] },
  { path: ['typography', 'fontFamilies'], value: (p) => p.fontFamily, prefix: 'font-family', classes: [['.has-$slug-font-family', 'font-family']] },
  { path: ['spacing', 'spacingSizes'], value: (p) => p.size, prefix: 'spacing', classes: [] },
];

const ORIGINS = ['default', 'theme', 'custom'] as const;

/** The selectors of theme.json's elements in WordPress 6.1. */
const ELEMENT_SELECTORS: Readonly<Record<string, string>> = {
  link: 'a:where(:not(.wp-element-button))',
  heading: 'h1, h2, h3, h4, h5, h6',
  h1: 'h1', h2: 'h2', h3: 'h3', h4: 'h4', h5: 'h5', h6: 'h6',
  button: '.wp-element-button, .wp-block-button__link',
  caption: '.wp-element-caption, .wp-block-audio figcaption, .wp-block-embed figcaption, .wp-block-gallery figcaption, .wp-block-image figcaption, .wp-block-table figcaption, .wp-block-video figcaption',
};

/** theme.json style properties and the CSS properties they set (WP_Theme_JSON::PROPERTIES_METADATA). */
const PROPERTIES: Readonly<Record<string, string>> = {
  'color.background': 'background-color',
  'color.gradient': 'background',
  'color.text': 'color',
  'typography.fontFamily': 'font-family',
  'typography.fontSize': 'font-size',
  'typography.fontStyle': 'font-style',
  'typography.fontWeight': 'font-weight',
  'typography.letterSpacing': 'letter-spacing',
  'typography.lineHeight': 'line-height',
  'typography.textDecoration': 'text-decoration',
  'typography.textTransform': 'text-transform',
  'border.color': 'border-color',
  'border.radius': 'border-radius',
  'border.style': 'border-style',
  'border.width': 'border-width',
  'spacing.margin': 'margin',
  'spacing.padding': 'padding',
};

/**
 * A value as CSS: `var:preset|color|accent` is that preset's custom property; anything that could
 * leave the declaration or the style element (braces, semicolons, angle brackets, backslashes) is
 * dropped, as safecss_filter_attr drops it.
 */
function cssValue(v: unknown): string | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  let s = String(v).trim();
  if (s.startsWith('var:')) s = `var(--wp--${s.slice(4).split('|').join('--')})`;
  return s && !/[{};<>\\]/.test(s) ? s : null;
}

const slugOk = (s: unknown): s is string => typeof s === 'string' && /^[a-z0-9-]+$/.test(s);

const at = (node: Json, path: readonly string[]): unknown => path.reduce<unknown>((n, k) => (isObject(n) ? n[k] : undefined), node);

/** A preset kind's lists by origin, in the order WordPress reads them. */
function presetLists(settings: Json, kind: PresetKind): Json[][] {
  const byOrigin = at(settings, kind.path);
  if (!isObject(byOrigin)) return [];
  return ORIGINS.map((origin) => byOrigin[origin]).filter(Array.isArray).map((list) => list.filter(isObject));
}

/** get_settings_values_by_slug: each slug's value, a later origin's replacing an earlier one's in place. */
function valuesBySlug(settings: Json, kind: PresetKind): Map<string, string> {
  const out = new Map<string, string>();
  for (const list of presetLists(settings, kind)) {
    for (const preset of list) {
      const slug = typeof preset.slug === 'string' ? kebabCase(preset.slug) : '';
      const value = cssValue(kind.value(preset));
      if (slugOk(slug) && value) out.set(slug, value);
    }
  }
  return out;
}

/** settings.custom as `--wp--custom--*` properties (compute_theme_vars, flatten_tree). */
function customVariables(tree: unknown, prefix: string): string[] {
  if (!isObject(tree)) return [];
  return Object.entries(tree).flatMap(([key, value]) => {
    const name = `${prefix}${kebabCase(key)}`;
    if (isObject(value)) return customVariables(value, `${name}--`);
    const css = cssValue(value);
    return css && slugOk(name) ? [`--wp--custom--${name}: ${css};`] : [];
  });
}

/** get_css_variables for the root: every preset's custom property, then the custom ones. */
function presetVariables(settings: Json): string[] {
  const presets = PRESETS.flatMap((kind) => [...valuesBySlug(settings, kind)].map(([slug, value]) => `--wp--preset--${kind.prefix}--${slug}: ${value};`));
  return [...presets, ...customVariables(settings.custom, '')];
}

/** compute_preset_classes for the root: each class of each kind, for each slug of any origin. */
function presetClasses(settings: Json): string {
  return PRESETS.flatMap((kind) => {
    const slugs = [...new Set(presetLists(settings, kind).flatMap((list) => list.map((p) => (typeof p.slug === 'string' ? kebabCase(p.slug) : ''))))].filter(slugOk);
    return kind.classes.flatMap(([cls, property]) => slugs.map((slug) => `${cls.replace('$slug', slug)}{${property}: var(--wp--preset--${kind.prefix}--${slug}) !important;}`));
  }).join('');
}

/**
 * WP_Theme_JSON::merge of the theme over WordPress's defaults: where the defaults' switch is on
 * (defaultPalette, defaultGradients, defaultDuotone), the theme's presets of a default's slug are left out.
 */
function themeOverDefaults(defaults: Json, theme: Json): Json {
  const settings = merged(defaults, theme) as Json;
  for (const kind of PRESETS) {
    const byOrigin = at(settings, kind.path);
    if (!kind.preventOverride || (at(settings, kind.preventOverride) ?? true) === false || !isObject(byOrigin) || !Array.isArray(byOrigin.theme)) continue;
    const defaultSlugs = Array.isArray(byOrigin.default) ? byOrigin.default.filter(isObject).map((p) => p.slug) : [];
    byOrigin.theme = byOrigin.theme.filter((p) => isObject(p) && p.slug !== undefined && !defaultSlugs.includes(p.slug));
  }
  return settings;
}

/** WP_Theme_JSON_Resolver::get_merged_data's settings: WordPress's, the theme's, the site's, then the spacing sizes of the merged scale. */
function mergedSettings(user: Json): Json {
  const defaults = themeJsonData(CORE_THEME_JSON, 'default').settings;
  const settings = merged(themeOverDefaults(defaults, themeJsonData(THEME_JSON, 'theme').settings), user) as Json;
  const sizes = spacingSizes(at(settings, ['spacing', 'spacingScale']));
  if (sizes) {
    const spacing = isObject(settings.spacing) ? settings.spacing : {};
    const bySlugOrigin = isObject(spacing.spacingSizes) ? spacing.spacingSizes : {};
    settings.spacing = { ...spacing, spacingSizes: { ...bySlugOrigin, default: sizes } };
  }
  return settings;
}

function declarations(node: unknown): string[] {
  if (!isObject(node)) return [];
  const out: string[] = [];
  for (const [path, property] of Object.entries(PROPERTIES)) {
    const [section, key] = path.split('.');
    const value = (node[section] as Json | undefined)?.[key];
    if (isObject(value) && (key === 'margin' || key === 'padding')) {
      for (const side of ['top', 'right', 'bottom', 'left']) {
        const v = cssValue(value[side]);
        if (v) out.push(`${property}-${side}: ${v};`);
      }
      continue;
    }
    const v = cssValue(value);
    if (v) out.push(`${property}: ${v};`);
  }
  return out;
}

/** Objects merged key by key, the second winning (WP_Theme_JSON::merge for styles). */
function merged(a: unknown, b: unknown): unknown {
  if (!isObject(a) || !isObject(b)) return b === undefined ? a : b;
  const out: Json = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = merged(a[k], v);
  return out;
}

const rule = (selector: string, decls: string[]) => (decls.length ? `${selector}{${decls.join('')}}` : '');

/** The site's own global styles over the theme's: the page's, then each element's and its states'. */
function siteStyles(user: Json): string[] {
  const styles = merged(themeJsonData(THEME_JSON, 'theme').styles, user) as Json;
  const css = [rule('body', declarations(styles))];
  const elements = isObject(styles.elements) ? styles.elements : {};
  for (const [name, selector] of Object.entries(ELEMENT_SELECTORS)) {
    const el = elements[name];
    if (!isObject(el)) continue;
    css.push(rule(selector, declarations(el)));
    for (const state of [':hover', ':focus', ':active', ':visited']) {
      if (el[state] !== undefined) css.push(rule(selector.split(', ').map((s) => `${s}${state}`).join(', '), declarations(el[state])));
    }
  }
  return css;
}

/** The `<style id="global-styles-inline-css">` element every page prints. */
export async function globalStylesHtml(store: Store): Promise<string> {
  const user = await userThemeJson(store);
  const settings = mergedSettings(user?.settings ?? {});
  const ownStyles = user && Object.keys(user.styles).length ? siteStyles(user.styles) : [];
  const css = [rule('body', presetVariables(settings)), ...ownStyles, presetClasses(settings)];
  return `\n<style id="global-styles-inline-css">\n${css.filter(Boolean).join('')}\n</style>`;
}
