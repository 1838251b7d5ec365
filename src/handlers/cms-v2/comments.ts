import { missingObject, RestError, RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { canEdit, canRead } from '../../core/post-access.ts';
import { avatarUrls, collection, contextOf, denied, nsUrl, pageOf, parseDateArg, pick, restDate, type Context } from '../../core/rest.ts';
import { answerFragments } from '../../core/answer-fragments.ts';
import { rawText } from '../../core/post-list.ts';
import {
  checkParent,
  commentsOpen,
  discussionOptions,
  filterComment,
  isOn,
  renderedComment,
  setCommentStatus,
  statusOf,
  submitComment,
  tooLong,
  type CommentData,
} from '../../core/comments.ts';
import { permalink } from '../../core/permalinks.ts';
import { commentNotices } from '../../core/notices.ts';
import type { Store } from '../../store/index.ts';
import type { CommentPatch, CommentQuery, CommentRow } from '../../store/comments.ts';
import type { PostRow } from '../../store/posts.ts';

/** Field order of each context, as WP_REST_Comments_Controller builds and filters them. */
const FIELDS: Record<Context, readonly string[]> = {
  view: ['id', 'post', 'parent', 'author', 'author_name', 'author_url', 'date', 'date_gmt', 'content', 'link', 'status', 'type', 'author_avatar_urls', 'meta'],
  edit: ['id', 'post', 'parent', 'author', 'author_name', 'author_email', 'author_url', 'author_ip', 'author_user_agent', 'date', 'date_gmt', 'content', 'link', 'status', 'type', 'author_avatar_urls', 'meta'],
  embed: ['id', 'parent', 'author', 'author_name', 'author_url', 'date', 'content', 'link', 'type', 'author_avatar_urls'],
};


/** get_comment as the controller guards it: a missing comment, or one whose post is gone, is a 404. */
async function commentOfRoute(ctx: Ctx, store: Store = ctx.store): Promise<{ comment: CommentRow; post: PostRow | undefined }> {
  const id = Number(ctx.args.id);
  const comment = id > 0 ? await store.comments.get(id) : undefined;
  if (!comment) throw missingObject(ctx.fail('rest_comment_invalid_id'));
  const post = comment.post ? await store.posts.get(comment.post) : undefined;
  if (comment.post && !post) throw ctx.fail('rest_post_invalid_id');
  return { comment, post };
}

// --- who may see and change what ---

const moderates = (ctx: Ctx) => ctx.can('moderate_comments');

/**
 * check_read_post_permission: a password-protected post's comments need the password (asked for
 * one post or one comment) or the right to edit it; otherwise whoever may read the post.
 */
function mayReadPost(ctx: Ctx, post: PostRow, single: boolean): boolean {
  const type = ctx.site.types.postType(post.type);
  if (!type) return false;
  const unlocked = single && (ctx.args.password === post.password || canEdit(ctx, type, post));
  if (post.password && !unlocked) return canEdit(ctx, type, post);
  return canRead(ctx, type, post);
}

/** map_meta_cap's edit_comment: editing the comment's post, or posts at all for a comment of none. */
function mayEditComment(ctx: Ctx, post: PostRow | undefined): boolean {
  if (!post) return ctx.can('edit_posts');
  const type = ctx.site.types.postType(post.type);
  return type !== undefined && canEdit(ctx, type, post);
}

/** check_read_permission: an approved comment on a readable post; otherwise its author, or whoever may edit it. */
function mayReadComment(ctx: Ctx, comment: CommentRow, post: PostRow | undefined, single: boolean): boolean {
  if (post && comment.approved === '1' && mayReadPost(ctx, post, single)) return true;
  if (!ctx.user) return false;
  if (!comment.post && !moderates(ctx)) return false;
  if (comment.author && comment.author === ctx.user.id) return true;
  return mayEditComment(ctx, post);
}

/** check_edit_permission. */
const mayChange = (ctx: Ctx, post: PostRow | undefined) => ctx.user !== null && (moderates(ctx) || mayEditComment(ctx, post));

// --- the comment object ---

/** rest_get_route_for_post: the REST resource of the post, by its type's rest base. */
function postRoute(ctx: Ctx, post: PostRow): string | undefined {
  const type = ctx.site.types.postType(post.type);
  return type ? nsUrl(ctx, `${type.restBase}/${post.id}`) : undefined;
}

/** get_comment_link: the post's permalink and the comment's anchor. */
async function commentLink(ctx: Ctx, comment: CommentRow, post: PostRow | undefined): Promise<string> {
  if (!post) return `#comment-${comment.id}`;
  const parentPath = post.type === 'page' && post.parent ? (await ctx.store.posts.ancestorSlugs(post)).join('/') : undefined;
  return `${permalink(ctx.site, { id: post.id, type: post.type, slug: post.slug, status: post.status, date: post.date, parentPath })}#comment-${comment.id}`;
}

interface Related {
  posts: Map<number, PostRow>;
  withChildren: Set<number>;
  avatars: boolean;
}

async function relatedOf(ctx: Ctx, comments: CommentRow[]): Promise<Related> {
  const postIds = [...new Set(comments.map((c) => c.post).filter(Boolean))];
  const [posts, withChildren, options] = await Promise.all([
    ctx.store.posts.getMany(postIds),
    ctx.store.comments.withChildren(comments.map((c) => c.id)),
    discussionOptions(ctx.store),
  ]);
  return { posts: new Map(posts.map((p) => [p.id, p])), withChildren, avatars: isOn(options.show_avatars) };
}

/** prepare_item_for_response: the comment in WordPress's shape for the context, with its links. */
async function prepareComment(ctx: Ctx, comment: CommentRow, context: Context, related: Related): Promise<Record<string, unknown>> {
  const post = related.posts.get(comment.post);
  const rendered = renderedComment(comment.content, ctx.site);
  const data: Record<string, unknown> = {
    id: comment.id,
    post: comment.post,
    parent: comment.parent,
    author: comment.author,
    author_name: comment.author_name,
    author_email: comment.author_email,
    author_url: comment.author_url,
    author_ip: comment.author_ip,
    author_user_agent: comment.author_user_agent,
    date: restDate(comment.date),
    date_gmt: restDate(comment.date_gmt),
    content: context === 'edit' ? { rendered, raw: comment.content } : { rendered },
    link: await commentLink(ctx, comment, post),
    status: statusOf(comment.approved),
    type: comment.type || 'comment',
    author_avatar_urls: avatarUrls(comment.author_email, ctx.site.home),
    // no comment meta is registered for REST: WordPress shows an empty list
    meta: [],
  };
  const fields = related.avatars ? FIELDS[context] : FIELDS[context].filter((f) => f !== 'author_avatar_urls');
  const out = pick(data, fields);
  out._links = commentLinks(ctx, comment, post, related);
  return out;
}

function commentLinks(ctx: Ctx, comment: CommentRow, post: PostRow | undefined, related: Related): Record<string, unknown> {
  const links: Record<string, unknown> = {
    self: [{ href: nsUrl(ctx, `comments/${comment.id}`) }],
    collection: [{ href: nsUrl(ctx, 'comments') }],
  };
  if (comment.author) links.author = [{ embeddable: true, href: nsUrl(ctx, `users/${comment.author}`) }];
  const route = post && postRoute(ctx, post);
  if (post && route) links.up = [{ embeddable: true, post_type: post.type, href: route }];
  if (comment.parent) links['in-reply-to'] = [{ embeddable: true, href: nsUrl(ctx, `comments/${comment.parent}`) }];
  if (related.withChildren.has(comment.id)) links.children = [{ embeddable: true, href: `${nsUrl(ctx, 'comments')}?parent=${comment.id}` }];
  return links;
}

async function prepareOne(ctx: Ctx, comment: CommentRow, context: Context): Promise<Record<string, unknown>> {
  return prepareComment(ctx, comment, context, await relatedOf(ctx, [comment]));
}

// --- reading ---

/** WP_Comment_Query's `status`: approve, hold, all (both), any (no limit), or a stored value (spam, trash...). */
function approvedOf(status: string): string[] | undefined {
  switch (status) {
    case 'approve':
      return ['1'];
    case 'hold':
      return ['0'];
    case 'all':
    case '':
      return ['0', '1'];
    case 'any':
      return undefined;
    default:
      return [status];
  }
}

/** WP_Comment_Query's `type`: all (no limit), pings (pingbacks and trackbacks), or one type. */
function typesOf(type: string): string[] | undefined {
  if (type === 'all' || type === '') return undefined;
  return type === 'pings' ? ['pingback', 'trackback'] : [type];
}

const nonEmpty = (v: unknown) => (Array.isArray(v) && v.length ? (v as number[]) : undefined);
const notEmpty = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));
const wallOf = (v: unknown) => (typeof v === 'string' ? parseDateArg(v).wall : undefined);
/** sanitize_key, as the status and type args are sanitised. */
const sanitizeKey = (v: unknown) => String(v ?? '').toLowerCase().replace(/[^a-z0-9_-]/g, '');

