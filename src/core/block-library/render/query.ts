import type { BlockContext, BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import type { PostQuery, PostRow } from '../../../store/posts.ts';
import { escapeAttr, escapeHtml } from '../../../format/format.ts';
import { escUrl } from '../../../format/esc-url.ts';
import { wrapperAttributes } from './wrapper.ts';

/**
 * The Query Loop's blocks: the posts of the query the `core/query` block provides as context
 * (`queryId`, `query`), each rendered by post-template with that post as context, the pagination
 * links and what shows when nothing matches. `inherit` takes the page's main query, which a REST
 * request (content.rendered, block-renderer) does not run: as in WordPress, it has no posts there.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
/** PHP's is_numeric for JSON values. */
const numeric = (v: unknown): boolean => typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map((x) => Math.trunc(Number(x)) || 0).filter((n) => n !== 0) : []);

const queryOf = (block: RenderedBlock): Json | undefined => (isObject(block.context.query) ? block.context.query : undefined);
const inherits = (block: RenderedBlock) => Boolean(queryOf(block)?.inherit);

/** The query string key of a loop's page (`query-<queryId>-page`). */
const pageKey = (block: RenderedBlock) => (block.context.queryId !== undefined ? `query-${String(block.context.queryId)}-page` : 'query-page');

/** The page of the loop the request asks for (`?query-<id>-page=N`, as WordPress reads $_GET), 1 when none. */
function pageOf(block: RenderedBlock, ctx: BlockRenderContext): number {
  const asked = ctx.queryArgs?.[pageKey(block)];
  const page = typeof asked === 'string' ? Math.trunc(Number.parseInt(asked, 10)) || 0 : 0;
  return page || 1;
}

/** WP_Query's orderby keys the store orders by. */
const ORDERBY: Record<string, PostQuery['orderby']> = { date: 'date', title: 'title', ID: 'id', id: 'id', modified: 'modified', author: 'author', name: 'slug', parent: 'parent', menu_order: 'menu_order', comment_count: 'comment_count', rand: 'rand' };

/** build_query_vars_from_query_block, as the store's query; `perPage` of null is the site's posts_per_page, from the first post. */
function buildQuery(block: RenderedBlock, ctx: BlockRenderContext, page: number): { query: PostQuery; perPage: number; home: boolean } {
  const q = queryOf(block) ?? {};
  const type = typeof q.postType === 'string' && q.postType ? ctx.site.types.postType(q.postType) : undefined;
  const postType = type?.viewable ? type.slug : 'post';
  const query: PostQuery = { types: [postType], statuses: ['publish'], orderby: 'date', order: 'desc', offset: 0, limit: 10 };
  let perPage = Math.max(1, Number.parseInt(String(ctx.site.options.posts_per_page ?? '10'), 10) || 10);
  // `only` the sticky posts, or any other value none of them
  if (q.sticky) query.sticky = q.sticky === 'only';
  const exclude = ids(q.exclude);
  if (exclude.length) query.exclude = exclude;
  if (numeric(q.perPage)) {
    perPage = Math.abs(Math.trunc(Number(q.perPage)));
    const offset = numeric(q.offset) ? Math.abs(Math.trunc(Number(q.offset))) : 0;
    query.offset = perPage * (page - 1) + offset;
  }
  query.limit = perPage;
  const terms: { taxonomy: string; ids: number[] }[] = [];
  if (ids(q.categoryIds).length) terms.push({ taxonomy: 'category', ids: ids(q.categoryIds) });
  if (ids(q.tagIds).length) terms.push({ taxonomy: 'post_tag', ids: ids(q.tagIds) });
  if (isObject(q.taxQuery) && Object.keys(q.taxQuery).length) {
    terms.length = 0;
    for (const [taxonomy, list] of Object.entries(q.taxQuery)) if (ctx.site.types.taxonomy(taxonomy)?.viewable && Array.isArray(list) && list.length) terms.push({ taxonomy, ids: ids(list) });
  }
  if (terms.length) query.termIds = terms;
  if (typeof q.order === 'string' && ['asc', 'desc'].includes(q.order.toLowerCase())) query.order = q.order.toLowerCase() as 'asc' | 'desc';
  if (typeof q.orderBy === 'string') query.orderby = ORDERBY[q.orderBy] ?? 'date';
  const author = Math.trunc(Number.parseInt(String(q.author ?? ''), 10)) || 0;
  if (author > 0) query.authors = [author];
  if (q.search) query.search = String(q.search);
  if (Array.isArray(q.parents) && q.parents.length && type?.hierarchical) query.parent = ids(q.parents);
  return { query, perPage, home: page === 1 && query.sticky === undefined && !query.search && !query.authors && !terms.length && postType === 'post' };
}

