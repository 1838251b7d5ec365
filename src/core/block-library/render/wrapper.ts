import type { RenderedBlock } from '../../blocks.ts';
import { escapeAttr } from '../../../format/format.ts';
import allowed from '../../../format/kses-allowed-html.json' with { type: 'json' };
import { kebabCase, UNSAFE_CSS, withoutAllowedFunctions } from '../supports/style-engine.ts';
import { truthy } from '../../../format/php-values.ts';
import { blockDefaultClassName } from '../supports/wrapper.ts';

/**
 * get_block_wrapper_attributes (WordPress 6.1): the `style` and `class` a dynamic block's wrapper
 * gets from the supports of its type and the attributes as written (WP_Block_Supports::
 * apply_block_supports, in the order wp-settings.php registers the supports: align, border,
 * colors, custom-classname, generated-classname, spacing, typography), merged with the callback's
 * own attributes. Layout, elements and duotone change the rendered HTML afterwards instead.
 */

type Json = Record<string, unknown>;
type Declarations = [property: string, value: string][];

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const at = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), v);
/** PHP's empty(). */
const empty = (v: unknown) => !truthy(v);
/** The style engine's is_valid_style_value: '0' or anything not empty. */
const valid = (v: unknown) => v === '0' || !empty(v);
/** PHP's is_numeric for what block attributes hold. */
const numeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v));

/** block_has_support: the support set to true or to an object of settings. */
function hasSupport(supports: Json, path: string[], fallback = false): boolean {
  const v = at(supports, ...path);
  const value = v === undefined ? fallback : v;
  return value === true || (value !== null && typeof value === 'object');
}

/** wp_should_skip_block_supports_serialization: `__experimentalSkipSerialization` true, or listing the feature. */
function skipped(supports: Json, featureSet: string, feature?: string): boolean {
  const skip = at(supports, featureSet, '__experimentalSkipSerialization');
  return Array.isArray(skip) ? feature !== undefined && skip.includes(feature) : Boolean(skip);
}

/** A `var:preset|<kind>|<slug>` value's slug (get_slug_from_preset_value), '' for any other value. */
function presetSlug(value: unknown, kind: string): string {
  return typeof value === 'string' && value.includes(`var:preset|${kind}|`) ? kebabCase(value.slice(value.lastIndexOf('|') + 1)) : '';
}

/** One style definition of the style engine (WP_Style_Engine::BLOCK_STYLE_DEFINITIONS_METADATA). */
interface StyleDefinition {
  key: string;
  property: string;
  /** `border-%s-color`: the property of one side, for a value given per side. */
  individual?: string;
  /** The preset kind a `var:preset|kind|slug` value names, and the custom property it stands for. */
  cssVar?: { kind: string; pattern: string };
  /** Class names: true always, a preset kind when the value is such a preset (`$slug` replaced). */
  classes?: [name: string, kind: true | string][];
  /** A border side (`top`...): its color, style and width, each as that side's property. */
  side?: boolean;
}

const COLOR_VAR = { kind: 'color', pattern: '--wp--preset--color--$slug' };
const SPACING_VAR = { kind: 'spacing', pattern: '--wp--preset--spacing--$slug' };

const STYLE_DEFINITIONS: Record<string, StyleDefinition[]> = {
  color: [
    { key: 'text', property: 'color', cssVar: COLOR_VAR, classes: [['has-text-color', true], ['has-$slug-color', 'color']] },
    { key: 'background', property: 'background-color', classes: [['has-background', true], ['has-$slug-background-color', 'color']] },
    { key: 'gradient', property: 'background', classes: [['has-background', true], ['has-$slug-gradient-background', 'gradient']] },
  ],
  border: [
    { key: 'color', property: 'border-color', individual: 'border-%s-color', classes: [['has-border-color', true], ['has-$slug-border-color', 'color']] },
    { key: 'radius', property: 'border-radius', individual: 'border-%s-radius' },
    { key: 'style', property: 'border-style', individual: 'border-%s-style' },
    { key: 'width', property: 'border-width', individual: 'border-%s-width' },
    ...['top', 'right', 'bottom', 'left'].map((key) => ({ key, property: '', side: true, cssVar: COLOR_VAR })),
  ],
  spacing: [
    { key: 'padding', property: 'padding', individual: 'padding-%s', cssVar: SPACING_VAR },
    { key: 'margin', property: 'margin', individual: 'margin-%s', cssVar: SPACING_VAR },
  ],
  typography: [
    { key: 'fontSize', property: 'font-size', classes: [['has-$slug-font-size', 'font-size']] },
    { key: 'fontFamily', property: 'font-family', classes: [['has-$slug-font-family', 'font-family']] },
    { key: 'fontStyle', property: 'font-style' },
    { key: 'fontWeight', property: 'font-weight' },
    { key: 'lineHeight', property: 'line-height' },
    { key: 'textDecoration', property: 'text-decoration' },
    { key: 'textTransform', property: 'text-transform' },
    { key: 'letterSpacing', property: 'letter-spacing' },
  ],
};

