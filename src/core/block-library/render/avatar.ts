import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { escapeAttr } from '../../../format/format.ts';
import { authorPermalink } from '../../permalinks.ts';
import { avatarImage } from './shared.ts';
import { safeCss, wrapperAttributes } from './wrapper.ts';
import { kebabCase } from '../supports/style-engine.ts';

/**
 * render_block_core_avatar: the avatar of a user (the block's `userId`, else the context post's
 * author), linked to their posts when asked, or in a comment's context the commenter's, linked to
 * their site. The border the block's style sets goes on the image, not the wrapper.
 */
export async function avatar(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const size = typeof a.size === 'number' ? a.size : 96;
  const border = (a.style as { border?: Record<string, unknown> } | undefined)?.border ?? {};
  const styles: string[] = [];
  if (border.width) styles.push(`border-width: ${escapeAttr(String(border.width))};`);
  if (border.radius) {
    if (typeof border.radius === 'object') {
      for (const [corner, value] of Object.entries(border.radius)) if (value !== null) styles.push(`border-${escapeAttr(kebabCase(corner))}-radius: ${escapeAttr(String(value))};`);
    } else styles.push(`border-radius: ${escapeAttr(String(border.radius))};`);
  }
  if (border.color) styles.push(`border-color: ${escapeAttr(String(border.color))};`);
  if (border.style) styles.push(`border-style: ${escapeAttr(String(border.style))};`);
  let imageClasses = '';
  if (border.color || a.borderColor !== undefined) imageClasses += 'has-border-color';
  if (a.borderColor !== undefined) imageClasses += ` has-${String(a.borderColor)}-border-color`;
  const style = ` style="${safeCss(styles.join(' '))}"`;
  const target = String(a.linkTarget ?? '');
  if (block.context.commentId === undefined) {
    const postId = block.context.postId;
    const post = typeof postId === 'number' ? await ctx.store.posts.get(postId) : undefined;
    const userId = typeof a.userId === 'number' ? a.userId : post?.author;
    const user = userId ? await ctx.store.users.get(userId) : undefined;
    const name = user?.display_name ?? '';
    let html = avatarImage(ctx, user?.email ?? '', size, `${name} Avatar`, `wp-block-avatar__image ${imageClasses} `, style);
    if (a.isLink && user) {
      const label = target === '_blank' ? `aria-label="${escapeAttr(`(${name} author archive, opens in a new tab)`)}"` : '';
      html = `<a href="${authorPermalink(ctx.site, user)}" target="${escapeAttr(target)}" ${label} class="wp-block-avatar__link">${html}</a>`;
    }
    return `<div ${wrapperAttributes(block)}>${html}</div>`;
  }
  const comment = await ctx.store.comments.get(Number(block.context.commentId));
  if (!comment) return '';
  const user = comment.author > 0 ? await ctx.store.users.get(comment.author) : undefined;
  let html = avatarImage(ctx, user?.email ?? comment.author_email, size, `${comment.author_name} Avatar`, `wp-block-avatar__image ${imageClasses}`, style);
  if (a.isLink && comment.author_url) {
    const label = target === '_blank' ? `aria-label="${escapeAttr(`(${comment.author_name} website link, opens in a new tab)`)}"` : '';
    html = `<a href="${escapeAttr(comment.author_url)}" target="${escapeAttr(target)}" ${label} class="wp-block-avatar__link">${html}</a>`;
  }
  return `<div ${wrapperAttributes(block)}>${html}</div>`;
}
