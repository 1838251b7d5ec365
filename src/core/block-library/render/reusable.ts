import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { embedContent } from '../../embeds.ts';

/**
 * The blocks that show content saved elsewhere: a reusable block (core/block, a `cms_block` post)
 * and a registered block pattern (core/pattern), each rendered in place by do_blocks.
 */

/**
 * render_block_core_block: the published, unprotected reusable block `ref` names, its embeds run
 * (WP_Embed's run_shortcode and autoembed) and its blocks rendered; nothing for a block that
 * would render itself again inside itself.
 */
export async function reusableBlock(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const ref = block.attributes.ref;
  // get_post( (int) ref ); empty() refuses 0
  const id = typeof ref === 'number' ? Math.trunc(ref) : 0;
  if (!ref || id <= 0) return '';
  const post = await ctx.store.posts.get(id);
  if (!post || post.type !== 'cms_block') return '';
  const shown = ctx.reusableShown ?? new Set<number>();
  if (shown.has(id)) return '';
  if (post.status !== 'publish' || post.password) return '';
  return ctx.site.blocks.render(await embedContent(post.content, ctx), { ...ctx, reusableShown: new Set([...shown, id]) });
}

/** render_block_core_pattern: the content of the registered pattern `slug` names, its blocks rendered; nothing for an unknown one. */
export async function pattern(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const slug = block.attributes.slug;
  if (typeof slug !== 'string' || !slug) return '';
  const found = ctx.site.blocks.patterns.find((p) => p.name === slug);
  return found ? ctx.site.blocks.render(found.content, ctx) : '';
}
