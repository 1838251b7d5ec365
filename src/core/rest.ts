import { hexDigest } from './digests.ts';
import { RestError, authStatus, type ErrorValues } from '../engine/errors.ts';
import { RestResponse } from '../engine/types.ts';
import type { PostTypeInfo, TaxonomyInfo } from './content-types.ts';
import type { Ctx } from './context.ts';
import { theTitle } from '../format/format.ts';

/**
 * What REST handlers share, core's and plugins' alike: contexts, dates, paging with WordPress's
 * headers and links, permission refusals, and the post type or taxonomy a route serves.
 */

export type Context = 'view' | 'embed' | 'edit';

export const NS = 'cms/v2';

/** A REST URL in the core content namespace, under the root and namespace name the request came in on. */
export const nsUrl = (ctx: Ctx, path: string) => ctx.api.restUrl(`${NS}/${path}`);

/** The post type a route serves, as its spec declares it (`config: {post_type: page}`), as WordPress builds one controller per type. */
export function routePostType(ctx: Ctx): PostTypeInfo {
  const slug = String(ctx.config.post_type ?? '');
  const type = ctx.site.types.postType(slug);
  if (!type) throw new Error(`route ${ctx.request.route} declares post type '${slug}', which is not registered`);
  return type;
}

/** The taxonomy a route serves, as its spec declares it (`config: {taxonomy: category}`). */
export function routeTaxonomy(ctx: Ctx): TaxonomyInfo {
  const slug = String(ctx.config.taxonomy ?? '');
  const tax = ctx.site.types.taxonomy(slug);
  if (!tax) throw new Error(`route ${ctx.request.route} declares taxonomy '${slug}', which is not registered`);
  return tax;
}

/** A permission failure of the catalogue (WordPress's code and words): 401 for anonymous callers, 403 for logged-in ones. */
export const denied = (ctx: Ctx, code: string, values?: ErrorValues) => ctx.fail(code, values, { status: authStatus(ctx.user !== null) });

/** 'YYYY-MM-DD HH:MM:SS' → 'YYYY-MM-DDTHH:MM:SS' (mysql_to_rfc3339); the zero date is null. */
export function restDate(sqlDate: string): string | null {
  if (!sqlDate || sqlDate.startsWith('0000-00-00')) return null;
  return sqlDate.replace(' ', 'T');
}

const DATE_INPUT = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * An ISO 8601 date argument as a 'YYYY-MM-DD HH:MM:SS' wall time, and whether it named its
 * zone. A date with a zone is turned into UTC (rest_get_date_with_gmt); one without is kept as
 * written. Malformed dates never get here: the arg's `format: date-time` rejects them.
 */
export function parseDateArg(value: string): { wall: string; utc: boolean } {
  const m = DATE_INPUT.exec(value.trim());
  if (!m) throw new RestError('rest_invalid_date', 'Invalid date.', 400);
  const [, day, time, zone] = m;
  if (!zone) return { wall: `${day} ${time}`, utc: false };
  const d = new Date(`${day}T${time}${zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`);
  if (Number.isNaN(d.getTime())) throw new RestError('rest_invalid_date', 'Invalid date.', 400);
  return { wall: d.toISOString().slice(0, 19).replace('T', ' '), utc: true };
}

/** Titles as the_title's filters leave them (which read nothing but the title), the most recently used last. */
const filteredTitles = new Map<string, string>();
const KEPT_TITLES = 10_000;

function keptTitle(title: string): string {
  let html = filteredTitles.get(title);
  if (html === undefined) html = theTitle(title);
  else filteredTitles.delete(title);
  filteredTitles.set(title, html);
  if (filteredTitles.size > KEPT_TITLES) filteredTitles.delete(filteredTitles.keys().next().value!);
  return html;
}

/**
 * get_the_title: a password-protected post's title says so (before a private one's), then
 * the_title's filters. The posts routes print a protected title as it is (`protected`: false):
 * WP_REST_Posts_Controller sets protected_title_format to `%s` while it renders `title.rendered`.
 */
export function renderedTitle(post: { title: string; status: string; password: string }, { protectedPrefix = true } = {}): string {
  if (post.password) return keptTitle(protectedPrefix ? `Protected: ${post.title}` : post.title);
  if (post.status === 'private') return keptTitle(`Private: ${post.title}`);
  return keptTitle(post.title);
}

/** The context arg, already validated by the spec's enum. */
export const contextOf = (ctx: Ctx): Context => (ctx.args.context ?? 'view') as Context;

/** Keeps only `keys` of an object, in that order (the schema's per-context field lists). */
export function pick<T extends Record<string, unknown>>(obj: T, keys: readonly string[]): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in obj) out[k] = obj[k];
  return out as Partial<T>;
}

