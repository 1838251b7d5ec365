import type { CmsEngine as Engine } from '../core/context.ts';
import type { PageResponse } from '../engine/server.ts';
import type { Site } from '../core/site.ts';
import type { Store } from '../store/index.ts';
import { authorPermalink, permalink, termPermalink } from '../core/permalinks.ts';

/**
 * WordPress core's sitemaps (wp-includes/sitemaps): an index at `wp-sitemap.xml` listing one
 * sitemap per provider, subtype and page of 2000 URLs — published posts and pages, categories
 * and tags that have posts, authors of published posts — and `robots.txt` pointing at it. With
 * plain permalinks the same documents answer `?sitemap=…`. A site that asks search engines to
 * stay away (blog_public = 0) has no sitemaps, as in WordPress.
 */

/** wp_sitemaps_get_max_urls */
export const URLS_PER_SITEMAP = 2000;

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/** The post types and taxonomies with sitemaps: the public, viewable ones. */
const POST_SUBTYPES = ['post', 'page'];
const AUTHOR_TYPES = ['post', 'page'];

interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

/** `'YYYY-MM-DD HH:MM:SS'` UTC → W3C datetime. */
const w3cDate = (gmt: string) => `${gmt.replace(' ', 'T')}+00:00`;

/** get_sitemap_url: where one sitemap lives under the current permalink setting. */
export function sitemapUrl(site: Site, name: string, subtype = '', page = 1): string {
  if (site.options.permalink_structure) return site.url(name === 'index' ? '/wp-sitemap.xml' : `/wp-sitemap-${name}${subtype ? `-${subtype}` : ''}-${page}.xml`);
  const q = new URLSearchParams({ sitemap: name });
  if (subtype) q.set('sitemap-subtype', subtype);
  if (name !== 'index') q.set('paged', String(page));
  return `${site.home}/?${q}`;
}

/** blog_public: '0' asks search engines not to index the site. */
async function isPublic(store: Store): Promise<boolean> {
  return (await store.options.get('blog_public')) !== '0';
}

function xmlResponse(body: string): PageResponse {
  return { status: 200, headers: { 'Content-Type': 'application/xml; charset=UTF-8', 'X-Robots-Tag': 'noindex, follow', 'Content-Length': String(Buffer.byteLength(body)) }, body };
}

