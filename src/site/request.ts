import type { Site } from '../core/site.ts';
import { parsePermalink, type FeedType, type PermalinkTarget } from '../core/permalinks.ts';
import { decodePercent } from '../engine/url-decoding.ts';
import { slugOfSegment } from '../store/transact.ts';

/** A date archive's parts; month and day only when the URL names them. */
export interface DateVars {
  year: number;
  month?: number;
  day?: number;
}

/**
 * The query vars of a list of posts (WP_Query's): the blog when none is set. Several may
 * combine (`?cat=3&s=tea`), as WordPress allows; each narrows the list.
 */
export interface ListVars {
  /** Slugs of a category and its ancestors (`category_name`, `/category/a/b/`). */
  categoryPath?: string[];
  categoryId?: number;
  tag?: string;
  authorName?: string;
  authorId?: number;
  date?: DateVars;
  /** `s`: present (even empty) makes the list a search. */
  search?: string;
}

/** What a site URL asks for, before anything is looked up (WP::parse_request). */
export type SiteRequest =
  | { kind: 'singular'; target: PermalinkTarget; paged: number; embed: boolean; feed?: FeedType }
  | { kind: 'list'; vars: ListVars; paged: number; embed: boolean; feed?: FeedType; fromQuery: boolean }
  | { kind: 'comments-feed'; feed: FeedType }
  | { kind: 'sitemap'; name: string; subtype: string; page: number }
  | { kind: 'robots' }
  /** `/sitemap.xml`, a page WordPress finds nothing at but redirects to the sitemap index (redirect_sitemapxml). */
  | { kind: 'sitemap-xml' }
  | { kind: 'missing' };

const DIGITS = /^\d+$/;
const FEED_TYPES: Record<string, FeedType> = { feed: 'rss2', rss2: 'rss2', atom: 'atom' };
const SITEMAP_FILE = /^wp-sitemap(?:-([a-z]+)(?:-([a-z0-9_]+))?-(\d+))?\.xml$/;

const queryString = (query: Record<string, unknown>, key: string): string | undefined => {
  const v = query[key];
  return typeof v === 'string' ? v : undefined;
};
const queryNumber = (query: Record<string, unknown>, key: string): number | undefined => {
  const v = queryString(query, key);
  return v !== undefined && DIGITS.test(v) && v.length < 16 ? Number(v) : undefined;
};

/** `m=YYYY[MM[DD]]` or `year`, `monthnum`, `day`. */
function dateFromQuery(query: Record<string, unknown>): DateVars | undefined | null {
  const m = queryString(query, 'm');
  if (m !== undefined) {
    if (!/^\d{4}(\d{2}){0,2}$/.test(m)) return null;
    return { year: Number(m.slice(0, 4)), month: m.length >= 6 ? Number(m.slice(4, 6)) : undefined, day: m.length === 8 ? Number(m.slice(6, 8)) : undefined };
  }
  const year = queryNumber(query, 'year');
  if (year === undefined) return undefined;
  const month = queryNumber(query, 'monthnum');
  return { year, month, day: month ? queryNumber(query, 'day') : undefined };
}

/** The list vars given in the query string; null when one is malformed (a 404). */
function listVarsOfQuery(query: Record<string, unknown>): ListVars | null {
  const vars: ListVars = {};
  const cat = queryString(query, 'cat');
  if (cat !== undefined) {
    if (!DIGITS.test(cat)) return null;
    vars.categoryId = Number(cat);
  }
  const categoryName = queryString(query, 'category_name');
  if (categoryName) vars.categoryPath = categoryName.split('/').filter(Boolean);
  const tag = queryString(query, 'tag');
  if (tag) vars.tag = tag;
  const author = queryString(query, 'author');
  if (author !== undefined) {
    if (!DIGITS.test(author)) return null;
    vars.authorId = Number(author);
  }
  const authorName = queryString(query, 'author_name');
  if (authorName) vars.authorName = authorName;
  const date = dateFromQuery(query);
  if (date === null) return null;
  if (date) vars.date = date;
  const s = queryString(query, 's');
  if (s !== undefined) vars.search = s;
  return vars;
}

/**
 * The rewrite rules of a site with pretty permalinks, applied to the path's segments (the feed
 * and paging suffixes already taken off): comments feed, search, category (nested), tag, author,
 * year/month/day archives; anything else names a post or page.
 */
