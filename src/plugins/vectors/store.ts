import type { Ctx } from '../../core/context.ts';
import { contentChanged } from '../../core/events.ts';

/** A published post of one of the plugin's types holding an SVG (or its JSON tree); its id. */
export async function storeSvgPost(ctx: Ctx, type: string, title: string, content: string, mimeType: string): Promise<number> {
  const id = await ctx.store.posts.insert({
    type,
    status: 'publish',
    author: ctx.user!.id,
    title,
    content,
    mime_type: mimeType,
    comment_status: 'closed',
    ping_status: 'closed',
  });
  await contentChanged(ctx, { type: 'postSaved', postId: id, postType: type });
  return id;
}

/** The title a request gives, or Kadence's default: "SVG" and the date. */
export function titleOf(value: unknown, fallbackPrefix: string): string {
  const given = typeof value === 'string' ? value.trim() : '';
  return given || `${fallbackPrefix} ${new Date().toISOString().slice(0, 10)}`;
}
