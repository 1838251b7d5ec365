import type { Ctx } from './context.ts';
import { cap, type PostTypeInfo } from './content-types.ts';
import type { PostHead } from '../store/posts.ts';

/**
 * Who may do what to a post: WordPress's map_meta_cap for read_post, edit_post and delete_post,
 * for the core's routes and any plugin that lists or edits posts.
 */

/** Whose capabilities are asked: a handler's context, or the site's viewer. */
export type Caller = Pick<Ctx, 'user' | 'can'>;

const isOwn = (ctx: Caller, post: PostHead) => ctx.user !== null && ctx.user.id === post.author;

/** map_meta_cap for edit_post and delete_post: the primitive capabilities the post's owner and status call for. */
export function may(action: 'edit' | 'delete', ctx: Caller, type: PostTypeInfo, post: PostHead): boolean {
  if (!ctx.user) return false;
  // map_meta_cap of WordPress 6.1: deleting a revision is do_not_allow
  if (action === 'delete' && post.type === 'revision') return false;
  const needs = [isOwn(ctx, post) ? `${action}_posts` : `${action}_others_posts`];
  if (post.status === 'publish' || post.status === 'future') needs.push(`${action}_published_posts`);
  if (post.status === 'private') needs.push(`${action}_private_posts`);
  return needs.every((c) => ctx.can(cap(type, c)));
}

export const canEdit = (ctx: Caller, type: PostTypeInfo, post: PostHead) => may('edit', ctx, type, post);

/** map_meta_cap for read_post. */
export function canRead(ctx: Ctx, type: PostTypeInfo, post: PostHead): boolean {
  // a type whose `read` is mapped to another capability (wp_block's edit_posts) is read by its holders only, even published
  const read = type.capabilities?.read;
  if (read && !ctx.can(read)) return false;
  if (post.status === 'publish') return true;
  if (post.status === 'private') return isOwn(ctx, post) || ctx.can(cap(type, 'read_private_posts'));
  return canEdit(ctx, type, post);
}

/** read_post for a post of any registered type; false for a type nobody registered. */
export function readablePost(ctx: Ctx, post: PostHead): boolean {
  const type = ctx.site.types.postType(post.type);
  return type !== undefined && canRead(ctx, type, post);
}
