import { randomBytes } from 'node:crypto';
import type { CmsEngine as Engine } from '../core/context.ts';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import { RestError } from '../engine/errors.ts';
import { hmac, purposeKey, sameSecret, siteSecret } from '../auth/secret.ts';
import { cookieValue } from '../auth/session.ts';
import { commentNotices } from '../core/notices.ts';
import { commentsOpen, discussionOptions, isOn, renderedComment, submitComment, tooLong, checkParent } from '../core/comments.ts';
import { avatarUrls } from '../core/rest.ts';
import type { CommentRow } from '../store/comments.ts';
import type { PostRow } from '../store/posts.ts';
import type { Site } from '../core/site.ts';
import { escapeAttr, escapeHtml, stripAllTags } from '../format/format.ts';
import type { FeedPost } from './feeds.ts';
import { formatLocalDate } from '../format/date.ts';
import { commentForm } from '../core/comment-form.ts';
import type { Commenter, CommentFormVisitor } from '../core/comment-visitor.ts';

/**
 * Comments on the site, as WordPress's comments template shows them: a post's approved comments
 * threaded (wp_list_comments), the visitor's own held comment with its moderation note, and the
 * comment form (comment_form) posting to COMMENT_POST_PATH, which takes it through the same
 * submission as `POST comments` (src/core/comments.ts). The form carries no nonce: a token bound
 * to a same-site cookie of the browser's own makes it CSRF-safe.
 */

/** Where the comment form posts, as WordPress's wp-comments-post.php. */
export const COMMENT_POST_PATH = '/wp-comments-post.php';

const NONCE_COOKIE = 'cms_comment_nonce';
/** The commenter's name, email and website, kept when they ask for it (WordPress's comment_author_* cookies, signed here). */
const COMMENTER_COOKIE = 'cms_commenter';
/** comment_cookie_lifetime's default, in seconds. */
const COMMENTER_COOKIE_TTL_S = 30_000_000;
/** A held comment shows to whoever has its moderation hash for this long after it was posted (as WordPress's preview). */
const PREVIEW_MS = 10 * 60_000;

const keys = new WeakMap<Engine, Promise<Buffer>>();

function keyOf(engine: Engine): Promise<Buffer> {
  let k = keys.get(engine);
  if (!k) {
    k = siteSecret(engine.store).then((s) => purposeKey(s, 'comment'));
    k.catch(() => keys.delete(engine));
    keys.set(engine, k);
  }
  return k;
}


/** The browser's signed nonce from its cookie, if it carries a valid one. */
function nonceOf(key: Buffer, req: PageRequest): string | undefined {
  const [nonce, mac] = (cookieValue(req.headers.cookie, NONCE_COOKIE) ?? '').split('.');
  return nonce && mac && sameSecret(mac, hmac(key, `nonce|${nonce}`)) ? nonce : undefined;
}

/** The form token for one post, bound to the browser's nonce. */
const formToken = (key: Buffer, nonce: string, postId: number) => hmac(key, `form|${postId}|${nonce}`);

/** wp_hash($comment->comment_date_gmt)'s role: proves the redirect after posting came from this site. */
const moderationHash = (key: Buffer, c: CommentRow) => hmac(key, `moderation|${c.id}|${c.date_gmt}`).slice(0, 32);

function commenterOf(key: Buffer, req: PageRequest): Commenter | undefined {
  const [body, mac] = (cookieValue(req.headers.cookie, COMMENTER_COOKIE) ?? '').split('.');
  if (!body || !mac || !sameSecret(mac, hmac(key, `commenter|${body}`))) return undefined;
  try {
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Commenter;
    return typeof c.name === 'string' && typeof c.email === 'string' && typeof c.url === 'string' ? c : undefined;
  } catch {
    return undefined;
  }
}

