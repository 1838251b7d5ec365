import type { CmsEngine as Engine } from '../core/context.ts';
import type { PageHandler, PageRequest, PageResponse } from '../engine/server.ts';
import type { PostRow } from '../store/posts.ts';
import type { TermRow } from '../store/terms.ts';
import type { Store } from '../store/index.ts';
import type { PageContext, Site } from '../core/site.ts';
import { authorizePage } from './sign-in/authorize-page.ts';
import { oauthPage } from '../auth/oauth.ts';
import { authorPermalink, commentsFeedPermalink, feedPermalink, pagedPermalink, permalink, termPermalink, type FeedType, type PermalinkTarget } from '../core/permalinks.ts';
import { filterHeadMeta, hookOutput, pageViewed, theContent } from '../core/hooks.ts';
import { stripRegisteredShortcodes } from '../core/shortcodes/registry.ts';
import { firstPageTeaser } from '../format/teaser.ts';
import { escapeAttr, escapeHtml, excerptText, renderContent, stripAllTags } from '../format/format.ts';
import { articleHtml, documentHtml, embedHtml, listHtml, navHtml, notFoundHtml, UNTITLED, type DocumentParts, type NavLink, type ShownPost, type SiteIdentity } from './templates.ts';
import { formatLocalDate } from '../format/date.ts';
import { parseSiteRequest, type SiteRequest } from './request.ts';
import { planList, type ListPlan } from './archives.ts';
import { feedResponse, type FeedPost } from './feeds.ts';
import { robotsResponse, sitemapResponse, sitemapXmlRedirect } from './sitemaps.ts';
import { COMMENT_POST_PATH, commentFeedItems, commentPost, commentsSection, pageVisitor } from './comments.ts';
import { siteChrome, STYLESHEET_PATH, stylesheetResponse, stylesheetUrl } from './theme.ts';
import { BlockSupportsState } from '../core/block-library/supports/state.ts';
import { isUploadPath, uploadResponse } from './uploads.ts';
import { previewed, previewOf, previewShows, type Preview } from './preview.ts';
import { NO_CACHE } from '../engine/critical-error.ts';

/** The post types that have a page of their own on the site. */
const VIEWABLE_TYPES = ['post', 'page'];
/** Sticky posts shown on top of the blog's first page, at most. */
const MAX_STICKY = 50;

/** What a singular URL shows, once resolved against the stored content. */
type Resolved =
  | { kind: 'single'; post: PostRow; url: string }
  | { kind: 'list'; paged: number; base: string; page?: PostRow }
  | { kind: 'redirect'; to: string }
  | { kind: 'missing' };

/**
 * The site outside the API, as WordPress's front end serves it with the default theme: the home
 * page (latest posts or the front page), each published post and page at its permalink, category,
 * tag, author and date archives, search results, RSS and Atom feeds, sitemaps, robots.txt, the
 * theme's stylesheet, the embed card at `{permalink}embed/`, the application-authorization page
 * (and the OAuth authorization server around it: its metadata, registration and token endpoints),
 * the admin and its login screen, and a 404 page for everything else. The server adds the API discovery Link header.
 * The admin sits above the site, so the application hands its pages in (`adminPage`, null for a path it does not serve).
 */
export function createPageHandler(engine: Engine, adminPage: (req: PageRequest, engine: Engine) => Promise<PageResponse | null>): PageHandler {
  const authPath = trimTrailingSlash(engine.site.authPath);
  return async (req) => {
    if (trimTrailingSlash(req.path) === authPath) return authorizePage(req, engine);
    if (req.path.startsWith('/.well-known/oauth-') || req.path.startsWith(`${authPath}/`)) {
      const oauth = await oauthPage(req, engine);
      if (oauth) return oauth;
    }
    if (req.path.startsWith(engine.site.adminPath)) return (await adminPage(req, engine)) ?? notFoundPage(engine, engine.site.url(req.path));
    if (req.path === STYLESHEET_PATH) return stylesheetResponse(req);
    if (isUploadPath(req.path)) return (await uploadResponse(engine.site, req)) ?? notFoundPage(engine, engine.site.url(req.path));
    const res = await renderSitePage(engine, req);
    const view = {
      store: engine.store,
      site: engine.site,
      method: req.method,
      path: req.path,
      status: res.status,
      contentType: headerValue(res.headers, 'content-type'),
      referrer: req.headers.referer ?? '',
      userAgent: req.headers['user-agent'] ?? '',
    };
    await pageViewed(view, engine.log);
    return res;
  };
}