/** How many sticky posts a loop's first page fetches at most. */
const MAX_STICKY = 50;

/**
 * WP_Query's sticky posts on the first page of a query of the home kind (is_home: no search,
 * author or terms): those among the page's posts moved to its top, then the other published ones
 * (newest first) after them, in addition to the page's posts_per_page.
 */
async function withStickyFirst(ctx: BlockRenderContext, query: PostQuery, rows: PostRow[]): Promise<PostRow[]> {
  const sticky = (await ctx.store.posts.query({ types: query.types, statuses: ['publish'], sticky: true, orderby: 'date', order: 'desc', offset: 0, limit: MAX_STICKY })).rows;
  if (!sticky.length) return rows;
  const ids = new Set(sticky.map((p) => p.id));
  const onPage = rows.filter((p) => ids.has(p.id));
  const shown = new Set(onPage.map((p) => p.id));
  return [...onPage, ...sticky.filter((p) => !shown.has(p.id)), ...rows.filter((p) => !ids.has(p.id))];
}

/** The loop's posts and how many pages it has (WP_Query's posts and max_num_pages); none for a loop that inherits. */
async function runQuery(block: RenderedBlock, ctx: BlockRenderContext, page: number): Promise<{ rows: PostRow[]; maxPages: number }> {
  if (inherits(block)) return { rows: [], maxPages: 0 };
  const { query, perPage, home } = buildQuery(block, ctx, page);
  if (perPage === 0) return { rows: [], maxPages: 0 };
  const { rows, total } = await ctx.store.posts.query(query);
  return { rows: home ? await withStickyFirst(ctx, query, rows) : rows, maxPages: Math.ceil(total / perPage) };
}

/** get_post_class with `wp-block-post`: the post's id, type, status, format, thumbnail, and its terms of each public taxonomy. */
async function postClasses(ctx: BlockRenderContext, post: PostRow): Promise<string> {
  const type = ctx.site.types.postType(post.type);
  const classes = ['wp-block-post', `post-${post.id}`, post.type, `type-${post.type}`, `status-${post.status}`];
  if (type?.supports.includes('post-formats')) classes.push(`format-${post.format || 'standard'}`);
  if (post.password) classes.push('post-password-required');
  if (await ctx.store.posts.meta.get(post.id, '_thumbnail_id')) classes.push('has-post-thumbnail');
  classes.push('hentry');
  const terms = await ctx.store.terms.termsOfPosts([post.id]);
  const own = [...(terms.get(post.id) ?? [])].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  for (const taxonomy of ['category', 'post_tag', ...(type?.taxonomies ?? []).filter((t) => t !== 'category' && t !== 'post_tag')]) {
    if (!ctx.site.types.taxonomy(taxonomy)?.viewable) continue;
    for (const t of own.filter((x) => x.taxonomy === taxonomy)) {
      const slug = /^\d+$/.test(t.slug) ? String(t.id) : t.slug;
      classes.push(taxonomy === 'category' ? `category-${slug}` : taxonomy === 'post_tag' ? `tag-${slug}` : `${taxonomy}-${slug}`);
    }
  }
  return escapeAttr([...new Set(classes)].join(' '));
}

/** render_block_core_post_template: each post of the loop's query, its inner blocks rendered with that post as context, in a list. */
export async function postTemplate(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const { rows } = await runQuery(block, ctx, pageOf(block, ctx));
  if (!rows.length) return '';
  const layout = block.context.displayLayout;
  const classes = isObject(layout) && block.context.query !== undefined && layout.type === 'flex' ? `is-flex-container columns-${String(layout.columns ?? '')}` : '';
  let items = '';
  for (const post of rows) {
    const context: BlockContext = { postType: post.type, postId: post.id };
    items += `<li class="${await postClasses(ctx, post)}">${await block.renderInner(context, 'core/null')}</li>`;
  }
  return `<ul ${wrapperAttributes(block, { class: classes })}>${items}</ul>`;
}

/** render_block_core_query_no_results: its content when the loop's query has no posts. */
export async function queryNoResults(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  if (!block.content.trim()) return '';
  const { rows } = await runQuery(block, ctx, pageOf(block, ctx));
  if (rows.length) return '';
  return `<div ${wrapperAttributes(block)}>${block.content}</div>`;
}

/** render_block_core_query_pagination: its links in a `<nav>`, nothing when it has none. */
export function queryPagination(block: RenderedBlock): string {
  if (!block.content.trim()) return '';
  return `<nav ${wrapperAttributes(block, { 'aria-label': 'Pagination' })}>${block.content}</nav>`;
}

