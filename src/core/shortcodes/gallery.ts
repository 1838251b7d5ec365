import { shortcodeAtts, type ShortcodeAttributes } from '../../format/shortcodes.ts';
import { wptexturize } from '../../format/format.ts';
import type { PostRow } from '../../store/posts.ts';
import { sanitizeHtmlClass } from '../menus.ts';
import { parseMetadata } from '../content-tags.ts';
import { ATTACHMENT_METADATA } from '../media.ts';
import allowed from '../../format/kses-allowed-html.json' with { type: 'json' };
import { attachmentImage, attachmentLink } from './attachment-markup.ts';
import { listedAttachments, withIdsIncluded } from './listed-attachments.ts';
import { phpInt } from '../../format/php-values.ts';
import type { ShortcodeContext } from '../site.ts';

const allowedTags = allowed.post as Record<string, unknown>;

/** tag_escape, then an element the post's allowed HTML lacks is replaced by the classic one. */
const galleryTag = (tag: string, fallback: string) => {
  const escaped = tag.toLowerCase().replace(/[^a-z0-9_:]/g, '');
  return escaped in allowedTags ? escaped : fallback;
};

/**
 * gallery_shortcode as an HTML5 theme renders it (no default style then): the images of the ids
 * given, or attached to the post, each in a `gallery-item` with its icon (unlinked with link=none,
 * else linked to its file: see attachmentLink) and its caption (its excerpt),
 * in `gallery-N` numbered in the order the galleries render; in a feed, the images a line each.
 */
export async function galleryShortcode(given: ShortcodeAttributes, _content: string, _tag: string, ctx: ShortcodeContext): Promise<string> {
  const instance = ctx.instance('gallery');
  const attr = withIdsIncluded(given);
  const atts = shortcodeAtts(
    { order: 'ASC', orderby: 'menu_order ID', id: String(ctx.page.postId ?? 0), itemtag: 'figure', icontag: 'div', captiontag: 'figcaption', columns: '3', size: 'thumbnail', include: '', exclude: '', link: '' },
    attr,
  );
  const images = await listedAttachments(ctx, 'image', atts);
  if (!images?.length) return '';
  if (ctx.page.kind === 'feed') return feedGallery(ctx, images, atts, attr);
  const itemTag = galleryTag(atts.itemtag, 'dl');
  const captionTag = galleryTag(atts.captiontag, 'dd');
  const iconTag = galleryTag(atts.icontag, 'dt');
  const columns = phpInt(atts.columns);
  const selector = `gallery-${instance}`;
  let out = `<div id='${selector}' class='gallery galleryid-${phpInt(atts.id)} gallery-columns-${columns} gallery-size-${sanitizeHtmlClass(atts.size)}'>`;
  const metas = await ctx.page.store.posts.meta.ofMany(images.map((i) => i.id), [ATTACHMENT_METADATA]);
  for (const image of images) {
    const captioned = image.excerpt.trim() !== '';
    const extra = new Map(captioned ? [['aria-describedby', `${selector}-${image.id}`]] : []);
    // link=file and the attachment's own link are one here: an attachment's link is its file
    const icon = atts.link === 'none' ? await attachmentImage(ctx.page, image.id, atts.size, extra) : await attachmentLink(ctx.page, image, atts.size, extra);
    const meta = parseMetadata(metas.get(image.id)?.[ATTACHMENT_METADATA]);
    const orientation = meta?.width !== undefined && meta.height !== undefined ? (meta.height > meta.width ? 'portrait' : 'landscape') : '';
    out += `<${itemTag} class='gallery-item'>\n\t\t\t<${iconTag} class='gallery-icon ${orientation}'>\n\t\t\t\t${icon}\n\t\t\t</${iconTag}>`;
    if (captionTag && captioned) out += `\n\t\t\t\t<${captionTag} class='wp-caption-text gallery-caption' id='${selector}-${image.id}'>\n\t\t\t\t${wptexturize(image.excerpt)}\n\t\t\t\t</${captionTag}>`;
    out += `</${itemTag}>`;
  }
  return `${out}\n\t\t</div>\n`;
}

/**
 * A gallery in a feed: each image a line, linked unless link=none, where (as WordPress passes
 * the shortcode's own attributes to wp_get_attachment_image) the `<img>` carries them all.
 */
async function feedGallery(ctx: ShortcodeContext, images: PostRow[], atts: { link: string; size: string }, attr: Map<string, string>): Promise<string> {
  let out = '\n';
  for (const image of images) {
    out += atts.link === 'none' ? await attachmentImage(ctx.page, image.id, atts.size, attr) : await attachmentLink(ctx.page, image, atts.size);
    out += '\n';
  }
  return out;
}
