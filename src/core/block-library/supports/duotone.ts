import { escapeAttr } from '../../../format/format.ts';
import type { BlockSupportsState } from './state.ts';
import { addClasses, type SupportedBlock } from './wrapper.ts';

/**
 * The duotone block support (wp-includes/block-supports/duotone.php, WordPress 6.1): a block
 * whose type supports `color.__experimentalDuotone` (its value the selectors to filter) and whose
 * attributes set `style.color.duotone` gets a `wp-duotone-<colours>-<N>` class, an inline style
 * that filters those selectors, and, unless the duotone is `unset`, the SVG filter in wp_footer.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** PHP's float to string (precision 14), as implode() prints the filter's table values. */
const phpFloat = (n: number) => String(Number(n.toPrecision(14)));

/** wp_tinycolor_bound01 times the maximum: clamped, truncated to an integer as PHP's `%` does, whole at the top. */
function channel(text: string): number {
  const n = Math.min(255, Math.max(0, Number.parseFloat(text) || 0));
  if (Math.abs(n - 255) < 0.000001) return 255;
  return Math.trunc(n) % 255;
}

/** _wp_tinycolor_bound_alpha: a number from 0 to 1, else 1. */
const alpha = (n: number) => (Number.isFinite(n) && n >= 0 && n <= 1 ? n : 1);

const UNIT = '(?:[-+]?\\d*\\.\\d+%?)|(?:[-+]?\\d+%?)';
const RGB = new RegExp(`^rgb[\\s|(]+(${UNIT})[,|\\s]+(${UNIT})[,|\\s]+(${UNIT})\\s*\\)?$`);
const RGBA = new RegExp(`^rgba[\\s|(]+(${UNIT})[,|\\s]+(${UNIT})[,|\\s]+(${UNIT})[,|\\s]+(${UNIT})\\s*\\)?$`);

/**
 * wp_tinycolor_string_to_rgb for the forms the editor's duotone picker writes: `#rgb`, `#rgba`,
 * `#rrggbb`, `#rrggbbaa`, `rgb()` and `rgba()` with numbers, `transparent`. Anything else (HSL
 * included) reads as nothing, each channel empty.
 */
function rgba(text: string): { r: number; g: number; b: number; a: number } | null {
  const s = text.trim().toLowerCase();
  let m = RGB.exec(s);
  if (m) return { r: channel(m[1]), g: channel(m[2]), b: channel(m[3]), a: 1 };
  m = RGBA.exec(s);
  if (m) return { r: channel(m[1]), g: channel(m[2]), b: channel(m[3]), a: alpha(Number(m[4])) };
  const hex = /^#?([0-9a-f]+)$/.exec(s)?.[1];
  const byte = (h: string) => channel(String(Number.parseInt(h, 16)));
  if (hex?.length === 8) return { r: byte(hex.slice(0, 2)), g: byte(hex.slice(2, 4)), b: byte(hex.slice(4, 6)), a: alpha(Number.parseInt(hex.slice(6), 16) / 255) };
  if (hex?.length === 6) return { r: byte(hex.slice(0, 2)), g: byte(hex.slice(2, 4)), b: byte(hex.slice(4, 6)), a: 1 };
  if (hex?.length === 4) return { r: byte(hex[0] + hex[0]), g: byte(hex[1] + hex[1]), b: byte(hex[2] + hex[2]), a: alpha(Number.parseInt(hex[3] + hex[3], 16) / 255) };
  if (hex?.length === 3) return { r: byte(hex[0] + hex[0]), g: byte(hex[1] + hex[1]), b: byte(hex[2] + hex[2]), a: 1 };
  return s === 'transparent' ? { r: 0, g: 0, b: 0, a: 0 } : null;
}

/** wp_get_duotone_filter_svg, its whitespace collapsed as WordPress does without SCRIPT_DEBUG. */
function filterSvg(id: string, colors: readonly unknown[]): string {
  const values = { r: [] as string[], g: [] as string[], b: [] as string[], a: [] as string[] };
  for (const c of colors) {
    const color = rgba(String(c));
    values.r.push(color ? phpFloat(color.r / 255) : '0');
    values.g.push(color ? phpFloat(color.g / 255) : '0');
    values.b.push(color ? phpFloat(color.b / 255) : '0');
    values.a.push(color ? phpFloat(color.a) : '');
  }
  const table = (k: keyof typeof values) => escapeAttr(values[k].join(' '));
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 0" width="0" height="0" focusable="false" role="none" style="visibility: hidden; position: absolute; left: -9999px; overflow: hidden;" >' +
    `<defs><filter id="${escapeAttr(id)}"><feColorMatrix color-interpolation-filters="sRGB" type="matrix" values=" .299 .587 .114 0 0 .299 .587 .114 0 0 .299 .587 .114 0 0 .299 .587 .114 0 0 " />` +
    `<feComponentTransfer color-interpolation-filters="sRGB" ><feFuncR type="table" tableValues="${table('r')}" /><feFuncG type="table" tableValues="${table('g')}" /><feFuncB type="table" tableValues="${table('b')}" /><feFuncA type="table" tableValues="${table('a')}" /></feComponentTransfer>` +
    '<feComposite in2="SourceGraphic" operator="in" /></filter></defs></svg>'
  );
}

/** sanitize_key: lower case, only `a-z0-9_-` kept. */
const sanitizeKey = (s: string) => s.toLowerCase().replace(/[^a-z0-9_-]/g, '');

/** wp_render_duotone_support: the filter's class on the block, its style and SVG on the page. */
export function renderDuotone(html: string, block: SupportedBlock, supports: Json | undefined, state: BlockSupportsState): string {
  const support = supports && isObject(supports.color) ? supports.color.__experimentalDuotone : undefined;
  const style = isObject(block.attrs.style) ? block.attrs.style : undefined;
  const colors = style && isObject(style.color) ? style.color.duotone : undefined;
  if (!support || colors === undefined || colors === null) return html;
  const key = Array.isArray(colors) ? colors.map(String).join('-') : String(colors);
  const id = `wp-duotone-${state.uniqueId(sanitizeKey(`${key}-`))}`;
  const selector = String(support === true ? 1 : support)
    .split(',')
    .map((s) => `.${id} ${s.trim()}`)
    .join(', ');
  state.addInlineStyle(id, `${selector}{filter:${colors === 'unset' ? 'none' : `url('#${id}')`} !important;}`);
  if (colors !== 'unset') state.addFooter(filterSvg(id, Array.isArray(colors) ? colors : []));
  return addClasses(html, id);
}
