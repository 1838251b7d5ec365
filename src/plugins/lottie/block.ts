import type { BlockTypeDefinition } from '../../core/blocks.ts';
import { escapeAttr } from '../../format/format.ts';

/** The post type animations are stored as (Kadence's kadence_lottie): readable and deletable at cms/v2/designkit_lottie. */
export const LOTTIE_TYPE = 'designkit_lottie';

/**
 * Kadence Blocks' Lottie block, rendered on the server as its plugin does: a player element for
 * an animation given by URL, or for one stored here (`fileSrc: file`, the stored post in
 * `localFile`), which players load from `kb-lottieanimation/v1/animations/{id}.json`. A stored
 * animation that is gone or not published renders nothing.
 */
export const lottieBlock: BlockTypeDefinition = {
  name: 'kadence/lottie',
  title: 'Lottie Animation',
  description: 'Display Lottie animations on your site.',
  category: 'kadence-blocks',
  keywords: ['lottie', 'animation', 'kadence'],
  apiVersion: 2,
  textdomain: 'kadence-blocks',
  attributes: {
    uniqueID: { type: 'string', default: '' },
    fileSrc: { type: 'string', default: 'url' },
    fileUrl: { type: 'string', default: '' },
    localFile: { type: 'array', default: [] },
    showControls: { type: 'boolean', default: false },
    autoplay: { type: 'boolean', default: true },
    loop: { type: 'boolean', default: true },
    bouncePlayback: { type: 'boolean', default: false },
    playbackSpeed: { type: 'number', default: 1 },
  },
  supports: { html: false },
  async render({ attributes: a }, ctx) {
    let src = '';
    if (a.fileSrc === 'file') {
      const picked = Array.isArray(a.localFile) ? (a.localFile[0] as { value?: unknown } | undefined) : undefined;
      const id = Number(picked?.value);
      const post = Number.isSafeInteger(id) && id > 0 ? await ctx.store.posts.get(id) : undefined;
      if (!post || post.type !== LOTTIE_TYPE || post.status !== 'publish') return '';
      src = ctx.site.restUrl(`kb-lottieanimation/v1/animations/${id}.json`);
    } else if (typeof a.fileUrl === 'string' && /^https?:\/\//i.test(a.fileUrl)) src = a.fileUrl;
    if (!src) return '';
    const speed = typeof a.playbackSpeed === 'number' && a.playbackSpeed > 0 ? a.playbackSpeed : 1;
    const flags = [a.loop ? ' loop' : '', a.showControls ? ' controls' : '', a.autoplay ? ' autoplay' : '', a.bouncePlayback ? ' mode="bounce"' : ''].join('');
    const id = typeof a.uniqueID === 'string' ? a.uniqueID : '';
    return `<div class="kb-lottie-container kb-lottie-container${escapeAttr(id)}"><lottie-player src="${escapeAttr(src)}" background="transparent" speed="${speed}"${flags}></lottie-player></div>`;
  },
};
