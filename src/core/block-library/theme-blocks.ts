import type { BlockTypeDefinition } from '../blocks.ts';
import { block } from './block-definition.ts';
import { pattern, reusableBlock } from './render/reusable.ts';
import { siteLogo } from './render/site-logo.ts';
import { templatePart, templatePartVariations } from './render/template-part.ts';

/**
 * The blocks of WordPress 6.1 that show what the site keeps elsewhere: its logo, a template part
 * of the theme, a registered pattern and a reusable block (6.1's block.json of each, its REST
 * handles), rendered as their render_block_core_* callbacks by `render/site-logo.ts`,
 * `render/template-part.ts` and `render/reusable.ts`.
 */

export const THEME_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/site-logo', title: 'Site Logo', category: 'theme',
    description: 'Display a graphic to represent this site. Update the block, and the changes apply everywhere it’s used. This is different than the site icon, which is the smaller image visible in your dashboard, browser tabs, etc used to help others recognize this site.',
    attributes: { width: { type: 'number' }, isLink: { type: 'boolean', default: true }, linkTarget: { type: 'string', default: '_self' }, shouldSyncIcon: { type: 'boolean' } },
    supports: { html: false, align: true, alignWide: false, color: { __experimentalDuotone: 'img, .components-placeholder__illustration, .components-placeholder::before', text: false, background: false }, spacing: { margin: true, padding: true } },
    styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'rounded', label: 'Rounded' }],
    example: { viewportWidth: 500, attributes: { width: 350, className: 'block-editor-block-types-list__site-logo-example' } },
    editorStyleHandles: ['wp-block-site-logo-editor'], styleHandles: ['wp-block-site-logo'],
    render: siteLogo,
  }),
  block({
    name: 'core/template-part', title: 'Template Part', category: 'theme',
    description: 'Edit the different global regions of your site, like the header, footer, sidebar, or create your own.',
    attributes: { slug: { type: 'string' }, theme: { type: 'string' }, tagName: { type: 'string' }, area: { type: 'string' } },
    supports: { align: true, html: false, reusable: false },
    // build_template_part_block_area_variations, then build_template_part_block_instance_variations' (siteVariations)
    variations: [
      { name: 'header', title: 'Header', description: 'The Header template defines a page area that typically contains a title, logo, and main navigation.', attributes: { area: 'header' }, scope: ['inserter'], icon: 'header' },
      { name: 'footer', title: 'Footer', description: 'The Footer template defines a page area that typically contains site credits, social links, or any other combination of blocks.', attributes: { area: 'footer' }, scope: ['inserter'], icon: 'footer' },
    ],
    editorStyleHandles: ['wp-block-template-part-editor'], styleHandles: ['wp-block-template-part'],
    siteVariations: templatePartVariations,
    render: templatePart,
  }),
  block({
    name: 'core/pattern', title: 'Pattern', category: 'theme',
    description: 'Show a block pattern.',
    attributes: { slug: { type: 'string' } },
    supports: { html: false, inserter: false },
    editorStyleHandles: ['wp-block-pattern-editor'], styleHandles: ['wp-block-pattern'],
    render: pattern,
  }),
  block({
    name: 'core/block', title: 'Reusable block', category: 'reusable',
    description: 'Create and save content to reuse across your site. Update the block, and the changes apply everywhere it’s used.',
    attributes: { ref: { type: 'number' } },
    supports: { customClassName: false, html: false, inserter: false },
    editorStyleHandles: ['wp-block-block-editor'], styleHandles: ['wp-block-block'],
    render: reusableBlock,
  }),
];
