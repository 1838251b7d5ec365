import type { Ctx } from '../../../core/context.ts';
import { importStockImages } from '../../../core/image-imports.ts';
import { cachedAnswer, expectObject, libraryCall, requireFields, requireLicense } from '../calls.ts';

/** The size the AI service renders images at when the editor names none (Kadence's default). */
const DEFAULT_SIZES = [{ id: '2048x2048', width: 2048, height: 2048, crop: false }];

/**
 * GET get_images: stock photos for the chosen industries (`industries`, e.g. ["Dentist"]), from
 * the AI service's image collections, or, for `aiGenerated` with an `industry` to search, from its
 * image search; `image_type` (default JPEG) and `image_sizes` pass through. Kept in the store per
 * question; answered as the service's {data: [...]} (decoded). No industries is a 400.
 */
export async function getImages(ctx: Ctx<'design-library:images.getImages'>) {
  const industries = Array.isArray(ctx.args.industries) ? ctx.args.industries.filter((i: unknown) => typeof i === 'string' && i.trim()) : [];
  if (!industries.length) throw ctx.fail('kb_design_library_missing_industries', {}, { params: ['industries'] });
  const call = await libraryCall(ctx);
  const imageType = typeof ctx.args.image_type === 'string' && ctx.args.image_type ? ctx.args.image_type : 'JPEG';
  const sizes = Array.isArray(ctx.args.image_sizes) && ctx.args.image_sizes.length ? ctx.args.image_sizes : DEFAULT_SIZES;
  const query = typeof ctx.args.industry === 'string' ? ctx.args.industry.trim() : '';
  const search = query !== '' && industries.includes('aiGenerated');
  const ai = call.ai();
  const path = search ? 'images/search' : 'images/collections';
  return cachedAnswer(call, 'images', [path, industries, imageType, sizes, search ? query : ''], { reload: ctx.args.force_reload }, async () => {
    const json = search ? { query, image_type: imageType, sizes, page: 1, per_page: 24 } : { industries, image_type: imageType, sizes };
    const answer = expectObject(ai, path, await ai.json({ method: 'POST', path, json }));
    if (!('data' in answer)) throw ai.invalidAnswer(path, 'no image data');
    return answer;
  });
}

/** GET get_image_collections: the AI service's named photo collections, kept in the store. */
export async function getImageCollections(ctx: Ctx<'design-library:images.getImageCollections'>) {
  const call = await libraryCall(ctx);
  const ai = call.ai();
  return cachedAnswer(call, 'image-collections', [], { reload: ctx.args.force_reload }, async () => expectObject(ai, 'images/collections', await ai.json({ path: 'images/collections' })));
}

/** GET get_verticals: the industry verticals the AI wizard offers, kept in the store. */
export async function getVerticals(ctx: Ctx<'design-library:images.getVerticals'>) {
  const call = await libraryCall(ctx);
  const ai = call.service('ai', call.settings.aiUrl);
  return cachedAnswer(call, 'verticals', [], { reload: ctx.args.force_reload }, async () => expectObject(ai, 'verticals', await ai.json({ path: 'verticals' })));
}

/** The business an intake question is about: what the wizard has been told so far. */
const INTAKE = ['name', 'entity_type', 'industry', 'location', 'description'] as const;

/** POST get_keywords: keyword suggestions for the business (name, entity_type, industry, location, description; lang, count). */
export async function getKeywords(ctx: Ctx<'design-library:images.getKeywords'>) {
  const business = requireFields(ctx, INTAKE);
  const call = await libraryCall(ctx);
  requireLicense(call);
  const json = { ...business, lang: ctx.args.lang, count: ctx.args.count };
  return call.ai().json({ method: 'POST', path: 'proxy/intake/suggest-keywords', json });
}

/** POST get_search_query: the image search query that suits the business (same fields as get_keywords). */
export async function getSearchQuery(ctx: Ctx<'design-library:images.getSearchQuery'>) {
  const business = requireFields(ctx, INTAKE);
  const call = await libraryCall(ctx);
  requireLicense(call);
  return call.ai().json({ method: 'POST', path: 'proxy/intake/search-query', json: business });
}

/**
 * POST process_images: the chosen stock photos imported into the media library, once each (the
 * image picker's import: `[{id, url}]`, failures listed with their reason after the others).
 */
export async function processImages(ctx: Ctx<'design-library:images.processImages'>) {
  const call = await libraryCall(ctx);
  return importStockImages(call.target, ctx.args.images, ctx.args.image_sizes, 'pexels');
}