const TRAILING_SLASHES = /\/+$/;

/** A response header by its lower-case name, whatever case the page set it in; '' when absent. */
function headerValue(headers: Record<string, string>, name: string): string {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return '';
}

function trimTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(TRAILING_SLASHES, '') : path;
}

async function renderSitePage(engine: Engine, req: PageRequest): Promise<PageResponse> {
  const { site } = engine;
  const path = req.path === '/index.php' ? '/' : req.path;
  if (path === new URL(site.url(COMMENT_POST_PATH)).pathname) return commentPost(engine, req, (post) => postUrl(engine.store, site, post));
  const preview = await previewOf(engine, req);
  if (preview && 'status' in preview) return preview;
  const request = parseSiteRequest(site, path, req.query);
  switch (request.kind) {
    case 'robots':
      return robotsResponse(engine);
    case 'sitemap':
      return (await sitemapResponse(engine, request.name, request.subtype, request.page)) ?? notFoundPage(engine, site.url(req.path));
    case 'sitemap-xml':
      return (await sitemapXmlRedirect(engine)) ?? notFoundPage(engine, site.url(req.path));
    case 'comments-feed':
      return commentsFeed(engine, req, request.feed);
    case 'missing':
      return notFoundPage(engine, site.url(req.path));
    case 'singular':
      return singularRequest(engine, req, path, request, preview);
    case 'list':
      return listRequest(engine, req, path, request);
  }
}

async function singularRequest(engine: Engine, req: PageRequest, path: string, request: Extract<SiteRequest, { kind: 'singular' }>, preview: Preview | null): Promise<PageResponse> {
  const { site, store } = engine;
  const { target, paged, embed, feed } = request;
  // a post's own feed is its comments feed, found at the post's own path
  const resolved = await resolve(engine, target, feed ? path.replace(FEED_SUFFIX, '/') : path, paged, embed, feed ? null : preview);
  if (feed) {
    if (resolved.kind === 'redirect') return redirect(feedPermalink(site, resolved.to, feed));
    return resolved.kind === 'single' ? postCommentsFeed(engine, req, resolved.post, resolved.url, feed) : notFoundPage(engine, site.url(req.path));
  }
  if (resolved.kind === 'redirect') return redirect(resolved.to);
  if (embed) return embedPage(engine, req, resolved.kind === 'single' ? resolved : null);
  if (resolved.kind === 'single') {
    if (!preview) return singlePage(engine, req, resolved.post, resolved.url);
    const res = await singlePage(engine, req, await previewed(engine, preview, resolved.post), resolved.url);
    // WordPress sends a logged-in viewer's pages with nocache_headers(): a preview is never kept by a cache
    Object.assign(res.headers, NO_CACHE);
    return res;
  }
  if (resolved.kind === 'list') {
    // the page that shows the posts: the blog's plan at the page's URL (a plan without vars is never null)
    const blog = (await planList(store, site, {}))!;
    return listPage(engine, req, { ...blog, url: resolved.base }, resolved.paged, resolved.page);
  }
  return notFoundPage(engine, site.url(req.path));
}

function redirect(to: string): PageResponse {
  return { status: 301, headers: { Location: to, 'Content-Type': 'text/html; charset=UTF-8' }, body: '' };
}

async function embedPage(engine: Engine, req: PageRequest, found: { post: PostRow; url: string } | null): Promise<PageResponse> {
  const { site, store } = engine;
  const ctx: PageContext = { store, site, kind: 'embed', postId: found?.post.id, url: found?.url ?? site.url(req.path) };
  const shown = found ? (await showPosts(engine, [found.post], ctx, false))[0] : null;
  const html = embedHtml(identity(site), shown, await hookOutput('head', ctx, engine.log), await hookOutput('footer', ctx, engine.log));
  return htmlResponse(found ? 200 : 404, html, found ? restLink(site, found.post) : undefined);
}