export { CURIES } from './curies.ts';

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

/**
 * page/per_page from the args; an explicit `offset` replaces the page's start, as in WP_Query
 * (absint). Only the collections that offer `offset` pass it: WordPress's search, for one, ignores it.
 */
export function pageOf(ctx: Ctx, offsetArg?: unknown): Page {
  const page = Number(ctx.args.page ?? 1);
  const perPage = Number(ctx.args.per_page ?? 10);
  const offset = typeof offsetArg === 'number' ? Math.abs(offsetArg) : (page - 1) * perPage;
  // a page past any row count (`page=1e308`) is the store's to bound (sqlBound), as every LIMIT and OFFSET
  return { page, perPage, offset };
}

/** PHP's urlencode: only letters, digits and `-_.` stay as they are, a space is `+`. */
const phpUrlencode = (v: string) => encodeURIComponent(v).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');

/**
 * Serialises query params as add_query_arg(urlencode_deep($params)) does: the values encoded,
 * nested keys as `key%5B0%5D=a` (_http_build_query), the keys themselves as they came.
 */
function queryString(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) v.forEach((x, i) => add(`${key}%5B${i}%5D`, x));
    else if (typeof v === 'object') for (const [k, x] of Object.entries(v as object)) add(`${key}%5B${k}%5D`, x);
    else parts.push(`${key}=${phpUrlencode(typeof v === 'boolean' ? (v ? '1' : '') : String(v))}`);
  };
  for (const [k, v] of Object.entries(params)) add(k, v);
  return parts.join('&');
}

/**
 * A collection response: the items plus X-WP-Total, X-WP-TotalPages and the prev/next Link
 * header built from the query as sent. `overflow` names the error for a page past the last one
 * (posts and search have one; terms and users just answer an empty list).
 */
export function collection(ctx: Ctx, items: unknown[], total: number, p: Page, overflow?: string): RestResponse {
  const maxPages = total > 0 ? Math.ceil(total / p.perPage) : 0;
  if (overflow && p.page > maxPages && total > 0)
    throw new RestError(overflow, 'The page number requested is larger than the number of pages available.', 400);
  const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(maxPages) };
  const query = ctx.request.query;
  const base = ctx.api.restUrl(ctx.request.path);
  // add_query_arg('page', n): a `page` the request sent keeps its place, otherwise it comes last;
  // add_query_arg also drops the `=` of an empty value (`_envelope`, `search=`), keeping the key bare
  const link = (page: number) => {
    const qs = queryString({ ...query, page }).replace(/=(&|$)/g, '$1');
    return `${base}${base.includes('?') ? '&' : '?'}${qs}`;
  };
  const links: string[] = [];
  if (p.page > 1) links.push(`<${link(Math.min(p.page - 1, Math.max(maxPages, 1)))}>; rel="prev"`);
  if (maxPages > p.page) links.push(`<${link(p.page + 1)}>; rel="next"`);
  if (links.length) headers.Link = links.join(', ');
  return new RestResponse(items, 200, headers);
}

/**
 * The md5 gravatar URLs WordPress shows as avatar_urls (sizes 24, 48, 96), as get_avatar_data picks
 * their host: `https://secure.gravatar.com` over https, else `http://{0,1,2}.gravatar.com` by the
 * hash's first digit. WordPress asks is_ssl() of the request; here the site's address (its home, or
 * any URL of it) says whether the site is served over https.
 */
export function avatarUrls(email: string, siteUrl: string): Record<string, string> {
  const base = gravatarBase(email, siteUrl);
  return Object.fromEntries([24, 48, 96].map((s) => [String(s), `${base}?s=${s}&d=mm&r=g`]));
}

/** An address's gravatar without its query: the host get_avatar_data picks (see avatarUrls), `/avatar/` and the md5. */
export function gravatarBase(email: string, siteUrl: string): string {
  const hash = hexDigest('md5', email.trim().toLowerCase());
  const host = siteUrl.startsWith('https:') ? 'https://secure.gravatar.com' : `http://${parseInt(hash[0]!, 16) % 3}.gravatar.com`;
  return `${host}/avatar/${hash}`;
}

/** WordPress's REQUEST_URI of a REST request: its path under the root and names the caller used, and the query args it sent. */
export function restRequestUri(ctx: Pick<Ctx, 'api' | 'request'>): { path: string; query: Record<string, unknown> } {
  const url = new URL(ctx.api.restUrl(ctx.request.path));
  return { path: url.pathname, query: { ...Object.fromEntries(url.searchParams), ...ctx.request.query } };
}
