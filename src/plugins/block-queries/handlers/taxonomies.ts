import type { Ctx } from '../../../core/context.ts';
import { collection } from '../../../core/rest.ts';
import { invalidParam, RestResponse } from '../../../engine/index.ts';
import type { TermRow } from '../../../store/terms.ts';
import { readablePost } from '../../../core/post-access.ts';
import { listWindow, offeredTypes, taxonomiesOfType, taxonomyOf } from '../args.ts';

/** `[{value, label}]` of the taxonomies of these types, each once, narrowed by `search`, paged when asked. */
function taxonomyOptions(ctx: Ctx, types: string[]) {
  const search = typeof ctx.args.search === 'string' ? ctx.args.search.toLowerCase() : '';
  const seen = new Set<string>();
  const all = types
    .flatMap((type) => taxonomiesOfType(ctx, type))
    .filter((t) => !seen.has(t.slug) && seen.add(t.slug))
    .filter((t) => !search || t.slug.toLowerCase().includes(search) || t.name.toLowerCase().includes(search))
    .map((t) => ({ value: t.slug, label: t.name }));
  return windowed(ctx, all, all.length);
}

/** The whole list, or (when the request pages) its page with X-WP-Total and X-WP-TotalPages. */
function windowed<T>(ctx: Ctx, items: T[], total: number): T[] | RestResponse {
  const w = listWindow(ctx);
  if (!w) return items;
  return collection(ctx, items.slice(w.offset, w.offset + w.limit), total, w);
}

/** kbp/v1/taxonomies-select: the taxonomies of every offered type (`all`), of a type, or of a post's type. */
export async function taxonomiesSelect(ctx: Ctx<'block-queries:taxonomies.taxonomiesSelect'>) {
  const source = String(ctx.args.source ?? '').trim();
  // validate_post_source_string: the source may not be empty
  if (!source) throw invalidParam('source');
  if (source === 'all') return taxonomyOptions(ctx, offeredTypes(ctx, 'public').map((t) => t.slug));
  if (!/^\d+$/.test(source)) return taxonomyOptions(ctx, [source]);
  const post = await ctx.store.posts.get(Number(source));
  if (!post || !readablePost(ctx, post)) return '';
  return taxonomyOptions(ctx, [post.type]);
}

/** kbpp/v1/tax-query: the taxonomies of a post type, or of every offered type (`all`). */
export async function taxQuery(ctx: Ctx<'block-queries:taxonomies.taxQuery'>) {
  const type = ctx.args.type;
  if (typeof type !== 'string' || !type) return [];
  const offered = offeredTypes(ctx, 'public').map((t) => t.slug);
  if (type === 'all') return taxonomyOptions(ctx, offered);
  if (!offered.includes(type)) throw invalidParam('type');
  return taxonomyOptions(ctx, [type]);
}

/** get_terms: a taxonomy's terms that are in use, by name, narrowed by `search`, paged when asked. */
async function usedTerms(ctx: Ctx, taxonomy: string): Promise<{ rows: TermRow[]; total: number; paged: boolean }> {
  const w = listWindow(ctx);
  const search = typeof ctx.args.search === 'string' && ctx.args.search ? ctx.args.search : undefined;
  const { rows, total } = await ctx.store.terms.query({ taxonomy, search, hideEmpty: true, orderby: 'name', order: 'asc', offset: w?.offset ?? 0, limit: w?.limit ?? Number.MAX_SAFE_INTEGER });
  return { rows, total, paged: w !== null };
}

function termList<T>(ctx: Ctx, items: T[], total: number, paged: boolean): T[] | RestResponse {
  const w = listWindow(ctx);
  return paged && w ? collection(ctx, items, total, w) : items;
}

/** kbp/v1/term-select: a taxonomy's terms as `[{value: 'taxonomy|id', label}]`. */
export async function termSelect(ctx: Ctx<'block-queries:taxonomies.termSelect'>) {
  const source = String(ctx.args.source ?? '').trim();
  if (!source) throw invalidParam('source');
  const taxonomy = taxonomyOf(ctx, source, 'source').slug;
  const { rows, total, paged } = await usedTerms(ctx, taxonomy);
  return termList(ctx, rows.map((t) => ({ value: `${taxonomy}|${t.id}`, label: t.name })), total, paged);
}

/**
 * kbpp/v1/term-query: a taxonomy's terms as `[{value: id, label}]`: all of them (`source` empty or
 * `all`), or the terms of the post `source` names. `current` names the post being edited, which
 * a REST request has none of: no terms.
 */
export async function termQuery(ctx: Ctx<'block-queries:taxonomies.termQuery'>) {
  const taxType = ctx.args.tax_type;
  if (typeof taxType !== 'string' || !taxType) return [];
  const taxonomy = taxonomyOf(ctx, taxType, 'tax_type').slug;
  const source = String(ctx.args.source ?? '').trim();
  if (!source || source === 'all') {
    const { rows, total, paged } = await usedTerms(ctx, taxonomy);
    return termList(ctx, rows.map((t) => ({ value: t.id, label: t.name })), total, paged);
  }
  if (!/^\d+$/.test(source)) return [];
  const post = await ctx.store.posts.get(Number(source));
  if (!post || !readablePost(ctx, post)) return [];
  const terms = (await ctx.store.terms.termsOfPosts([post.id], taxonomy)).get(post.id) ?? [];
  return terms.map((t) => ({ value: t.id, label: t.name }));
}
