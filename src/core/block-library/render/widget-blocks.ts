import type { RenderedBlock } from '../../blocks.ts';
import { escapeHtml, wpautop } from '../../../format/format.ts';

/**
 * The widget blocks: a shortcode written as a block, a titled group of blocks, and a classic
 * widget set in a block.
 */

/** render_block_core_shortcode: the shortcode's text given paragraphs (the_content's do_shortcode runs it after). */
export const shortcode = (block: RenderedBlock): string => wpautop(block.content);

/**
 * render_block_core_widget_group: the title in the default title markup (no sidebar is being
 * rendered by the block renderer: the site's sidebars render their block widgets themselves),
 * then each inner block rendered again in the group's inner wrapper.
 */
export async function widgetGroup(block: RenderedBlock): Promise<string> {
  const title = block.attributes.title;
  let html = typeof title === 'string' && title && title !== '0' ? `<h2 class="widget-title">${escapeHtml(title)}</h2>` : '';
  html += `<div class="wp-widget-group__inner-blocks">${(await block.renderInnerBlocks()).join('')}</div>`;
  return html;
}

/**
 * render_block_core_legacy_widget: the classic widgets are the site's (src/site/widgets.ts, above
 * this layer), so a legacy widget block renders nothing here, as WordPress's does for a widget
 * type nobody registered.
 */
export const legacyWidget = (): string => '';