/** wp_set_comment_cookies: the commenter's details for a year or so, or, without their consent, none. */
function commenterCookie(engine: Engine, key: Buffer, c: Commenter | null): string {
  const secure = engine.site.home.startsWith('https:') ? '; Secure' : '';
  if (!c) return `${COMMENTER_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
  const body = Buffer.from(JSON.stringify(c)).toString('base64url');
  return `${COMMENTER_COOKIE}=${body}.${hmac(key, `commenter|${body}`)}; Path=/; Max-Age=${COMMENTER_COOKIE_TTL_S}; HttpOnly; SameSite=Lax${secure}`;
}

/** wp_get_unapproved_comment_author_email: the held comment the query's moderation hash shows, while it is fresh. */
async function previewedComment(engine: Engine, key: Buffer, postId: number, query: Record<string, unknown>): Promise<CommentRow | undefined> {
  const id = Number(query.unapproved);
  const hash = query['moderation-hash'];
  if (!Number.isSafeInteger(id) || typeof hash !== 'string') return undefined;
  const c = await engine.store.comments.get(id);
  if (!c || c.post !== postId || c.approved !== '0' || !sameSecret(hash, moderationHash(key, c))) return undefined;
  return Date.parse(`${c.date_gmt.replace(' ', 'T')}Z`) + PREVIEW_MS > Date.now() ? c : undefined;
}

interface ThreadContext {
  byParent: Map<number, CommentRow[]>;
  url: string;
  postId: number;
  maxDepth: number;
  dateFormat: string;
  timeFormat: string;
  avatars: boolean;
  /** The held comments' note: the short one for a commenter the browser remembers, the preview one otherwise. */
  heldNote: string;
  /** The site, whose options comment_text's filters read. */
  site: Site;
}

/** One comment of wp_list_comments (html5 style), its replies nested below it. */
function commentHtml(c: CommentRow, depth: number, t: ThreadContext): string {
  const replies = t.byParent.get(c.id) ?? [];
  const name = escapeHtml(c.author_name || 'Anonymous');
  const who = c.author_url ? `<a href="${escapeAttr(c.author_url)}" class="url" rel="ugc external nofollow">${name}</a>` : name;
  const avatar = t.avatars ? `<img alt="" src="${escapeAttr(avatarUrls(c.author_email, t.url)['48'].replace('s=48', 's=32'))}" class="avatar avatar-32 photo" height="32" width="32" loading="lazy" decoding="async"> ` : '';
  const when = `${formatLocalDate(t.dateFormat, c.date)} at ${formatLocalDate(t.timeFormat, c.date)}`;
  const held = c.approved === '0' ? `\n<em class="comment-awaiting-moderation">${t.heldNote}</em>` : '';
  const reply =
    c.approved === '1' && depth < t.maxDepth
      ? `\n<div class="reply"><a rel="nofollow" class="comment-reply-link" href="${escapeAttr(`${t.url}${t.url.includes('?') ? '&' : '?'}replytocom=${c.id}#respond`)}" data-commentid="${c.id}" data-postid="${t.postId}" aria-label="Reply to ${escapeAttr(c.author_name || 'Anonymous')}">Reply</a></div>`
      : '';
  // threads deeper than the setting allows go on at the deepest level, as Walker_Comment lays them out
  const nested = replies.map((r) => commentHtml(r, Math.min(depth + 1, t.maxDepth), t));
  const children = !replies.length ? '' : depth < t.maxDepth ? `\n<ol class="children">\n${nested.join('\n')}\n</ol>` : '';
  const after = replies.length && depth >= t.maxDepth ? `\n${nested.join('\n')}` : '';
  return `<li id="comment-${c.id}" class="comment${c.approved === '0' ? ' unapproved' : ''} depth-${depth}${replies.length ? ' parent' : ''}">
<article id="div-comment-${c.id}" class="comment-body">
<footer class="comment-meta">
<div class="comment-author vcard">${avatar}<b class="fn">${who}</b> <span class="says">says:</span></div>
<div class="comment-metadata"><a href="${escapeAttr(`${t.url}#comment-${c.id}`)}"><time datetime="${escapeAttr(`${c.date_gmt.replace(' ', 'T')}+00:00`)}">${escapeHtml(when)}</time></a></div>${held}
</footer>
<div class="comment-content">
${renderedComment(c.content, t.site)}</div>${reply}
</article>${children}
</li>${after}`;
}

/** The title above the thread (the default themes' "One thought on …"). */
function threadTitle(count: number, post: PostRow): string {
  const title = escapeHtml(post.title);
  return count === 1 ? `One thought on &ldquo;${title}&rdquo;` : `${count} thoughts on &ldquo;${title}&rdquo;`;
}

/** The visitor of one page, as its comment forms see them; the nonce cookie is made the first time a form needs a token. */
export interface PageVisitor extends CommentFormVisitor {
  /** The browser's nonce cookie, when it had none and a form was printed. */
  setCookie?: string;
}

function nonceCookie(engine: Engine, key: Buffer): { nonce: string; cookie: string } {
  const nonce = randomBytes(16).toString('base64url');
  const secure = engine.site.home.startsWith('https:') ? '; Secure' : '';
  return { nonce, cookie: `${NONCE_COOKIE}=${nonce}.${hmac(key, `nonce|${nonce}`)}; Path=/; HttpOnly; SameSite=Lax${secure}` };
}

/** The page's visitor, lent to the blocks through the page context (the Post Comments Form block) and used by the comments section. */
export async function pageVisitor(engine: Engine, req: PageRequest): Promise<PageVisitor> {
  const key = await keyOf(engine);
  let nonce = nonceOf(key, req);
  const visitor: PageVisitor = {
    commenter: commenterOf(key, req),
    formShown: false,
    formToken(postId) {
      if (!nonce) ({ nonce, cookie: visitor.setCookie } = nonceCookie(engine, key));
      return formToken(key, nonce, postId);
    },
  };
  return visitor;
}

/**
 * comments_template for a single post or page: its approved comments (and the visitor's own held
 * one) threaded, "Comments are closed." or the form, unless a Post Comments Form block in the
 * content printed it already (one form with those ids a page).
 */
export async function commentsSection(engine: Engine, req: PageRequest, post: PostRow, url: string, visitor: PageVisitor): Promise<string> {
  const { store, site } = engine;
  const o = await discussionOptions(store);
  const open = commentsOpen(post, o);
  const approved = await store.comments.ofPost(post.id, ['1']);
  if (!open && !approved.length) return '';
  const key = await keyOf(engine);
  // the visitor's own held comments: those of the email their browser remembers, or the one the moderation hash names
  const { commenter } = visitor;
  const own = commenter?.email ? (await store.comments.ofPost(post.id, ['0'])).filter((c) => c.author_email === commenter.email) : [];
  const preview = await previewedComment(engine, key, post.id, req.query);
  if (preview && !own.some((c) => c.id === preview.id)) own.push(preview);
  const shown = [...approved, ...own].sort((a, b) => a.date_gmt.localeCompare(b.date_gmt) || a.id - b.id);
  const threaded = isOn(o.thread_comments);
  const maxDepth = threaded ? Math.max(1, Number(o.thread_comments_depth) || 5) : 1;
  const ids = new Set(shown.map((c) => c.id));
  const byParent = new Map<number, CommentRow[]>();
  // a reply whose parent is not shown (held, spam) starts a thread of its own, as get_comments hands it to the walker
  for (const c of shown) {
    const parent = threaded && ids.has(c.parent) ? c.parent : 0;
    byParent.set(parent, [...(byParent.get(parent) ?? []), c]);
  }
  const t: ThreadContext = {
    byParent,
    url,
    postId: post.id,
    maxDepth,
    dateFormat: site.options.date_format || 'F j, Y',
    timeFormat: site.options.time_format || 'g:i a',
    avatars: isOn(o.show_avatars),
    heldNote: commenter?.email ? 'Your comment is awaiting moderation.' : 'Your comment is awaiting moderation. This is a preview; your comment will be visible after it has been approved.',
    site: engine.site,
  };
  const parts: string[] = [];
  if (shown.length) {
    parts.push(`<h2 class="comments-title">${threadTitle(approved.length, post)}</h2>`);
    parts.push(`<ol class="comment-list">\n${(byParent.get(0) ?? []).map((c) => commentHtml(c, 1, t)).join('\n')}\n</ol>`);
  }
  if (open && !visitor.formShown) {
    const replyId = Number(req.query.replytocom);
    const replyTo = threaded && Number.isSafeInteger(replyId) ? approved.find((c) => c.id === replyId) : undefined;
    parts.push(
      commentForm({
        postId: post.id,
        options: o,
        action: site.url(COMMENT_POST_PATH),
        loginUrl: `${site.url(`${site.adminPath}login`)}?${new URLSearchParams({ redirect_to: url }).toString()}`,
        requestUri: { path: req.path, query: req.query },
        replyTo: replyTo && { id: replyTo.id, author: replyTo.author_name || 'Anonymous' },
        commenter,
        token: visitor.formToken(post.id),
      }),
    );
    visitor.formShown = true;
  } else if (!open) {
    parts.push('<p class="no-comments">Comments are closed.</p>');
  }
  return `<div id="comments" class="comments-area">\n${parts.join('\n')}\n</div>`;
}

/** wp_die's page: the message, a way back, and the status WordPress answers with. */
function failure(status: number, message: string, extra: Record<string, string> = {}): PageResponse {
  const body = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex,follow"><title>Comment Submission Failure</title></head>
<body id="error-page">
<div class="wp-die-message"><p>${message}</p></div>
<p><a href="javascript:history.back()">&laquo; Back</a></p>
</body>
</html>
`;
  return { status, headers: { 'Content-Type': 'text/html; charset=UTF-8', 'Content-Length': String(Buffer.byteLength(body)), ...extra }, body };
}

