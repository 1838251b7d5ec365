import type { Ctx } from '../../../core/context.ts';
import type { IndexableRow } from '../repo.ts';
import { indexableJson } from '../repo.ts';
import { completeIndexing, indexablesComplete as finishIndexables, indexGeneral, indexLinks, indexPosts, indexPostTypeArchives, indexTerms, LIMITS, prepareIndexing } from '../indexing.ts';
import seo from '../plugin.ts';

/**
 * indexing/* and link-indexing/* (Yoast's Indexing_Route): each batch route answers the indexables
 * it wrote as `{objects, next_url}`, next_url being the route's own URL while a full batch was
 * written (so more may remain) and false once a batch comes back short.
 */

/**
 * Runs one batch. Yoast answers any exception of a batch as wpseo_error_indexing carrying the
 * exception's message; here a failure is the engine's critical error, its text kept in the log.
 */
async function batch(ctx: Ctx, route: string, limit: number, run: () => Promise<IndexableRow[]>) {
  const rows = await run();
  return { objects: rows.map(indexableJson), next_url: rows.length >= limit ? ctx.api.restUrl(`seo/v1/${route}`) : false };
}

const done = () => ({ objects: [], next_url: false });

export const posts = (ctx: Ctx<'seo:indexing.posts'>) => batch(ctx, 'indexing/posts', LIMITS.posts, () => indexPosts(ctx.store, ctx.site, ctx.store.plugin(seo), LIMITS.posts));

export const terms = (ctx: Ctx<'seo:indexing.terms'>) => batch(ctx, 'indexing/terms', LIMITS.terms, () => indexTerms(ctx.store, ctx.site, ctx.store.plugin(seo), LIMITS.terms));

export const postTypeArchives = (ctx: Ctx<'seo:indexing.postTypeArchives'>) => batch(ctx, 'indexing/post-type-archives', LIMITS.postTypeArchives, () => indexPostTypeArchives(ctx.site, ctx.store.plugin(seo), LIMITS.postTypeArchives));

// the general pages are indexed all at once, so there is never a next batch
export const general = (ctx: Ctx<'seo:indexing.general'>) => batch(ctx, 'indexing/general', Infinity, () => indexGeneral(ctx.site, ctx.store.plugin(seo)));

export async function prepare(ctx: Ctx<'seo:indexing.prepare'>) {
  await prepareIndexing(ctx.store);
  return done();
}

export async function indexablesComplete(ctx: Ctx<'seo:indexing.indexablesComplete'>) {
  await finishIndexables(ctx.store);
  return done();
}

export async function complete(ctx: Ctx<'seo:indexing.complete'>) {
  await completeIndexing(ctx.store);
  return done();
}

export function links(ctx: Ctx<'seo:indexing.links'>) {
  const objectType = ctx.config.object_type as 'post' | 'term';
  return batch(ctx, `link-indexing/${objectType}s`, LIMITS.links, () => indexLinks(ctx.store, ctx.site, ctx.store.plugin(seo), objectType, LIMITS.links));
}
