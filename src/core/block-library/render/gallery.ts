import type { BlockRenderContext, ParsedBlock, RenderedBlock } from '../../blocks.ts';
import { escapeAttr } from '../../../format/format.ts';
import { presetVariable, UNSAFE_CSS } from '../supports/style-engine.ts';
import { addClasses } from '../supports/wrapper.ts';
import { BlockSupportsState } from '../supports/state.ts';

/** The gallery and the image in it (WordPress 6.1's blocks/gallery.php and blocks/image.php). */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * block_core_gallery_data_id_backcompatibility (render_block_data): each image of a gallery that
 * has an id and no `data-id` gets one, the id as esc_attr prints it, for its img to carry.
 */
export function galleryImageIds(block: ParsedBlock): ParsedBlock {
  if (!block.inner.some((p) => typeof p !== 'string' && p.name === 'core/image' && p.attrs.id !== undefined && p.attrs.id !== null && p.attrs['data-id'] === undefined)) return block;
  const inner = block.inner.map((p) =>
    typeof p !== 'string' && p.name === 'core/image' && p.attrs.id !== undefined && p.attrs.id !== null && p.attrs['data-id'] === undefined ? { ...p, attrs: { ...p.attrs, 'data-id': escapeAttr(String(p.attrs.id)) } } : p,
  );
  return { ...block, inner };
}

/** render_block_core_image: an image given a `data-id` shows it on its img, unless it already does. */
export function image(block: RenderedBlock): string {
  const id = block.attributes['data-id'];
  if (id === undefined || id === null) return block.content;
  const attribute = `data-id="${escapeAttr(String(id))}"`;
  return block.content.includes(attribute) ? block.content : block.content.split('<img').join(`<img ${attribute} `);
}

/**
 * A gap value as the gallery reads it: refused when it holds what safecss_filter_attr refuses, a
 * spacing preset as its custom property. A `<` is refused too: the value is printed in a style
 * element, which markup must not close (WordPress prints it as it is).
 */
function gapValue(v: unknown): string | null {
  const s = typeof v === 'string' ? v : '';
  if (s && (UNSAFE_CSS.test(s) || s.includes('<'))) return null;
  return s.includes('var:preset|spacing|') ? presetVariable(s, 'spacing') : s;
}

const FALLBACK_GAP = 'var( --wp--style--gallery-gap-default, var( --gallery-block--gutter-size, var( --wp--style--block-gap, 0.5em ) ) )';

/**
 * block_core_gallery_render: the gallery's own `wp-block-gallery-N` class (wp_unique_id, before
 * the layout support takes its number) and its gap as a style printed in the page's footer
 * (wp_enqueue_block_support_styles at priority 11).
 */
export function gallery(block: RenderedBlock, ctx: BlockRenderContext): string {
  const state = (ctx.supports ??= new BlockSupportsState());
  const style = block.attributes.style;
  const raw = isObject(style) && isObject(style.spacing) ? style.spacing.blockGap : undefined;
  const gap = isObject(raw) ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, gapValue(v)])) : gapValue(raw);
  const id = state.uniqueId('wp-block-gallery-');
  const content = addClasses(block.content, id);
  let value: string | Json = (isObject(gap) ? Object.keys(gap).length > 0 : gap) ? (gap as string | Json) : FALLBACK_GAP;
  let column = value;
  if (isObject(value)) {
    const row = value.top !== undefined && value.top !== null ? String(value.top) : FALLBACK_GAP;
    column = value.left !== undefined && value.left !== null ? String(value.left) : FALLBACK_GAP;
    value = row === column ? row : `${row} ${column}`;
  }
  if (column === '0') column = '0px';
  state.addFooter(`<style>.wp-block-gallery.${id}{ --wp--style--unstable-gallery-gap: ${String(column)}; gap: ${String(value)}}</style>\n`, 11);
  return content;
}
