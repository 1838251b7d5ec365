import { renderDuotone } from './duotone.ts';
import { addElementsStyles, renderElements } from './elements.ts';
import { renderLayout } from './layout.ts';
import type { BlockSupportsState } from './state.ts';
import type { SupportedBlock } from './wrapper.ts';

/**
 * The block supports' render filters, run on every block, static or dynamic, registered or not,
 * as WordPress 6.1 runs them: `pre_render_block` before the block's inner blocks render (the
 * elements' link rule), `render_block` on its rendered HTML in the order WordPress loads the
 * support files (duotone, elements, layout: each puts its classes before the ones already added).
 */
export function blockSupports(block: SupportedBlock, supports: Readonly<Record<string, unknown>> | undefined, state: BlockSupportsState): (html: string) => string {
  addElementsStyles(block, supports, state);
  return (html) => {
    let out = renderDuotone(html, block, supports, state);
    out = renderElements(out, block, supports);
    return supports ? renderLayout(out, block, supports, state) : out;
  };
}
