import { createHash } from 'node:crypto';
import { serializeParsedBlock } from './php-serialize.ts';
import { presetVariable } from './style-engine.ts';
import type { BlockSupportsState } from './state.ts';
import { addClasses, type SupportedBlock } from './wrapper.ts';

/**
 * The elements block support (wp-includes/block-supports/elements.php, WordPress 6.1): a block
 * whose attributes give its links a colour (`style.elements.link.color.text`) gets a
 * `wp-elements-<md5 of the parsed block>` class and the rule `.wp-elements-… a{color:…;}` in the
 * page's block-supports stylesheet, unless its type skips serializing link colours. Like
 * WordPress, it does not ask whether the block type supports link colours at all.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** wp_should_skip_block_supports_serialization( $block_type, 'color', 'link' ). */
function skipsLinkColor(supports: Json | undefined): boolean {
  const skip = supports && isObject(supports.color) ? supports.color.__experimentalSkipSerialization : undefined;
  return skip === true || (Array.isArray(skip) && skip.includes('link'));
}

/** wp_get_elements_class_name. */
const elementsClassName = (block: SupportedBlock) => `wp-elements-${createHash('md5').update(serializeParsedBlock(block)).digest('hex')}`;

/** The style engine's colour declarations (color.text, background, gradient) of the link's styles; only text colours read `var:preset|color|…`. */
function colorDeclarations(styles: unknown): [string, string][] {
  const color = isObject(styles) ? styles.color : undefined;
  if (!isObject(color)) return [];
  const out: [string, string][] = [];
  for (const [key, property] of [['text', 'color'], ['background', 'background-color'], ['gradient', 'background']] as const) {
    const v = color[key];
    if (typeof v !== 'string' && typeof v !== 'number') continue;
    const s = String(v);
    if (s.includes('var:')) {
      if (key === 'text' && s.includes('var:preset|color|')) out.push([property, presetVariable(s, 'color')]);
    } else out.push([property, s]);
  }
  return out;
}

/** wp_render_elements_support_styles (pre_render_block): the link rule, added before the block's inner blocks render. */
export function addElementsStyles(block: SupportedBlock, supports: Json | undefined, state: BlockSupportsState): void {
  if (skipsLinkColor(supports)) return;
  const elements = isObject(block.attrs.style) ? block.attrs.style.elements : undefined;
  const declarations = colorDeclarations(isObject(elements) ? elements.link : undefined);
  if (declarations.length) state.addRules([{ selector: `.${elementsClassName(block)} a`, declarations }]);
}

/** wp_render_elements_support (render_block): the class on the block's first element when its links have a colour. */
export function renderElements(html: string, block: SupportedBlock, supports: Json | undefined): string {
  if (!html || skipsLinkColor(supports)) return html;
  const style = isObject(block.attrs.style) ? block.attrs.style : undefined;
  const elements = style && isObject(style.elements) ? style.elements : undefined;
  const link = elements && isObject(elements.link) ? elements.link : undefined;
  const color = link && isObject(link.color) ? link.color : undefined;
  if (color?.text === undefined || color.text === null) return html;
  const className = elementsClassName(block);
  const first = /<[^>]+>/.exec(html);
  if (!first) return html;
  if (first[0].includes('class="')) return addClasses(html, className);
  const end = first.index + first[0].length - 1;
  return `${html.slice(0, end)} class="${className}"${html.slice(end)}`;
}
