import type { BlockTypeDefinition } from '../blocks.ts';
import { block } from './block-definition.ts';

/**
 * The static design blocks of WordPress 6.1 that core-blocks.ts does not hold: spacer, and the
 * more and page-break markers (the_content reads their `<!--more-->` and `<!--nextpage-->`), with
 * 6.1's block.json metadata and REST handles.
 */

export const DESIGN_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/spacer', title: 'Spacer', category: 'design',
    description: 'Add white space between blocks and customize its height.',
    attributes: { height: { type: 'string', default: '100px' }, width: { type: 'string' } },
    usesContext: ['orientation'],
    supports: { anchor: true, spacing: { margin: ['top', 'bottom'], __experimentalDefaultControls: { margin: true } } },
    editorStyleHandles: ['wp-block-spacer-editor'], styleHandles: ['wp-block-spacer'],
  }),
  block({
    name: 'core/more', title: 'More', category: 'design',
    description: 'Content before this block will be shown in the excerpt on your archives page.', keywords: ['read more'],
    attributes: { customText: { type: 'string' }, noTeaser: { type: 'boolean', default: false } },
    supports: { customClassName: false, className: false, html: false, multiple: false },
    editorStyleHandles: ['wp-block-more-editor'], styleHandles: ['wp-block-more'],
  }),
  block({
    name: 'core/nextpage', title: 'Page Break', category: 'design', parent: ['core/post-content'],
    description: 'Separate your content into a multi-page experience.', keywords: ['next page', 'pagination'],
    supports: { customClassName: false, className: false, html: false },
    editorStyleHandles: ['wp-block-nextpage-editor'], styleHandles: ['wp-block-nextpage'],
  }),
];
