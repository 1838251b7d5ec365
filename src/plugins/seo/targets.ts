import type { TaxonomyInfo } from '../../core/content-types.ts';
import type { PageContext, Site } from '../../core/site.ts';
import type { Store } from '../../store/index.ts';
import type { PostRow } from '../../store/posts.ts';
import type { TermRow } from '../../store/terms.ts';
import type { UserRow } from '../../store/users.ts';
import { planList } from '../../site/archives.ts';
import { authorPermalink, pagedPermalink, permalink, termLink, type PermalinkTarget } from '../../core/permalinks.ts';
import type { RestFieldObject } from '../../core/site.ts';
import { parseSiteRequest, type DateVars, type ListVars } from '../../site/request.ts';

/**
 * What a URL of the site shows, as the head is made for it (Yoast's Meta_Tags_Context): a post or
 * page, the blog, a term's, author's or date archive, a search, or nothing (the 404 page). Found
 * the way the site answers the URL, so the head of a URL and the page at it always agree.
 */
export type Target =
  | { kind: 'post'; post: PostRow; url: string; paged: number; isFront: boolean; isPostsPage: boolean }
  | { kind: 'home'; url: string; paged: number }
  | { kind: 'term'; term: TermRow; taxonomy: TaxonomyInfo; url: string; paged: number }
  | { kind: 'author'; user: UserRow; url: string; paged: number }
  | { kind: 'date'; date: DateVars; url: string; paged: number }
  | { kind: 'search'; search: string; url: string; paged: number }
  | { kind: '404'; url: string };

/** The post types with pages of their own on the site. */
export const VIEWABLE_POST_TYPES = ['post', 'page'];

const isShown = (post: PostRow | undefined): post is PostRow => !!post && post.status === 'publish' && VIEWABLE_POST_TYPES.includes(post.type);

/** get_permalink of a stored post, with a page's ancestors' slugs. */
export async function postPermalink(store: Store, site: Site, post: PostRow): Promise<string> {
  const parentPath = post.type === 'page' && post.parent ? (await store.posts.ancestorSlugs(post)).join('/') : '';
  return permalink(site, { id: post.id, type: post.type, slug: post.slug, status: post.status, date: post.date, parentPath });
}

export async function postTarget(store: Store, site: Site, post: PostRow, paged: number): Promise<Target> {
  const base = await postPermalink(store, site, post);
  const isPostsPage = site.info.show_on_front === 'page' && post.id === site.info.page_for_posts;
  return { kind: 'post', post, url: isPostsPage ? pagedPermalink(site, base, paged) : base, paged: isPostsPage ? paged : 1, isFront: base === `${site.home}/`, isPostsPage };
}

async function singular(store: Store, site: Site, target: PermalinkTarget): Promise<PostRow | undefined> {
  switch (target.kind) {
    case 'home':
      return site.info.show_on_front === 'page' && site.info.page_on_front ? store.posts.get(site.info.page_on_front) : undefined;
    case 'id':
      return store.posts.get(target.id);
    case 'dated': {
      const { rows } = await store.posts.query({ types: ['post'], statuses: ['publish'], slugs: [target.slug], offset: 0, limit: 20 });
      return rows.find((p) => p.date.startsWith(`${target.year}-${target.month}-${target.day}`));
    }
    case 'path': {
      const page = await store.posts.findByPath(target.segments, ['page']);
      if (isShown(page)) return page;
      const dated = (site.options.permalink_structure ?? '').includes('%year%');
      if (target.segments.length !== 1 || dated) return undefined;
      const { rows } = await store.posts.query({ types: ['post'], statuses: ['publish'], slugs: [target.segments[0]], offset: 0, limit: 1 });
      return rows[0];
    }
  }
}

async function termOf(store: Store, vars: ListVars): Promise<TermRow | undefined> {
  if (vars.categoryId !== undefined) return store.terms.get(vars.categoryId);
  if (vars.categoryPath) return store.terms.bySlug('category', vars.categoryPath[vars.categoryPath.length - 1]);
  if (vars.tag !== undefined) return store.terms.bySlug('post_tag', vars.tag);
  return undefined;
}