const LENGTH_MESSAGES: Record<string, string> = {
  comment_author_column_length: '<strong>Error</strong>: Your name is too long.',
  comment_author_email_column_length: '<strong>Error</strong>: Your email address is too long.',
  comment_author_url_column_length: '<strong>Error</strong>: Your URL is too long.',
  comment_content_column_length: '<strong>Error</strong>: Your comment is too long.',
};

/** is_email's shape: something@domain.tld. */
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)+$/;

/** The site's own origin, which a browser posting the form names in Origin. */
const originOf = (home: string) => new URL(home).origin;

/**
 * wp-comments-post.php: the form's POST, checked as wp_handle_comment_submission checks it, then
 * submitted as `POST comments` submits; a held comment's author is sent back to the post with the
 * hash that shows it to them.
 */
export async function commentPost(engine: Engine, req: PageRequest, permalinkOf: (post: PostRow) => Promise<string>): Promise<PageResponse> {
  if (req.method !== 'POST') return failure(405, 'Comment submission requires POST.', { Allow: 'POST' });
  const { store } = engine;
  const key = await keyOf(engine);
  const form = new URLSearchParams(req.body.toString('utf8'));
  const field = (name: string) => (form.get(name) ?? '').trim();
  const postId = Number(field('comment_post_ID'));
  const post = Number.isSafeInteger(postId) && postId > 0 ? await store.posts.get(postId) : undefined;
  // only what the site shows can be commented on through it
  if (!post || post.status !== 'publish' || post.password || !['post', 'page'].includes(post.type)) return failure(404, 'Sorry, this item cannot be found.');
  const nonce = nonceOf(key, req);
  const origin = req.headers.origin;
  // a browser names the page's origin on a form's POST; another site's (or an opaque 'null') is refused with a missing token
  if (!nonce || !sameSecret(field('_token'), formToken(key, nonce, post.id)) || (origin !== undefined && origin !== originOf(engine.site.home)))
    return failure(403, 'The link you followed has expired. Please go back, reload the page and try again.');
  const o = await discussionOptions(store);
  if (!commentsOpen(post, o)) return failure(403, 'Sorry, comments are closed for this item.');
  if (isOn(o.comment_registration)) return failure(403, 'Sorry, you must be logged in to comment.');
  const data = {
    post: post.id,
    parent: Number(field('comment_parent')) || 0,
    author: 0,
    author_name: field('author'),
    author_email: field('email'),
    author_url: field('url'),
    content: field('comment'),
  };
  if (isOn(o.require_name_email)) {
    if (!data.author_name || !data.author_email) return failure(200, '<strong>Error</strong>: Please fill the required fields.');
    if (!EMAIL.test(data.author_email)) return failure(200, '<strong>Error</strong>: Please enter a valid email address.');
  }
  if (!data.content) return failure(200, '<strong>Error</strong>: Please type your comment text.');
  const long = tooLong(data);
  if (long) return failure(200, LENGTH_MESSAGES[long]);
  let comment: CommentRow;
  try {
    comment = await store.transaction(async (s) => {
      await checkParent(s, post.id, Number.isSafeInteger(data.parent) ? data.parent : -1);
      return submitComment(s, { user: null, ip: req.ip, userAgent: req.headers['user-agent'] ?? '' }, post, data, engine.site.home);
    });
  } catch (e) {
    if (!(e instanceof RestError)) throw e;
    // wp_die's statuses for wp_allow_comment's refusals: 409 for a duplicate, 429 for a flood
    return failure(e.code === 'comment_flood' ? 429 : e.status, e.message);
  }
  const url = await permalinkOf(post);
  commentNotices({ store, site: engine.site, log: engine.log, comment, post, permalink: url }, 'form');
  const consent = form.get('wp-comment-cookies-consent') === 'yes';
  // a held comment's author sees it through their cookie; without one, through the hash in the address
  const location =
    comment.approved === '0' && !consent && comment.author_email
      ? `${url}${url.includes('?') ? '&' : '?'}unapproved=${comment.id}&moderation-hash=${moderationHash(key, comment)}#comment-${comment.id}`
      : `${url}#comment-${comment.id}`;
  const cookie = commenterCookie(engine, key, consent ? { name: comment.author_name, email: comment.author_email, url: comment.author_url } : null);
  return { status: 302, headers: { Location: location, 'Set-Cookie': cookie, 'Content-Type': 'text/html; charset=UTF-8', 'Cache-Control': 'no-cache, no-store, private' }, body: '' };
}

