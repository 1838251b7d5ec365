import type { BlockTypeDefinition } from '../blocks.ts';
import { block, CONTENT, TYPOGRAPHY } from './block-definition.ts';

/**
 * The media blocks WordPress 6.1 registers as static (audio, video, embed, media & text), with
 * 6.1's block.json metadata and REST handles: their saved markup is their output (an embed block's
 * URL is embedded by the_content's autoembed, src/core/embeds.ts).
 */

export const MEDIA_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/audio', title: 'Audio', category: 'media',
    description: 'Embed a simple audio player.', keywords: ['music', 'sound', 'podcast', 'recording'],
    attributes: {
      src: { type: 'string', source: 'attribute', selector: 'audio', attribute: 'src', [CONTENT]: 'content' },
      caption: { type: 'string', source: 'html', selector: 'figcaption', [CONTENT]: 'content' },
      id: { type: 'number', [CONTENT]: 'content' },
      autoplay: { type: 'boolean', source: 'attribute', selector: 'audio', attribute: 'autoplay' },
      loop: { type: 'boolean', source: 'attribute', selector: 'audio', attribute: 'loop' },
      preload: { type: 'string', source: 'attribute', selector: 'audio', attribute: 'preload' },
    },
    supports: { anchor: true, align: true, spacing: { margin: true, padding: true } },
    editorStyleHandles: ['wp-block-audio-editor'], styleHandles: ['wp-block-audio'],
  }),
  block({
    name: 'core/video', title: 'Video', category: 'media',
    description: 'Embed a video from your media library or upload a new one.', keywords: ['movie'],
    attributes: {
      autoplay: { type: 'boolean', source: 'attribute', selector: 'video', attribute: 'autoplay' },
      caption: { type: 'string', source: 'html', selector: 'figcaption', [CONTENT]: 'content' },
      controls: { type: 'boolean', source: 'attribute', selector: 'video', attribute: 'controls', default: true },
      id: { type: 'number', [CONTENT]: 'content' },
      loop: { type: 'boolean', source: 'attribute', selector: 'video', attribute: 'loop' },
      muted: { type: 'boolean', source: 'attribute', selector: 'video', attribute: 'muted' },
      poster: { type: 'string', source: 'attribute', selector: 'video', attribute: 'poster' },
      preload: { type: 'string', source: 'attribute', selector: 'video', attribute: 'preload', default: 'metadata' },
      src: { type: 'string', source: 'attribute', selector: 'video', attribute: 'src', [CONTENT]: 'content' },
      playsInline: { type: 'boolean', source: 'attribute', selector: 'video', attribute: 'playsinline' },
      tracks: { [CONTENT]: 'content', type: 'array', items: { type: 'object' }, default: [] },
    },
    supports: { anchor: true, align: true, spacing: { margin: true, padding: true } },
    editorStyleHandles: ['wp-block-video-editor'], styleHandles: ['wp-block-video'],
  }),
  block({
    name: 'core/embed', title: 'Embed', category: 'embed',
    description: 'Add a block that displays content pulled from other sites, like Twitter or YouTube.',
    attributes: {
      url: { type: 'string' },
      caption: { type: 'string', source: 'html', selector: 'figcaption' },
      type: { type: 'string' },
      providerNameSlug: { type: 'string' },
      allowResponsive: { type: 'boolean', default: true },
      responsive: { type: 'boolean', default: false },
      previewable: { type: 'boolean', default: true },
    },
    supports: { align: true },
    editorStyleHandles: ['wp-block-embed-editor'], styleHandles: ['wp-block-embed'],
  }),
  block({
    name: 'core/media-text', title: 'Media & Text', category: 'media',
    description: 'Set media and words side-by-side for a richer layout.', keywords: ['image', 'video'],
    attributes: {
      align: { type: 'string', default: 'wide' },
      mediaAlt: { type: 'string', source: 'attribute', selector: 'figure img', attribute: 'alt', default: '', [CONTENT]: 'content' },
      mediaPosition: { type: 'string', default: 'left' },
      mediaId: { type: 'number', [CONTENT]: 'content' },
      mediaUrl: { type: 'string', source: 'attribute', selector: 'figure video,figure img', attribute: 'src', [CONTENT]: 'content' },
      mediaLink: { type: 'string' },
      linkDestination: { type: 'string' },
      linkTarget: { type: 'string', source: 'attribute', selector: 'figure a', attribute: 'target' },
      href: { type: 'string', source: 'attribute', selector: 'figure a', attribute: 'href', [CONTENT]: 'content' },
      rel: { type: 'string', source: 'attribute', selector: 'figure a', attribute: 'rel' },
      linkClass: { type: 'string', source: 'attribute', selector: 'figure a', attribute: 'class' },
      mediaType: { type: 'string', [CONTENT]: 'content' },
      mediaWidth: { type: 'number', default: 50 },
      mediaSizeSlug: { type: 'string' },
      isStackedOnMobile: { type: 'boolean', default: true },
      verticalAlignment: { type: 'string' },
      imageFill: { type: 'boolean' },
      focalPoint: { type: 'object' },
    },
    supports: { anchor: true, align: ['wide', 'full'], html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { margin: true, padding: true }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-media-text-editor'], styleHandles: ['wp-block-media-text'],
  }),
];