/** get_items_permissions_check: the posts asked about must be readable; edit context and the private filters need rights. */
export async function mayListComments(ctx: Ctx): Promise<void> {
  // `(array) $request['post']`: a create's single post id too, when the Allow header asks
  const postIds = ([] as unknown[]).concat(ctx.args.post ?? []).map(Number);
  const single = postIds.length === 1;
  for (const id of postIds) {
    const post = id ? await ctx.store.posts.get(id) : undefined;
    if (id && post && !mayReadPost(ctx, post, single)) throw denied(ctx, 'rest_cannot_read_post');
    if (id === 0 && !moderates(ctx)) throw denied(ctx, 'rest_cannot_read', { action: 'read comments without a post' });
  }
  if (contextOf(ctx) === 'edit' && !moderates(ctx)) throw denied(ctx, 'rest_forbidden_context', { action: 'edit comments' });
  if (ctx.can('edit_posts')) return;
  const a = ctx.args;
  const forbidden: string[] = [];
  // `! empty( $request[...] )`: a create's author id counts too, when the Allow header asks
  if (notEmpty(a.author)) forbidden.push('author');
  if (notEmpty(a.author_exclude)) forbidden.push('author_exclude');
  if (a.author_email) forbidden.push('author_email');
  if (sanitizeKey(a.type) !== 'comment') forbidden.push('type');
  if (sanitizeKey(a.status) !== 'approve') forbidden.push('status');
  if (forbidden.length) throw denied(ctx, 'rest_forbidden_param', { params: forbidden });
}