/** get_css_var_value: `var(--wp--preset--color--slug)` for a preset value, '' otherwise. */
function cssVarValue(value: unknown, cssVar: StyleDefinition['cssVar']): string {
  const slug = cssVar ? presetSlug(value, cssVar.kind) : '';
  return valid(slug) ? `var(${cssVar!.pattern.replace('$slug', slug)})` : '';
}

/** WP_Style_Engine::get_css_declarations (and get_individual_property_css_declarations for a border side). */
function declarationsOf(group: string, value: unknown, def: StyleDefinition, classesForVars: boolean): Declarations {
  if (def.side) {
    if (!isObject(value)) return [];
    const out: Declarations = [];
    for (const [property, v] of Object.entries(value)) {
      if (empty(v)) continue;
      const individual = STYLE_DEFINITIONS[group].find((d) => d.key === property)?.individual;
      if (!individual) continue;
      const resolved = typeof v === 'string' && v.includes('var:') && !classesForVars ? cssVarValue(v, def.cssVar) : v;
      out.push([individual.replace('%s', def.key), String(resolved)]);
    }
    return out;
  }
  if (typeof value === 'string' && value.includes('var:')) {
    if (classesForVars || !def.cssVar) return [];
    const v = cssVarValue(value, def.cssVar);
    return valid(v) ? [[def.property, v]] : [];
  }
  if (isObject(value) || Array.isArray(value)) {
    if (!def.individual) return [];
    const out: Declarations = [];
    for (const [side, raw] of Object.entries(value)) {
      const v = typeof raw === 'string' && raw.includes('var:') && !classesForVars && def.cssVar ? cssVarValue(raw, def.cssVar) : raw;
      if (valid(v)) out.push([def.individual.replace('%s', kebabCase(side)), String(v)]);
    }
    return out;
  }
  return [[def.property, String(value)]];
}

/** What wp_style_engine_get_styles answers: the class names and the declarations as one `style` value. */
interface EngineStyles {
  classes: string;
  css: string;
}

const SAFE_PROPERTIES = new Set(allowed.safeStyleProperties);
const URL_PROPERTIES = new Set(['background', 'background-image', 'cursor', 'list-style', 'list-style-image']);
const GRADIENT_PROPERTIES = new Set(['background', 'background-image']);
const GRADIENT = /^(repeating-)?(linear|radial|conic)-gradient\(([^()]|rgba?\([^()]*\))*\)$/;

/**
 * safecss_filter_attr of one `property:value`: the parts between semicolons that name a safe
 * property (or a custom one) and whose value, without its url()s of an allowed protocol, its
 * gradient and its var(), calc(), min(), max(), minmax() and clamp(), has none of `\ ( & = }` nor a comment.
 */
