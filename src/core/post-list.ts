import { invalidParams, RestError } from '../engine/errors.ts';
import type { PostHead, PostQuery, PostRow, TaxQuery } from '../store/posts.ts';
import { cap, type PostTypeInfo } from './content-types.ts';
import type { Ctx } from './context.ts';
import { denied, parseDateArg, type Page } from './rest.ts';
import { sanitizeSlug } from '../store/transact.ts';

/**
 * A post collection's query (WP_REST_Posts_Controller::get_items → WP_Query), shared by every
 * controller of a post type: the core's posts and pages, the media library, plugins' types.
 */

/** What `status=any` lists: every status not excluded from search. */
const ANY_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/** title/content/excerpt (and an attachment's caption and description) accept a string or `{raw}`. */
export const rawText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { raw?: unknown }).raw === 'string' ? (v as { raw: string }).raw : undefined;

/**
 * sanitize_post_statuses: the statuses asked for (`fallback`, the arg's default, when none), where
 * anything but the default needs the right to edit (or, for private, to read private) posts of the
 * type. Its refusal is a sanitize callback's: WP_REST_Request::sanitize_params reports it as an
 * invalid `status` (400), the refusal itself (401 or 403) in the details, before any permission check.
 */
export function statusesFor(ctx: Ctx, type: PostTypeInfo, fallback: string[]): string[] {
  const asked = (ctx.args.status === undefined ? fallback : Array.isArray(ctx.args.status) ? ctx.args.status : [ctx.args.status]) as string[];
  for (const s of asked) {
    if (fallback.includes(s)) continue;
    if (!(ctx.can(cap(type, 'edit_posts')) || (s === 'private' && ctx.can(cap(type, 'read_private_posts')))))
      throw invalidParams(new Map([['status', denied(ctx, 'rest_forbidden_status').toBody()]]));
  }
  return [...new Set(asked.flatMap((s) => (s === 'any' ? ANY_STATUSES : [s])))];
}

/** The date args as the site-local wall times WP_Query compares (a zone in the value is applied first). */
const wallOf = (v: unknown) => (typeof v === 'string' ? parseDateArg(v).wall : undefined);

const ORDERBY: Record<string, PostQuery['orderby']> = {
  author: 'author', date: 'date', id: 'id', include: 'include', modified: 'modified', parent: 'parent', relevance: 'relevance', slug: 'slug', include_slugs: 'slug', title: 'title', menu_order: 'menu_order',
};

const nonEmpty = (v: unknown) => (Array.isArray(v) && v.length ? (v as never[]) : undefined);

/**
 * The query a collection request asks for, from the args every post collection offers (revisions'
 * too); `extra` narrows it further: the filters below the type's collection offers, the media
 * library's MIME types. An arg a collection does not offer stays unread, as WordPress ignores it
 * (`sticky` on media, `after` on revisions).
 */
export function listQueryOf(ctx: Ctx, type: PostTypeInfo, statuses: string[], page: Page, extra: Partial<PostQuery> = {}): PostQuery {
  const a = ctx.args;
  if (a.orderby === 'include' && !(a.include as number[]).length)
    throw ctx.fail('rest_orderby_include_missing_include');
  if (a.orderby === 'relevance' && !a.search)
    throw ctx.fail('rest_no_search_term_defined');
  return {
    types: [type.slug],
    statuses,
    search: a.search || undefined,
    include: nonEmpty(a.include),
    exclude: nonEmpty(a.exclude),
    orderby: ORDERBY[a.orderby as string] ?? 'date',
    // WP_Query orders by the include list as given (FIELD(ID, ...)), whatever `order` says
    order: a.order === 'asc' || a.orderby === 'include' ? 'asc' : 'desc',
    offset: page.offset,
    limit: page.perPage,
    ...extra,
  };
}

/**
 * The filters WP_REST_Posts_Controller::get_collection_params offers by post type: slug and the
 * dates on every type's collection, the others where the type supports them (author; parent for
 * a hierarchical type and media; menu_order for page-attributes and menu items; sticky on posts).
 */