/** get_query_pagination_arrow: the arrow of the pagination's `paginationArrow`, none for `none`. */
function arrowOf(block: RenderedBlock, next: boolean): string {
  const arrows: Record<string, [string, string]> = { arrow: ['→', '←'], chevron: ['»', '«'] };
  const kind = block.context.paginationArrow;
  if (typeof kind !== 'string' || !arrows[kind]) return '';
  const which = next ? 'next' : 'previous';
  return `<span class='wp-block-query-pagination-${which}-arrow is-arrow-${kind}' aria-hidden='true'>${arrows[kind][next ? 0 : 1]}</span>`;
}

/**
 * add_query_arg of the loop's page on the address requested (WordPress's REQUEST_URI: the path
 * and query, without the host), its other args kept.
 */
function pageUrl(block: RenderedBlock, ctx: BlockRenderContext, page: number): string {
  const url = new URL(ctx.url, 'http://localhost/');
  for (const [key, value] of Object.entries(ctx.queryArgs ?? {})) if (typeof value === 'string') url.searchParams.set(key, value);
  url.searchParams.set(pageKey(block), String(page));
  return escUrl(`${url.pathname}${url.search}`);
}

const labelOf = (block: RenderedBlock, fallback: string) => (block.attributes.label ? escapeHtml(String(block.attributes.label)) : fallback);

/** render_block_core_query_pagination_next: a link to the loop's next page while there is one (within `pages` when set). */
export async function queryPaginationNext(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  if (inherits(block)) return '';
  const page = pageOf(block, ctx);
  const q = queryOf(block);
  const maxPage = q && q.pages !== undefined ? Math.trunc(Number(q.pages)) || 0 : 0;
  if (maxPage && maxPage <= page) return '';
  const { maxPages } = await runQuery(block, ctx, page);
  if (!maxPages || maxPages === page) return '';
  return `<a href="${pageUrl(block, ctx, page + 1)}" ${wrapperAttributes(block)}>${labelOf(block, 'Next Page')}${arrowOf(block, true)}</a>`;
}

/** render_block_core_query_pagination_previous: a link to the loop's previous page, from the second on. */
export function queryPaginationPrevious(block: RenderedBlock, ctx: BlockRenderContext): string {
  if (inherits(block)) return '';
  const page = pageOf(block, ctx);
  if (page === 1) return '';
  return `<a href="${pageUrl(block, ctx, page - 1)}" ${wrapperAttributes(block)}>${arrowOf(block, false)}${labelOf(block, 'Previous Page')}</a>`;
}

/**
 * render_block_core_query_pagination_numbers: paginate_links of the loop's pages (none under
 * two): the current one as a span, the first and last, two on each side of the current, dots
 * between.
 */
export async function queryPaginationNumbers(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  if (inherits(block)) return '';
  const page = pageOf(block, ctx);
  const q = queryOf(block);
  const maxPage = q && q.pages !== undefined ? Math.trunc(Number(q.pages)) || 0 : 0;
  const { maxPages } = await runQuery(block, ctx, page);
  const total = !maxPage || maxPage > maxPages ? maxPages : maxPage;
  if (total < 2) return '';
  const current = Math.max(1, page);
  const link = (n: number) => {
    // paginate_links' format `?query-N-page=%#%` on the base `%_%`: page 1 links without it
    const href = n === 1 ? '' : `?${pageKey(block)}=${n}`;
    return `<a class="page-numbers" href="${escUrl(page !== 1 ? (href ? `${href}&cst` : '?cst') : href)}">${n}</a>`;
  };
  const parts: string[] = [];
  let dots = false;
  for (let n = 1; n <= total; n++) {
    if (n === current) {
      parts.push(`<span aria-current="page" class="page-numbers current">${n}</span>`);
      dots = true;
    } else if (n <= 1 || (current && n >= current - 2 && n <= current + 2) || n > total - 1) {
      parts.push(link(n));
      dots = true;
    } else if (dots) {
      parts.push('<span class="page-numbers dots">&hellip;</span>');
      dots = false;
    }
  }
  return `<div ${wrapperAttributes(block)}>${parts.join('\n')}</div>`;
}

/**
 * render_block_core_query_title: the title of the archive or search shown; outside one (a post, a
 * page, a REST rendering) nothing, as in WordPress. The page context names the kind of archive but
 * not its term or search, so a post's content shown in an archive list has no title either (unlike WordPress).
 */
export function queryTitle(): string {
  return '';
}
