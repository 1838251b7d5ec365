import { missingObject, RestError, RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { permalink } from '../../core/permalinks.ts';
import type { Store } from '../../store/index.ts';
import type { NewPost, PostHead, PostQuery, PostRow } from '../../store/posts.ts';
import type { TermRow } from '../../store/terms.ts';
import { sanitizeSlug } from '../../store/transact.ts';
import { cap, type PostTypeInfo } from '../../core/content-types.ts';
import { canEdit, canRead, may } from '../../core/post-access.ts';
import { contentChanged } from '../../core/events.ts';
import { shownMetaOfPosts, writeRequestMeta } from '../../core/post-meta.ts';
import { renderedExcerpt, theContent } from '../../core/hooks.ts';
import { requestSupports } from '../../core/block-library/supports/state.ts';
import { collection, contextOf, CURIES, denied, nsUrl, pageOf, pick, renderedTitle, restDate, restRequestUri, routePostType, type Context } from '../../core/rest.ts';
import { authorFilters, listQueryOf, menuOrderFilter, parentFilters, POST_TAXONOMY_ARGS, queryPostHeads, statusesFor, stickyFilter, taxQueryOf, typeFilters } from '../../core/post-list.ts';
import { postFieldsOf } from '../../core/post-fields.ts';
import { saveRevision, versionLinks } from '../../core/revisions.ts';
import { availableActions } from '../../core/post-links.ts';
import { addRestFields, prepareRestFields } from '../../core/rest-fields.ts';
import { answerFragments } from '../../core/answer-fragments.ts';

/** Field order of each context, as WP_REST_Posts_Controller's schema gives them. */
const POST_FIELDS: Record<Context, readonly string[]> = {
  view: ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'content', 'excerpt', 'author', 'featured_media', 'comment_status', 'ping_status', 'sticky', 'template', 'format', 'meta', 'categories', 'tags'],
  edit: ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'password', 'slug', 'status', 'type', 'link', 'title', 'content', 'excerpt', 'author', 'featured_media', 'comment_status', 'ping_status', 'sticky', 'template', 'format', 'meta', 'categories', 'tags', 'permalink_template', 'generated_slug'],
  embed: ['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media'],
};
const PAGE_FIELDS: Record<Context, readonly string[]> = {
  view: ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'content', 'excerpt', 'author', 'featured_media', 'parent', 'menu_order', 'comment_status', 'ping_status', 'template', 'meta'],
  edit: ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'password', 'slug', 'status', 'type', 'link', 'title', 'content', 'excerpt', 'author', 'featured_media', 'parent', 'menu_order', 'comment_status', 'ping_status', 'template', 'meta', 'permalink_template', 'generated_slug'],
  embed: ['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', 'parent'],
};

/**
 * The fields of any other type, in the schema's order, as WordPress derives them from what the type
 * supports: the content fields of its supports (`meta` with custom-fields), `parent` when hierarchical, its taxonomies'
 * term lists, and the editor's permalink fields only for a viewable type.
 */
function typeFields(type: PostTypeInfo, context: Context): readonly string[] {
  const s = new Set(type.supports);
  const fields = ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'password', 'slug', 'status', 'type', 'link'];
  if (s.has('title')) fields.push('title');
  if (s.has('editor')) fields.push('content');
  if (s.has('excerpt')) fields.push('excerpt');
  if (s.has('author')) fields.push('author');
  if (s.has('thumbnail')) fields.push('featured_media');
  if (type.hierarchical) fields.push('parent');
  if (s.has('page-attributes')) fields.push('menu_order');
  if (s.has('comments')) fields.push('comment_status', 'ping_status');
  fields.push('template');
  if (s.has('post-formats')) fields.push('format');
  if (s.has('custom-fields')) fields.push('meta');
  if (type.taxonomies.includes('category')) fields.push('categories');
  if (type.taxonomies.includes('post_tag')) fields.push('tags');
  if (context === 'edit' && type.viewable) fields.push('permalink_template', 'generated_slug');
  if (context === 'view') return fields.filter((f) => f !== 'password');
  if (context === 'embed') return fields.filter((f) => ['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', 'parent'].includes(f));
  return fields;
}

