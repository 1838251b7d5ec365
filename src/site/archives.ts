import type { Site } from '../core/site.ts';
import type { Store } from '../store/index.ts';
import type { PostQuery } from '../store/posts.ts';
import type { TermRow } from '../store/terms.ts';
import type { UserRow } from '../store/users.ts';
import { sqlDate } from '../store/transact.ts';
import { authorPermalink, dateArchivePermalink, searchPermalink, termPermalink } from '../core/permalinks.ts';
import type { DateVars, ListVars } from './request.ts';
import type { ListHeading } from './templates.ts';
import { formatLocalDate } from '../format/date.ts';

/** The template a list is shown with, in WordPress's template hierarchy order (search wins). */
export type ListKind = 'search' | 'category' | 'tag' | 'author' | 'date' | 'home';

/** A list of posts as WP_Query resolves it: what to query, and how the theme presents it. */
export interface ListPlan {
  kind: ListKind;
  query: Omit<PostQuery, 'offset' | 'limit'>;
  /** The list's own URL (its first page). */
  url: string;
  heading?: ListHeading;
  /** wp_get_document_title's part before the site name; none for the blog. */
  documentTitle?: string;
  bodyClass: string;
  /** The name of its feed in the head's alternate link (feed_links_extra). */
  feedTitle: string;
  /**
   * WP::handle_404: an empty first page of an existing term's or author's archive, of the blog or
   * of a search still answers 200; an empty date archive is a 404.
   */
  emptyIsFound: boolean;
  emptyMessage: string;
  /** The search text, when the list is a search. */
  search?: string;
}

const NOTHING_MATCHED = 'Sorry, but nothing matched your search terms. Please try again with some different keywords.';
const NOTHING_HERE = 'It seems we can’t find what you’re looking for. Perhaps searching can help.';

const PUBLISHED_POSTS = { types: ['post'], statuses: ['publish'] };

/** wp_checkdate: a real calendar date (month and day only when given). */
function isValidDate(d: DateVars): boolean {
  if (d.year < 1 || d.year > 9999) return false;
  if (d.month === undefined) return true;
  if (d.month < 1 || d.month > 12) return false;
  if (d.day === undefined) return true;
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(d.year, d.month, 0);
  return d.day >= 1 && d.day <= lastDay.getUTCDate();
}

/** The exclusive bounds of a year, month or day on the site-local post date. */
function dateBounds(d: DateVars): { after: string; before: string } {
  // setUTCFullYear, unlike Date.UTC, keeps years below 100 as they are, and rolls a day past the month's end over
  const at = (year: number, monthIndex: number, day: number) => {
    const t = new Date(0);
    t.setUTCFullYear(year, monthIndex, day);
    return t;
  };
  const start = at(d.year, (d.month ?? 1) - 1, d.day ?? 1);
  const end = d.day ? at(d.year, d.month! - 1, d.day + 1) : d.month ? at(d.year, d.month, 1) : at(d.year + 1, 0, 1);
  return { after: sqlDate(new Date(start.getTime() - 1000)), before: sqlDate(end) };
}

/** The category a URL names: by id, or by its path; a leaf slug alone is found too (and redirected to the full path). */
async function categoryOf(store: Store, vars: ListVars): Promise<TermRow | undefined> {
  if (vars.categoryId !== undefined) {
    const term = await store.terms.get(vars.categoryId);
    return term?.taxonomy === 'category' ? term : undefined;
  }
  const path = vars.categoryPath!;
  const term = await store.terms.bySlug('category', path[path.length - 1]);
  if (!term || path.length === 1) return term;
  // get_category_by_path with full_match: every given parent slug must be the term's ancestors'
  return (await store.terms.ancestorSlugs(term)).join('/') === path.slice(0, -1).join('/') ? term : undefined;
}

async function authorOf(store: Store, vars: ListVars): Promise<UserRow | undefined> {
  return vars.authorId !== undefined ? store.users.get(vars.authorId) : store.users.bySlug(vars.authorName!);
}

/**
 * Resolves a list's query vars against the store (WP_Query::parse_query and get_posts): each
 * given facet narrows the list — a category with its children's posts, a tag, an author, a date
 * range, a search with WordPress's semantics. Null when a facet names nothing (a 404).
 */
