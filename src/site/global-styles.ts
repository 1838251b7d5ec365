import { THEME_JSON } from '../core/active-theme.ts';
import { themeJsonData, userThemeJson } from '../core/global-styles.ts';
import type { Store } from '../store/index.ts';

/**
 * The global styles stylesheet (wp_get_global_stylesheet) for the site's own global styles: the
 * theme's and the site's presets as custom properties, then the styles of the page and of its
 * elements (links, headings, buttons, captions), the site's over the theme's. Printed only while
 * the site has global styles of its own; the theme's stylesheet already styles the rest. Block
 * styles are not printed: the site renders no blocks of its own.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** WP_Theme_JSON::PRESETS_METADATA: where each preset lives, its value key and its custom property prefix. */
const PRESETS = [
  { path: ['color', 'palette'], value: 'color', prefix: 'color' },
  { path: ['color', 'gradients'], value: 'gradient', prefix: 'gradient' },
  { path: ['typography', 'fontSizes'], value: 'size', prefix: 'font-size' },
  { path: ['typography', 'fontFamilies'], value: 'fontFamily', prefix: 'font-family' },
  { path: ['spacing', 'spacingSizes'], value: 'size', prefix: 'spacing' },
] as const;

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

const slugOk = (s: unknown): s is string => typeof s === 'string' && /^[a-z0-9-]+$/i.test(s);

function presetVariables(settings: Json): string[] {
  const out: string[] = [];
  for (const p of PRESETS) {
    const byOrigin = (settings[p.path[0]] as Json | undefined)?.[p.path[1]];
    if (!isObject(byOrigin)) continue;
    for (const origin of ['default', 'theme', 'custom']) {
      const list = byOrigin[origin];
      if (!Array.isArray(list)) continue;
      for (const preset of list) {
        const value = isObject(preset) ? cssValue(preset[p.value]) : null;
        if (value && slugOk(preset.slug)) out.push(`--wp--preset--${p.prefix}--${preset.slug}: ${value};`);
      }
    }
  }
  return out;
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

/** The `<style id="global-styles-inline-css">` element, or '' while the site has no global styles of its own. */
export async function globalStylesHtml(store: Store): Promise<string> {
  const user = await userThemeJson(store);
  if (!user || (!Object.keys(user.settings).length && !Object.keys(user.styles).length)) return '';
  const theme = themeJsonData(THEME_JSON, 'theme');
  const settings = merged(theme.settings, user.settings) as Json;
  const styles = merged(theme.styles, user.styles) as Json;
  const css = [rule('body', [...presetVariables(settings), ...declarations(styles)])];
  const elements = isObject(styles.elements) ? styles.elements : {};
  for (const [name, selector] of Object.entries(ELEMENT_SELECTORS)) {
    const el = elements[name];
    if (!isObject(el)) continue;
    css.push(rule(selector, declarations(el)));
    for (const state of [':hover', ':focus', ':active', ':visited']) {
      if (el[state] !== undefined) css.push(rule(selector.split(', ').map((s) => `${s}${state}`).join(', '), declarations(el[state])));
    }
  }
  return `\n<style id="global-styles-inline-css">\n${css.filter(Boolean).join('')}\n</style>`;
}
