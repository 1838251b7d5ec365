import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { convertChars, escapeHtml, wptexturize } from '../../../format/format.ts';
import { escUrl } from '../../../format/esc-url.ts';
import { IMAGE_ALT } from '../../media.ts';
import { attachmentImage } from '../../shortcodes/attachment-markup.ts';
import { siteLogoId } from '../../site-icon.ts';
import { wrapperAttributes } from './wrapper.ts';

/** The site logo block: get_custom_logo's image of the site's logo, linked home. */

/**
 * get_custom_logo (the theme declares no `unlink-homepage-logo`): the logo at full size, its alt
 * text the site's name (get_bloginfo's display filters) when the image has none, not lazy loaded,
 * in a link home (aria-current on the front page's first page); '' without a logo.
 * `width` scales the image to that width, its height keeping the ratio, as the block's
 * wp_get_attachment_image_src filter does.
 */
async function customLogo(ctx: BlockRenderContext, width: number): Promise<string> {
  const id = await siteLogoId(ctx.store);
  if (!id) return '';
  const attributes = new Map([['class', 'custom-logo'], ['loading', '']]);
  if (!(await ctx.store.posts.meta.get(id, IMAGE_ALT))) attributes.set('alt', escapeHtml(convertChars(wptexturize(ctx.site.info.name))));
  const image = await attachmentImage(ctx, id, 'full', attributes, (src) => (width && src[1] && src[2] ? [src[0], Math.trunc(width), Math.trunc(width / (src[1] / src[2])), src[3]] : src));
  const home = `${ctx.site.home}/`;
  const current = ctx.url === home ? ' aria-current="page"' : '';
  return `<a href="${escUrl(home)}" class="custom-logo-link" rel="home"${current}>${image}</a>`;
}

/**
 * render_block_core_site_logo: the custom logo in the block's wrapper (`is-default-size` without a
 * width), its link taken off when `isLink` is false, opening a new tab (target and aria-label
 * after rel="home", with no space between them, as 6.1 writes it) for `_blank`; nothing without a logo.
 */
export async function siteLogo(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const width = typeof a.width === 'number' && a.width ? a.width : 0;
  let logo = await customLogo(ctx, width);
  if (!logo) return '';
  if (!a.isLink) logo = logo.replace(/<a.*?>(.*?)<\/a>/gi, '$1');
  if (a.isLink && a.linkTarget === '_blank') logo = logo.replace('rel="home"', 'rel="home" target="_blank"aria-label="(Home link, opens in a new tab)"');
  return `<div ${wrapperAttributes(block, { class: width ? '' : 'is-default-size' })}>${logo}</div>`;
}
