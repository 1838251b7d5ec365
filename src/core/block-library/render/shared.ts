import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import type { PostRow } from '../../../store/posts.ts';
import { escapeAttr, escapeHtml } from '../../../format/format.ts';
import { permalink } from '../../permalinks.ts';
import { BlockSupportsState } from '../supports/state.ts';

/** What the core's block renderers share: the wrapper's class, a post's link and title, an integer attribute. */

/**
 * The wrapper's class (get_block_wrapper_attributes): the block's own classes, then the supports'
 * in the order WordPress 6.1 registers them: its alignment, its custom class, its generated class name.
 */
export function wrapperClass(block: RenderedBlock, own = ''): string {
  const a = block.attributes;
  const classes = [own];
  if (typeof a.align === 'string' && a.align) classes.push(`align${a.align}`);
  if (typeof a.className === 'string' && a.className.trim()) classes.push(a.className.trim());
  classes.push(`wp-block-${block.name.replace(/^core\//, '').replace('/', '-')}`);
  return escapeAttr(classes.filter(Boolean).join(' '));
}

export const postLink = (ctx: BlockRenderContext, p: PostRow) => permalink(ctx.site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date });
export const titleOf = (p: PostRow) => escapeHtml(p.title.trim() || '(no title)');
export const int = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : fallback);

/** wp_unique_id: the prefix and the request's next number, shared with the block supports' ids (`wp-container-N`). */
export const uniqueId = (ctx: BlockRenderContext, prefix: string) => (ctx.supports ??= new BlockSupportsState()).uniqueId(prefix);
