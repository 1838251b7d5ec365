import type { Ctx } from '../../core/context.ts';
import { canEdit } from '../../core/post-access.ts';
import { denied, restRequestUri } from '../../core/rest.ts';
import { permalink } from '../../core/permalinks.ts';

/**
 * WP_REST_Block_Renderer_Controller (6.1): a dynamic block rendered with the attributes given,
 * through the renderer the site uses, optionally as on a post (`post_id`) the user may edit.
 */
export async function renderBlock(ctx: Ctx<'cms-v2:block-renderer.renderBlock'>) {
  const postId = typeof ctx.args.post_id === 'number' ? ctx.args.post_id : 0;
  const post = postId > 0 ? await ctx.store.posts.get(postId) : undefined;
  if (postId > 0) {
    const type = post && ctx.site.types.postType(post.type);
    if (!post || !type || !canEdit(ctx, type, post)) throw denied(ctx, 'block_cannot_read', { action: 'read blocks of this post' });
  } else if (!ctx.can('edit_posts')) throw denied(ctx, 'block_cannot_read', { action: 'read blocks as this user' });

  const registry = ctx.site.blocks;
  const name = String(ctx.args.name);
  const attributes = registry.checkAttributes(name, (ctx.args.attributes ?? {}) as Record<string, unknown>);
  if (!registry.get(name)?.render) throw ctx.fail('block_invalid');
  const page = post
    ? { kind: post.type === 'page' ? 'page' : 'post', postId: post.id, url: permalink(ctx.site, { id: post.id, type: post.type, slug: post.slug, status: post.status, date: post.date }) }
    : { kind: 'home', url: `${ctx.site.home}/` };
  return { rendered: await registry.renderBlock(name, attributes, { store: ctx.store, site: ctx.site, requestUri: restRequestUri(ctx), ...page }) };
}
