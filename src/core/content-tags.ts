import type { Site } from './site.ts';
import type { Store } from '../store/index.ts';
import { ATTACHMENT_METADATA, type AttachmentMetadata } from './media.ts';
import { escapeAttr } from '../format/format.ts';

/**
 * wp_filter_content_tags as WordPress 6.1 runs it on the_content and the_excerpt: an `<img>` of
 * an attachment of this site (`wp-image-{id}` in its class) gets `width`/`height` and
 * `srcset`/`sizes` from the attachment's stored sizes; every image with a source and dimensions
 * gets `loading="lazy"` (the REST API renders outside the loop, where WordPress lazy-loads all),
 * every image `decoding="async"`, and an iframe with a source and dimensions `loading="lazy"`.
 */

const TAG_START = /<(img|iframe)\s/g;
const ATTACHMENT_CLASS = /wp-image-([0-9]+)/i;
const SRC = /src="([^"]+)"/;
const WIDTH = / width="([0-9]+)"/;
const HEIGHT = / height="([0-9]+)"/;
const EDIT_HASH = /-e[0-9]{13}/;
/** max_srcset_image_width's default. */
const MAX_SRCSET_WIDTH = 2048;

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const srcOf = (tag: string) => (SRC.exec(tag)?.[1] ?? '').split('?')[0];

/** wp_image_src_get_dimensions: the size of the stored file the source names (the original or one of its sizes). */
function srcDimensions(src: string, meta: AttachmentMetadata): [number, number] | null {
  const file = basename(src);
  if (basename(meta.file) === file) return [Number(meta.width) || 0, Number(meta.height) || 0];
  for (const size of Object.values(meta.sizes ?? {})) if (size.file === file) return [Number(size.width) || 0, Number(size.height) || 0];
  return null;
}

/** wp_constrain_dimensions with a width limit only. */
function constrainToWidth(width: number, height: number, maxWidth: number): [number, number] {
  if (!maxWidth) return [width, height];
  const didWidth = width > 0 && width > maxWidth;
  const ratio = didWidth ? maxWidth / width : 1;
  let w = Math.max(1, Math.round(width * ratio));
  const h = Math.max(1, Math.round(height * ratio));
  if (didWidth && w === maxWidth - 1) w = maxWidth;
  return [w, h];
}

/** wp_image_matches_ratio: the larger image brought to the smaller one's width is within a pixel of it. */
function matchesRatio(sourceWidth: number, sourceHeight: number, targetWidth: number, targetHeight: number): boolean {
  const [constrained, expected] =
    sourceWidth > targetWidth
      ? [constrainToWidth(sourceWidth, sourceHeight, targetWidth), [targetWidth, targetHeight]]
      : [constrainToWidth(targetWidth, targetHeight, sourceWidth), [sourceWidth, sourceHeight]];
  return Math.abs(constrained[0] - expected[0]) <= 1 && Math.abs(constrained[1] - expected[1]) <= 1;
}

/** wp_calculate_image_srcset: every stored size of the same proportions (the source's first), or null when fewer than two. */
export function imageSrcset(size: [number, number], src: string, meta: AttachmentMetadata, urlOf: (relative: string) => string): string | null {
  if (!meta.sizes || !Object.keys(meta.sizes).length || !meta.file || meta.file.length < 4) return null;
  const [width, height] = size;
  if (width < 1) return null;
  const candidates: { file: string; width: number; height: number }[] = Object.values(meta.sizes).map((s) => ({ file: s.file, width: Number(s.width), height: Number(s.height) }));
  // an animated GIF's sizes are flattened: its full size never joins them, and a full-size source gets no srcset
  if (meta.sizes.thumbnail?.['mime-type'] !== 'image/gif') candidates.push({ file: basename(meta.file), width: Number(meta.width), height: Number(meta.height) });
  else if (src.indexOf(meta.file) > 0) return null;
  const dirname = meta.file.includes('/') ? `${meta.file.slice(0, meta.file.lastIndexOf('/'))}/` : '';
  const edited = EDIT_HASH.exec(basename(src));
  let sources = new Map<number, string>();
  let srcMatched = false;
  for (const image of candidates) {
    let isSrc = false;
    if (!srcMatched && src.includes(dirname + image.file)) srcMatched = isSrc = true;
    // leftovers of an earlier edit of the image
    if (edited && !(image.file.indexOf(edited[0]) > 0)) continue;
    if (image.width > MAX_SRCSET_WIDTH && !isSrc) continue;
    if (!matchesRatio(width, height, image.width, image.height)) continue;
    const url = urlOf(dirname + image.file);
    // the source first, as WordPress puts it (an iOS 8 bug)
    if (isSrc) sources = new Map([[image.width, url], ...[...sources].filter(([w]) => w !== image.width)]);
    else sources.set(image.width, url);
  }
  if (!srcMatched || sources.size < 2) return null;
  return [...sources].map(([w, url]) => `${url.split(' ').join('%20')} ${w}w`).join(', ');
}

