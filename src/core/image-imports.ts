import { invalidParam, RestError } from '../engine/errors.ts';
import type { Store } from '../store/index.ts';
import type { Site } from './site.ts';
import { decodePercent } from '../engine/url-decoding.ts';

/**
 * Importing remote images into the media library for plugins that bring content from elsewhere: a
 * stock photo picker's selection (Kadence's image picker and design library), and the images a
 * pattern or a starter site's pages refer to (their markup rewritten to the imported copies).
 * Every download goes through the media library's import service (src/core/media.ts: guarded,
 * capped while streaming, checked to be an image, once per source key).
 */

/** Who imports, into which site: what every import here needs. */
export interface ImportTarget {
  store: Store;
  site: Site;
  /** The user the attachments belong to. */
  author: number;
}

/** How many downloads run at once for one request. */
const PARALLEL = 3;

/** Runs `work` over `items`, at most PARALLEL at a time, keeping the results in the items' order. */
async function inParallel<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return out;
}

// --- a stock photo selection ---

/** One image of a stock selection, as the picker sends it (Pexels' photo object, trimmed). */
interface StockImage {
  /** The library's id of the photo: what de-duplicates imports. */
  id: string;
  url: string;
  alt: string;
  photographer: string;
  postId: number;
}

/** An image imported (or found imported before), or one that could not be, with the reason. */
export type StockOutcome = { id: number; url: string } | { id: 0; url: string; source_id: string; error: { code: string; message: string; status: number } };

/** Why an entry of a selection cannot be imported. */
class BadStockImage extends Error {}

/** Sizes the picker prefers when the request names none: large enough for content, smaller than the original. */
const DEFAULT_SIZES = ['large2x', 'large', 'original', 'medium'];

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** The size names a request asks for (`image_sizes`: names, or `{name}` objects), in its order. */
function wantedSizes(arg: unknown): string[] {
  const asked = Array.isArray(arg) ? arg.map((s) => text(s && typeof s === 'object' ? (s as { name?: unknown }).name : s)).filter(Boolean) : [];
  return asked.length ? asked : DEFAULT_SIZES;
}

/** An entry of `images` read: its id, and the URL of the first wanted size it has (else its `url`). */
function stockImage(raw: unknown, sizes: string[]): StockImage {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BadStockImage('the image must be an object');
  const o = raw as Record<string, unknown>;
  const id = text(o.id);
  if (!id) throw new BadStockImage('the image has no id');
  const offered = Array.isArray(o.sizes) ? (o.sizes as unknown[]).filter((s): s is Record<string, unknown> => !!s && typeof s === 'object') : [];
  const chosen = sizes.map((name) => offered.find((s) => text(s.name) === name)).find((s) => s && text(s.src));
  const url = text(chosen?.src) || text(offered.find((s) => text(s.src))?.src) || text(o.url);
  if (!url) throw new BadStockImage('the image has no URL to download');
  const postId = Number(o.post_id);
  return { id, url, alt: text(o.alt), photographer: text(o.photographer), postId: Number.isSafeInteger(postId) && postId > 0 ? postId : 0 };
}

/**
 * Imports a stock photo selection (`images`: Pexels-style `{id, post_id?, alt, url, photographer,
 * sizes: [{name, src}]}`), each photo once per `collection:id`, the size downloaded being the first
 * of `imageSizes` (names) it offers. Answers `[{id, url}]`: images imported before first, then the
 * new ones, then each image that could not be imported as `{id: 0, url, source_id, error}` (the
 * others still succeed). `images` that is not a list is a 400.
 */
