import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { wrapperAttributes } from './wrapper.ts';
import { escapeAttr, escapeHtml } from '../../../format/format.ts';

/** render_block_core_search: a search form to the home URL, labelled, with its button inside or outside the field. */
export function search(block: RenderedBlock, ctx: BlockRenderContext): string {
  const a = block.attributes;
  const id = 'wp-block-search__input-1';
  const label = typeof a.label === 'string' ? a.label : 'Search';
  const buttonText = typeof a.buttonText === 'string' && a.buttonText ? a.buttonText : 'Search';
  const position = typeof a.buttonPosition === 'string' ? a.buttonPosition : 'button-outside';
  const classes = [`wp-block-search__${position}`, a.buttonUseIcon ? 'wp-block-search__icon-button' : 'wp-block-search__text-button'];
  const labelHtml = `<label for="${id}" class="wp-block-search__label${a.showLabel === false ? ' screen-reader-text' : ''}">${escapeHtml(label)}</label>`;
  const input = `<input type="search" id="${id}" class="wp-block-search__input" name="s" value="" placeholder="${escapeAttr(typeof a.placeholder === 'string' ? a.placeholder : '')}" required />`;
  const button = position === 'no-button' ? '' : `<button type="submit" class="wp-block-search__button"${a.buttonUseIcon ? ` aria-label="${escapeAttr(buttonText)}"` : ''}>${a.buttonUseIcon ? '' : escapeHtml(buttonText)}</button>`;
  return `<form role="search" method="get" action="${escapeAttr(`${ctx.site.home}/`)}" ${wrapperAttributes(block, { class: classes.join(' ') })}>${labelHtml}<div class="wp-block-search__inside-wrapper">${input}${button}</div></form>`;
}