/** What `url` shows on this site; a URL of another host, or of nothing, is the 404 page's. */
export async function resolveUrl(store: Store, site: Site, url: string): Promise<Target> {
  const notFound: Target = { kind: '404', url };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return notFound;
  }
  if (u.host.toLowerCase() !== new URL(`${site.home}/`).host.toLowerCase()) return notFound;
  const query: Record<string, string> = {};
  for (const [k, v] of u.searchParams) query[k] = v;
  const request = parseSiteRequest(site, u.pathname, query);
  if (request.kind === 'singular') {
    if (request.embed || request.feed) return notFound;
    const post = await singular(store, site, request.target);
    if (isShown(post)) return postTarget(store, site, post, request.paged);
    if (request.target.kind === 'home') return { kind: 'home', url: pagedPermalink(site, `${site.home}/`, request.paged), paged: request.paged };
    return notFound;
  }
  if (request.kind !== 'list' || request.embed || request.feed) return notFound;
  const blogHome = Object.keys(request.vars).length === 0;
  if (blogHome && site.info.show_on_front === 'page' && site.info.page_on_front) {
    const front = await store.posts.get(site.info.page_on_front);
    return isShown(front) ? postTarget(store, site, front, 1) : notFound;
  }
  const plan = await planList(store, site, request.vars);
  if (!plan) return notFound;
  const paged = request.paged;
  const pagedUrl = pagedPermalink(site, plan.url, paged);
  switch (plan.kind) {
    case 'home':
      return { kind: 'home', url: pagedUrl, paged };
    case 'search':
      return { kind: 'search', search: request.vars.search ?? '', url: pagedUrl, paged };
    case 'category':
    case 'tag': {
      const term = await termOf(store, request.vars);
      const taxonomy = term && site.types.taxonomy(term.taxonomy);
      return term && taxonomy ? { kind: 'term', term, taxonomy, url: pagedUrl, paged } : notFound;
    }
    case 'author': {
      const user = request.vars.authorId !== undefined ? await store.users.get(request.vars.authorId) : await store.users.bySlug(request.vars.authorName ?? '');
      return user ? { kind: 'author', user, url: pagedUrl, paged } : notFound;
    }
    case 'date':
      return { kind: 'date', date: request.vars.date!, url: pagedUrl, paged };
  }
}

/** What a rendered page of the site shows; null for what has no head of its own (embeds, feeds). */
export async function pageTarget(ctx: PageContext): Promise<Target | null> {
  const { store, site } = ctx;
  if (ctx.kind === 'embed' || ctx.kind === 'feed') return null;
  if (ctx.kind === '404') return { kind: '404', url: ctx.url };
  if ((ctx.kind === 'post' || ctx.kind === 'page') && ctx.postId) {
    const post = await store.posts.get(ctx.postId);
    if (post) return { ...(await postTarget(store, site, post, 1)), url: ctx.url };
  }
  return resolveUrl(store, site, ctx.url);
}

/**
 * What the head of a REST object is about (Yoast's Meta_Surface for_post, for_term, for_author and
 * for_posts_page): a post at its permalink, a term's or author's archive, and for the `post` type
 * the posts page (the blog). Null where Yoast gives no head: an auto-draft, another type.
 */
export async function objectTarget(store: Store, site: Site, object: RestFieldObject): Promise<Target | null> {
  switch (object.kind) {
    case 'post':
      return object.post.status === 'auto-draft' ? null : postTarget(store, site, object.post, 1);
    case 'term':
      return { kind: 'term', term: object.term, taxonomy: object.taxonomy, url: await termLink(store, site, object.taxonomy, object.term), paged: 1 };
    case 'user':
      return { kind: 'author', user: object.user, url: authorPermalink(site, object.user), paged: 1 };
    case 'type': {
      if (object.type.slug !== 'post') return null;
      const postsPage = site.info.show_on_front === 'page' && site.info.page_on_front ? await store.posts.get(site.info.page_for_posts) : undefined;
      return postsPage ? postTarget(store, site, postsPage, 1) : { kind: 'home', url: `${site.home}/`, paged: 1 };
    }
  }
}
