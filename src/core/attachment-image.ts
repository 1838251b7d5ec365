import type { Store } from '../store/index.ts';
import type { PostRow } from '../store/posts.ts';

/**
 * wp_get_attachment_image_src for the plugins that show images of the media library (a query
 * block's featured images, dynamic content's image fields): an attachment's URL and size at one
 * of WordPress's image sizes, read from the attachment (its `guid` is its URL) and its
 * `_wp_attachment_metadata` ({width, height, sizes: {large: {file, width, height}}}).
 */

/** `[url, width, height, is_intermediate]`, as wp_get_attachment_image_src returns it. */
export type ImageSrc = [string, number, number, boolean];

/** WordPress's default image sizes: the largest width and height each may have (0 is unbounded). */
const SIZE_BOUNDS: Readonly<Record<string, readonly [number, number]>> = {
  thumbnail: [150, 150],
  medium: [300, 300],
  medium_large: [768, 0],
  large: [1024, 1024],
};

interface AttachmentMetadata {
  width?: unknown;
  height?: unknown;
  sizes?: Record<string, { file?: unknown; width?: unknown; height?: unknown }>;
}

/** An image attachment with a URL, and its metadata as far as this server can read it; none for anything else. */
async function imageAttachment(store: Store, id: number): Promise<{ attachment: PostRow; meta: AttachmentMetadata } | null> {
  if (!Number.isInteger(id) || id <= 0) return null;
  const attachment = await store.posts.get(id);
  if (!attachment || attachment.type !== 'attachment' || !attachment.mime_type.startsWith('image/') || !attachment.guid) return null;
  let meta: AttachmentMetadata = {};
  try {
    const parsed = JSON.parse((await store.posts.meta.get(id, '_wp_attachment_metadata')) ?? '{}') as unknown;
    if (parsed && typeof parsed === 'object') meta = parsed as AttachmentMetadata;
  } catch {
    // metadata this server cannot read: the size stays unknown
  }
  return { attachment, meta };
}

const dimension = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** wp_constrain_dimensions: the size scaled down (never up) to fit the bounds, keeping its ratio. */
function constrain(width: number, height: number, [maxW, maxH]: readonly [number, number]): [number, number] {
  const scale = Math.min(1, maxW ? maxW / width : 1, maxH ? maxH / height : 1);
  return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
}

/**
 * The image of an attachment at `size` ('full', 'large', 'medium_large', 'medium', 'thumbnail'):
 * the size's own file when the metadata lists one, else the full image with its dimensions fitted
 * to the size. Null for anything that is not an image attachment with a URL.
 */
export async function attachmentImageSrc(store: Store, id: number, size = 'full'): Promise<ImageSrc | null> {
  const image = await imageAttachment(store, id);
  if (!image) return null;
  const { attachment, meta } = image;
  const width = dimension(meta.width);
  const height = dimension(meta.height);
  const own = size !== 'full' ? meta.sizes?.[size] : undefined;
  if (own && typeof own.file === 'string' && own.file && dimension(own.width) && dimension(own.height)) {
    const folder = attachment.guid.slice(0, attachment.guid.lastIndexOf('/') + 1);
    return [folder + own.file, dimension(own.width), dimension(own.height), true];
  }
  const bounds = SIZE_BOUNDS[size];
  if (!bounds || !width || !height) return [attachment.guid, width, height, false];
  const [w, h] = constrain(width, height, bounds);
  return [attachment.guid, w, h, false];
}

/** wp_constrain_dimensions: the size scaled down to fit `maxW` × `maxH` (0: unbounded), as WordPress rounds it. */
function constrainDimensions(width: number, height: number, maxW: number, maxH: number): [number, number] {
  if (!maxW && !maxH) return [width, height];
  const didWidth = maxW > 0 && width > maxW;
  const didHeight = maxH > 0 && height > maxH;
  const widthRatio = didWidth ? maxW / width : 1;
  const heightRatio = didHeight ? maxH / height : 1;
  const smaller = Math.min(widthRatio, heightRatio);
  const larger = Math.max(widthRatio, heightRatio);
  const ratio = Math.round(width * larger) > maxW || Math.round(height * larger) > maxH ? smaller : larger;
  let w = Math.max(1, Math.round(width * ratio));
  let h = Math.max(1, Math.round(height * ratio));
  // WordPress's rounding fix: a dimension one pixel short of its bound becomes the bound
  if (didWidth && w === maxW - 1) w = maxW;
  if (didHeight && h === maxH - 1) h = maxH;
  return [w, h];
}

/** wp_image_matches_ratio: the two sizes' ratios agree within a pixel. */
function matchesRatio(sourceW: number, sourceH: number, targetW: number, targetH: number): boolean {
  const [constrained, expected] = sourceW > targetW
    ? [constrainDimensions(sourceW, sourceH, targetW, 0), [targetW, targetH]]
    : [constrainDimensions(targetW, targetH, sourceW, 0), [sourceW, sourceH]];
  return Math.abs(constrained[0] - expected[0]) <= 1 && Math.abs(constrained[1] - expected[1]) <= 1;
}

/**
 * wp_get_attachment_image_url with a size given as `[width, height]` (image_downsize through
 * image_get_intermediate_size): the generated size of exactly those dimensions, else the smallest
 * one at least as large with the same ratio, else the thumbnail when it is large enough, else the
 * full image. '' for anything that is not an image attachment with a URL.
 */
export async function attachmentImageUrlAt(store: Store, id: number, [width, height]: readonly [number, number]): Promise<string> {
  const image = await imageAttachment(store, id);
  if (!image) return '';
  const { attachment, meta } = image;
  const sizes = Object.values(meta.sizes ?? {}).filter((s) => typeof s.file === 'string' && s.file && dimension(s.width) && dimension(s.height));
  const exact = sizes.find((s) => dimension(s.width) === width && dimension(s.height) === height);
  const candidates = exact
    ? [exact]
    : sizes.filter((s) => {
        const [w, h] = [dimension(s.width), dimension(s.height)];
        if (w < width || h < height) return false;
        return width === 0 || height === 0 ? matchesRatio(w, h, dimension(meta.width), dimension(meta.height)) : matchesRatio(w, h, width, height);
      });
  // the smallest by area; WordPress keys its candidates by area, so of two the same area the later one stays
  const best = candidates.reduce<(typeof candidates)[number] | undefined>((a, s) => (a && dimension(a.width) * dimension(a.height) < dimension(s.width) * dimension(s.height) ? a : s), undefined);
  const thumbnail = meta.sizes?.thumbnail;
  const chosen = best ?? (thumbnail && typeof thumbnail.file === 'string' && thumbnail.file && dimension(thumbnail.width) >= width && dimension(thumbnail.width) >= height ? thumbnail : undefined);
  if (!chosen) return attachment.guid;
  return attachment.guid.slice(0, attachment.guid.lastIndexOf('/') + 1) + String(chosen.file);
}