export async function listComments(ctx: Ctx<'cms-v2:comments.listComments'>) {
  const a = ctx.args;
  const page = pageOf(ctx, ctx.args.offset);
  const q: CommentQuery = {
    include: nonEmpty(a.include),
    exclude: nonEmpty(a.exclude),
    posts: nonEmpty(a.post),
    parents: nonEmpty(a.parent),
    parentsExclude: nonEmpty(a.parent_exclude),
    authors: nonEmpty(a.author),
    authorsExclude: nonEmpty(a.author_exclude),
    authorEmail: a.author_email || undefined,
    search: a.search || undefined,
    after: wallOf(a.after),
    before: wallOf(a.before),
    approved: approvedOf(sanitizeKey(a.status)),
    types: typesOf(sanitizeKey(a.type)),
    orderby: a.orderby,
    order: a.order === 'asc' ? 'asc' : 'desc',
    offset: page.offset,
    limit: page.perPage,
  };
  const { rows, total } = await ctx.store.comments.query(q);
  const related = await relatedOf(ctx, rows);
  // get_items leaves out what the caller may not read, without changing the totals; a password
  // unlocks a protected post's comments only when that one post is asked for
  const onePost = (a.post as number[]).length === 1;
  const readable = rows.filter((c) => mayReadComment(ctx, c, related.posts.get(c.post), onePost));
  const context = contextOf(ctx);
  const items = ctx.request.head ? [] : await answerFragments(ctx.site).list(ctx, readable, (c) => commentFragment(c, context), (c) => prepareComment(ctx, c, context, related));
  return collection(ctx, items, total, page);
}

/** What names a comment's object among an answer's fragments. */
const commentFragment = (comment: CommentRow, context: Context) => `comment ${comment.id} ${context}`;

/** get_item_permissions_check. */
export async function mayGetComment(ctx: Ctx): Promise<void> {
  const { comment, post } = await commentOfRoute(ctx);
  if (contextOf(ctx) === 'edit' && !moderates(ctx)) throw denied(ctx, 'rest_forbidden_context', { action: 'edit comments' });
  if (!mayReadComment(ctx, comment, post, true)) throw denied(ctx, 'rest_cannot_read', { action: 'read this comment' });
  if (post && !mayReadPost(ctx, post, true)) throw denied(ctx, 'rest_cannot_read_post');
}