export function safeCss(css: string): string {
  const kept: string[] = [];
  for (const raw of css.replace(/[\n\r\t]/g, '').trim().split(';')) {
    if (raw === '') continue;
    const item = raw.trim();
    let test = item;
    let found = !item.includes(':');
    if (!found) {
      const colon = item.indexOf(':');
      const property = item.slice(0, colon).trim();
      const value = item.slice(colon + 1).trim();
      const custom = /^--[a-zA-Z0-9_-]+$/.test(property);
      found = custom || SAFE_PROPERTIES.has(property);
      const urls = custom ? value.startsWith('url(') : URL_PROPERTIES.has(property);
      const gradients = custom ? value.includes('-gradient(') : GRADIENT_PROPERTIES.has(property);
      if (found && urls)
        for (const match of value.match(/url\([^)]+\)/g) ?? []) {
          const url = /^url\(\s*(['"]?)(.*)\1\s*\)$/.exec(match)?.[2]?.trim() ?? '';
          if (!url || /^\s*(javascript|data|vbscript):/i.test(url)) {
            found = false;
            break;
          }
          test = test.replace(match, '');
        }
      if (found && gradients && GRADIENT.test(value)) test = test.replace(value, '');
    }
    if (found && !UNSAFE_CSS.test(withoutAllowedFunctions(test))) kept.push(item);
  }
  return kept.join(';');
}

/** wp_style_engine_get_styles of one group of a block's styles. */
function engineStyles(group: string, styles: Json, classesForVars: boolean): EngineStyles {
  const classes: string[] = [];
  const declarations = new Map<string, string>();
  for (const def of STYLE_DEFINITIONS[group]) {
    const value = styles[def.key];
    if (!valid(value)) continue;
    for (const [name, kind] of def.classes ?? []) {
      if (kind === true) classes.push(name);
      const slug = presetSlug(value, kind as string);
      if (slug) classes.push(name.replace('$slug', slug));
    }
    for (const [property, v] of declarationsOf(group, value, def, classesForVars)) {
      const trimmed = v.trim();
      if (trimmed !== '') declarations.set(property.toLowerCase().replace(/[^a-z0-9_-]/g, ''), trimmed);
    }
  }
  // get_declarations_string: each declaration without tags, through safecss_filter_attr, ended by `;`
  let css = '';
  for (const [p, v] of declarations) {
    const value = v.replace(/<[^>]*>/g, '').trim();
    const filtered = value === '' ? '' : safeCss(`${p}:${value}`);
    if (filtered) css += `${filtered};`;
  }
  return { classes: [...new Set(classes)].join(' '), css };
}

/** wp_style_engine_get_styles( array( 'border' => … ) ): the border's class names and declarations, for a callback that styles an inner element with them. */
export function borderStyles(styles: Json): { class?: string; style?: string } {
  return fromEngine(engineStyles('border', styles, false));
}

/** A preset's value, or the custom one: `var:preset|color|x` for attribute `x`, else style's own value. */
const preset = (attrs: Json, attribute: string, kind: string, custom: unknown): unknown => (attribute in attrs ? `var:preset|${kind}|${String(attrs[attribute] ?? '')}` : custom);

type Added = { class?: string; style?: string };
const fromEngine = (s: EngineStyles): Added => ({ ...(s.classes ? { class: s.classes } : {}), ...(s.css ? { style: s.css } : {}) });

function alignSupport(supports: Json, attrs: Json): Added {
  return hasSupport(supports, ['align']) && 'align' in attrs ? { class: `align${String(attrs.align ?? '')}` } : {};
}

/** wp_apply_border_support: radius and width (a bare number in px), style, colour (a preset first), and each side's. */
function borderSupport(supports: Json, attrs: Json): Added {
  if (skipped(supports, 'border')) return {};
  const feature = (name: string) => at(supports, '__experimentalBorder') === true || hasSupport(supports, ['__experimentalBorder', name]);
  const skip = (name: string) => skipped(supports, '__experimentalBorder', name);
  const border = at(attrs, 'style', 'border');
  const own = (k: string) => at(border, k);
  const styles: Json = {};
  const px = (v: unknown) => (numeric(v) ? `${String(v)}px` : v);
  if (feature('radius') && own('radius') != null && !skip('radius')) styles.radius = px(own('radius'));
  if (feature('style') && own('style') != null && !skip('style')) styles.style = own('style');
  if (feature('width') && own('width') != null && !skip('width')) styles.width = px(own('width'));
  if (feature('color') && !skip('color')) styles.color = preset(attrs, 'borderColor', 'color', own('color') ?? null);
  if (feature('color') || feature('width'))
    for (const side of ['top', 'right', 'bottom', 'left']) {
      const b = own(side);
      const part = (k: string) => (at(b, k) != null && !skip(k) ? at(b, k) : null);
      styles[side] = { width: part('width'), color: part('color'), style: part('style') };
    }
  return empty(styles) ? {} : fromEngine(engineStyles('border', styles, false));
}

/** wp_apply_colors_support: text, background and gradient, a preset as its class, a custom value inline. */
function colorSupport(supports: Json, attrs: Json): Added {
  const color = supports.color;
  if (isObject(color) && skipped(supports, 'color')) return {};
  const on = (k: string, fallback: boolean) => color === true || (isObject(color) && (color[k] === undefined ? fallback : Boolean(color[k])));
  const styles: Json = {};
  if (on('text', true) && !skipped(supports, 'color', 'text')) styles.text = preset(attrs, 'textColor', 'color', at(attrs, 'style', 'color', 'text') ?? null);
  if (on('background', true) && !skipped(supports, 'color', 'background')) styles.background = preset(attrs, 'backgroundColor', 'color', at(attrs, 'style', 'color', 'background') ?? null);
  if (isObject(color) && Boolean(color.gradients) && !skipped(supports, 'color', 'gradients')) styles.gradient = preset(attrs, 'gradient', 'gradient', at(attrs, 'style', 'color', 'gradient') ?? null);
  return empty(styles) ? {} : fromEngine(engineStyles('color', styles, true));
}

function customClassNameSupport(supports: Json, attrs: Json): Added {
  return hasSupport(supports, ['customClassName'], true) && 'className' in attrs ? { class: String(attrs.className ?? '') } : {};
}

function generatedClassNameSupport(supports: Json, name: string): Added {
  return hasSupport(supports, ['className'], true) ? { class: blockDefaultClassName(name) } : {};
}

function spacingSupport(supports: Json, attrs: Json): Added {
  if (skipped(supports, 'spacing') || empty(attrs.style)) return {};
  const styles: Json = {
    padding: hasSupport(supports, ['spacing', 'padding']) && !skipped(supports, 'spacing', 'padding') ? (at(attrs, 'style', 'spacing', 'padding') ?? null) : null,
    margin: hasSupport(supports, ['spacing', 'margin']) && !skipped(supports, 'spacing', 'margin') ? (at(attrs, 'style', 'spacing', 'margin') ?? null) : null,
  };
  const css = engineStyles('spacing', styles, false).css;
  return css ? { style: css } : {};
}

/** wp_typography_get_preset_inline_style_value: a `var:preset|<property>|slug` as its custom property. */
function presetInline(value: unknown, property: string): unknown {
  if (empty(value) || typeof value !== 'string' || !value.includes(`var:preset|${property}|`)) return value;
  return `var(--wp--preset--${property}--${kebabCase(value.slice(value.lastIndexOf('|') + 1))});`;
}

/**
 * wp_apply_typography_support. A custom font size is written as given: this site's theme does not
 * turn on fluid typography (WordPress's twentytwentythree does, and writes a clamp() instead).
 */
function typographySupport(supports: Json, attrs: Json): Added {
  const t = supports.typography;
  if (empty(t) || skipped(supports, 'typography')) return {};
  const has = (k: string) => !empty(at(t, k));
  const skip = (k: string) => skipped(supports, 'typography', k);
  const own = (k: string) => at(attrs, 'style', 'typography', k);
  const styles: Json = {};
  if (has('fontSize') && !skip('fontSize')) styles.fontSize = preset(attrs, 'fontSize', 'font-size', own('fontSize') ?? null);
  if (has('__experimentalFontFamily') && !skip('fontFamily')) styles.fontFamily = preset(attrs, 'fontFamily', 'font-family', own('fontFamily') != null ? presetInline(own('fontFamily'), 'font-family') : null);
  const inline: [support: string, key: string, property: string][] = [
    ['__experimentalFontStyle', 'fontStyle', 'font-style'],
    ['__experimentalFontWeight', 'fontWeight', 'font-weight'],
  ];
  for (const [support, key, property] of inline) if (has(support) && !skip(key) && own(key) != null) styles[key] = presetInline(own(key), property);
  if (has('lineHeight') && !skip('lineHeight')) styles.lineHeight = own('lineHeight') ?? null;
  const more: [support: string, key: string, property: string][] = [
    ['__experimentalTextDecoration', 'textDecoration', 'text-decoration'],
    ['__experimentalTextTransform', 'textTransform', 'text-transform'],
    ['__experimentalLetterSpacing', 'letterSpacing', 'letter-spacing'],
  ];
  for (const [support, key, property] of more) if (has(support) && !skip(key) && own(key) != null) styles[key] = presetInline(own(key), property);
  return empty(styles) ? {} : fromEngine(engineStyles('typography', styles, true));
}

/** WP_Block_Supports::apply_block_supports: each support's class and style, joined by a space in registration order. */
function blockSupports(block: RenderedBlock): Added {
  const supports = (block.supports ?? {}) as Json;
  const attrs = block.parsedAttributes;
  const out: Added = {};
  for (const added of [
    alignSupport(supports, attrs),
    borderSupport(supports, attrs),
    colorSupport(supports, attrs),
    customClassNameSupport(supports, attrs),
    generatedClassNameSupport(supports, block.name),
    spacingSupport(supports, attrs),
    typographySupport(supports, attrs),
  ])
    for (const k of ['class', 'style'] as const) {
      const v = added[k];
      if (empty(v)) continue;
      out[k] = empty(out[k]) ? v : `${out[k]} ${v}`;
    }
  return out;
}

/**
 * get_block_wrapper_attributes: `style="…" class="…"` then the callback's other attributes, each
 * escaped; the callback's class and style go before the supports'. '' when there is none.
 */
export function wrapperAttributes(block: RenderedBlock, extra: Readonly<Record<string, string>> = {}): string {
  const added = blockSupports(block);
  const attributes: [string, string][] = [];
  for (const k of ['style', 'class'] as const) {
    const mine = added[k];
    const theirs = extra[k];
    if (empty(mine) && empty(theirs)) continue;
    attributes.push([k, empty(mine) ? theirs! : empty(theirs) ? mine! : `${theirs} ${mine}`]);
  }
  for (const [k, v] of Object.entries(extra)) if (k !== 'style' && k !== 'class') attributes.push([k, v]);
  return attributes.map(([k, v]) => `${k}="${escapeAttr(v)}"`).join(' ');
}
