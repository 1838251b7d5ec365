import type { BlockTypeDefinition } from '../blocks.ts';
import { block } from './block-definition.ts';
import { legacyWidget, shortcode, widgetGroup } from './render/widget-blocks.ts';

/**
 * The widget blocks of WordPress 6.1: shortcode, legacy widget and widget group (6.1's block.json
 * of each, its REST handles; the widget group's has no title), rendered by `render/widget-blocks.ts`.
 */

export const WIDGET_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/shortcode', title: 'Shortcode', category: 'widgets',
    description: 'Insert additional custom elements with a WordPress shortcode.',
    attributes: { text: { type: 'string', source: 'html' } },
    supports: { className: false, customClassName: false, html: false },
    editorStyleHandles: ['wp-block-shortcode-editor'], styleHandles: ['wp-block-shortcode'],
    render: shortcode, pure: true,
  }),
  block({
    name: 'core/legacy-widget', title: 'Legacy Widget', category: 'widgets',
    description: 'Display a legacy widget.',
    attributes: { id: { type: 'string', default: null }, idBase: { type: 'string', default: null }, instance: { type: 'object', default: null } },
    supports: { html: false, customClassName: false, reusable: false },
    editorStyleHandles: ['wp-block-legacy-widget-editor'], styleHandles: ['wp-block-legacy-widget'],
    render: legacyWidget, pure: true,
  }),
  block({
    name: 'core/widget-group', title: '', category: 'widgets',
    attributes: { title: { type: 'string' } },
    supports: { html: false, inserter: true, customClassName: true, reusable: false },
    editorStyleHandles: ['wp-block-widget-group-editor'], styleHandles: ['wp-block-widget-group'],
    render: widgetGroup, pure: true,
  }),
];