const derivedFields = new WeakMap<PostTypeInfo, Record<Context, readonly string[]>>();

function fieldsOfType(type: PostTypeInfo, context: Context): readonly string[] {
  if (type.slug === 'page') return PAGE_FIELDS[context];
  if (type.slug === 'post') return POST_FIELDS[context];
  let fields = derivedFields.get(type);
  if (!fields) derivedFields.set(type, (fields = { view: typeFields(type, 'view'), edit: typeFields(type, 'edit'), embed: typeFields(type, 'embed') }));
  return fields[context];
}

const THUMBNAIL_KEY = '_thumbnail_id';


/** The post the route's id names, of the route's type (ofRouteType); `lock` for a read that a write in the same transaction follows (PostsRepo.get). */
async function postOfRoute(ctx: Ctx, type: PostTypeInfo, store: Store = ctx.store, lock = false): Promise<PostRow> {
  // what runs after a write (the Allow's checks) reads the post as the write left it
  if (store !== ctx.store || lock) routeHeads.delete(ctx.args);
  return ofRouteType(ctx, type, await store.posts.get(Number(ctx.args.id), lock));
}

/** `post` when it is of the route's type; else the 404 WordPress answers for any other type or a missing id. */
function ofRouteType<P extends PostHead>(ctx: Ctx, type: PostTypeInfo, post: P | undefined): P {
  if (!post || post.type !== type.slug) throw missingObject(ctx.fail('rest_post_invalid_id'));
  return post;
}

/**
 * The route's post without its text, read once per request by the request's args (the one object
 * its permission check, those of the route's other methods for its Allow, and its handler share):
 * what deciding who may read it needs; the handler reads the whole post only to make an answer not kept.
 */
const routeHeads = new WeakMap<object, { id: number; read: Promise<PostHead | undefined> }>();

async function headOfRoute(ctx: Ctx, type: PostTypeInfo): Promise<PostHead> {
  const id = Number(ctx.args.id);
  let kept = routeHeads.get(ctx.args);
  if (kept?.id !== id) routeHeads.set(ctx.args, (kept = { id, read: ctx.store.posts.head(id) }));
  return ofRouteType(ctx, type, await kept.read);
}

// --- the post object ---

interface Related {
  terms: Map<number, TermRow[]>;
  thumbnails: Map<number, number>;
  /** The registered meta of each post (empty when none is registered for the type). */
  meta: Map<number, Record<string, unknown>>;
  /** Each post's revision count and newest revision, for its version-history links. */
  revisions: Map<number, { count: number; latestId: number }>;
  /** The slugs of each post's ancestors joined by '/' (a page's path before its own slug), for posts that have any. */
  parentPaths: Map<number, string>;
}

/** `created`: the posts were created by this request, so they have no revision yet (WordPress 6.1 saves one at an update, not at a create). */
async function relatedOf(ctx: Ctx, store: Store, type: PostTypeInfo, posts: PostRow[], created = false): Promise<Related> {
  const ids = posts.map((p) => p.id);
  const [terms, { stored, meta }, revisions, ancestors] = await Promise.all([
    type.taxonomies.length ? store.terms.termsOfPosts(ids) : Promise.resolve(new Map<number, TermRow[]>()),
    shownMetaOfPosts(store, (t) => ctx.site.types.postMeta(t), posts, [THUMBNAIL_KEY]),
    created ? new Map<number, { count: number; latestId: number }>() : store.posts.revisionCounts(ids),
    store.posts.ancestorSlugsOfMany(posts),
  ]);
  const thumbnails = new Map<number, number>();
  for (const [id, m] of stored) if (m[THUMBNAIL_KEY]) thumbnails.set(id, Number(m[THUMBNAIL_KEY]) || 0);
  const parentPaths = new Map<number, string>();
  for (const [id, slugs] of ancestors) if (slugs.length) parentPaths.set(id, slugs.join('/'));
  return { terms, thumbnails, meta, revisions, parentPaths };
}

