import type { CmsEngine as Engine } from '../core/context.ts';
import type { PageHandler, PageRequest, PageResponse } from '../engine/server.ts';
import type { PostQuery, PostRow } from '../store/posts.ts';
import type { Store } from '../store/index.ts';
import type { PageContext, Site } from '../core/site.ts';
import { authorizePage } from '../auth/authorize-page.ts';
import { parsePermalink, permalink, type PermalinkTarget } from './permalinks.ts';
import { hookOutput, pageViewed, theContent } from './hooks.ts';
import { escapeAttr, escapeHtml, excerptText, renderContent, stripAllTags } from './format.ts';
import { articleHtml, documentHtml, embedHtml, formatLocalDate, listHtml, navHtml, notFoundHtml, type NavLink, type ShownPost, type SiteIdentity } from './templates.ts';

/** The post types that have a page of their own on the site. */
const VIEWABLE_TYPES = ['post', 'page'];
/** Sticky posts shown on top of the blog's first page, at most. */
const MAX_STICKY = 50;
const EMBED_SUFFIX = /\/embed\/?$/;
const PAGED_SUFFIX = /\/page\/(\d+)\/?$/;
const DIGITS = /^\d+$/;

/** What a site URL shows, once resolved against the stored content. */
type Resolved =
  | { kind: 'single'; post: PostRow; url: string }
  | { kind: 'list'; paged: number; base: string; page?: PostRow }
  | { kind: 'redirect'; to: string }
  | { kind: 'missing' };

/**
 * The site outside the API: the home page (latest posts or the front page), each published post
 * and page at its permalink, the embed card at `{permalink}embed/`, the application-authorization
 * page, and a 404 page for everything else. The server adds the API discovery Link header.
 */
export function createPageHandler(engine: Engine): PageHandler {
  const authPath = trimTrailingSlash(engine.site.authPath);
  return async (req) => {
    if (trimTrailingSlash(req.path) === authPath) return authorizePage(req, engine);
    const res = await renderSitePage(engine, req);
    await pageViewed({ store: engine.store, site: engine.site, path: req.path, status: res.status, referrer: req.headers.referer ?? '' }, engine.log);
    return res;
  };
}

const TRAILING_SLASHES = /\/+$/;

function trimTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(TRAILING_SLASHES, '') : path;
}

async function renderSitePage(engine: Engine, req: PageRequest): Promise<PageResponse> {
  const { site, store } = engine;
  let path = req.path === '/index.php' ? '/' : req.path;
  const embed = EMBED_SUFFIX.test(path) || req.query.embed === 'true';
  path = path.replace(EMBED_SUFFIX, '/');
  let paged = Math.max(1, Number(typeof req.query.paged === 'string' && DIGITS.test(req.query.paged) ? req.query.paged : 1));
  const pagedMatch = PAGED_SUFFIX.exec(path);
  if (pagedMatch) {
    paged = Number(pagedMatch[1]);
    path = path.slice(0, pagedMatch.index + 1);
  }
  const target = parsePermalink(site, path + idQuery(req.query));
  const resolved = target ? await resolve(store, site, target, req.path, paged, embed) : { kind: 'missing' as const };

  if (resolved.kind === 'redirect') return { status: 301, headers: { Location: resolved.to, 'Content-Type': 'text/html; charset=UTF-8' }, body: '' };
  if (embed) {
    const post = resolved.kind === 'single' ? resolved.post : null;
    const url = resolved.kind === 'single' ? resolved.url : site.url(req.path);
    const ctx: PageContext = { store, site, kind: 'embed', postId: post?.id, url };
    const shown = post ? (await showPosts(engine, [post], ctx))[0] : null;
    const html = embedHtml(identity(site), shown, await hookOutput('head', ctx, engine.log), await hookOutput('footer', ctx, engine.log));
    return htmlResponse(post ? 200 : 404, html, post ? restLink(site, post) : undefined);
  }
  if (resolved.kind === 'single') return singlePage(engine, resolved.post, resolved.url);
  if (resolved.kind === 'list') return listPage(engine, resolved.paged, resolved.base, resolved.page);
  return notFoundPage(engine, site.url(req.path));
}

