import type { Ctx } from '../../../core/context.ts';
import { importStockImages } from '../../../core/image-imports.ts';

/**
 * POST process_images: each picked image imported into the media library (once per photo id, by
 * the core's import service: guarded download, size cap, really an image), answered as
 * `[{id, url}]`, images imported before first, then the new ones; an image that could not be
 * imported is reported after them with `id: 0` and its error, and the others still succeed.
 */
export function processImages(ctx: Ctx<'image-picker:images.processImages'>) {
  return importStockImages({ store: ctx.store, site: ctx.site, author: ctx.user!.id }, ctx.args.images, ctx.args.image_sizes, ctx.args.collection_slug || 'pexels');
}