/** block_version: 1 for content written in blocks. */
const blockVersion = (content: string) => (content.includes('<!-- wp:') ? 1 : 0);

/** prepare_item_for_response: the post in WordPress's shape for the context, with its links. */
async function preparePost(ctx: Ctx, type: PostTypeInfo, post: PostRow, context: Context, related: Related): Promise<Record<string, unknown>> {
  const parentPath = related.parentPaths.get(post.id);
  const link = permalink(ctx.site, { id: post.id, type: post.type, slug: post.slug, status: post.status, date: post.date, parentPath });
  const fields = fieldsOfType(type, context);
  const edit = context === 'edit';
  // can_access_password_content: the right password, or the right to edit the post
  const locked = post.password !== '' && !(edit && canEdit(ctx, type, post)) && ctx.args.password !== post.password;
  const kind = type.slug === 'page' ? 'page' : 'post';
  // a reusable block's markup is never rendered on its own (WP_REST_Blocks_Controller)
  // one block-supports state per request: a list's containers are numbered on from post to post
  const page = { store: ctx.store, site: ctx.site, kind, postId: post.id, url: link, requestUri: restRequestUri(ctx), supports: requestSupports(ctx) };
  const contentHtml = locked || type.rawMarkup ? '' : await theContent(post.content, page, ctx.log);
  const excerptHtml = locked ? '' : await renderedExcerpt(post.excerpt, { raw: type.rawMarkup ? '' : post.content, rendered: contentHtml }, page, ctx.log);
  const terms = related.terms.get(post.id) ?? [];
  const data: Record<string, unknown> = {
    id: post.id,
    date: restDate(post.date),
    date_gmt: restDate(post.date_gmt),
    guid: edit ? { rendered: post.guid, raw: post.guid } : { rendered: post.guid },
    modified: restDate(post.modified),
    modified_gmt: restDate(post.modified_gmt),
    password: post.password,
    slug: post.slug,
    status: post.status,
    type: post.type,
    link,
    title: type.rawMarkup
      ? // raw in view and edit context alone: an embedded block's title keeps nothing, PHP's empty array
        context === 'embed' ? [] : { raw: post.title }
      : edit ? { raw: post.title, rendered: renderedTitle(post, { protectedPrefix: false }) } : { rendered: renderedTitle(post, { protectedPrefix: false }) },
    content: type.rawMarkup
      ? { raw: post.content, protected: post.password !== '', ...(edit ? { block_version: blockVersion(post.content) } : {}) }
      : edit ? { raw: post.content, rendered: contentHtml, protected: post.password !== '', block_version: blockVersion(post.content) } : { rendered: contentHtml, protected: post.password !== '' },
    excerpt: edit
      ? { raw: post.excerpt, rendered: excerptHtml, protected: post.password !== '' }
      : { rendered: excerptHtml, protected: post.password !== '' },
    author: post.author,
    featured_media: related.thumbnails.get(post.id) ?? 0,
    parent: post.parent,
    menu_order: post.menu_order,
    comment_status: post.comment_status,
    ping_status: post.ping_status,
    sticky: post.sticky === 1,
    template: post.template,
    format: post.format || 'standard',
    // the meta registered for the type (register_post_meta); WordPress shows an empty list when none is
    meta: related.meta.get(post.id) ?? [],
    categories: terms.filter((t) => t.taxonomy === 'category').map((t) => t.id),
    tags: terms.filter((t) => t.taxonomy === 'post_tag').map((t) => t.id),
    permalink_template: permalinkTemplate(ctx, post, parentPath),
    // get_sample_permalink: the slug the title would give, made unique for this post
    generated_slug: fields.includes('generated_slug') ? await ctx.store.posts.sampleSlug(sanitizeSlug(post.title), post) : undefined,
  };
  const out = pick(data, fields);
  // the plugins' fields follow the schema's (add_additional_fields_to_object)
  await addRestFields(ctx, { kind: 'post', post, type }, out);
  out._links = postLinks(ctx, type, post, related, context);
  return out;
}