function listVarsOfPath(segments: string[]): ListVars | 'comments' | undefined {
  const [first, ...rest] = segments;
  if (first === 'comments' && rest.length === 0) return 'comments';
  if (first === 'search' && rest.length === 1) return { search: rest[0] };
  // a slug of other scripts is stored percent-encoded (sanitize_title), whichever way the URL spells it
  if (first === 'category' && rest.length >= 1) return { categoryPath: rest.map(slugOfSegment) };
  if (first === 'tag' && rest.length === 1) return { tag: slugOfSegment(rest[0]) };
  if (first === 'author' && rest.length === 1) return { authorName: slugOfSegment(rest[0]) };
  if (segments.length <= 3 && /^\d{4}$/.test(first) && (rest[0] === undefined || /^\d{2}$/.test(rest[0])) && (rest[1] === undefined || /^\d{2}$/.test(rest[1]))) {
    return { date: { year: Number(first), month: rest[0] ? Number(rest[0]) : undefined, day: rest[1] ? Number(rest[1]) : undefined } };
  }
  return undefined;
}

/**
 * WP::parse_request for this site: the path (with pretty permalinks) and the query vars (always,
 * as WordPress answers them under any permalink setting) become one request.
 */
export function parseSiteRequest(site: Site, path: string, query: Record<string, unknown>): SiteRequest {
  const pretty = !!site.options.permalink_structure;
  const home = new URL(site.home + '/');
  const base = home.pathname.replace(/\/$/, '');
  if (!path.startsWith(base)) return { kind: 'missing' };
  const decoded = path.slice(base.length).split('/').filter(Boolean).map((s) => decodePercent(s));
  // malformed percent-encoding names nothing on this site
  if (decoded.includes(null)) return { kind: 'missing' };
  const segments = decoded as string[];
  if (segments.length === 1 && segments[0] === 'robots.txt') return { kind: 'robots' };
  const sitemapName = queryString(query, 'sitemap');
  if (sitemapName !== undefined && segments.length === 0) {
    return { kind: 'sitemap', name: sitemapName, subtype: queryString(query, 'sitemap-subtype') ?? '', page: queryNumber(query, 'paged') ?? 1 };
  }
  if (pretty && segments.length === 1) {
    const m = SITEMAP_FILE.exec(segments[0]);
    if (m) return { kind: 'sitemap', name: m[1] ?? 'index', subtype: m[2] ?? '', page: Number(m[3] ?? 1) };
    if (segments[0] === 'sitemap.xml') return { kind: 'sitemap-xml' };
  }

  let embed = queryString(query, 'embed') === 'true';
  let feedVar = queryString(query, 'feed');
  let paged = Math.max(1, queryNumber(query, 'paged') ?? 1);
  if (pretty) {
    if (segments.at(-1) === 'embed') {
      embed = true;
      segments.pop();
    }
    if (segments.at(-2) === 'feed' && FEED_TYPES[segments.at(-1)!] && segments.at(-1) !== 'feed') {
      feedVar = segments.pop();
      segments.pop();
    } else if (segments.at(-1) === 'feed') {
      feedVar = 'rss2';
      segments.pop();
    }
    if (segments.at(-2) === 'page' && DIGITS.test(segments.at(-1)!)) {
      paged = Number(segments.pop());
      segments.pop();
      if (!Number.isSafeInteger(paged)) return { kind: 'missing' };
    }
  } else if (segments.length) {
    return { kind: 'missing' }; // plain permalinks: every page of the site is the home path plus a query
  }

  let feed: FeedType | undefined;
  if (feedVar !== undefined) {
    const comments = /^comments-(rss2|atom)$/.exec(feedVar);
    if (comments && segments.length === 0) return { kind: 'comments-feed', feed: comments[1] as FeedType };
    feed = FEED_TYPES[feedVar];
    if (!feed) return { kind: 'missing' };
  }

  const id = idQuery(query);
  if (id) {
    const target = parsePermalink(site, `/${id}`);
    return target ? { kind: 'singular', target, paged, embed, feed } : { kind: 'missing' };
  }
  const fromQuery = listVarsOfQuery(query);
  if (fromQuery === null) return { kind: 'missing' };
  const fromPath = pretty && segments.length ? listVarsOfPath(segments) : undefined;
  if (fromPath === 'comments') return feed ? { kind: 'comments-feed', feed } : { kind: 'missing' };
  if (fromPath || segments.length === 0) {
    return { kind: 'list', vars: { ...fromQuery, ...fromPath }, paged, embed, feed, fromQuery: !fromPath && Object.keys(fromQuery).some((k) => k !== 'search') };
  }
  const target = parsePermalink(site, `${base}/${segments.map(encodeURIComponent).join('/')}/`);
  return target ? { kind: 'singular', target, paged, embed, feed } : { kind: 'missing' };
}

/** `?p=ID` / `?page_id=ID` as parsePermalink reads them; other query args name no post. */
function idQuery(query: Record<string, unknown>): string {
  for (const key of ['p', 'page_id']) {
    const v = query[key];
    if (typeof v === 'string' && DIGITS.test(v)) return `?${key}=${v}`;
  }
  return '';
}
