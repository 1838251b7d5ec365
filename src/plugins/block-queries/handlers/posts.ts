import type { Ctx } from '../../../core/context.ts';
import { collection } from '../../../core/rest.ts';
import type { PostQuery } from '../../../store/posts.ts';
import { absint, idList, offeredTypes, perPageOf, requireEditCap, type TypeScope } from '../args.ts';
import { queryItems, selectItems } from '../items.ts';
import { readableStatuses, runBlockQuery } from '../query.ts';

/** kbp/v1/post-query: the Posts block's posts as summaries. */
export async function postQuery(ctx: Ctx<'block-queries:posts.postQuery'>) {
  const rows = await runBlockQuery(ctx, { customTax: ctx.args.custom_tax === true, currentPost: ctx.args.post_id, allowAll: false });
  return rows ? queryItems(ctx, rows, false) : [];
}

/** kbpp/v1/post-query: the Pro query, with an author filter; needs the asked type's edit capability. */
export async function proPostQuery(ctx: Ctx<'block-queries:posts.proPostQuery'>) {
  requireEditCap(ctx, typeof ctx.args.type === 'string' ? ctx.args.type : undefined);
  const rows = await runBlockQuery(ctx, { customTax: ctx.args.post_tax === true, author: ctx.args.author, allowAll: true });
  return rows ? queryItems(ctx, rows, true) : [];
}

/** The taxonomy filter args of the pickers: each taxonomy's REST base (`categories`, `tags`, `menus` for navigation menus). */
function termFilters(ctx: Ctx): PostQuery['termIds'] {
  const bases = ctx.site.types.taxonomies.map((t) => ({ base: t.restBase, taxonomy: t.slug }));
  const filters = bases.map(({ base, taxonomy }) => ({ taxonomy, ids: idList(ctx.args[base]) })).filter((f) => f.ids.length);
  return filters.length ? filters : undefined;
}

/**
 * kbpp/v1/post-select and ktp/v1/post-select: the post pickers, one page with X-WP-Total and
 * X-WP-TotalPages. `type` keeps only the types the route offers (config `allowed_types`); a
 * search, picked ids (then in their order) and term filters narrow the list.
 */
export async function postSelect(ctx: Ctx<'block-queries:posts.postSelect'>) {
  const asked = ctx.args.type.map(String);
  requireEditCap(ctx, asked[0]);
  const offered = offeredTypes(ctx, ctx.config.allowed_types as TypeScope);
  const types = offered.filter((t) => asked.includes(t.slug));
  const include = idList(ctx.args.include);
  const perPage = perPageOf(ctx);
  const page = Math.max(1, absint(ctx.args.page));
  const q: PostQuery = {
    types: types.map((t) => t.slug),
    statuses: readableStatuses(ctx, types),
    search: typeof ctx.args.search === 'string' && ctx.args.search.trim() ? ctx.args.search : undefined,
    include: include.length ? include : undefined,
    orderby: include.length ? 'include' : undefined,
    order: include.length ? 'asc' : 'desc',
    termIds: termFilters(ctx),
    offset: (page - 1) * perPage,
    limit: perPage,
  };
  const { rows, total } = types.length ? await ctx.store.posts.query(q) : { rows: [], total: 0 };
  return collection(ctx, await selectItems(ctx, rows), total, { page, perPage, offset: q.offset });
}