/** wp_image_add_srcset_and_sizes. */
function addSrcset(image: string, meta: AttachmentMetadata, urlOf: (relative: string) => string): string {
  if (!meta.sizes || !Object.keys(meta.sizes).length) return image;
  const src = srcOf(image);
  if (!src) return image;
  const hash = EDIT_HASH.exec(meta.file ?? '');
  if (hash && !basename(src).includes(hash[0])) return image;
  const width = Number(WIDTH.exec(image)?.[1] ?? 0);
  const height = Number(HEIGHT.exec(image)?.[1] ?? 0);
  const size = width && height ? ([width, height] as [number, number]) : srcDimensions(src, meta);
  if (!size) return image;
  const srcset = imageSrcset(size, src, meta, urlOf);
  if (!srcset) return image;
  let attr = ` srcset="${escapeAttr(srcset)}"`;
  // wp_calculate_image_sizes, unless the image has its own
  if (!image.includes(' sizes=')) attr += ` sizes="${escapeAttr(`(max-width: ${size[0]}px) 100vw, ${size[0]}px`)}"`;
  return closeWith(image, attr);
}

/** `preg_replace('/<img ([^>]+?)[\/ ]*>/', '<img $1' . $attr . ' />')` on one tag (its only `>` is its last character). */
function closeWith(image: string, attr: string): string {
  if (!image.startsWith('<img ') || image.length < 7) return image;
  let end = image.length - 1;
  while (end > 6 && (image[end - 1] === '/' || image[end - 1] === ' ')) end--;
  return `<img ${image.slice(5, end)}${attr} />`;
}

/** One image as wp_filter_content_tags leaves it. */
function filterImage(image: string, meta: AttachmentMetadata | undefined, urlOf: (relative: string) => string): string {
  let out = image;
  if (meta && !out.includes(' width=') && !out.includes(' height=')) {
    const src = srcOf(out);
    const size = src ? srcDimensions(src, meta) : null;
    if (size) out = out.replace('<img', `<img width="${size[0]}" height="${size[1]}"`);
  }
  if (meta && !out.includes(' srcset=')) out = addSrcset(out, meta, urlOf);
  if (!out.includes(' loading=') && out.includes(' src="') && out.includes(' width="') && out.includes(' height="')) out = out.split('<img').join('<img loading="lazy"');
  if (!out.includes(' decoding=')) out = out.split('<img ').join('<img decoding="async" ');
  return out;
}

function filterIframe(iframe: string): string {
  // an oEmbed iframe with fallback content starts hidden
  if (iframe.includes(' loading=') || iframe.includes(' data-secret="')) return iframe;
  if (!iframe.includes(' src="') || !iframe.includes(' width="') || !iframe.includes(' height="')) return iframe;
  return iframe.split('<iframe').join('<iframe loading="lazy"');
}

export function parseMetadata(raw: string | undefined): AttachmentMetadata | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as unknown;
    return value && typeof value === 'object' && typeof (value as AttachmentMetadata).file === 'string' ? (value as AttachmentMetadata) : undefined;
  } catch {
    return undefined;
  }
}

/** wp_filter_content_tags: the content's images and iframes as WordPress 6.1 completes them. */
export async function filterContentTags(content: string, store: Store, site: Site): Promise<string> {
  // `/<(img|iframe)\s[^>]+>/`, each tag's end looked for once
  const tags = new Map<string, { name: string; attachment: number }>();
  let gt = -1;
  TAG_START.lastIndex = 0;
  for (let m = TAG_START.exec(content); m; m = TAG_START.exec(content)) {
    if (gt < m.index) gt = content.indexOf('>', m.index);
    if (gt < 0) break;
    if (gt === m.index + m[0].length) continue;
    const tag = content.slice(m.index, gt + 1);
    TAG_START.lastIndex = gt + 1;
    if (tags.has(tag)) continue;
    const id = m[1] === 'img' ? Number(ATTACHMENT_CLASS.exec(tag)?.[1] ?? 0) : 0;
    tags.set(tag, { name: m[1], attachment: Number.isSafeInteger(id) ? id : 0 });
  }
  if (!tags.size) return content;
  const ids = [...new Set([...tags.values()].map((t) => t.attachment).filter((id) => id > 0))];
  const stored = ids.length ? await store.posts.meta.ofMany(ids, [ATTACHMENT_METADATA]) : new Map<number, Record<string, string>>();
  const urlOf = (relative: string) => site.media.urlOf(site.home, relative);
  for (const [tag, { name, attachment }] of tags) {
    const filtered = name === 'img' ? filterImage(tag, parseMetadata(stored.get(attachment)?.[ATTACHMENT_METADATA]), urlOf) : filterIframe(tag);
    if (filtered !== tag) content = content.split(tag).join(filtered);
  }
  return content;
}

/** wp_calculate_image_srcset of an attachment's image shown at a size (wp_get_attachment_image's srcset); null when it has none. */
export async function attachmentSrcset(store: Store, site: Site, id: number, src: string, size: [number, number]): Promise<string | null> {
  const meta = parseMetadata(await store.posts.meta.get(id, ATTACHMENT_METADATA));
  return meta ? imageSrcset(size, src.split('?')[0], meta, (relative) => site.media.urlOf(site.home, relative)) : null;
}
