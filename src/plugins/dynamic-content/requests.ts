import type { Ctx } from '../../core/context.ts';
import { sourcePost, metaKeyOf } from './content.ts';
import { fieldFor } from './fields.ts';

/** A `group|field` value split at its first bar (the post group when it has none); in repeater context the whole value is the field. */
export function splitField(value: string, repeaterContext: boolean): { group: string; field: string } {
  if (repeaterContext) return { group: 'repeater', field: value };
  const bar = value.indexOf('|');
  return bar >= 0 ? { group: value.slice(0, bar), field: value.slice(bar + 1) } : { group: 'post', field: value };
}

/** The rows of the repeater `field` (`acf_repeater|name`) names on the source post, as stored; null when it has none. */
export async function metaValueRows(ctx: Ctx): Promise<unknown[] | null> {
  const field = String(ctx.args.field);
  if (!field.includes('|')) return null;
  const post = await sourcePost(ctx, String(ctx.args.source ?? ''), String(ctx.args.current ?? ''));
  if (!post) return null;
  const name = metaKeyOf(field, '');
  if (fieldFor(ctx.site.spec, post.type, name)?.type !== 'repeater') return null;
  const stored = await ctx.store.posts.meta.get(post.id, name);
  try {
    const rows = stored === undefined ? null : (JSON.parse(stored) as unknown);
    return Array.isArray(rows) ? rows : null;
  } catch {
    return null;
  }
}
