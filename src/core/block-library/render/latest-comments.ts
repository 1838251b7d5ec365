import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { escapeAttr, stripTagMarkup, trimWords, wpautop } from '../../../format/format.ts';
import { formatLocalDate } from '../../../format/date.ts';
import { authorPermalink } from '../../permalinks.ts';
import { renderedTitle } from '../../rest.ts';
import { avatarImage, postPermalink } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';

/**
 * render_block_core_latest_comments: the newest approved comments on published posts, each with
 * its author (linked to their site, or a user's posts), the post it is on, and the avatar, date
 * and excerpt asked for: get_comments with status approve and post_status publish, so those on
 * posts behind a password too (their title `Protected: …`).
 */
export async function latestComments(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const comments = await ctx.store.comments.latestPublic(Math.max(0, Math.trunc(Number(a.commentsToShow)) || 0), { protectedPosts: true });
  const posts = new Map((await ctx.store.posts.getMany([...new Set(comments.map((c) => c.post))])).map((p) => [p.id, p]));
  const users = new Map((await ctx.store.users.getMany([...new Set(comments.map((c) => c.author).filter((id) => id > 0))])).map((u) => [u.id, u]));
  const dateFormat = ctx.site.options.date_format || 'F j, Y';
  let items = '';
  for (const c of comments) {
    const user = c.author > 0 ? users.get(c.author) : undefined;
    items += '<li class="wp-block-latest-comments__comment">';
    // get_avatar of a comment: its user's address, else the one the commenter gave
    // get_avatar: only a comment of the `comment` type has one (get_avatar_comment_types), not a pingback or trackback
    if (a.displayAvatar && c.type === 'comment') items += avatarImage(ctx, user?.email ?? c.author_email, 48, '', 'wp-block-latest-comments__comment-avatar');
    items += '<article><footer class="wp-block-latest-comments__comment-meta">';
    const authorUrl = c.author_url || (user ? authorPermalink(ctx.site, user) : '');
    // get_comment_author: the name given, else the user's display name, else Anonymous
    const author = c.author_name || user?.display_name || 'Anonymous';
    items += authorUrl ? `<a class="wp-block-latest-comments__comment-author" href="${escapeAttr(authorUrl)}">${author}</a>` : `<span class="wp-block-latest-comments__comment-author">${author}</span>`;
    const post = posts.get(c.post);
    const link = post ? `${await postPermalink(ctx, post)}#comment-${c.id}` : '';
    items += ` on <a class="wp-block-latest-comments__comment-link" href="${escapeAttr(link)}">${(post && renderedTitle(post)) || '(no title)'}</a>`;
    if (a.displayDate) items += `<time datetime="${escapeAttr(ctx.site.isoDate(c.date))}" class="wp-block-latest-comments__comment-date">${formatLocalDate(dateFormat, c.date)}</time>`;
    items += '</footer>';
    if (a.displayExcerpt) {
      // get_comment_excerpt: the text without tags, on one line, cut to 20 words
      const text = post?.password ? 'Password protected' : stripTagMarkup(c.content.replace(/[\n\r]/g, ' '));
      items += `<div class="wp-block-latest-comments__comment-excerpt">${wpautop(trimWords(text, 20, '&hellip;'))}</div>`;
    }
    items += '</article></li>';
  }
  const classes = [...(a.displayAvatar ? ['has-avatars'] : []), ...(a.displayDate ? ['has-dates'] : []), ...(a.displayExcerpt ? ['has-excerpts'] : []), ...(comments.length ? [] : ['no-comments'])];
  const attributes = wrapperAttributes(block, { class: classes.join(' ') });
  return comments.length ? `<ol ${attributes}>${items}</ol>` : `<div ${attributes}>No comments to show.</div>`;
}
