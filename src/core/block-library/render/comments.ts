import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import type { CommentRow } from '../../../store/comments.ts';
import { escapeAttr } from '../../../format/format.ts';
import { escUrl } from '../../../format/esc-url.ts';
import { formatLocalDate } from '../../../format/date.ts';
import { commentsOpen, discussionOptions, isOn, renderedComment } from '../../comments.ts';
import { renderedTitle } from '../../rest.ts';
import { contextPost, loginUrl, postPermalink } from './shared.ts';
import { BlockSupportsState } from '../supports/state.ts';
import { wrapperAttributes } from './wrapper.ts';
import { commentForm } from '../../comment-form.ts';

/**
 * The Comments block and the blocks inside it: the thread of the context post's approved comments
 * (comment-template renders its inner blocks once per comment, with `commentId` as their context,
 * replies nested as the threading options say), its title, and each comment's author, date,
 * content and reply link. A rendering knows no visitor (it is the same for everyone, as it is
 * kept), so no one's held comments show, as for a visitor who is not logged in; the edit link
 * (comment-edit-link, `comment-links.ts`) is for those who may edit the comment, so it renders
 * nothing. The legacy Post Comments block (`legacy`: the theme's comments.php) renders nothing here
 * (core/post-comments: `post-comments.ts`).
 * The Post Comments Form block prints comment_form (src/core/comment-form.ts), with the site page's
 * visitor (their token and details) when the page lends one.
 */

const commentOf = (block: RenderedBlock, ctx: BlockRenderContext): Promise<CommentRow | undefined> =>
  block.context.commentId === undefined ? Promise.resolve(undefined) : ctx.store.comments.get(Number(block.context.commentId));

/** get_comment_author: the name given, else the commenting user's display name, else Anonymous. */
async function authorOf(ctx: BlockRenderContext, c: CommentRow): Promise<string> {
  if (c.author_name) return c.author_name;
  const user = c.author > 0 ? await ctx.store.users.get(c.author) : undefined;
  return user?.display_name ?? 'Anonymous';
}

/**
 * render_block_core_comments: while the post takes comments or has some, the block's static
 * rendering (`$block->render( array( 'dynamic' => false ) )`): its inner blocks, skipped before the
 * callback (`skip_inner_blocks`), render there, and the supports' render filters run on it as well
 * as on what the callback returns.
 */
export async function comments(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post) return '';
  if (!commentsOpen(post, await discussionOptions(ctx.store)) && post.comment_count === 0) return '';
  if (block.attributes.legacy) return '';
  return block.renderStatic();
}

/** The approved comments of a post as WP_Comment_Query's threaded query gives them: oldest first, each with its replies. */
function threadOf(rows: readonly CommentRow[], threaded: boolean): { top: CommentRow[]; children: Map<number, CommentRow[]> } {
  const children = new Map<number, CommentRow[]>();
  if (!threaded) return { top: [...rows], children };
  for (const c of rows) {
    const list = children.get(c.parent);
    if (list) list.push(c);
    else children.set(c.parent, [c]);
  }
  return { top: children.get(0) ?? [], children };
}

/**
 * render_block_core_comment_template: the thread in an `<ol>`, each comment an `<li>` with
 * comment_class's classes (its type, its user's, even/odd, thread-even/odd at the top, its depth)
 * holding the template's blocks rendered for it, its replies in a nested `<ol>` down to the
 * threading depth and after it below that.
 */
