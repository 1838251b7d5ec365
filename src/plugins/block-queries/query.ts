import { cap, type PostTypeInfo } from '../../core/content-types.ts';
import type { Ctx } from '../../core/context.ts';
import type { PostQuery, PostRow } from '../../store/posts.ts';
import { invalidParam } from '../../engine/index.ts';
import { absint, idList, offeredTypes, perPageOf, taxonomyOf, type TypeScope } from './args.ts';

/**
 * The Posts block's query (get_query_items of kbp/v1 and kbpp/v1) as a store query: an
 * `individual` query lists the posts picked in `include`, in that order; any other lists
 * published posts of the type with the block's order, offset, sticky, term and author settings.
 */

/** WP_Query's orderby values the blocks send, as the store orders. */
const ORDERBY: Readonly<Record<string, PostQuery['orderby']>> = {
  date: 'date', modified: 'modified', title: 'title', name: 'slug', author: 'author', id: 'id', ID: 'id',
  menu_order: 'menu_order', comment_count: 'comment_count', rand: 'rand', parent: 'parent', post__in: 'include',
};

/** Publish, plus private when the caller may read the private posts of every type asked for (WP_Query's default statuses). */
export function readableStatuses(ctx: Ctx, types: readonly PostTypeInfo[]): string[] {
  return types.length && types.every((t) => ctx.can(cap(t, 'read_private_posts'))) ? ['publish', 'private'] : ['publish'];
}

/**
 * The post types asked for: `type`, or `type_array` when `multiple` is set (the block's multiple
 * post types), each one the route offers; `all` (Pro) is all of them. An unknown type is the 400
 * the plugin's validate_post_type_string gives.
 */
export function askedTypes(ctx: Ctx, scope: TypeScope, allowAll: boolean): PostTypeInfo[] {
  const offered = offeredTypes(ctx, scope);
  const a = ctx.args;
  const multiple = a.multiple === true;
  const slugs: string[] = multiple && a.type_array !== undefined ? a.type_array : [typeof a.type === 'string' ? a.type : 'post'];
  if (allowAll && slugs.includes('all')) return offered;
  return slugs.map((slug) => {
    const type = offered.find((t) => t.slug === slug);
    if (!type) throw invalidParam(multiple ? 'type_array' : 'type');
    return type;
  });
}

/** What the two routes' own args ask for, read by each route's handler. */
export interface BlockQueryOptions {
  /** A custom-taxonomy query: kbp's `custom_tax`, kbpp's `post_tax`. */
  customTax: boolean;
  /** kbp/v1: the post being edited (`post_id`), left out; a template's id (`theme//single`) is not one. */
  currentPost?: string | null;
  /** kbpp/v1: the `author` filter (88888888: the caller). */
  author?: string | null;
  /** kbpp/v1 accepts `type=all`. */
  allowAll: boolean;
}

/** The caller's own posts, as the Pro block's author setting names them. */
const CURRENT_USER_SENTINEL = 88888888;

/** Runs the block's query; null when there is no query to run (`query` empty, or nothing picked). */
export async function runBlockQuery(ctx: Ctx, o: BlockQueryOptions): Promise<PostRow[] | null> {
  const a = ctx.args;
  if (!a.query) return null;
  const types = askedTypes(ctx, 'public', o.allowAll);
  const include = idList(a.include);
  if (a.query === 'individual' || a.query === 'individual-ordered') {
    if (!include.length) return null;
    const q: PostQuery = { types: types.map((t) => t.slug), statuses: readableStatuses(ctx, types), include, orderby: 'include', order: 'asc', offset: 0, limit: include.length };
    return ctx.store.posts.list(q);
  }
  const perPage = perPageOf(ctx);
  const page = Math.max(1, absint(a.page));
  const q: PostQuery = {
    types: types.map((t) => t.slug),
    statuses: ['publish'],
    search: typeof a.search === 'string' && a.search.trim() ? a.search : undefined,
    include: include.length ? include : undefined,
    // no order asked: relevance for a search, else the date (WP_Query's default)
    orderby: ORDERBY[String(a.order_by ?? '')],
    order: String(a.order ?? '').toLowerCase() === 'asc' ? 'asc' : 'desc',
    stickyFirst: a.allow_sticky === true,
    offset: absint(a.offset) + (page - 1) * perPage,
    limit: perPage,
  };
  if (o.currentPost && /^\d+$/.test(o.currentPost.trim())) q.exclude = [Number(o.currentPost)];
  await applyTermFilters(ctx, q, types, o.customTax);
  const authors = idList(o.author);
  if (authors.length) q.authors = authors[0] === CURRENT_USER_SENTINEL ? [ctx.user?.id ?? 0] : authors;
  return ctx.store.posts.list(q);
}

/**
 * The block's term settings: for posts, `category` and `tags` (ids) as category__in/tag__in, or
 * their NOT IN when `exclude` is 'exclude'; for another type (or with the custom-taxonomy flag),
 * `category` holds term ids of the taxonomy `tax_type`. Ids of another taxonomy never match.
 */
async function applyTermFilters(ctx: Ctx, q: PostQuery, types: readonly PostTypeInfo[], customTax: boolean): Promise<void> {
  const a = ctx.args;
  const notIn = a.exclude === 'exclude';
  const onlyPosts = types.length === 1 && types[0].slug === 'post';
  const ofTaxonomy = async (ids: number[], taxonomy: string) => (await ctx.store.terms.getMany(ids)).filter((t) => t.taxonomy === taxonomy).map((t) => t.id);
  const matchNothing = (ids: number[]) => (ids.length ? ids : [0]);
  if (!onlyPosts || customTax) {
    if (typeof a.tax_type !== 'string' || !a.tax_type) return;
    const ids = idList(a.category);
    if (!ids.length) return;
    const taxonomy = taxonomyOf(ctx, a.tax_type, 'tax_type').slug;
    const filter = [{ taxonomy, ids: matchNothing(await ofTaxonomy(ids, taxonomy)) }];
    if (notIn) q.termIdsExclude = filter;
    else q.termIds = filter;
    return;
  }
  const categories = idList(a.category);
  const tags = idList(a.tags);
  if (categories.length) {
    const ids = await ofTaxonomy(categories, 'category');
    if (notIn) q.categoriesExclude = ids.length ? ids : undefined;
    else q.categories = matchNothing(ids);
  }
  if (tags.length) {
    const ids = await ofTaxonomy(tags, 'post_tag');
    if (notIn) q.tagsExclude = ids.length ? ids : undefined;
    else q.tags = matchNothing(ids);
  }
}