/** Only the post-id query args reach parsePermalink; everything else in the query is not a target. */
function idQuery(query: Record<string, unknown>): string {
  for (const key of ['p', 'page_id']) {
    const v = query[key];
    if (typeof v === 'string' && DIGITS.test(v)) return `?${key}=${v}`;
  }
  return '';
}

const isPublished = (post: PostRow | undefined | null): post is PostRow => !!post && post.status === 'publish' && VIEWABLE_TYPES.includes(post.type);

/**
 * Finds what a parsed URL points at. Lookups only match content whose permalink really is the
 * requested path (a dated URL must carry the post's date, a page path its parents' slugs); what
 * remains is WordPress's redirect_canonical: `?p=ID`, a missing trailing slash and the front
 * page's own permalink are 301s to the canonical URL.
 */
async function resolve(store: Store, site: Site, target: PermalinkTarget, requestPath: string, paged: number, embed: boolean): Promise<Resolved> {
  const pretty = !!site.options.permalink_structure;
  const dated = pretty && site.options.permalink_structure.includes('%year%');
  let post: PostRow | undefined | null;
  switch (target.kind) {
    case 'home': {
      const front = site.info.show_on_front === 'page' && site.info.page_on_front ? await store.posts.get(site.info.page_on_front) : null;
      if (isPublished(front) && front.type === 'page') return paged > 1 ? { kind: 'missing' } : { kind: 'single', post: front, url: `${site.home}/` };
      return { kind: 'list', paged, base: `${site.home}/` };
    }
    case 'id':
      post = await store.posts.get(target.id);
      break;
    case 'dated': {
      if (!dated) return { kind: 'missing' };
      const day = `${target.year}-${target.month}-${target.day}`;
      post = (await publishedBySlug(store, target.slug, 'post')).find((p) => p.date.startsWith(day));
      break;
    }
    case 'path': {
      if (!pretty) return { kind: 'missing' };
      const parentPath = target.segments.slice(0, -1).join('/');
      for (const page of await publishedBySlug(store, target.segments[target.segments.length - 1], 'page')) {
        if ((await store.posts.ancestorSlugs(page)).join('/') === parentPath) {
          post = page;
          break;
        }
      }
      if (!post && target.segments.length === 1 && !dated) [post] = await publishedBySlug(store, target.segments[0], 'post');
      break;
    }
  }
  if (!isPublished(post)) return { kind: 'missing' };

  const url = await postUrl(store, site, post);
  const isPostsPage = site.info.show_on_front === 'page' && post.type === 'page' && post.id === site.info.page_for_posts;
  if (!isPostsPage && paged > 1) return { kind: 'missing' };
  const canonical = (isPostsPage && paged > 1 ? pagedUrl(site, url, paged) : url) + (embed ? embedSuffix(url) : '');
  if (target.kind === 'id') {
    if (pretty) return { kind: 'redirect', to: canonical };
  } else if (new URL(canonical).pathname !== new URL(requestPath, canonical).pathname) {
    return { kind: 'redirect', to: canonical };
  }
  return isPostsPage ? { kind: 'list', paged, base: url, page: post } : { kind: 'single', post, url };
}

/**
 * The published posts of a type with this slug, newest first. Drafts keep the slug they were given
 * without making it unique, so they must not shadow the published post of the same name.
 */
async function publishedBySlug(store: Store, slug: string, type: string): Promise<PostRow[]> {
  const { rows } = await store.posts.query({ types: [type], statuses: ['publish'], slugs: [slug], orderby: 'date', order: 'desc', offset: 0, limit: 20 });
  return rows;
}

/** get_post_embed_url: `{permalink}embed/`, or `&embed=true` on a plain permalink. */
function embedSuffix(url: string): string {
  return url.includes('?') ? '&embed=true' : 'embed/';
}

/** The post's permalink, with a page's ancestors' slugs from the store. */
async function postUrl(store: Store, site: Site, post: PostRow): Promise<string> {
  const parentPath = post.type === 'page' && post.parent ? (await store.posts.ancestorSlugs(post)).join('/') : '';
  return permalink(site, { id: post.id, type: post.type, slug: post.slug, status: post.status, date: post.date, parentPath });
}

function pagedUrl(site: Site, base: string, paged: number): string {
  if (paged <= 1) return base;
  if (site.options.permalink_structure) return `${base}page/${paged}/`;
  return `${base}${base.includes('?') ? '&' : '?'}paged=${paged}`;
}