export async function commentTemplate(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post || post.password) return '';
  const options = await discussionOptions(ctx.store);
  const order = (await ctx.store.options.get('comment_order')) ?? 'asc';
  const threaded = isOn(options.thread_comments);
  const maxDepth = Number.parseInt(options.thread_comments_depth, 10) || 0;
  const { top, children } = threadOf(await ctx.store.comments.ofPost(post.id, ['1']), threaded);
  if (!top.length) return '';
  const list = order === 'desc' ? [...top].reverse() : top;
  const users = new Map((await ctx.store.users.getMany([...new Set(flatten(list, children).map((c) => c.author).filter((id) => id > 0))])).map((u) => [u.id, u]));
  // comment_class's $comment_alt and $comment_thread_alt are globals: they run on through every thread of the request
  const state = (ctx.supports ??= new BlockSupportsState());
  let depth = 1;
  const classesOf = (c: CommentRow): string => {
    const classes = [c.type || 'comment'];
    const user = c.author > 0 ? users.get(c.author) : undefined;
    if (user) {
      classes.push('byuser', `comment-author-${/^[A-Za-z0-9_-]+$/.test(user.nicename) ? user.nicename : String(user.id)}`);
      if (user.id === post.author) classes.push('bypostauthor');
    }
    classes.push(...((state.staticCounter('comment_alt') - 1) % 2 ? ['odd', 'alt'] : ['even']));
    if (depth === 1) classes.push(...((state.staticCounter('comment_thread_alt') - 1) % 2 ? ['thread-odd', 'thread-alt'] : ['thread-even']));
    classes.push(`depth-${depth}`);
    return `class="${escapeAttr(classes.join(' '))}"`;
  };
  const render = async (level: readonly CommentRow[]): Promise<string> => {
    let html = '';
    for (const c of level) {
      let content = await block.renderInner({ commentId: c.id });
      const replies = threaded ? (children.get(c.id) ?? []) : [];
      const classes = classesOf(c);
      if (replies.length) {
        if (depth < maxDepth) {
          depth++;
          content += `<ol>${await render(replies)}</ol>`;
          depth--;
        } else content += await render(replies);
      }
      html += `<li id="comment-${c.id}" ${classes}>${content}</li>`;
    }
    return html;
  };
  return `<ol ${wrapperAttributes(block)}>${await render(list)}</ol>`;
}

/** The thread's comments, each before its replies. */
function flatten(list: readonly CommentRow[], children: Map<number, CommentRow[]>): CommentRow[] {
  const out: CommentRow[] = [];
  const walk = (level: readonly CommentRow[]) => {
    for (const c of level) {
      out.push(c);
      walk(children.get(c.id) ?? []);
    }
  };
  walk(list);
  return out;
}

/** render_block_core_comments_title: "N responses to “title”" and its variants, as the block's attributes ask; none without comments. */
export async function commentsTitle(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post || post.password) return '';
  const a = block.attributes;
  const count = post.comment_count;
  if (count === 0) return '';
  const showTitle = Boolean(a.showPostTitle);
  const showCount = Boolean(a.showCommentsCount);
  const title = `&#8220;${renderedTitle(post)}&#8221;`;
  const one = count === 1;
  const number = count.toLocaleString('en-US');
  let text: string;
  if (showCount) {
    if (showTitle) text = one ? `One response to ${title}` : `${number} responses to ${title}`;
    else text = one ? 'One response' : `${number} responses`;
  } else if (showTitle) text = one ? `Response to ${title}` : `Responses to ${title}`;
  else text = one ? 'Response' : 'Responses';
  const tag = a.level !== undefined ? `h${String(a.level)}` : 'h2';
  return `<${tag} id="comments" ${wrapperAttributes(block, { class: a.textAlign ? `has-text-align-${String(a.textAlign)}` : '' })}>${text}</${tag}>`;
}

/** get_comment_author_url: the address the commenter gave (a bare `http://` is none), as esc_url keeps it. */
const authorUrlOf = (c: CommentRow) => (c.author_url === 'http://' ? '' : c.author_url);

const alignClass = (a: Record<string, unknown>) => (a.textAlign !== undefined ? `has-text-align-${String(a.textAlign)}` : '');

/** render_block_core_comment_author_name: the commenter's name, linked to their site when asked. */
export async function commentAuthorName(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const c = await commentOf(block, ctx);
  if (!c) return '';
  const a = block.attributes;
  let name = await authorOf(ctx, c);
  const url = authorUrlOf(c);
  if (url && a.isLink && a.linkTarget) name = `<a rel="external nofollow ugc" href="${escapeAttr(url)}" target="${escapeAttr(String(a.linkTarget))}" >${name}</a>`;
  return `<div ${wrapperAttributes(block, { class: alignClass(a) })}>${name}</div>`;
}

/** render_block_core_comment_content: the comment's text through comment_text's filters. */
export async function commentContent(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const c = await commentOf(block, ctx);
  if (!c?.content) return '';
  return `<div ${wrapperAttributes(block, { class: alignClass(block.attributes) })}>${renderedComment(c.content, ctx.site)}</div>`;
}

/** get_comment_link with comments on one page: the post's address and the comment's anchor. */
async function commentLink(ctx: BlockRenderContext, c: CommentRow): Promise<string> {
  const post = await ctx.store.posts.get(c.post);
  return post ? `${await postPermalink(ctx, post)}#comment-${c.id}` : '';
}