/** Statuses whose post keeps a pretty sample permalink: viewable, private, or protected (draft, pending, future). */
const SAMPLE_PRETTY_STATUSES: ReadonlySet<string> = new Set(['publish', 'private', 'draft', 'pending', 'future']);

/**
 * get_sample_permalink: the post's URL with its name left as a placeholder for the editor, a page's
 * under its parents' path. A post of another status (a trashed one) has the plain link, as
 * wp_force_plain_post_permalink gives it; pages keep theirs (_get_page_link takes a sample as is).
 */
function permalinkTemplate(ctx: Ctx, post: PostRow, parentPath: string | undefined): string {
  const structure = ctx.site.options.permalink_structure ?? '';
  if (!structure || (post.type === 'post' && !SAMPLE_PRETTY_STATUSES.has(post.status)))
    return `${ctx.site.home}/?${post.type === 'page' ? 'page_id' : 'p'}=${post.id}`;
  if (post.type === 'page') {
    if (ctx.site.info.show_on_front === 'page' && ctx.site.info.page_on_front === post.id) return `${ctx.site.home}/`;
    return `${ctx.site.home}/${parentPath ? `${parentPath}/` : ''}%pagename%/`;
  }
  const [year, month, day] = post.date.slice(0, 10).split('-');
  return ctx.site.home + structure.replace('%year%', year).replace('%monthnum%', month).replace('%day%', day);
}

function postLinks(ctx: Ctx, type: PostTypeInfo, post: PostRow, related: Related, context: Context): Record<string, unknown> {
  const links: Record<string, unknown> = {
    self: [{ href: nsUrl(ctx, `${type.restBase}/${post.id}`) }],
    collection: [{ href: nsUrl(ctx, type.restBase) }],
    about: [{ href: nsUrl(ctx, `types/${type.slug}`) }],
  };
  // the author of types that have authors (a navigation menu has none)
  if (type.supports.includes('author') && post.author) links.author = [{ embeddable: true, href: nsUrl(ctx, `users/${post.author}`) }];
  // the post's comments, for types that take them (WordPress also gives every attachment the link)
  if (type.supports.includes('comments') || type.slug === 'attachment') links.replies = [{ embeddable: true, href: `${nsUrl(ctx, 'comments')}?post=${post.id}` }];
  Object.assign(links, versionLinks(ctx, type, post, related.revisions.get(post.id)));
  if (type.hierarchical && post.parent) links.up = [{ embeddable: true, href: nsUrl(ctx, `${type.restBase}/${post.parent}`) }];
  const media = related.thumbnails.get(post.id);
  if (media) links['wp:featuredmedia'] = [{ embeddable: true, href: nsUrl(ctx, `media/${media}`) }];
  // the media attached to it (menu items and attachments have none)
  if (type.slug !== 'attachment' && type.slug !== 'nav_menu_item') links['wp:attachment'] = [{ href: `${nsUrl(ctx, 'media')}?parent=${post.id}` }];
  if (type.taxonomies.length) {
    links['wp:term'] = type.taxonomies.map((slug) => ({ taxonomy: slug, embeddable: true, href: nsUrl(ctx, `${ctx.site.types.taxonomy(slug)?.restBase ?? slug}?post=${post.id}`) }));
  }
  for (const rel of availableActions(ctx, type, context)) links[rel] = [{ href: (links.self as { href: string }[])[0].href }];
  links.curies = CURIES;
  return links;
}

async function prepareOne(ctx: Ctx, type: PostTypeInfo, post: PostRow, context: Context, created = false): Promise<Record<string, unknown>> {
  return preparePost(ctx, type, post, context, await relatedOf(ctx, ctx.store, type, [post], created));
}

// --- reading ---