function identity(site: Site): SiteIdentity {
  return { name: site.info.name, tagline: site.info.description, home: site.home, apiRoot: site.apiRoot };
}

function restPath(post: PostRow): string {
  return `cms/v2/${post.type === 'page' ? 'pages' : 'posts'}/${post.id}`;
}

/** rest_output_link_header: the API root plus, on a single post, its REST resource (one header, comma-joined). */
function restLink(site: Site, post: PostRow): string {
  return `${site.linkHeader}, <${site.restUrl(restPath(post))}>; rel="alternate"; title="JSON"; type="application/json"`;
}

function htmlResponse(status: number, body: string, link?: string): PageResponse {
  const headers: Record<string, string> = { 'Content-Type': 'text/html; charset=UTF-8', 'Content-Length': String(Buffer.byteLength(body)) };
  if (link) headers.Link = link;
  return { status, headers, body };
}


const MORE_TAG = /<!--more(.*?)?-->/;

/**
 * get_the_content's `<!--more-->` handling: a list shows the part before it and a link on to the
 * rest (the tag's own text, else "(more…)"); the single view marks the spot with `#more-ID`.
 */
function contentForView(post: PostRow, inList: boolean, url: string): string {
  const more = MORE_TAG.exec(post.content);
  if (!more) return post.content;
  if (!inList) return post.content.replace(MORE_TAG, `<span id="more-${post.id}"></span>`);
  const label = more[1]?.trim() ? escapeHtml(more[1].trim()) : '(more&hellip;)';
  return `${post.content.slice(0, more.index)} <a href="${escapeAttr(`${url}#more-${post.id}`)}" class="more-link">${label}</a>`;
}

const PROTECTED_CONTENT = '<p>This content is password protected.</p>\n';
const PROTECTED_EXCERPT = 'There is no excerpt because this is a protected post.';

/** Resolves rows to what the templates show: permalinks, author names, term names, filtered content. */
async function showPosts(engine: Engine, posts: PostRow[], pageCtx: PageContext): Promise<ShownPost[]> {
  const { store, site } = engine;
  const ids = posts.map((p) => p.id);
  const [categories, tags] = await Promise.all([termNames(store, ids, 'category'), termNames(store, ids, 'post_tag')]);
  const authors = new Map<number, string>();
  for (const id of new Set(posts.map((p) => p.author))) authors.set(id, (await store.users.get(id))?.display_name ?? '');
  const dateFormat = site.options.date_format || 'F j, Y';
  const shown: ShownPost[] = [];
  for (const post of posts) {
    const isProtected = post.password !== '';
    const ctx: PageContext = { ...pageCtx, postId: post.id };
    const url = pageCtx.kind !== 'home' && pageCtx.postId === post.id ? pageCtx.url : await postUrl(store, site, post);
    shown.push({
      id: post.id,
      type: post.type,
      title: isProtected ? `Protected: ${post.title}` : post.title,
      url,
      dateIso: `${post.date_gmt.replace(' ', 'T')}+00:00`,
      dateText: formatLocalDate(dateFormat, post.date),
      author: authors.get(post.author) ?? '',
      categories: categories.get(post.id) ?? [],
      tags: tags.get(post.id) ?? [],
      html: isProtected ? PROTECTED_CONTENT : await theContent(contentForView(post, pageCtx.kind === 'home', url), ctx, engine.log),
      excerpt: isProtected ? PROTECTED_EXCERPT : stripAllTags(excerptText(post.excerpt, renderContent(post.content))),
    });
  }
  return shown;
}

async function termNames(store: Store, postIds: number[], taxonomy: string): Promise<Map<number, string[]>> {
  const terms = await store.terms.termsOfPosts(postIds, taxonomy);
  return new Map([...terms].map(([postId, rows]) => [postId, rows.map((t) => t.name)]));
}

