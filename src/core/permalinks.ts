import { LINKED_AS_POSTS, type TaxonomyInfo } from './content-types.ts';
import type { Site } from './site.ts';
import type { Store } from '../store/index.ts';
import type { TermRow } from '../store/terms.ts';
import { decodePercent } from '../engine/url-decoding.ts';
import { slugOfSegment } from '../store/transact.ts';

/** The post fields a permalink depends on. */
export interface PermalinkPost {
  id: number;
  type: string;
  slug: string;
  status: string;
  /** Site-local date, 'YYYY-MM-DD HH:MM:SS'. */
  date: string;
  parentPath?: string;
}

/**
 * get_permalink: pages at `{home}/{slug}/` (under their parents' slugs), posts at
 * `{home}/{yyyy}/{mm}/{dd}/{slug}/` when permalink_structure holds %year%, else `{home}/{slug}/`,
 * and so the core's other types (a `cms_navigation` as WordPress's `wp_navigation`); a plugin's
 * types at `{home}/{type}/{slug}/`; everything without a public slug (drafts, plain permalinks) at
 * `{home}/?p=ID` (`?page_id=` for pages).
 */
export function permalink(site: Site, post: PermalinkPost): string {
  // _get_page_link: the static front page lives at the home URL itself.
  if (post.type === 'page' && site.info.show_on_front === 'page' && site.info.page_on_front === post.id) return `${site.home}/`;
  const structure = site.options.permalink_structure ?? '';
  const published = post.status === 'publish' || post.status === 'private';
  if (!structure || !post.slug || !published) return `${site.home}/?${post.type === 'page' ? 'page_id' : 'p'}=${post.id}`;
  if (post.type === 'page') return `${site.home}/${post.parentPath ? `${post.parentPath}/` : ''}${post.slug}/`;
  if (LINKED_AS_POSTS.has(post.type)) {
    if (structure.includes('%year%')) {
      const [y, m, d] = post.date.slice(0, 10).split('-');
      return `${site.home}/${y}/${m}/${d}/${post.slug}/`;
    }
    return `${site.home}/${post.slug}/`;
  }
  return `${site.home}/${post.type}/${post.slug}/`;
}

/** What a site URL points at: the inverse of `permalink`, for url_to_postid and page routing. */
export type PermalinkTarget =
  | { kind: 'id'; id: number }
  | { kind: 'dated'; year: string; month: string; day: string; slug: string }
  | { kind: 'path'; segments: string[] }
  | { kind: 'home' };

/** Parses a path (and its query) on this site; null when the URL is not on this site. */
export function parsePermalink(site: Site, url: string): PermalinkTarget | null {
  let u: URL;
  try {
    u = new URL(url, site.home + '/');
  } catch {
    return null;
  }
  const home = new URL(site.home + '/');
  if (u.host.toLowerCase() !== home.host.toLowerCase()) return null;
  const id = u.searchParams.get('p') ?? u.searchParams.get('page_id');
  if (id && /^\d+$/.test(id)) return { kind: 'id', id: Number(id) };
  const base = home.pathname.replace(/\/$/, '');
  if (!u.pathname.startsWith(base)) return null;
  const decoded = u.pathname.slice(base.length).split('/').filter(Boolean).map((s) => decodePercent(s));
  // malformed percent-encoding names nothing on this site
  if (decoded.includes(null)) return null;
  // a slug of other scripts is stored percent-encoded (sanitize_title), whichever way the URL spells it
  const segments = (decoded as string[]).map(slugOfSegment);
  if (segments.length === 0) return { kind: 'home' };
  if (segments.length === 4 && /^\d{4}$/.test(segments[0]) && /^\d{2}$/.test(segments[1]) && /^\d{2}$/.test(segments[2]))
    return { kind: 'dated', year: segments[0], month: segments[1], day: segments[2], slug: segments[3] };
  return { kind: 'path', segments };
}

