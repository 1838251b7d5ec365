import { cap, type PostTypeInfo, type TaxonomyInfo } from '../../core/content-types.ts';
import type { Ctx } from '../../core/context.ts';
import { denied } from '../../core/rest.ts';
import { invalidParam } from '../../engine/index.ts';

/**
 * How the Kadence routes read their arguments: id lists as wp_parse_id_list reads them, the post
 * types each route offers, the per-page clamp the plugins apply, and the refusals they give.
 */

/** Which post types a route offers: the public ones (Kadence Blocks' get_allowed_post_types) or every registered one (Kadence Pro's picker). */
export type TypeScope = 'public' | 'registered';

export function offeredTypes(ctx: Ctx, scope: TypeScope): PostTypeInfo[] {
  return ctx.site.types.postTypes.filter((t) => t.slug !== 'attachment' && (scope === 'registered' || t.viewable));
}

/** wp_parse_id_list: ids from "1, 2 3", a list, or one number; each absint, repeats and zeros dropped. */
export function idList(value: unknown): number[] {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : value === undefined || value === null ? [] : [value];
  const ids = parts.map((p) => Math.abs(Math.trunc(Number(p)))).filter((n) => Number.isFinite(n) && n > 0);
  return [...new Set(ids)];
}

/** absint */
export const absint = (value: unknown): number => {
  const n = Math.abs(Math.trunc(Number(value)));
  return Number.isFinite(n) ? n : 0;
};

/**
 * sanitize_post_perpage (at most 100); 0 means the site's posts_per_page, as WP_Query reads a
 * posts_per_page of 0.
 */
export function perPageOf(ctx: Ctx): number {
  return Math.min(absint(ctx.args.per_page), 100) || Number(ctx.site.options.posts_per_page) || 10;
}

/** The permission callback of the Pro routes: the `edit_posts` capability of the post type asked for. */
export function requireEditCap(ctx: Ctx, typeSlug: string | undefined): void {
  const type = typeSlug ? ctx.site.types.postType(typeSlug) : undefined;
  if (!ctx.can(type ? cap(type, 'edit_posts') : 'edit_posts')) throw denied(ctx, 'rest_forbidden');
}

/** A registered taxonomy by slug, or the 400 get_terms' invalid_taxonomy becomes. */
export function taxonomyOf(ctx: Ctx, slug: string, param: string): TaxonomyInfo {
  const tax = ctx.site.types.taxonomy(slug);
  if (!tax) throw invalidParam(param, 'Invalid taxonomy.');
  return tax;
}

/** The taxonomies of a post type that pickers show (public, with a UI: the viewable ones). */
export const taxonomiesOfType = (ctx: Ctx, type: string): TaxonomyInfo[] => ctx.site.types.taxonomies.filter((t) => t.viewable && t.types.includes(type));

/**
 * What the term and taxonomy lists page: the whole list unless the request names `page` or
 * `per_page` (the plugins declare both and answer every item, which the editors' selects rely
 * on), else that page.
 */
export function listWindow(ctx: Ctx): { offset: number; limit: number; page: number; perPage: number } | null {
  const q = ctx.request.query;
  if (q.page === undefined && q.per_page === undefined) return null;
  const perPage = perPageOf(ctx);
  const page = Math.max(1, absint(ctx.args.page));
  return { offset: (page - 1) * perPage, limit: perPage, page, perPage };
}
