import { RestError } from '../engine/errors.ts';
import type { TermQuery, TermRow } from '../store/terms.ts';
import type { TaxonomyInfo } from './content-types.ts';
import type { Ctx } from './context.ts';
import { readablePost } from './post-access.ts';
import { contextOf, denied, pageOf, type Page } from './rest.ts';

/**
 * A term collection (WP_REST_Terms_Controller::get_items → WP_Term_Query), shared by every
 * controller of a taxonomy: categories, tags and menus (whose controller extends the terms one).
 */

const ORDERBY: Record<string, TermQuery['orderby']> = {
  id: 'id', include: 'include', name: 'name', slug: 'slug', include_slugs: 'slug', term_group: 'term_group', description: 'description', count: 'count',
};

/** get_items_permissions_check: the edit context only for those who may edit the taxonomy's terms. */
export function checkListContext(ctx: Ctx, tax: TaxonomyInfo): void {
  if (contextOf(ctx) === 'edit' && !ctx.can(tax.capabilities.edit_terms))
    throw denied(ctx, 'rest_forbidden_context', { action: 'edit terms in this taxonomy' });
}

/**
 * The page of the taxonomy's terms the request's args ask for, after the `post` filter's own
 * checks; `extra` adds the filters only some taxonomies offer (`parent`, for a hierarchical one).
 */
export async function queryTermsOfRoute(ctx: Ctx, tax: TaxonomyInfo, extra: Partial<TermQuery> = {}): Promise<{ rows: TermRow[]; total: number; page: Page }> {
  const a = ctx.args;
  if (typeof a.post === 'number') {
    const post = await ctx.store.posts.get(a.post);
    if (!post) throw ctx.fail('rest_post_invalid_id', {}, { status: 400 });
    if (!readablePost(ctx, post)) throw denied(ctx, 'rest_forbidden_context', { action: 'view terms for this post' });
  }
  const page = pageOf(ctx, ctx.args.offset);
  const list = (v: unknown) => (Array.isArray(v) && v.length ? (v as never[]) : undefined);
  const { rows, total } = await ctx.store.terms.query({
    taxonomy: tax.slug,
    search: a.search || undefined,
    include: list(a.include),
    exclude: list(a.exclude),
    slugs: list(a.slug),
    hideEmpty: a.hide_empty === true,
    post: typeof a.post === 'number' ? a.post : undefined,
    orderby: ORDERBY[a.orderby as string] ?? 'name',
    order: a.order === 'desc' && a.orderby !== 'include' ? 'desc' : 'asc',
    offset: page.offset,
    limit: page.perPage,
    ...extra,
  });
  return { rows, total, page };
}
