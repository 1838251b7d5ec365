import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { escapeAttr, escapeHtml } from '../../../format/format.ts';
import { int } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';

/** The blocks that show the site's identity: its title and tagline. */

/** render_block_core_site_title: the site's name in a heading (or paragraph at level 0), linked home unless asked not to. */
export function siteTitle(block: RenderedBlock, ctx: BlockRenderContext): string {
  const name = ctx.site.info.name;
  if (!name) return '';
  const a = block.attributes;
  const level = int(a.level, 1);
  const tag = level >= 1 && level <= 6 ? `h${level}` : 'p';
  // home_url() (no trailing slash) and the link target, `_self` unless one is given; WordPress also
  // marks the link aria-current="page" where is_home(), which a block rendering here does not know
  const target = typeof a.linkTarget === 'string' && a.linkTarget ? a.linkTarget : '_self';
  const inner = a.isLink === false ? escapeHtml(name) : `<a href="${escapeAttr(ctx.site.home)}" target="${escapeAttr(target)}" rel="home">${escapeHtml(name)}</a>`;
  return `<${tag} ${wrapperAttributes(block, { class: typeof a.textAlign === 'string' ? `has-text-align-${a.textAlign}` : '' })}>${inner}</${tag}>`;
}

/** render_block_core_site_tagline: the site's description, when it has one. */
export function siteTagline(block: RenderedBlock, ctx: BlockRenderContext): string {
  const text = ctx.site.info.description;
  if (!text) return '';
  const a = block.attributes;
  return `<p ${wrapperAttributes(block, { class: typeof a.textAlign === 'string' ? `has-text-align-${a.textAlign}` : '' })}>${escapeHtml(text)}</p>`;
}