/**
 * A list of posts: the blog, an archive or a search, as a themed page or a feed. With pretty
 * permalinks, a list asked for by query vars (`?cat=3`, `?paged=2`) or by a path that is not its
 * own (`/category/child/`, no trailing slash) is redirected to its canonical URL first, as
 * redirect_canonical does; searches stay where they were asked.
 */
async function listRequest(engine: Engine, req: PageRequest, path: string, r: Extract<SiteRequest, { kind: 'list' }>): Promise<PageResponse> {
  const { site, store } = engine;
  const isBlogHome = Object.keys(r.vars).length === 0;
  if (isBlogHome && !r.feed && !r.embed && site.info.show_on_front === 'page' && site.info.page_on_front) {
    return singularRequest(engine, req, path, { kind: 'singular', target: { kind: 'home' }, paged: r.paged, embed: false }, null);
  }
  const plan = await planList(store, site, r.vars);
  if (!plan) return r.embed ? embedPage(engine, req, null) : notFoundPage(engine, site.url(req.path));
  if (r.embed) return embedPage(engine, req, null);
  const canonical = r.feed ? feedPermalink(site, plan.url, r.feed) : pagedPermalink(site, plan.url, r.paged);
  if (site.options.permalink_structure && plan.kind !== 'search' && (r.fromQuery || new URL(canonical).pathname !== path)) return redirect(canonical);
  if (r.feed) return listFeed(engine, req, plan, r.feed);
  return listPage(engine, req, plan, r.paged);
}

const isPublished = (post: PostRow | undefined | null): post is PostRow => !!post && post.status === 'publish' && VIEWABLE_TYPES.includes(post.type);

/**
 * Finds what a parsed URL points at. Lookups only match content whose permalink really is the
 * requested path (a dated URL must carry the post's date, a page path its parents' slugs); what
 * remains is WordPress's redirect_canonical: `?p=ID`, a missing trailing slash and the front
 * page's own permalink are 301s to the canonical URL. A preview shows its viewer a post they may
 * edit whatever its status, where it was asked (redirect_canonical leaves previews alone).
 */
