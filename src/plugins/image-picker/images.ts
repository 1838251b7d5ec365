/** One image of a process_images request, as the picker sends it (Pexels' photo object, trimmed). */
export interface PickedImage {
  /** The library's id of the photo: what de-duplicates imports. */
  id: string;
  url: string;
  alt: string;
  photographer: string;
  postId: number;
}

/** Why an entry of `images` cannot be imported. */
export class BadImage extends Error {}

/** Sizes the picker prefers when the request names none: large enough for content, smaller than the original. */
const DEFAULT_SIZES = ['large2x', 'large', 'original', 'medium'];

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** The size names a request asks for (`image_sizes`: names, or `{name}` objects), in its order. */
export function wantedSizes(arg: unknown): string[] {
  const asked = Array.isArray(arg) ? arg.map((s) => text(s && typeof s === 'object' ? (s as { name?: unknown }).name : s)).filter(Boolean) : [];
  return asked.length ? asked : DEFAULT_SIZES;
}

/** An entry of `images` read: its id, and the URL of the first wanted size it has (else its `url`). */
export function pickedImage(raw: unknown, sizes: string[]): PickedImage {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BadImage('the image must be an object');
  const o = raw as Record<string, unknown>;
  const id = text(o.id);
  if (!id) throw new BadImage('the image has no id');
  const offered = Array.isArray(o.sizes) ? (o.sizes as unknown[]).filter((s): s is Record<string, unknown> => !!s && typeof s === 'object') : [];
  const chosen = sizes.map((name) => offered.find((s) => text(s.name) === name)).find((s) => s && text(s.src));
  const url = text(chosen?.src) || text(offered.find((s) => text(s.src))?.src) || text(o.url);
  if (!url) throw new BadImage('the image has no URL to download');
  const postId = Number(o.post_id);
  return { id, url, alt: text(o.alt), photographer: text(o.photographer), postId: Number.isSafeInteger(postId) && postId > 0 ? postId : 0 };
}