export async function importStockImages(t: ImportTarget, images: unknown, imageSizes: unknown, collection = 'pexels'): Promise<StockOutcome[]> {
  if (!Array.isArray(images)) throw invalidParam('images', 'images must be a list of the images to import.');
  const sizes = wantedSizes(imageSizes);
  const outcomes = await inParallel(images, async (raw): Promise<StockOutcome & { downloaded?: boolean }> => {
    let picked: StockImage;
    try {
      picked = stockImage(raw, sizes);
    } catch (e) {
      if (!(e instanceof BadStockImage)) throw e;
      const sourceId = raw && typeof raw === 'object' ? text((raw as { id?: unknown }).id) : '';
      return { id: 0, url: '', source_id: sourceId, error: { code: 'invalid_image', message: e.message, status: 400 } };
    }
    try {
      return await t.site.media.importImage(t.store, t.site.home, {
        url: picked.url,
        sourceKey: `${collection}:${picked.id}`,
        author: t.author,
        filename: picked.alt ? picked.alt.slice(0, 60) : `${collection}-photo-${picked.id}`,
        title: picked.alt || `Photo by ${picked.photographer || collection}`,
        alt: picked.alt,
        parent: picked.postId,
      });
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      return { id: 0, url: picked.url, source_id: picked.id, error: { code: e.code, message: e.message, status: e.status } };
    }
  });
  const failed = outcomes.filter((o) => 'error' in o);
  const imported = outcomes.filter((o) => !('error' in o));
  return [...imported.filter((o) => !o.downloaded), ...imported.filter((o) => o.downloaded), ...failed].map((o) => ('error' in o ? o : { id: o.id, url: o.url }));
}

// --- the images of a piece of markup ---

/**
 * An image URL in block markup: in an attribute or text (`https://…/a.jpg`) or in a block
 * comment's JSON, where slashes may be escaped (`https:\/\/…\/a.jpg`). Raster formats only: the
 * media library refuses SVG from outside. A query string is part of the URL (image CDNs size by it).
 */
const IMAGE_URL = /https?:(?:\\?\/){2}[^\s"'()<>\\]+(?:\\\/[^\s"'()<>\\]+)*?\.(?:jpe?g|png|gif|webp|avif)(?:\?[^\s"'()<>\\]*)?(?![\w.])/gi;

/** An image of the markup that was imported, or could not be. */
export interface MarkupImage {
  /** The URL as the markup had it (unescaped). */
  url: string;
  /** The attachment now holding it, and its URL on this site; 0 and '' when it could not be imported. */
  id: number;
  to: string;
  /** True when this call downloaded it (a new attachment); false when it was imported before. */
  created: boolean;
  error?: { code: string; message: string; status: number };
}

/**
 * Imports every remote raster image the markup refers to (once per URL, across calls and
 * requests: the source key is `sourcePrefix` + the URL) and rewrites each reference, escaped or
 * not, to the imported copy. Images already on this site are left alone; an image that cannot
 * be imported keeps its URL and is reported with its error. What the markup's block JSON means
 * is not interpreted, so nothing of it can run.
 */
export async function importImagesInMarkup(t: ImportTarget, markup: string, sourcePrefix: string): Promise<{ markup: string; images: MarkupImage[] }> {
  const own = new URL(t.site.home).host;
  const urls = [...new Set([...markup.matchAll(IMAGE_URL)].map((m) => m[0].replace(/\\\//g, '/')))].filter((u) => {
    try {
      return new URL(u).host !== own;
    } catch {
      return false;
    }
  });
  const images = await inParallel(urls, async (url): Promise<MarkupImage> => {
    try {
      const last = new URL(url).pathname.split('/').pop() ?? '';
      const name = (decodePercent(last) ?? last).replace(/\.[a-z0-9]+$/i, '');
      const r = await t.site.media.importImage(t.store, t.site.home, { url, sourceKey: `${sourcePrefix}${url}`, author: t.author, filename: name || undefined, title: name || undefined });
      return { url, id: r.id, to: r.url, created: r.downloaded };
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      return { url, id: 0, to: '', created: false, error: { code: e.code, message: e.message, status: e.status } };
    }
  });
  let out = markup;
  for (const image of images) {
    if (!image.id) continue;
    out = out.split(image.url).join(image.to).split(image.url.replace(/\//g, '\\/')).join(image.to.replace(/\//g, '\\/'));
  }
  return { markup: out, images };
}
