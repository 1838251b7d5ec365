import type { BlockTypeDefinition } from '../blocks.ts';
import { block, CONTENT } from './block-definition.ts';

/**
 * The text blocks WordPress 6.1 registers as static that core-blocks.ts does not hold (pullquote,
 * verse, table, the deprecated text columns, the classic editor's freeform, the placeholder of a
 * block nobody registered), with 6.1's block.json metadata and REST handles; their saved markup is their output.
 */

export const TEXT_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/pullquote', title: 'Pullquote', category: 'text',
    description: 'Give special visual emphasis to a quote from your text.',
    attributes: { value: { type: 'string', source: 'html', selector: 'p', [CONTENT]: 'content' }, citation: { type: 'string', source: 'html', selector: 'cite', default: '', [CONTENT]: 'content' }, textAlign: { type: 'string' } },
    supports: { anchor: true, align: ['left', 'right', 'wide', 'full'], color: { gradients: true, background: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true, fontAppearance: true } }, __experimentalBorder: { color: true, radius: true, style: true, width: true, __experimentalDefaultControls: { color: true, radius: true, style: true, width: true } }, __experimentalStyle: { typography: { fontSize: '1.5em', lineHeight: '1.6' } } },
    editorStyleHandles: ['wp-block-pullquote-editor'], styleHandles: ['wp-block-pullquote'],
  }),
  block({
    name: 'core/verse', title: 'Verse', category: 'text',
    description: 'Insert poetry. Use special spacing formats. Or quote song lyrics.', keywords: ['poetry', 'poem'],
    attributes: { content: { type: 'string', source: 'html', selector: 'pre', default: '', __unstablePreserveWhiteSpace: true, [CONTENT]: 'content' }, textAlign: { type: 'string' } },
    supports: { anchor: true, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, typography: { fontSize: true, __experimentalFontFamily: true, lineHeight: true, __experimentalFontStyle: true, __experimentalFontWeight: true, __experimentalLetterSpacing: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalDefaultControls: { fontSize: true, fontAppearance: true } }, spacing: { margin: true, padding: true } },
    editorStyleHandles: ['wp-block-verse-editor'], styleHandles: ['wp-block-verse'],
  }),
  block({
    name: 'core/table', title: 'Table', category: 'text',
    description: 'Create structured content in rows and columns to display information.',
    attributes: {
      hasFixedLayout: { type: 'boolean', default: false },
      caption: { type: 'string', source: 'html', selector: 'figcaption', default: '' },
      head: { type: 'array', default: [], source: 'query', selector: 'thead tr', query: { cells: { type: 'array', default: [], source: 'query', selector: 'td,th', query: { content: { type: 'string', source: 'html' }, tag: { type: 'string', default: 'td', source: 'tag' }, scope: { type: 'string', source: 'attribute', attribute: 'scope' }, align: { type: 'string', source: 'attribute', attribute: 'data-align' } } } } },
      body: { type: 'array', default: [], source: 'query', selector: 'tbody tr', query: { cells: { type: 'array', default: [], source: 'query', selector: 'td,th', query: { content: { type: 'string', source: 'html' }, tag: { type: 'string', default: 'td', source: 'tag' }, scope: { type: 'string', source: 'attribute', attribute: 'scope' }, align: { type: 'string', source: 'attribute', attribute: 'data-align' } } } } },
      foot: { type: 'array', default: [], source: 'query', selector: 'tfoot tr', query: { cells: { type: 'array', default: [], source: 'query', selector: 'td,th', query: { content: { type: 'string', source: 'html' }, tag: { type: 'string', default: 'td', source: 'tag' }, scope: { type: 'string', source: 'attribute', attribute: 'scope' }, align: { type: 'string', source: 'attribute', attribute: 'data-align' } } } } },
    },
    supports: { anchor: true, align: true, color: { __experimentalSkipSerialization: true, gradients: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontStyle: true, __experimentalFontWeight: true, __experimentalLetterSpacing: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalDefaultControls: { fontSize: true } }, __experimentalBorder: { __experimentalSkipSerialization: true, color: true, style: true, width: true, __experimentalDefaultControls: { color: true, style: true, width: true } }, __experimentalSelector: '.wp-block-table > table' },
    styles: [{ name: 'regular', label: 'Default', isDefault: true }, { name: 'stripes', label: 'Stripes' }],
    editorStyleHandles: ['wp-block-table-editor'], styleHandles: ['wp-block-table'],
  }),
  // block.json's `default: [{}, {}]`: json_decode gives PHP two empty arrays, which REST answers as `[]`
  block({
    name: 'core/text-columns', title: 'Text Columns (deprecated)', category: 'design', icon: 'columns',
    description: 'This block is deprecated. Please use the Columns block instead.',
    attributes: { content: { type: 'array', source: 'query', selector: 'p', query: { children: { type: 'string', source: 'html' } }, default: [[], []] }, columns: { type: 'number', default: 2 }, width: { type: 'string' } },
    supports: { inserter: false },
    editorStyleHandles: ['wp-block-text-columns-editor'], styleHandles: ['wp-block-text-columns'],
  }),
  block({
    name: 'core/freeform', title: 'Classic', category: 'text',
    description: 'Use the classic WordPress editor.',
    attributes: { content: { type: 'string', source: 'html' } },
    supports: { className: false, customClassName: false, reusable: false },
    editorStyleHandles: ['wp-block-freeform-editor'], styleHandles: ['wp-block-freeform'],
  }),
  block({
    name: 'core/missing', title: 'Unsupported', category: 'text',
    description: 'Your site doesn’t include support for this block.',
    attributes: { originalName: { type: 'string' }, originalUndelimitedContent: { type: 'string' }, originalContent: { type: 'string', source: 'html' } },
    supports: { className: false, customClassName: false, inserter: false, html: false, reusable: false },
    editorStyleHandles: ['wp-block-missing-editor'], styleHandles: ['wp-block-missing'],
  }),
];