export async function getComment(ctx: Ctx<'cms-v2:comments.getComment'>) {
  const { comment } = await commentOfRoute(ctx);
  const context = contextOf(ctx);
  return new RestResponse(await answerFragments(ctx.site).fragment(ctx, commentFragment(comment, context), () => prepareOne(ctx, comment, context)));
}

// --- writing ---

const notAllowedToEdit = (ctx: Ctx, code: string, param: string) => denied(ctx, code, { param });

/** prepare_item_for_database: the columns the request sets (the author's details from the user it names). */
async function fieldsOf(ctx: Ctx, store: Store): Promise<CommentPatch> {
  const a = ctx.args;
  const f: CommentPatch = {};
  const content = rawText(a.content);
  if (content !== undefined) f.content = content.trim();
  if (typeof a.post === 'number') f.post = a.post;
  if (typeof a.parent === 'number') f.parent = a.parent;
  if (typeof a.author === 'number') {
    const user = await store.users.get(a.author);
    if (!user) throw ctx.fail('rest_comment_author_invalid');
    Object.assign(f, { author: user.id, author_name: user.display_name, author_email: user.email, author_url: user.url });
  }
  if (typeof a.author_name === 'string') f.author_name = a.author_name;
  if (typeof a.author_email === 'string') f.author_email = a.author_email;
  if (typeof a.author_url === 'string') f.author_url = a.author_url;
  if (typeof a.author_ip === 'string' && moderates(ctx)) f.author_ip = a.author_ip;
  if (a.author_user_agent) f.author_user_agent = String(a.author_user_agent);
  if (a.date) {
    const d = parseDateArg(String(a.date));
    if (d.utc) f.date_gmt = d.wall;
    else f.date = d.wall;
  } else if (a.date_gmt) f.date_gmt = parseDateArg(String(a.date_gmt)).wall;
  return f;
}

const lengthError = (code: string) => new RestError(code, 'Comment field exceeds maximum length allowed.', 400);

/** create_item_permissions_check: who may comment, as whom and with what status, and on which post. */
export async function mayCreateComment(ctx: Ctx): Promise<void> {
  const a = ctx.args;
  const options = await discussionOptions(ctx.store);
  if (!ctx.user && (isOn(options.comment_registration) || !isOn(options.rest_allow_anonymous_comments)))
    throw ctx.fail('rest_comment_login_required');
  if (typeof a.author === 'number' && a.author !== (ctx.user?.id ?? 0) && !moderates(ctx)) throw notAllowedToEdit(ctx, 'rest_comment_invalid_author', 'author');
  if (typeof a.author_ip === 'string' && !moderates(ctx) && a.author_ip !== ctx.request.ip) throw notAllowedToEdit(ctx, 'rest_comment_invalid_author_ip', 'author_ip');
  if (a.status !== undefined && !moderates(ctx)) throw notAllowedToEdit(ctx, 'rest_comment_invalid_status', 'status');
  const withoutPost = () => new RestError('rest_comment_invalid_post_id', 'Sorry, you are not allowed to create this comment without a post.', 403);
  // `(int) $request['post']`, which makes any list 1 when the Allow header asks with a list's params
  const postId = Array.isArray(a.post) ? Number(a.post.length > 0) : Number(a.post ?? 0);
  if (!postId) throw withoutPost();
  const post = await ctx.store.posts.get(postId);
  if (!post) throw withoutPost();
  if (post.status === 'draft') throw ctx.fail('rest_comment_draft_post');
  if (post.status === 'trash') throw ctx.fail('rest_comment_trash_post');
  if (!mayReadPost(ctx, post, true)) throw denied(ctx, 'rest_cannot_read_post');
  if (!commentsOpen(post, options)) throw ctx.fail('rest_comment_closed');
}

