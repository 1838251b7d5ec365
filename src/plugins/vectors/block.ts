import type { BlockTypeDefinition } from '../../core/blocks.ts';
import { escapeAttr } from '../../format/format.ts';

/**
 * The Vector block: a stored vector (a published post of `type`, its content the SVG as sanitised
 * when it was stored) printed inline in its container. A vector that is gone or not published
 * renders nothing.
 */
export const vectorBlock = (type: string): BlockTypeDefinition => ({
  name: 'kadence/vector',
  title: 'Vector',
  description: 'Display a stored SVG vector graphic.',
  category: 'kadence-blocks',
  keywords: ['svg', 'vector', 'kadence'],
  apiVersion: 2,
  textdomain: 'kadence-blocks',
  attributes: {
    uniqueID: { type: 'string', default: '' },
    id: { type: 'number' },
  },
  supports: { html: false, align: true },
  async render({ attributes: a }, ctx) {
    const id = typeof a.id === 'number' && Number.isSafeInteger(a.id) && a.id > 0 ? a.id : 0;
    const post = id ? await ctx.store.posts.get(id) : undefined;
    if (!post || post.type !== type || post.status !== 'publish') return '';
    const unique = typeof a.uniqueID === 'string' ? a.uniqueID : '';
    const align = typeof a.align === 'string' && a.align ? ` align${a.align}` : '';
    return `<div class="kb-vector-container kb-vector-container${escapeAttr(unique)}${escapeAttr(align)}">${post.content}</div>`;
  },
});
