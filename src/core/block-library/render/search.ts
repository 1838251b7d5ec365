import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { escapeAttr, stripAllTags } from '../../../format/format.ts';
import { kses } from '../../../format/kses.ts';
import { uniqueId } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';
import { truthy } from '../../../format/php-values.ts';

/** render_block_core_search (WordPress 6.1): a search form to the home URL, labelled, its button inside, outside or alone. */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** PHP's `! empty()` of an attribute. */
const given = truthy;
const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), o);

const SEARCH_ICON = `<svg class="search-icon" viewBox="0 0 24 24" width="24" height="24">
					<path d="M13.5 6C10.5 6 8 8.5 8 11.5c0 1.1.3 2.1.9 3l-3.4 3 1 1.1 3.4-2.9c1 .9 2.2 1.4 3.6 1.4 3 0 5.5-2.5 5.5-5.5C19 8.5 16.5 6 13.5 6zm0 9.5c-2.2 0-4-1.8-4-4s1.8-4 4-4 4 1.8 4 4-1.8 4-4 4z"></path>
				</svg>`;

/** classnames_for_block_core_search. */
function formClasses(a: Json): string {
  const classes: string[] = [];
  const position = given(a.buttonPosition) ? String(a.buttonPosition) : '';
  if (['button-inside', 'button-outside', 'no-button', 'button-only'].includes(position)) classes.push(`wp-block-search__${position}`);
  if (a.buttonUseIcon !== undefined && a.buttonUseIcon !== null && position && position !== 'no-button') classes.push(a.buttonUseIcon ? 'wp-block-search__icon-button' : 'wp-block-search__text-button');
  return classes.join(' ');
}

/** get_color_classes_for_block_core_search: the button's colour classes. */
function colorClasses(a: Json): string {
  const classes: string[] = [];
  if (given(a.textColor)) classes.push(`has-text-color has-${a.textColor}-color`);
  else if (given(at(a, 'style', 'color', 'text'))) classes.push('has-text-color');
  if (given(a.backgroundColor) || given(at(a, 'style', 'color', 'background')) || given(a.gradient) || given(at(a, 'style', 'color', 'gradient'))) classes.push('has-background');
  if (given(a.backgroundColor)) classes.push(`has-${a.backgroundColor}-background-color`);
  if (given(a.gradient)) classes.push(`has-${a.gradient}-gradient-background`);
  return classes.join(' ');
}

/** get_typography_classes_for_block_core_search. */
function typographyClasses(a: Json): string {
  const classes: string[] = [];
  if (given(a.fontSize)) classes.push(`has-${escapeAttr(String(a.fontSize))}-font-size`);
  if (given(a.fontFamily)) classes.push(`has-${escapeAttr(String(a.fontFamily))}-font-family`);
  return classes.join(' ');
}

/** get_border_color_classes_for_block_core_search. */
function borderColorClasses(a: Json): string {
  const classes: string[] = [];
  if (given(at(a, 'style', 'border', 'color')) || given(a.borderColor)) classes.push('has-border-color');
  if (given(a.borderColor)) classes.push(`has-${escapeAttr(String(a.borderColor))}-border-color`);
  return classes.join(' ');
}

/** get_typography_styles_for_block_core_search (fluid typography is off in this theme, so a font size is printed as given). */
function typographyStyles(a: Json): string {
  const t = at(a, 'style', 'typography');
  const out: string[] = [];
  for (const [key, property] of [['fontSize', 'font-size'], ['fontFamily', 'font-family'], ['letterSpacing', 'letter-spacing'], ['fontWeight', 'font-weight'], ['fontStyle', 'font-style'], ['lineHeight', 'line-height'], ['textTransform', 'text-transform']] as const) {
    const v = at(t, key);
    if (given(v)) out.push(`${property}: ${String(v)};`);
  }
  return out.join('');
}

/** safecss_filter_attr of declarations this renderer wrote: each kept, rejoined by `;` (so the last one loses its own). */
const joinedCss = (declarations: string[]) =>
  declarations
    .join(' ')
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .join(';');

const styleAttr = (declarations: string[]) => (declarations.length ? ` style="${escapeAttr(joinedCss(declarations))}"` : '');

