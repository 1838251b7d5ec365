import { RestError } from '../../../engine/errors.ts';
import type { Ctx } from '../../../core/context.ts';
import { BadImage, pickedImage, wantedSizes, type PickedImage } from '../images.ts';

/** How many downloads run at once for one request. */
const PARALLEL = 3;

type Outcome = { id: number; url: string; downloaded: boolean } | { id: 0; url: string; source_id: string; error: { code: string; message: string; status: number } };

/**
 * POST process_images: each picked image imported into the media library (once per photo id, by
 * the core's import service: guarded download, size cap, really an image), answered as
 * `[{id, url}]`, images imported before first, then the new ones; an image that could not be
 * imported is reported in its place with `id: 0` and its error, and the others still succeed.
 */
export async function processImages(ctx: Ctx) {
  const images = ctx.args.images;
  if (!Array.isArray(images)) throw new RestError('rest_invalid_param', 'Invalid parameter(s): images', 400, { params: { images: 'images must be a list of the images to import.' } });
  const sizes = wantedSizes(ctx.args.image_sizes);
  const collection = typeof ctx.args.collection_slug === 'string' && ctx.args.collection_slug ? ctx.args.collection_slug : 'pexels';
  const outcomes: Outcome[] = new Array(images.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < images.length; i = next++) outcomes[i] = await importOne(ctx, images[i], sizes, collection);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, images.length) }, worker));
  const existing = outcomes.filter((o) => o.id && !('error' in o) && !o.downloaded);
  const fresh = outcomes.filter((o) => o.id && !('error' in o) && o.downloaded);
  const failed = outcomes.filter((o) => 'error' in o);
  return [...existing, ...fresh, ...failed].map((o) => ('error' in o ? o : { id: o.id, url: o.url }));
}

async function importOne(ctx: Ctx, raw: unknown, sizes: string[], collection: string): Promise<Outcome> {
  let picked: PickedImage;
  try {
    picked = pickedImage(raw, sizes);
  } catch (e) {
    if (!(e instanceof BadImage)) throw e;
    const sourceId = raw && typeof raw === 'object' ? String((raw as { id?: unknown }).id ?? '') : '';
    return { id: 0, url: '', source_id: sourceId, error: { code: 'invalid_image', message: e.message, status: 400 } };
  }
  try {
    const r = await ctx.site.media.importImage(ctx.store, ctx.site.home, {
      url: picked.url,
      sourceKey: `${collection}:${picked.id}`,
      author: ctx.user!.id,
      filename: picked.alt ? picked.alt.slice(0, 60) : `${collection}-photo-${picked.id}`,
      title: picked.alt || `Photo by ${picked.photographer || collection}`,
      alt: picked.alt,
      parent: picked.postId,
    });
    return r;
  } catch (e) {
    if (!(e instanceof RestError)) throw e;
    return { id: 0, url: picked.url, source_id: picked.id, error: { code: e.code, message: e.message, status: e.status } };
  }
}