export async function listPosts(ctx: Ctx<'cms-v2:posts.listPosts'>) {
  const type = routePostType(ctx);
  // the status arg is sanitized (and may be refused) before the permission check, as WordPress does
  const statuses = statusesFor(ctx, type, ['publish']);
  const context = contextOf(ctx);
  if (context === 'edit' && !ctx.can(cap(type, 'edit_posts')))
    throw denied(ctx, 'rest_forbidden_context', { action: 'edit posts in this post type' });
  const page = pageOf(ctx, ctx.args.offset);
  const filters = { ...typeFilters(ctx), ...authorFilters(ctx), ...parentFilters(ctx), ...menuOrderFilter(ctx), ...stickyFilter(ctx), ...(await taxQueryOf(ctx, POST_TAXONOMY_ARGS)) };
  // the posts' heads: a post kept as a fragment is never read whole
  const { rows, total } = await queryPostHeads(ctx, listQueryOf(ctx, type, statuses, page, filters));
  // WP_REST_Posts_Controller::get_items drops what the user may not read, without changing the totals
  const readable = rows.filter((r) => canRead(ctx, type, r));
  if (ctx.request.head) return collection(ctx, [], total, page, 'rest_post_invalid_page_number');
  // what the posts not kept as fragments need, read together for the page at the first of them
  let whole: Promise<{ posts: Map<number, PostRow>; related: Related }> | undefined;
  const wholeOfPage = () =>
    (whole ??= (async () => {
      const posts = await ctx.store.posts.getMany(readable.map((p) => p.id));
      prepareRestFields(ctx, posts.map((post) => ({ kind: 'post', post, type })));
      return { posts: new Map(posts.map((p) => [p.id, p])), related: await relatedOf(ctx, ctx.store, type, posts) };
    })());
  // a post deleted since its head was read is left out, as a post gone between the query's ids and its rows always was
  const gone = new Set<number>();
  const items = await answerFragments(ctx.site).list(ctx, readable, (post) => postFragment(type, post, context), async (head) => {
    const { posts, related } = await wholeOfPage();
    const post = posts.get(head.id);
    if (!post) {
      gone.add(head.id);
      return null;
    }
    return preparePost(ctx, type, post, context, related);
  });
  return collection(ctx, gone.size ? items.filter((_, i) => !gone.has(readable[i].id)) : items, total, page, 'rest_post_invalid_page_number');
}

/** What names a post's object among an answer's fragments. */
const postFragment = (type: PostTypeInfo, post: PostHead, context: Context) => `post ${type.slug} ${post.id} ${context}`;

/**
 * get_item_permissions_check: the post, then edit_post for the edit context, then the password
 * asked with (any but PHP's empty ones must be the post's, whoever asks: a post without a password
 * refuses every one), then read_post.
 */
export async function mayGetPost(ctx: Ctx): Promise<void> {
  const type = routePostType(ctx);
  const post = await headOfRoute(ctx, type);
  if (ctx.args.context === 'edit' && !canEdit(ctx, type, post)) throw denied(ctx, 'rest_forbidden_context', { action: 'edit this post' });
  const password = ctx.args.password;
  if (typeof password === 'string' && password !== '' && password !== '0' && password !== post.password) throw ctx.fail('rest_post_incorrect_password');
  if (!canRead(ctx, type, post)) throw denied(ctx, 'rest_forbidden');
}

export async function getPost(ctx: Ctx<'cms-v2:posts.getPost'>) {
  const type = routePostType(ctx);
  const head = await headOfRoute(ctx, type);
  const context = contextOf(ctx);
  const data = await answerFragments(ctx.site).fragment(ctx, postFragment(type, head, context), async () => prepareOne(ctx, type, await postOfRoute(ctx, type), context));
  // only a viewable type's post links its page (is_post_type_viewable); a navigation keeps the API root's Link
  return new RestResponse(data, 200, type.viewable ? { Link: `<${(data.data as { link: string }).link}>; rel="alternate"; type=text/html` } : {});
}

// --- writing ---

/**
 * The term lists a request assigns (handle_terms' wp_set_object_terms): an id that names no term of
 * the taxonomy is skipped, not refused, as WordPress skips it, and the list set is what is left.
 */