async function singlePage(engine: Engine, post: PostRow, url: string): Promise<PageResponse> {
  const { site, store } = engine;
  const ctx: PageContext = { store, site, kind: post.type === 'page' ? 'page' : 'post', postId: post.id, url };
  const [shown] = await showPosts(engine, [post], ctx);
  const isFront = url === `${site.home}/`;
  const main = articleHtml(shown, true) + (post.type === 'post' ? `\n${await adjacentNav(store, site, post)}` : '');
  const html = documentHtml({
    site: identity(site),
    title: isFront ? `${site.info.name} – ${site.info.description}` : `${shown.title || site.info.name} – ${site.info.name}`,
    description: shown.excerpt || site.info.description,
    canonical: url,
    restAlternate: site.restUrl(restPath(post)),
    bodyClass: post.type === 'page' ? `page page-id-${post.id}${isFront ? ' home' : ''}` : `single single-post postid-${post.id}`,
    main,
    head: await hookOutput('head', ctx, engine.log),
    footer: await hookOutput('footer', ctx, engine.log),
  });
  return htmlResponse(200, html, restLink(site, post));
}

/** get_the_post_navigation: the published posts just before and just after this one by date. */
async function adjacentNav(store: Store, site: Site, post: PostRow): Promise<string> {
  const near = async (side: 'before' | 'after'): Promise<NavLink | undefined> => {
    const { rows } = await store.posts.query({ types: ['post'], statuses: ['publish'], [side]: post.date, orderby: 'date', order: side === 'before' ? 'desc' : 'asc', offset: 0, limit: 1 });
    return rows[0] && { url: await postUrl(store, site, rows[0]), text: `${side === 'before' ? 'Previous' : 'Next'}: ${rows[0].title || '(no title)'}` };
  };
  const [previous, next] = await Promise.all([near('before'), near('after')]);
  return navHtml('Posts', previous, next);
}

/** The blog: the latest published posts, posts_per_page at a time; a page past the last is a 404. */
async function listPage(engine: Engine, paged: number, base: string, postsPage?: PostRow): Promise<PageResponse> {
  const { site, store } = engine;
  const perPage = Math.max(1, Number(site.options.posts_per_page) || 10);
  const latest: Omit<PostQuery, 'offset' | 'limit'> = { types: ['post'], statuses: ['publish'], orderby: 'date', order: 'desc' };
  const offset = (paged - 1) * perPage;
  if (!Number.isSafeInteger(offset)) return notFoundPage(engine, pagedUrl(site, base, paged));
  const { rows, total } = await store.posts.query({ ...latest, offset, limit: perPage });
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  if (paged > lastPage) return notFoundPage(engine, pagedUrl(site, base, paged));
  // WP_Query on the blog's first page: sticky posts go first, then the rest of the page
  const sticky = paged === 1 ? (await store.posts.query({ ...latest, sticky: true, offset: 0, limit: MAX_STICKY })).rows : [];
  const stickyIds = new Set(sticky.map((p) => p.id));
  const listed = [...sticky, ...rows.filter((p) => !stickyIds.has(p.id))];
  const url = pagedUrl(site, base, paged);
  const ctx: PageContext = { store, site, kind: 'home', postId: postsPage?.id, url };
  const shown = await showPosts(engine, listed, ctx);
  const titleParts = [postsPage ? postsPage.title : site.info.name];
  if (paged > 1) titleParts.push(`Page ${paged}`);
  titleParts.push(postsPage ? site.info.name : site.info.description);
  const html = documentHtml({
    site: identity(site),
    title: titleParts.filter(Boolean).join(' – '),
    description: site.info.description,
    canonical: url,
    bodyClass: `blog${postsPage ? '' : ' home'}${paged > 1 ? ' paged' : ''}`,
    main: listHtml(shown, paged < lastPage ? pagedUrl(site, base, paged + 1) : undefined, paged > 1 ? pagedUrl(site, base, paged - 1) : undefined),
    head: await hookOutput('head', ctx, engine.log),
    footer: await hookOutput('footer', ctx, engine.log),
  });
  return htmlResponse(200, html);
}

async function notFoundPage(engine: Engine, url: string): Promise<PageResponse> {
  const { site, store } = engine;
  const ctx: PageContext = { store, site, kind: '404', url };
  const html = documentHtml({
    site: identity(site),
    title: `Page not found – ${site.info.name}`,
    description: site.info.description,
    bodyClass: 'error404',
    main: notFoundHtml(identity(site)),
    head: await hookOutput('head', ctx, engine.log),
    footer: await hookOutput('footer', ctx, engine.log),
  });
  return htmlResponse(404, html);
}