export async function createComment(ctx: Ctx<'cms-v2:comments.createComment'>) {
  // mayCreateComment found it
  const post = (await ctx.store.posts.get(ctx.args.post!))!;
  if (ctx.args.id) throw ctx.fail('rest_comment_exists');
  const comment = await ctx.store.transaction(async (store) => {
    const f = await fieldsOf(ctx, store);
    if (!f.content) throw ctx.fail('rest_comment_content_invalid');
    const user = ctx.user ? await store.users.get(ctx.user.id) : undefined;
    // a logged-in caller who names no author comments as themselves
    if (user && !f.author && !f.author_name && !f.author_email && !f.author_url)
      Object.assign(f, { author: user.id, author_name: user.display_name, author_email: user.email, author_url: user.url });
    const options = await discussionOptions(store);
    if (isOn(options.require_name_email) && (!f.author_name || !f.author_email))
      throw ctx.fail('rest_comment_author_data_required');
    const long = tooLong(f);
    if (long) throw lengthError(long);
    await checkParent(store, post.id, f.parent ?? 0);
    const data: CommentData = {
      post: post.id,
      parent: f.parent ?? 0,
      author: f.author ?? 0,
      author_name: f.author_name ?? '',
      author_email: f.author_email ?? '',
      author_url: f.author_url ?? '',
      content: f.content,
      date: f.date,
      date_gmt: f.date_gmt,
    };
    const who = { user: ctx.user && { id: ctx.user.id, can: (c: string) => ctx.can(c) }, ip: f.author_ip ?? ctx.request.ip, userAgent: f.author_user_agent ?? ctx.request.headers['user-agent'] ?? '' };
    const created = await submitComment(store, who, post, data, ctx.site.home);
    if (typeof ctx.args.status === 'string') await setCommentStatus(store, created, ctx.args.status);
    return (await store.comments.get(created.id))!;
  });
  // wp_new_comment_via_rest_notify_postauthor, read through the site's own store: a batch's transaction may be over when it runs
  commentNotices({ store: ctx.site.store, site: ctx.site, log: ctx.log, comment, post, permalink: (await commentLink(ctx, comment, post)).replace(/#comment-\d+$/, '') }, 'rest');
  const data = await prepareOne(ctx, comment, moderates(ctx) ? 'edit' : 'view');
  return new RestResponse(data, 201, { Location: nsUrl(ctx, `comments/${comment.id}`) });
}

/** update_item_permissions_check. */
export async function mayUpdateComment(ctx: Ctx): Promise<void> {
  const { post } = await commentOfRoute(ctx);
  if (!mayChange(ctx, post)) throw denied(ctx, 'rest_cannot_edit', { action: 'edit this comment' });
}

/** delete_item_permissions_check. */
export async function mayDeleteComment(ctx: Ctx): Promise<void> {
  const { post } = await commentOfRoute(ctx);
  if (!mayChange(ctx, post)) throw denied(ctx, 'rest_cannot_delete', { action: 'delete this comment' });
}

export async function updateComment(ctx: Ctx<'cms-v2:comments.updateComment'>) {
  const updated = await ctx.store.transaction(async (store) => {
    const { comment } = await commentOfRoute(ctx, store);
    const f = await fieldsOf(ctx, store);
    if (f.post !== undefined && f.post !== 0 && !(await store.posts.get(f.post))) throw ctx.fail('rest_comment_invalid_post_id');
    if (Object.keys(f).length) {
      if (f.content !== undefined && f.content === '') throw ctx.fail('rest_comment_content_invalid');
      const long = tooLong(f);
      if (long) throw lengthError(long);
      if (f.parent !== undefined || f.post !== undefined) await checkParent(store, f.post ?? comment.post, f.parent ?? comment.parent);
      // wp_update_comment filters what it stores as wp_new_comment does
      await store.comments.update(comment.id, await filterComment(f, ctx.can('unfiltered_html'), ctx.site.home));
    }
    if (typeof ctx.args.status === 'string') await setCommentStatus(store, (await store.comments.get(comment.id))!, ctx.args.status);
    return (await store.comments.get(comment.id))!;
  });
  return prepareOne(ctx, updated, 'edit');
}

export async function deleteComment(ctx: Ctx<'cms-v2:comments.deleteComment'>) {
  const { comment } = await commentOfRoute(ctx);
  if (ctx.args.force === true) {
    const previous = await prepareOne(ctx, comment, 'edit');
    await ctx.store.comments.delete(comment.id);
    return { deleted: true, previous };
  }
  if (comment.approved === 'trash') throw ctx.fail('rest_already_trashed', { object: 'comment', done: 'trashed' });
  const trashed = await ctx.store.transaction(async (store) => {
    await setCommentStatus(store, comment, 'trash');
    return (await store.comments.get(comment.id))!;
  });
  return prepareOne(ctx, trashed, 'edit');
}