async function termsOf(ctx: Ctx, type: PostTypeInfo, store: Store): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const [arg, taxonomy] of [['categories', 'category'], ['tags', 'post_tag']] as const) {
    if (!type.taxonomies.includes(taxonomy) || !Array.isArray(ctx.args[arg])) continue;
    const ids = [...new Set(ctx.args[arg] as number[])];
    const known = new Set((await store.terms.getMany(ids)).filter((t) => t.taxonomy === taxonomy).map((t) => t.id));
    out.set(taxonomy, ids.filter((id) => known.has(id)));
  }
  return out;
}

async function setFeaturedMedia(ctx: Ctx, store: Store, postId: number): Promise<void> {
  const media = ctx.args.featured_media;
  if (typeof media !== 'number') return;
  if (media === 0) return store.posts.meta.delete(postId, THUMBNAIL_KEY);
  const attachment = await store.posts.get(media);
  if (!attachment || attachment.type !== 'attachment') throw ctx.fail('rest_invalid_featured_media');
  await store.posts.meta.set(postId, THUMBNAIL_KEY, String(media));
}

/** wp_insert_post turns a published post dated in the future into a scheduled one, and back. */
async function settleSchedule(store: Store, post: PostRow): Promise<PostRow> {
  const { id } = post;
  const future = new Date(`${post.date_gmt.replace(' ', 'T')}Z`).getTime() > Date.now();
  const status = post.status === 'publish' && future ? 'future' : post.status === 'future' && !future ? 'publish' : post.status;
  if (status === post.status) return post;
  await store.posts.update(id, { status, modified: post.modified, modified_gmt: post.modified_gmt });
  return (await store.posts.get(id))!;
}

export async function createPost(ctx: Ctx<'cms-v2:posts.createPost'>) {
  const type = routePostType(ctx);
  if (ctx.args.id !== undefined) throw ctx.fail('rest_post_exists');
  const post = await ctx.store.transaction(async (store) => {
    const f = await postFieldsOf(ctx, type, store);
    if (!f.title && !f.content && !f.excerpt) throw ctx.fail('empty_content');
    const terms = await termsOf(ctx, type, store);
    // kept in memory as the site's other options are, current at every request (Site.refresh)
    const defaults = ctx.site.options;
    const values: NewPost = {
      type: type.slug,
      status: 'draft',
      author: ctx.user?.id ?? 0,
      // pages start with comments closed, as get_default_comment_status gives them
      comment_status: type.slug === 'post' ? (defaults.default_comment_status ?? 'open') : 'closed',
      ping_status: type.slug === 'post' ? (defaults.default_ping_status ?? 'open') : 'closed',
      ...(f as Partial<NewPost>),
    };
    // wp_insert_post's guid is the post's permalink when it is inserted
    const inserted = await store.posts.insertRow(
      values,
      async (row) => permalink(ctx.site, { ...row, parentPath: row.type === 'page' && row.parent ? (await store.posts.ancestorSlugs(row)).join('/') || undefined : undefined }),
      ctx.site.clock,
    );
    const { id } = inserted;
    // wp_set_post_categories: a post the request gives no categories sits in the default one (a list
    // given, even one left empty, replaces it, as handle_terms does after wp_insert_post); a default
    // that is no category is skipped as setPostTerms skips any id that is none
    const fallback = Number(defaults.default_category ?? 1);
    if (type.taxonomies.includes('category') && !terms.has('category') && Number.isSafeInteger(fallback)) terms.set('category', [fallback]);
    for (const [taxonomy, ids] of terms) await store.terms.setPostTerms(id, taxonomy, ids, { status: inserted.status });
    await setFeaturedMedia(ctx, store, id);
    await writeRequestMeta(ctx, type, store, id);
    // none of these writes touch the post's own row: the row inserted is the row stored
    return settleSchedule(store, inserted);
  });
  await contentChanged(ctx, { type: 'postSaved', postId: post.id, postType: post.type, previousStatus: 'new', status: post.status, content: post.content });
  const data = await prepareOne(ctx, type, post, 'edit', true);
  return new RestResponse(data, 201, { Location: nsUrl(ctx, `${type.restBase}/${post.id}`) });
}