async function resolve(engine: Engine, target: PermalinkTarget, requestPath: string, paged: number, embed: boolean, preview: Preview | null): Promise<Resolved> {
  const { store, site } = engine;
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
  if (preview && post && VIEWABLE_TYPES.includes(post.type) && previewShows(engine, preview, post)) return { kind: 'single', post, url: await postUrl(store, site, post) };
  if (!isPublished(post)) return { kind: 'missing' };

  const url = await postUrl(store, site, post);
  const isPostsPage = site.info.show_on_front === 'page' && post.type === 'page' && post.id === site.info.page_for_posts;
  if (!isPostsPage && paged > 1) return { kind: 'missing' };
  const canonical = (isPostsPage && paged > 1 ? pagedPermalink(site, url, paged) : url) + (embed ? embedSuffix(url) : '');
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
 * rest (the tag's own text, else the theme's "Continue reading" with the title for screen readers,
 * as Twenty Twenty-One passes to the_content); the single view marks the spot with `#more-ID`.
 */
function contentForView(post: PostRow, inList: boolean, url: string): string {
  const more = MORE_TAG.exec(post.content);
  if (!more) return post.content;
  if (!inList) return post.content.replace(MORE_TAG, `<span id="more-${post.id}"></span>`);
  const label = more[1]?.trim() ? escapeHtml(more[1].trim()) : `Continue reading <span class="screen-reader-text">${escapeHtml(post.title || UNTITLED)}</span>`;
  return `${post.content.slice(0, more.index)} <a href="${escapeAttr(`${url}#more-${post.id}`)}" class="more-link">${label}</a>`;
}

const PROTECTED_CONTENT = '<p>This content is password protected.</p>\n';
const PROTECTED_EXCERPT = 'There is no excerpt because this is a protected post.';

/** The terms of a page of posts as links, a nested category's under its ancestors' slugs. */
async function termLinks(store: Store, site: Site, postIds: number[], slug: 'category' | 'post_tag'): Promise<Map<number, NavLink[]>> {
  const tax = site.types.taxonomy(slug)!;
  const terms = await store.terms.termsOfPosts(postIds, slug);
  const paths = new Map<number, string[]>();
  const pathOf = async (t: TermRow) => {
    if (!t.parent || !site.options.permalink_structure) return [];
    let path = paths.get(t.id);
    if (!path) paths.set(t.id, (path = await store.terms.ancestorSlugs(t)));
    return path;
  };
  const out = new Map<number, NavLink[]>();
  for (const [postId, rows] of terms) out.set(postId, await Promise.all(rows.map(async (t) => ({ text: t.name, url: termPermalink(site, tax, t, await pathOf(t)) }))));
  return out;
}

/**
 * Resolves rows to what the templates show: permalinks, author and term links, filtered content.
 * In a list, a post's content stops at its `<!--more-->`.
 */
async function showPosts(engine: Engine, posts: PostRow[], pageCtx: PageContext, inList: boolean): Promise<ShownPost[]> {
  const { store, site } = engine;
  const ids = posts.map((p) => p.id);
  const [categories, tags] = await Promise.all([termLinks(store, site, ids, 'category'), termLinks(store, site, ids, 'post_tag')]);
  const authors = new Map<number, NavLink>();
  for (const id of new Set(posts.map((p) => p.author))) {
    const user = await store.users.get(id);
    authors.set(id, user ? { text: user.display_name, url: authorPermalink(site, user) } : { text: '', url: `${site.home}/` });
  }
  const dateFormat = site.options.date_format || 'F j, Y';
  const shown: ShownPost[] = [];
  for (const post of posts) {
    const isProtected = post.password !== '';
    const ctx: PageContext = { ...pageCtx, postId: post.id };
    const url = !inList && pageCtx.postId === post.id ? pageCtx.url : await postUrl(store, site, post);
    shown.push({
      id: post.id,
      type: post.type,
      title: isProtected ? `Protected: ${post.title}` : post.title,
      url,
      dateIso: `${post.date_gmt.replace(' ', 'T')}+00:00`,
      dateText: formatLocalDate(dateFormat, post.date),
      author: authors.get(post.author)!,
      categories: categories.get(post.id) ?? [],
      tags: tags.get(post.id) ?? [],
      html: isProtected ? PROTECTED_CONTENT : await theContent(contentForView(post, inList, url), ctx, engine.log),
      // wp_trim_excerpt's source: the first page up to <!--more-->, without shortcodes
      excerpt: isProtected ? PROTECTED_EXCERPT : stripAllTags(excerptText(post.excerpt, renderContent(await stripRegisteredShortcodes(firstPageTeaser(post.content), site)))),
    });
  }
  return shown;
}

/** The feeds every page announces (feed_links): the posts and the comments. */
function siteFeeds(site: Site): NavLink[] {
  return [
    { text: `${site.info.name} » Feed`, url: feedPermalink(site, `${site.home}/`, 'rss2') },
    { text: `${site.info.name} » Comments Feed`, url: commentsFeedPermalink(site, 'rss2') },
  ];
}

/** The parts of a themed page around its main column: stylesheet, feeds, menu and widgets, extension hooks. */
async function themedDocument(engine: Engine, ctx: PageContext, parts: Pick<DocumentParts, 'title' | 'description' | 'canonical' | 'restAlternate' | 'bodyClass' | 'main'> & { feeds?: NavLink[]; search?: string }): Promise<string> {
  const { site, store } = engine;
  const meta = await filterHeadMeta({ title: parts.title, description: parts.description, canonical: parts.canonical }, ctx, engine.log);
  return documentHtml({
    ...parts,
    ...meta,
    site: identity(site),
    stylesheet: stylesheetUrl(site),
    feeds: [...siteFeeds(site), ...(parts.feeds ?? [])],
    chrome: await siteChrome(store, site, ctx.url, parts.search ?? '', ctx.supports),
    head: await hookOutput('head', ctx, engine.log),
    // the block supports' SVGs and styles come after the plugins' wp_footer output, as WordPress prints them on a classic theme's page
    footer: (await hookOutput('footer', ctx, engine.log)) + (ctx.supports?.footerHtml() ?? ''),
  });
}

async function singlePage(engine: Engine, req: PageRequest, post: PostRow, url: string): Promise<PageResponse> {
  const { site, store } = engine;
  const visitor = await pageVisitor(engine, req);
  const ctx: PageContext = {
    store, site, kind: post.type === 'page' ? 'page' : 'post', postId: post.id, url, queryArgs: req.query, singular: true, supports: new BlockSupportsState(),
    requestUri: { path: req.path, query: req.query }, commentVisitor: visitor,
  };
  const [shown] = await showPosts(engine, [post], ctx, false);
  const isFront = url === `${site.home}/`;
  // after the content: a Post Comments Form block in it has printed the form the section then leaves out
  const discussion = await commentsSection(engine, req, post, url, visitor);
  const main = articleHtml(shown, true) + (discussion ? `\n${discussion}` : '') + (post.type === 'post' ? `\n${await adjacentNav(store, site, post)}` : '');
  const html = await themedDocument(engine, ctx, {
    title: isFront ? `${site.info.name} – ${site.info.description}` : `${shown.title || site.info.name} – ${site.info.name}`,
    description: shown.excerpt || site.info.description,
    canonical: url,
    restAlternate: site.restUrl(restPath(post)),
    bodyClass: post.type === 'page' ? `page page-id-${post.id}${isFront ? ' home' : ''}` : `single single-post postid-${post.id}`,
    main,
    // feed_links_extra: a post that takes or has comments announces its comments feed
    feeds: discussion ? [{ text: `${site.info.name} » ${post.title} Comments Feed`, url: feedPermalink(site, url, 'rss2') }] : [],
  });
  const res = htmlResponse(200, html, restLink(site, post));
  if (visitor.setCookie) res.headers['Set-Cookie'] = visitor.setCookie;
  return res;
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

const perPageOf = (site: Site) => Math.max(1, Number(site.options.posts_per_page) || 10);

/**
 * A list page: posts_per_page at a time, the blog's first page led by its sticky posts, archive
 * and search pages under their heading. A page past the last is a 404, and so is an empty first
 * page where WordPress's handle_404 says so.
 */
async function listPage(engine: Engine, req: PageRequest, plan: ListPlan, paged: number, postsPage?: PostRow): Promise<PageResponse> {
  const { site, store } = engine;
  const perPage = perPageOf(site);
  const offset = (paged - 1) * perPage;
  const url = pagedPermalink(site, plan.url, paged);
  if (!Number.isSafeInteger(offset)) return notFoundPage(engine, url);
  const { rows, total } = await store.posts.query({ ...plan.query, offset, limit: perPage });
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  if (paged > lastPage || (!total && !plan.emptyIsFound)) return notFoundPage(engine, url);
  // WP_Query on the blog's first page: sticky posts go first, then the rest of the page
  const sticky = plan.kind === 'home' && paged === 1 ? (await store.posts.query({ ...plan.query, sticky: true, offset: 0, limit: MAX_STICKY })).rows : [];
  const stickyIds = new Set(sticky.map((p) => p.id));
  const listed = [...sticky, ...rows.filter((p) => !stickyIds.has(p.id))];
  // the visitor, for a Post Comments Form block in a listed post's content (each prints its form, as WordPress's list does)
  const visitor = await pageVisitor(engine, req);
  const ctx: PageContext = { store, site, kind: plan.kind, postId: postsPage?.id, url, supports: new BlockSupportsState(), requestUri: { path: req.path, query: req.query }, commentVisitor: visitor };
  const shown = await showPosts(engine, listed, ctx, true);
  let title: string;
  if (plan.kind === 'home') {
    const parts = [postsPage ? postsPage.title : site.info.name, paged > 1 ? `Page ${paged}` : '', postsPage ? site.info.name : site.info.description];
    title = parts.filter(Boolean).join(' – ');
  } else {
    title = [plan.documentTitle, paged > 1 ? `Page ${paged}` : '', site.info.name].filter(Boolean).join(' – ');
  }
  const bodyClass = plan.kind === 'search' ? `search ${total ? 'search-results' : 'search-no-results'}` : `${plan.bodyClass}${plan.kind === 'home' && !postsPage ? ' home' : ''}`;
  const html = await themedDocument(engine, ctx, {
    title,
    description: plan.heading?.description || site.info.description,
    canonical: url,
    bodyClass: paged > 1 ? `${bodyClass} paged paged-${paged}` : bodyClass,
    main: listHtml(identity(site), {
      posts: shown,
      summaries: plan.kind === 'search',
      heading: plan.heading,
      older: paged < lastPage ? pagedPermalink(site, plan.url, paged + 1) : undefined,
      newer: paged > 1 ? pagedPermalink(site, plan.url, paged - 1) : undefined,
      empty: { message: plan.emptyMessage, searchForm: plan.kind === 'search' ? (plan.search ?? '') : undefined },
    }),
    feeds: plan.kind === 'home' ? [] : [{ text: plan.feedTitle, url: feedPermalink(site, plan.url, 'rss2') }],
    search: plan.search,
  });
  const res = htmlResponse(200, html);
  if (visitor.setCookie) res.headers['Set-Cookie'] = visitor.setCookie;
  return res;
}

/** When anything published last changed (get_lastpostmodified), for feeds with nothing newer to go by. */
async function lastModified(store: Store): Promise<Date> {
  const { rows } = await store.posts.query({ types: VIEWABLE_TYPES, statuses: ['publish'], orderby: 'modified', order: 'desc', offset: 0, limit: 1 });
  return rows[0] ? gmtDate(rows[0].modified_gmt) : new Date();
}

const gmtDate = (gmt: string) => new Date(`${gmt.replace(' ', 'T')}Z`);

/** The feed of a list: its newest posts_per_rss posts (10 by default), in full. */
async function listFeed(engine: Engine, req: PageRequest, plan: ListPlan, type: FeedType): Promise<PageResponse> {
  const { site, store } = engine;
  const perFeed = Math.max(1, Number(await store.options.get('posts_per_rss')) || 10);
  const { rows } = await store.posts.query({ ...plan.query, offset: 0, limit: perFeed });
  const selfUrl = feedPermalink(site, plan.url, type);
  const shown = await showPosts(engine, rows, { store, site, kind: 'feed', url: selfUrl }, false);
  const posts: FeedPost[] = rows.map((p, i) => ({ shown: shown[i], guid: p.guid || `${site.home}/?p=${p.id}`, published: gmtDate(p.date_gmt), modified: gmtDate(p.modified_gmt) }));
  const updated = posts.length ? new Date(Math.max(...posts.map((p) => p.modified.getTime()))) : await lastModified(store);
  return feedResponse(req, {
    type,
    title: plan.documentTitle ? `${plan.documentTitle} – ${site.info.name}` : site.info.name,
    description: site.info.description,
    pageUrl: plan.url,
    selfUrl,
    posts,
    updated,
  });
}

/** The end of a feed's path under pretty permalinks: `feed/`, `feed/rss2/`, `feed/atom/`. */
const FEED_SUFFIX = /\/feed(?:\/(?:rss2|atom))?\/?$/;

/** A post's comments feed (`{permalink}feed/`): its newest approved comments. */
async function postCommentsFeed(engine: Engine, req: PageRequest, post: PostRow, url: string, type: FeedType): Promise<PageResponse> {
  const { site, store } = engine;
  const posts = await commentFeedItems(engine, (p) => postUrl(store, site, p), post);
  return feedResponse(req, {
    type,
    title: `Comments on: ${post.title}`,
    description: site.info.description,
    pageUrl: url,
    selfUrl: feedPermalink(site, url, type),
    posts,
    updated: posts[0]?.published ?? gmtDate(post.modified_gmt),
  });
}

/** The comments feed: the newest approved comments on the site's published posts and pages. */
async function commentsFeed(engine: Engine, req: PageRequest, type: FeedType): Promise<PageResponse> {
  const { site, store } = engine;
  const posts = await commentFeedItems(engine, (post) => postUrl(store, site, post));
  return feedResponse(req, {
    type,
    title: `Comments for ${site.info.name}`,
    description: site.info.description,
    pageUrl: `${site.home}/`,
    selfUrl: commentsFeedPermalink(site, type),
    posts,
    updated: posts[0]?.published ?? (await lastModified(store)),
  });
}

async function notFoundPage(engine: Engine, url: string): Promise<PageResponse> {
  const { site, store } = engine;
  const ctx: PageContext = { store, site, kind: '404', url };
  const html = await themedDocument(engine, ctx, {
    title: `Page not found – ${site.info.name}`,
    description: site.info.description,
    bodyClass: 'error404',
    main: notFoundHtml(identity(site)),
  });
  return htmlResponse(404, html);
}
