import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { commentsOpen, discussionOptions } from '../../comments.ts';
import { contextPost } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';

/**
 * render_block_core_comments for the legacy Post Comments block (core/post-comments): its wrapper
 * around comments_template's output, while the context post takes comments or has some.
 * comments_template prints nothing but on a single post's page (is_single, is_page), where 6.1
 * prints its comments.php's list and form, which this renderer does not: the wrapper is empty
 * here, as 6.1's is in a REST rendering.
 */
export async function postComments(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post) return '';
  if (!commentsOpen(post, await discussionOptions(ctx.store)) && post.comment_count === 0) return '';
  const a = block.attributes;
  const classes = [...(a.legacy !== undefined ? ['wp-block-post-comments'] : []), ...(a.textAlign !== undefined ? [`has-text-align-${String(a.textAlign)}`] : [])];
  return `<div ${wrapperAttributes(block, { class: classes.join(' ') })}></div>`;
}