export async function updatePost(ctx: Ctx<'cms-v2:posts.updatePost'>) {
  const type = routePostType(ctx);
  let previousStatus = '';
  const post = await ctx.store.transaction(async (store) => {
    const current = await postOfRoute(ctx, type, store, true);
    previousStatus = current.status;
    if (!canEdit(ctx, type, current)) throw denied(ctx, 'rest_cannot_edit', { action: 'edit this post' });
    const f = await postFieldsOf(ctx, type, store, current);
    const terms = await termsOf(ctx, type, store);
    if (Object.keys(f).length || ctx.args.featured_media !== undefined || terms.size) await store.posts.update(current.id, f);
    for (const [taxonomy, ids] of terms) await store.terms.setPostTerms(current.id, taxonomy, ids);
    // a post restored from the trash gets its comments back, as wp_untrash_post_comments
    if (current.status === 'trash' && f.status !== undefined && f.status !== 'trash') await store.comments.untrashOfPost(current.id);
    await setFeaturedMedia(ctx, store, current.id);
    await writeRequestMeta(ctx, type, store, current.id);
    const saved = await settleSchedule(store, (await store.posts.get(current.id))!);
    // every update (wp_update_post) may save a revision, after its terms and meta
    await saveRevision(store, type, saved, ctx.user?.id ?? 0);
    return saved;
  });
  await contentChanged(ctx, { type: 'postSaved', postId: post.id, postType: post.type, previousStatus, status: post.status, content: post.content });
  return prepareOne(ctx, type, post, 'edit');
}

/**
 * _reset_front_page_settings_for_post's options part, for a page trashed or deleted: the front page
 * goes back to the latest posts, and the posts page is none (unstick_post is PostsRepo.update's).
 */
async function releaseFrontPage(ctx: Ctx, post: PostRow): Promise<void> {
  if (post.type !== 'page') return;
  const { page_on_front, page_for_posts } = await ctx.store.options.getMany(['page_on_front', 'page_for_posts']);
  const front = Number(page_on_front) === post.id;
  const postsPage = Number(page_for_posts) === post.id;
  if (!front && !postsPage) return;
  await ctx.store.transaction(async (store) => {
    if (front) {
      await store.options.set('show_on_front', 'posts');
      await store.options.set('page_on_front', '0');
    }
    if (postsPage) await store.options.set('page_for_posts', '0');
  });
  await ctx.site.optionsChanged();
}

export async function deletePost(ctx: Ctx<'cms-v2:posts.deletePost'>) {
  const type = routePostType(ctx);
  const post = await postOfRoute(ctx, type);
  if (!may('delete', ctx, type, post)) throw denied(ctx, 'rest_cannot_delete', { action: 'delete this post' });
  const previous = await prepareOne(ctx, type, post, 'edit');
  if (ctx.args.force === true) {
    await ctx.store.posts.delete(post.id);
    routeHeads.delete(ctx.args);
    await releaseFrontPage(ctx, post);
    await contentChanged(ctx, { type: 'postDeleted', postId: post.id, postType: post.type });
    return { deleted: true, previous };
  }
  // wp_trash_post (its post part in PostsRepo.update), then wp_trash_post_comments; read again under
  // a lock, as a request deleting or trashing it meanwhile must not interleave with these writes
  const trashed = await ctx.store.transaction(async (store) => {
    const current = await postOfRoute(ctx, type, store, true);
    if (current.status === 'trash') throw ctx.fail('rest_already_trashed', { object: 'post', done: 'deleted' });
    await store.posts.update(current.id, { status: 'trash' });
    await store.comments.trashOfPost(current.id);
    return (await store.posts.get(current.id))!;
  });
  await releaseFrontPage(ctx, trashed);
  await contentChanged(ctx, { type: 'postSaved', postId: trashed.id, postType: trashed.type });
  return prepareOne(ctx, type, trashed, 'edit');
}
