import { escapeAttr, escapeHtml, stripAllTags } from '../../format/format.ts';
import type { PostRow } from '../../store/posts.ts';
import { attachmentImageSrc, type ImageSrc } from '../attachment-image.ts';
import { imageSrcset, parseMetadata } from '../content-tags.ts';
import { ATTACHED_FILE, ATTACHMENT_METADATA, IMAGE_ALT } from '../media.ts';
import type { PageContext } from '../site.ts';

/**
 * wp_get_attachment_image and wp_get_attachment_link for the media shortcodes: an attachment's
 * `<img>` at one of its sizes (with its alt text, `decoding`, `loading`, srcset and sizes, in
 * WordPress's attribute order) and that image in a link.
 */

/** The attachment's URL: its file in the uploads folder, else its guid (wp_get_attachment_url). */
export async function attachmentUrl(page: PageContext, attachment: PostRow): Promise<string> {
  const relative = await page.store.posts.meta.get(attachment.id, ATTACHED_FILE);
  return relative ? page.site.media.urlOf(page.site.home, relative) : attachment.guid;
}

/**
 * wp_get_attachment_image: '' when the attachment has no image at that size. `extra` attributes
 * override the defaults in place or follow them (a PHP array's numeric keys renumbered after them);
 * `filterSrc` is a wp_get_attachment_image_src filter (the site logo's width).
 */
export async function attachmentImage(page: PageContext, id: number, size: string, extra: ReadonlyMap<string, string> = new Map(), filterSrc?: (image: ImageSrc) => ImageSrc): Promise<string> {
  const found = await attachmentImageSrc(page.store, id, size);
  if (!found) return '';
  const image = filterSrc ? filterSrc(found) : found;
  const [src, width, height] = image;
  const attr = new Map<string, string>([
    ['src', src],
    ['class', `attachment-${size} size-${size}`],
    ['alt', stripAllTags((await page.store.posts.meta.get(id, IMAGE_ALT)) ?? '').trim()],
    ['decoding', 'async'],
    // wp_get_loading_attr_default outside the_content's and the post thumbnail's context
    ['loading', 'lazy'],
  ]);
  let position = 0;
  for (const [name, value] of extra) attr.set(/^(?:0|-?[1-9][0-9]*)$/.test(name) ? String(position++) : name, value);
  if (attr.has('loading') && (attr.get('loading') === '' || attr.get('loading') === '0')) attr.delete('loading');
  const meta = parseMetadata(await page.store.posts.meta.get(id, ATTACHMENT_METADATA));
  if (meta && !attr.get('srcset')) {
    const srcset = imageSrcset([width, height], src, meta, (relative) => page.site.media.urlOf(page.site.home, relative));
    // wp_calculate_image_sizes: the image's width, all of the viewport below it
    if (srcset && width) {
      attr.set('srcset', srcset);
      if (!attr.get('sizes')) attr.set('sizes', `(max-width: ${width}px) 100vw, ${width}px`);
    }
  }
  // image_hwstring: each dimension only when known
  const hw = `${width ? `width="${width}" ` : ''}${height ? `height="${height}" ` : ''}`;
  let html = `<img ${hw}`.trimEnd();
  for (const [name, value] of attr) html += ` ${name}="${escapeAttr(value)}"`;
  return `${html} />`;
}

/**
 * wp_get_attachment_link: the attachment's image at `size` in a link to its file. (WordPress 6.1
 * links to the attachment's page when asked for its permalink; this site has no attachment pages,
 * its attachments' `link` is their file, as WordPress's since 6.4.) Without an image, the title,
 * else the file's name, is the link's text.
 */
export async function attachmentLink(page: PageContext, attachment: PostRow, size: string, extra: ReadonlyMap<string, string> = new Map()): Promise<string> {
  const url = await attachmentUrl(page, attachment);
  if (!url) return 'Missing Attachment';
  let text = size && size !== 'none' ? await attachmentImage(page, attachment.id, size, extra) : '';
  if (!text.trim()) text = attachment.title;
  if (!text.trim()) {
    const file = url.slice(url.lastIndexOf('/') + 1);
    text = escapeHtml(file.includes('.') ? file.slice(0, file.lastIndexOf('.')) : file);
  }
  return `<a href='${escapeAttr(url)}'>${text}</a>`;
}