/** styles_for_block_core_search: the wrapper's width, the borders and radius, the button's colours, the typography. */
function inlineStyles(a: Json): { input: string; button: string; wrapper: string; label: string } {
  const wrapper: string[] = [];
  const button: string[] = [];
  const input: string[] = [];
  const label: string[] = [];
  const inside = a.buttonPosition === 'button-inside';
  const showLabel = a.showLabel !== undefined && a.showLabel !== null && a.showLabel !== false;
  if (given(a.width) && given(a.widthUnit) && a.buttonPosition !== 'button-only') wrapper.push(`width: ${Math.trunc(Number.parseFloat(String(a.width)) || 0)}${escapeAttr(String(a.widthUnit))};`);
  for (const property of ['width', 'color', 'style']) {
    for (const side of [null, 'top', 'right', 'bottom', 'left']) {
      let value = side ? at(a, 'style', 'border', side, property) : at(a, 'style', 'border', property);
      if (!given(value)) continue;
      if (property === 'color' && side && String(value).includes('var:preset|color|')) value = `var(--wp--preset--color--${String(value).slice(String(value).lastIndexOf('|') + 1)})`;
      const declaration = `border-${side ? `${side}-${property}` : property}: ${escapeAttr(String(value))};`;
      if (inside) wrapper.push(declaration);
      else button.push(declaration), input.push(declaration);
    }
  }
  const radius = at(a, 'style', 'border', 'radius');
  if (given(radius)) {
    if (isObject(radius)) {
      for (const [key, value] of Object.entries(radius)) {
        if (value === null) continue;
        const name = key.replace(/(?<!^)[A-Z]/g, (c) => `-${c}`).toLowerCase();
        const declaration = `border-${escapeAttr(name)}-radius: ${escapeAttr(String(value))};`;
        input.push(declaration);
        button.push(declaration);
        if (inside && Number.parseInt(String(value), 10)) wrapper.push(`border-${escapeAttr(name)}-radius: calc(${escapeAttr(String(value))} + 4px);`);
      }
    } else {
      const r = typeof radius === 'number' || /^\s*-?\d+(\.\d+)?\s*$/.test(String(radius)) ? `${radius}px` : String(radius);
      input.push(`border-radius: ${escapeAttr(r)};`);
      button.push(`border-radius: ${escapeAttr(r)};`);
      if (inside && Number.parseInt(r, 10)) wrapper.push(`border-radius: calc(${escapeAttr(r)} + 4px);`);
    }
  }
  for (const [key, property] of [['text', 'color'], ['background', 'background-color'], ['gradient', 'background']] as const) {
    const v = at(a, 'style', 'color', key);
    if (given(v)) button.push(`${property}: ${String(v)};`);
  }
  const typography = escapeAttr(typographyStyles(a));
  if (typography) label.push(typography), button.push(typography), input.push(typography);
  const decoration = at(a, 'style', 'typography', 'textDecoration');
  if (given(decoration)) {
    button.push(`text-decoration: ${escapeAttr(String(decoration))};`);
    if (showLabel) label.push(`text-decoration: ${escapeAttr(String(decoration))};`);
  }
  return { input: styleAttr(input), button: styleAttr(button), wrapper: styleAttr(wrapper), label: styleAttr(label) };
}

export async function search(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  // older blocks saved no label or button text and mean WordPress's default, `Search`
  const a: Json = { label: 'Search', buttonText: 'Search', ...block.attributes };
  const id = uniqueId(ctx, 'wp-block-search__input-');
  const position = given(a.buttonPosition) ? String(a.buttonPosition) : '';
  const inside = position === 'button-inside';
  const styles = inlineStyles(a);
  const typography = typographyClasses(a);
  const borderColors = borderColorClasses(a);
  const colors = colorClasses(a);
  const labelHtml = given(a.label) ? await kses(String(a.label), 'post') : 'Search';
  let label = `<label for="${escapeAttr(id)}" class="wp-block-search__label screen-reader-text">${labelHtml}</label>`;
  if (given(a.showLabel) && given(a.label)) label = `<label for="${escapeAttr(id)}" class="${escapeAttr(['wp-block-search__label', typography].filter(Boolean).join(' '))}" ${styles.label}>${labelHtml}</label>`;
  let input = '';
  if (position !== 'button-only') {
    const classes = ['wp-block-search__input', ...(inside ? [borderColors] : []), ...(typography ? [typography] : [])];
    input = `<input type="search" id="${id}" class="wp-block-search__input ${escapeAttr(classes.join(' '))}" name="s" value="" placeholder="${escapeAttr(String(a.placeholder ?? ''))}" ${styles.input} required />`;
  }
  const query = isObject(a.query) ? Object.entries(a.query).map(([k, v]) => `<input type="hidden" name="${escapeAttr(k)}" value="${escapeAttr(String(v))}" />`).join('') : '';
  let button = '';
  if (position !== 'no-button') {
    const classes = ['wp-block-search__button', ...(colors ? [colors] : []), ...(typography ? [typography] : []), ...(!inside && borderColors ? [borderColors] : [])];
    let inner = '';
    let aria = '';
    if (!a.buttonUseIcon) {
      if (given(a.buttonText)) inner = await kses(String(a.buttonText), 'post');
    } else {
      aria = `aria-label="${escapeAttr(stripAllTags(String(a.buttonText ?? '')))}"`;
      classes.push('has-icon');
      inner = SEARCH_ICON;
    }
    // wp_theme_get_element_class_name( 'button' )
    classes.push('wp-element-button');
    button = `<button type="submit" class="${escapeAttr(classes.join(' '))}" ${styles.button} ${aria}>${inner}</button>`;
  }
  const field = `<div class="wp-block-search__inside-wrapper ${escapeAttr(inside ? borderColors : '')}" ${styles.wrapper}>${input}${query}${button}</div>`;
  return `<form role="search" method="get" action="${escapeAttr(`${ctx.site.home}/`)}" ${wrapperAttributes(block, { class: formClasses(a) })}>${label}${field}</form>`;
}
