import type { TaxonomyInfo } from '../core/content-types.ts';
import type { Site } from '../core/site.ts';

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
 * `{home}/{yyyy}/{mm}/{dd}/{slug}/` when permalink_structure holds %year%, else `{home}/{slug}/`;
 * everything without a public slug (drafts, plain permalinks) at `{home}/?p=ID` (`?page_id=` for pages).
 */
export function permalink(site: Site, post: PermalinkPost): string {
  // _get_page_link: the static front page lives at the home URL itself.
  if (post.type === 'page' && site.info.show_on_front === 'page' && site.info.page_on_front === post.id) return `${site.home}/`;
  const structure = site.options.permalink_structure ?? '';
  const published = post.status === 'publish' || post.status === 'private';
  if (!structure || !post.slug || !published) return `${site.home}/?${post.type === 'page' ? 'page_id' : 'p'}=${post.id}`;
  if (post.type === 'page') return `${site.home}/${post.parentPath ? `${post.parentPath}/` : ''}${post.slug}/`;
  if (post.type === 'post') {
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
  let segments: string[];
  try {
    segments = u.pathname.slice(base.length).split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  } catch {
    return null; // malformed percent-encoding names nothing on this site
  }
  if (segments.length === 0) return { kind: 'home' };
  if (segments.length === 4 && /^\d{4}$/.test(segments[0]) && /^\d{2}$/.test(segments[1]) && /^\d{2}$/.test(segments[2]))
    return { kind: 'dated', year: segments[0], month: segments[1], day: segments[2], slug: segments[3] };
  return { kind: 'path', segments };
}

/** get_term_link: `{home}/{base}/{slug}/` with pretty permalinks, else the archive's query var. */
export function termLink(site: Site, tax: TaxonomyInfo, term: { id: number; slug: string }): string {
  if (site.options.permalink_structure) return `${site.home}/${tax.archiveBase}/${term.slug}/`;
  return `${site.home}/?${tax.plainVar.name}=${tax.plainVar.byId ? term.id : encodeURIComponent(term.slug)}`;
}
