import type { Ctx } from './context.ts';
import { cap } from './content-types.ts';

/**
 * Whether the user may use the block editor's registries (check_read_permission of the block
 * types, block patterns and pattern directory controllers): edit_posts, or the edit_posts
 * capability of any post type shown in REST.
 */
export function editsSomeType(ctx: Ctx): boolean {
  return ctx.can('edit_posts') || ctx.site.types.postTypes.some((t) => ctx.can(cap(t, 'edit_posts')));
}