function urlset(entries: SitemapEntry[]): string {
  const urls = entries.map((e) => `<url><loc>${xmlEscape(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">${urls}</urlset>\n`;
}

const pagesOf = (count: number) => Math.ceil(count / URLS_PER_SITEMAP);

async function authorCount(store: Store): Promise<number> {
  return (await store.users.list({ hasPublishedPosts: AUTHOR_TYPES, offset: 0, limit: 0 })).total;
}

/** The index: every sitemap page of every provider that has URLs, posts first as WordPress orders them. */
async function indexDocument(store: Store, site: Site): Promise<string> {
  const locs: string[] = [];
  for (const type of POST_SUBTYPES) {
    const { total } = await store.posts.query({ types: [type], statuses: ['publish'], offset: 0, limit: 0 });
    // the home page is the first entry of the page sitemap when the front shows posts
    const count = total + (type === 'page' && site.info.show_on_front !== 'page' ? 1 : 0);
    for (let p = 1; p <= pagesOf(count); p++) locs.push(sitemapUrl(site, 'posts', type, p));
  }
  for (const { slug: taxonomy } of site.types.taxonomies.filter((t) => t.viewable)) {
    const { total } = await store.terms.query({ taxonomy, hideEmpty: true, offset: 0, limit: 0 });
    for (let p = 1; p <= pagesOf(total); p++) locs.push(sitemapUrl(site, 'taxonomies', taxonomy, p));
  }
  for (let p = 1; p <= pagesOf(await authorCount(store)); p++) locs.push(sitemapUrl(site, 'users', '', p));
  const items = locs.map((l) => `<sitemap><loc>${xmlEscape(l)}</loc></sitemap>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${SITEMAP_NS}">${items}</sitemapindex>\n`;
}

/** One page of one provider's URLs, by id as WordPress lists them; null when there is no such page. */
async function entriesOf(store: Store, site: Site, name: string, subtype: string, page: number): Promise<SitemapEntry[] | null> {
  const offset = (page - 1) * URLS_PER_SITEMAP;
  if (name === 'posts' && POST_SUBTYPES.includes(subtype)) {
    const withHome = subtype === 'page' && site.info.show_on_front !== 'page';
    const entries: SitemapEntry[] = [];
    let skip = offset;
    if (withHome) {
      if (page === 1) {
        const { rows } = await store.posts.query({ types: ['post'], statuses: ['publish'], orderby: 'modified', order: 'desc', offset: 0, limit: 1 });
        entries.push({ loc: `${site.home}/`, lastmod: rows[0] ? w3cDate(rows[0].modified_gmt) : undefined });
      } else skip -= 1;
    }
    const { rows } = await store.posts.query({ types: [subtype], statuses: ['publish'], orderby: 'id', order: 'asc', offset: Math.max(0, skip), limit: URLS_PER_SITEMAP - entries.length });
    for (const p of rows) {
      const parentPath = p.parent ? (await store.posts.ancestorSlugs(p)).join('/') : '';
      entries.push({ loc: permalink(site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date, parentPath }), lastmod: w3cDate(p.modified_gmt) });
    }
    return entries.length ? entries : null;
  }
  if (name === 'taxonomies' && site.types.taxonomy(subtype)?.viewable) {
    const tax = site.types.taxonomy(subtype)!;
    const { rows } = await store.terms.query({ taxonomy: subtype, hideEmpty: true, orderby: 'id', order: 'asc', offset, limit: URLS_PER_SITEMAP });
    const entries: SitemapEntry[] = [];
    for (const t of rows) entries.push({ loc: termPermalink(site, tax, t, t.parent && site.options.permalink_structure ? await store.terms.ancestorSlugs(t) : []) });
    return entries.length ? entries : null;
  }
  if (name === 'users' && !subtype) {
    const { rows } = await store.users.list({ hasPublishedPosts: AUTHOR_TYPES, orderby: 'id', order: 'asc', offset, limit: URLS_PER_SITEMAP });
    return rows.length ? rows.map((u) => ({ loc: authorPermalink(site, u) })) : null;
  }
  return null;
}

/** A sitemap document, or null (a 404) for one that does not exist. */
export async function sitemapResponse(engine: Engine, name: string, subtype: string, page: number): Promise<PageResponse | null> {
  const { store, site } = engine;
  if (!(await isPublic(store)) || page < 1 || !Number.isSafeInteger(page)) return null;
  if (name === 'index') return subtype ? null : xmlResponse(await indexDocument(store, site));
  const entries = await entriesOf(store, site, name, subtype, page);
  return entries ? xmlResponse(urlset(entries)) : null;
}

/**
 * redirect_sitemapxml: `/sitemap.xml`, where crawlers look first, sends them on to the index with
 * wp_safe_redirect's 302, on a site that has sitemaps; null (a 404) on one that has none.
 */
export async function sitemapXmlRedirect(engine: Engine): Promise<PageResponse | null> {
  const { store, site } = engine;
  if (!(await isPublic(store))) return null;
  return { status: 302, headers: { Location: sitemapUrl(site, 'index'), 'Content-Type': 'text/html; charset=UTF-8' }, body: '' };
}

/**
 * do_robots: everyone may crawl everything but the admin (with its login and authorization
 * pages), as WordPress disallows /wp-admin/, and the sitemap index is named; a site that is not
 * public disallows everything.
 */
export async function robotsResponse(engine: Engine): Promise<PageResponse> {
  const { store, site } = engine;
  const body = (await isPublic(store))
    ? `User-agent: *\nDisallow: ${new URL(site.url(site.adminPath)).pathname}\n\nSitemap: ${sitemapUrl(site, 'index')}\n`
    : 'User-agent: *\nDisallow: /\n';
  return { status: 200, headers: { 'Content-Type': 'text/plain; charset=UTF-8', 'Content-Length': String(Buffer.byteLength(body)) }, body };
}