/** render_block_core_comment_date: the comment's date in the format asked or the site's, linked to the comment when asked. */
export async function commentDate(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const c = await commentOf(block, ctx);
  if (!c) return '';
  const a = block.attributes;
  let formatted = formatLocalDate(typeof a.format === 'string' && a.format ? a.format : ctx.site.options.date_format || 'F j, Y', c.date);
  if (a.isLink) formatted = `<a href="${escapeAttr(await commentLink(ctx, c))}">${formatted}</a>`;
  return `<div ${wrapperAttributes(block)}><time datetime="${escapeAttr(ctx.site.isoDate(c.date))}">${formatted}</time></div>`;
}

/**
 * render_block_core_comment_reply_link: get_comment_reply_link while threading allows a reply at
 * the comment's depth and the post takes comments (a login link when commenting needs an account).
 */
export async function commentReplyLink(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const c = await commentOf(block, ctx);
  if (!c) return '';
  const options = await discussionOptions(ctx.store);
  if (!isOn(options.thread_comments)) return '';
  let depth = 1;
  const seen = new Set([c.id]);
  for (let parent = c.parent; parent && !seen.has(parent); depth++) {
    seen.add(parent);
    parent = (await ctx.store.comments.get(parent))?.parent ?? 0;
  }
  const maxDepth = Number.parseInt(options.thread_comments_depth, 10) || 0;
  if (maxDepth <= depth) return '';
  const post = await ctx.store.posts.get(c.post);
  if (!post || !commentsOpen(post, options)) return '';
  const permalink = await postPermalink(ctx, post);
  let link: string;
  if (isOn(options.comment_registration)) {
    link = `<a rel="nofollow" class="comment-reply-login" href="${escUrl(loginUrl(ctx, permalink))}">Log in to Reply</a>`;
  } else {
    const replyTo = `Reply to ${await authorOf(ctx, c)}`;
    const url = new URL(permalink);
    url.searchParams.set('replytocom', String(c.id));
    const data = `data-commentid="${c.id}" data-postid="${post.id}" data-belowelement="comment-${c.id}" data-respondelement="respond" data-replyto="${escapeAttr(replyTo)}"`;
    link = `<a rel='nofollow' class='comment-reply-link' href='${escUrl(url.href)}#respond' ${data} aria-label='${escapeAttr(replyTo)}'>Reply</a>`;
  }
  return `<div ${wrapperAttributes(block, { class: alignClass(block.attributes) })}>${link}</div>`;
}

/**
 * render_block_core_comments_pagination: its links in a wrapper, nothing when it has none. The
 * links (comments-pagination-previous, -next, -numbers, `comment-links.ts`) render nothing: a
 * post's comments are on one page here.
 */
export function commentsPagination(block: RenderedBlock): string {
  return block.content.trim() ? `<div ${wrapperAttributes(block)}>${block.content}</div>` : '';
}

/**
 * render_block_core_post_comments_form: comment_form for the context post, its `comment-respond`
 * container given the block's wrapper attributes and, the theme being a block theme, the button
 * block's classes on its submit button; nothing for a password-protected post or one closed to comments.
 */
export async function postCommentsForm(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post || post.password) return '';
  const options = await discussionOptions(ctx.store);
  if (!commentsOpen(post, options)) return '';
  const visitor = ctx.commentVisitor;
  const replyId = Number(ctx.queryArgs?.replytocom);
  const replied = isOn(options.thread_comments) && Number.isSafeInteger(replyId) && replyId > 0 ? await ctx.store.comments.get(replyId) : undefined;
  const replyTo = replied && replied.post === post.id && replied.approved === '1' ? { id: replied.id, author: await authorOf(ctx, replied) } : undefined;
  const permalink = await postPermalink(ctx, post);
  const form = commentForm({
    postId: post.id,
    options,
    action: ctx.site.url('/wp-comments-post.php'),
    loginUrl: `${ctx.site.url(`${ctx.site.adminPath}login`)}?${new URLSearchParams({ redirect_to: permalink }).toString()}`,
    requestUri: ctx.requestUri ?? { path: new URL(ctx.url).pathname, query: {} },
    replyTo,
    commenter: visitor?.commenter,
    buttonBlock: true,
    token: visitor?.formToken(post.id),
  });
  if (visitor) visitor.formShown = true;
  const classes = `comment-respond${block.attributes.textAlign ? ` has-text-align-${String(block.attributes.textAlign)}` : ''}`;
  return form.replace('class="comment-respond"', wrapperAttributes(block, { class: classes }));
}