export async function planList(store: Store, site: Site, vars: ListVars): Promise<ListPlan | null> {
  const query: Omit<PostQuery, 'offset' | 'limit'> = { ...PUBLISHED_POSTS, orderby: 'date', order: 'desc' };
  const siteName = site.info.name;
  const kinds: ListKind[] = [];
  /** The canonical URL of each facet, and the query var it takes on top of another facet's URL. */
  const urls: { kind: ListKind; url: string; asQuery: string }[] = [];
  let heading: ListHeading | undefined;
  let documentTitle: string | undefined;
  let feedTitle = `${siteName} » Feed`;
  let bodyClass = 'blog';

  if (vars.categoryId !== undefined || vars.categoryPath) {
    const term = await categoryOf(store, vars);
    if (!term) return null;
    query.categories = [term.id, ...(await store.terms.descendantIds('category', term.id))];
    const ancestors = term.parent ? await store.terms.ancestorSlugs(term) : [];
    urls.push({ kind: 'category', url: termPermalink(site, site.types.taxonomy('category')!, term, ancestors), asQuery: `cat=${term.id}` });
    kinds.push('category');
    heading ??= { label: 'Category', name: term.name, description: term.description || undefined };
    documentTitle ??= term.name;
    feedTitle = `${siteName} » ${term.name} Category Feed`;
    bodyClass = `archive category category-${term.slug} category-${term.id}`;
  }
  if (vars.tag !== undefined) {
    const term = await store.terms.bySlug('post_tag', vars.tag);
    if (!term) return null;
    query.tags = [term.id];
    urls.push({ kind: 'tag', url: termPermalink(site, site.types.taxonomy('post_tag')!, term), asQuery: `tag=${encodeURIComponent(term.slug)}` });
    kinds.push('tag');
    heading ??= { label: 'Tag', name: term.name, description: term.description || undefined };
    documentTitle ??= term.name;
    feedTitle = `${siteName} » ${term.name} Tag Feed`;
    if (bodyClass === 'blog') bodyClass = `archive tag tag-${term.slug} tag-${term.id}`;
  }
  if (vars.authorId !== undefined || vars.authorName !== undefined) {
    const user = await authorOf(store, vars);
    if (!user) return null;
    query.authors = [user.id];
    urls.push({ kind: 'author', url: authorPermalink(site, user), asQuery: `author=${user.id}` });
    kinds.push('author');
    heading ??= { label: 'Author', name: user.display_name };
    documentTitle ??= user.display_name;
    feedTitle = `${siteName} » Posts by ${user.display_name} Feed`;
    if (bodyClass === 'blog') bodyClass = `archive author author-${user.nicename} author-${user.id}`;
  }
  if (vars.date) {
    const d = vars.date;
    if (!isValidDate(d)) return null;
    Object.assign(query, dateBounds(d));
    const local = `${String(d.year).padStart(4, '0')}-${String(d.month ?? 1).padStart(2, '0')}-${String(d.day ?? 1).padStart(2, '0')} 00:00:00`;
    const [label, name] = d.day ? ['Day', formatLocalDate(site.options.date_format || 'F j, Y', local)] : d.month ? ['Month', formatLocalDate('F Y', local)] : ['Year', String(d.year)];
    const m = `${String(d.year).padStart(4, '0')}${d.month ? String(d.month).padStart(2, '0') : ''}${d.month && d.day ? String(d.day).padStart(2, '0') : ''}`;
    urls.push({ kind: 'date', url: dateArchivePermalink(site, d.year, d.month, d.day), asQuery: `m=${m}` });
    kinds.push('date');
    heading ??= { label, name };
    documentTitle ??= name;
    if (bodyClass === 'blog') bodyClass = 'archive date';
  }
  let url = urls.length ? urls[0].url : `${site.home}/`;
  for (const extra of urls.slice(1)) url += `${url.includes('?') ? '&' : '?'}${extra.asQuery}`;
  const search = vars.search?.trim();
  if (vars.search !== undefined) {
    query.search = search || undefined;
    if (search) query.orderby = 'relevance';
    url = urls.length ? `${url}${url.includes('?') ? '&' : '?'}s=${encodeURIComponent(vars.search).replace(/%20/g, '+')}` : searchPermalink(site, vars.search);
    kinds.unshift('search');
    heading = { label: 'Search Results for', name: `“${vars.search}”` };
    documentTitle = `Search Results for “${vars.search}”`;
    feedTitle = `${siteName} » Search Results for “${vars.search}” Feed`;
    bodyClass = 'search';
  }
  const kind = kinds[0] ?? 'home';
  return {
    kind,
    query,
    url,
    heading,
    documentTitle,
    bodyClass,
    feedTitle,
    emptyIsFound: kind !== 'date',
    emptyMessage: kind === 'search' ? NOTHING_MATCHED : NOTHING_HERE,
    search: vars.search,
  };
}
