import type { Store } from '../store/index.ts';

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