/** What a term's archive URL depends on (a registered taxonomy's rewrite settings). */
export interface TermArchive {
  /** The path segment before the slug: `category`, `tag`. */
  archiveBase: string;
  /** Query var of the plain archive URL, and whether it takes the id (`?cat=3`) or the slug (`?tag=x`). */
  plainVar: { name: string; byId: boolean };
}

/**
 * get_term_link: `{home}/{base}/{slug}/`, a nested category under its ancestors' slugs
 * (`/category/parent/child/`, as WordPress's hierarchical rewrite does); with plain permalinks
 * the archive's query var.
 */
export function termPermalink(site: Site, tax: TermArchive, term: { id: number; slug: string }, ancestorSlugs: string[] = []): string {
  if (!site.options.permalink_structure) return `${site.home}/?${tax.plainVar.name}=${tax.plainVar.byId ? term.id : encodeURIComponent(term.slug)}`;
  // slugs are URL-safe as sanitize_title makes them (`%ce%b5` included): printed as they are
  return `${site.home}/${tax.archiveBase}/${[...ancestorSlugs, term.slug].join('/')}/`;
}

/** get_author_posts_url: `{home}/author/{nicename}/`, or `?author=ID`. */
export function authorPermalink(site: Site, user: { id: number; nicename: string }): string {
  return site.options.permalink_structure ? `${site.home}/author/${encodeURIComponent(user.nicename)}/` : `${site.home}/?author=${user.id}`;
}

/** get_year_link / get_month_link / get_day_link: `{home}/2024/03/05/`, or `?m=20240305`. */
export function dateArchivePermalink(site: Site, year: number, month?: number, day?: number): string {
  const parts = [String(year).padStart(4, '0'), ...(month ? [String(month).padStart(2, '0')] : []), ...(month && day ? [String(day).padStart(2, '0')] : [])];
  return site.options.permalink_structure ? `${site.home}/${parts.join('/')}/` : `${site.home}/?m=${parts.join('')}`;
}

/** get_search_link's plain form, which every permalink setting answers: `{home}/?s=text`. */
export function searchPermalink(site: Site, text: string): string {
  return `${site.home}/?s=${encodeURIComponent(text).replace(/%20/g, '+')}`;
}

export type FeedType = 'rss2' | 'atom';

/**
 * get_feed_link for any list URL: `{url}feed/` (RSS 2.0) or `{url}feed/atom/` with pretty
 * permalinks, `feed=rss2|atom` in the query otherwise or when the URL already has a query (search).
 */
export function feedPermalink(site: Site, listUrl: string, type: FeedType): string {
  const q = listUrl.indexOf('?');
  if (!site.options.permalink_structure || q >= 0) return `${listUrl}${q >= 0 ? '&' : '?'}feed=${type}`;
  return `${listUrl}feed/${type === 'atom' ? 'atom/' : ''}`;
}

/** The comments feed (WordPress's `/comments/feed/`, `?feed=comments-rss2`). */
export function commentsFeedPermalink(site: Site, type: FeedType): string {
  if (!site.options.permalink_structure) return `${site.home}/?feed=comments-${type}`;
  return `${site.home}/comments/feed/${type === 'atom' ? 'atom/' : ''}`;
}

/** get_pagenum_link: page N of a list, `…/page/N/` before any query with pretty permalinks, else `paged=N`. */
export function pagedPermalink(site: Site, listUrl: string, paged: number): string {
  if (paged <= 1) return listUrl;
  const q = listUrl.indexOf('?');
  if (!site.options.permalink_structure) return `${listUrl}${q >= 0 ? '&' : '?'}paged=${paged}`;
  return q < 0 ? `${listUrl}page/${paged}/` : `${listUrl.slice(0, q)}page/${paged}/${listUrl.slice(q)}`;
}

/** get_term_link for a stored term: a hierarchical term's ancestors are looked up for its nested path. */
export async function termLink(store: Store, site: Site, tax: TaxonomyInfo, term: TermRow): Promise<string> {
  const ancestors = tax.hierarchical && term.parent && site.options.permalink_structure ? await store.terms.ancestorSlugs(term) : [];
  return termPermalink(site, tax, term, ancestors);
}