export const typeFilters = (ctx: Ctx): Partial<PostQuery> => ({
  // wp_parse_slug_list: each slug as sanitize_title saves it, so the text as typed finds its post
  slugs: nonEmpty(ctx.args.slug)?.map((s: string) => sanitizeSlug(String(s))),
  after: wallOf(ctx.args.after),
  before: wallOf(ctx.args.before),
  modifiedAfter: wallOf(ctx.args.modified_after),
  modifiedBefore: wallOf(ctx.args.modified_before),
});
export const authorFilters = (ctx: Ctx): Partial<PostQuery> => ({ authors: nonEmpty(ctx.args.author), authorsExclude: nonEmpty(ctx.args.author_exclude) });
export const parentFilters = (ctx: Ctx): Partial<PostQuery> => ({ parent: nonEmpty(ctx.args.parent), parentExclude: nonEmpty(ctx.args.parent_exclude) });
export const menuOrderFilter = (ctx: Ctx): Partial<PostQuery> => ({ menuOrder: typeof ctx.args.menu_order === 'number' ? ctx.args.menu_order : undefined });
export const stickyFilter = (ctx: Ctx): Partial<PostQuery> => ({ sticky: typeof ctx.args.sticky === 'boolean' ? ctx.args.sticky : undefined });

/** Runs a collection's query; `orderby=include_slugs` keeps the order the slugs were given in. */
export async function queryPosts(ctx: Ctx, q: PostQuery): Promise<{ rows: PostRow[]; total: number }> {
  return inAskedOrder(ctx, q, await ctx.store.posts.query(q));
}

/** queryPosts as the posts' heads (PostsRepo.queryHeads). */
export async function queryPostHeads(ctx: Ctx, q: PostQuery): Promise<{ rows: PostHead[]; total: number }> {
  return inAskedOrder(ctx, q, await ctx.store.posts.queryHeads(q));
}

function inAskedOrder<T extends { slug: string }>(ctx: Ctx, q: PostQuery, found: { rows: T[]; total: number }): { rows: T[]; total: number } {
  if (ctx.args.orderby === 'include_slugs' && q.slugs) {
    const rank = new Map(q.slugs.map((s, i) => [s, i]));
    found.rows.sort((x, y) => (rank.get(x.slug) ?? 0) - (rank.get(y.slug) ?? 0));
  }
  return found;
}

/** The REST arg of each taxonomy a collection filters by (its rest_base), and the taxonomy. */
export type TaxonomyArgs = readonly (readonly [base: string, taxonomy: string])[];

/** The taxonomies the post collections filter by. */
export const POST_TAXONOMY_ARGS: TaxonomyArgs = [['categories', 'category'], ['tags', 'post_tag']];

interface TermFilter {
  terms?: number[];
  include_children?: boolean;
  operator?: 'AND' | 'OR';
}

/**
 * WP_REST_Posts_Controller::prepare_tax_query: each of the type's taxonomies' arg (a list of term
 * ids, or `{terms, include_children, operator}`) and its `_exclude`, with the children of a
 * hierarchical taxonomy's terms when asked (WP_Tax_Query::clean_query), joined as `tax_relation` says.
 */
export async function taxQueryOf(ctx: Ctx, taxonomies: TaxonomyArgs): Promise<{ taxQuery?: TaxQuery }> {
  const clauses: TaxQuery['clauses'] = [];
  for (const [base, taxonomy] of taxonomies) {
    for (const exclude of [false, true]) {
      const arg = ctx.args[exclude ? `${base}_exclude` : base] as number[] | TermFilter | undefined;
      if (!arg) continue;
      const filter: TermFilter = Array.isArray(arg) ? { terms: arg } : arg;
      let ids = filter.terms ?? [];
      if (!ids.length) continue;
      if (filter.include_children) ids = [...ids, ...(await Promise.all(ids.map((id) => ctx.store.terms.descendantIds(taxonomy, id)))).flat()];
      clauses.push({ ids, operator: exclude ? 'NOT IN' : filter.operator === 'AND' ? 'AND' : 'IN' });
    }
  }
  return clauses.length ? { taxQuery: { relation: ctx.args.tax_relation === 'OR' ? 'OR' : 'AND', clauses } } : {};
}