/**
 * The comments feed's items (feed-rss2-comments.php): the newest approved comments on published
 * posts without a password, each titled "Comment on {post} by {author}"; or, for one post's own
 * feed, that post's, each titled "By: {author}". Linked and identified by its anchor on the post.
 */
export async function commentFeedItems(engine: Engine, permalinkOf: (post: PostRow) => Promise<string>, of?: PostRow): Promise<FeedPost[]> {
  const { store } = engine;
  const limit = Math.max(1, Number(await store.options.get('posts_per_rss')) || 10);
  let rows: CommentRow[];
  if (!of) rows = await store.comments.latestPublic(limit);
  else if (of.password) rows = [];
  else rows = (await store.comments.query({ posts: [of.id], approved: ['1'], orderby: 'date_gmt', order: 'desc', offset: 0, limit })).rows;
  const posts = new Map((await store.posts.getMany([...new Set(rows.map((c) => c.post))])).map((p) => [p.id, p]));
  const items: FeedPost[] = [];
  for (const c of rows) {
    const post = posts.get(c.post)!;
    const link = `${await permalinkOf(post)}#comment-${c.id}`;
    const html = renderedComment(c.content, engine.site);
    const at = new Date(`${c.date_gmt.replace(' ', 'T')}Z`);
    const author = c.author_name || 'Anonymous';
    items.push({
      shown: {
        id: c.id,
        type: 'comment',
        title: of ? `By: ${author}` : `Comment on ${post.title} by ${author}`,
        url: link,
        dateIso: at.toISOString(),
        dateText: '',
        author: { text: author, url: c.author_url },
        categories: [],
        tags: [],
        html,
        excerpt: stripAllTags(html),
      },
      guid: link,
      published: at,
      modified: at,
    });
  }
  return items;
}
