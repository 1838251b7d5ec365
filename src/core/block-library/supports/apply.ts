import { renderDuotone } from './duotone.ts';
import { addElementsStyles, renderElements } from './elements.ts';
import { renderLayout } from './layout.ts';
import type { BlockSupportsState } from './state.ts';
import type { SupportedBlock } from './wrapper.ts';

/**
 * The block supports' filters, run on every block, static or dynamic, registered or not, as
 * WordPress 6.1 runs them: `pre_render_block` before the block's inner blocks render (the
 * elements' link rule), `render_block` on its rendered HTML in the order WordPress loads the
 * support files (duotone, elements, layout: each puts its classes before the ones already added).
 * A block WP_Block renders again (`render( array( 'dynamic' => false ) )`) meets the
 * `render_block` ones alone once more.
 */
type Supports = Readonly<Record<string, unknown>> | undefined;

/** The supports' pre_render_block filter. */
export function preRenderSupports(block: SupportedBlock, supports: Supports, state: BlockSupportsState): void {
  addElementsStyles(block, supports, state);
}

/** The supports' render_block filters. */
export function renderSupports(html: string, block: SupportedBlock, supports: Supports, state: BlockSupportsState): string {
  const out = renderElements(renderDuotone(html, block, supports, state), block, supports);
  return supports ? renderLayout(out, block, supports, state) : out;
}
