import { editorType } from '../../core/content-types.ts';
import { definePlugin } from '../../core/plugin.ts';

/**
 * The page-builder blocks' content queries: Kadence Blocks' `kbp/v1` (the Posts block), Kadence
 * Blocks Pro's `kbpp/v1` (post picker and query helpers) and Kadence Pro's `ktp/v1` (the
 * Elements post picker), as real queries on the site's posts and terms. It registers the
 * page-builder post types these plugins own (forms, navigation, headers, query loops and cards,
 * custom icons); the animation, vector and custom-SVG types belong to the media plugins.
 */
export default definePlugin({
  name: 'block-queries',
  title: 'Block Queries',
  version: '1.0.0',
  description: 'Post, taxonomy and term queries for the page-builder blocks and pickers (kbp/v1, kbpp/v1, ktp/v1).',
  namespaces: ['kbp/v1', 'kbpp/v1', 'ktp/v1'],
  postTypes: [
    editorType('designkit_form', 'Forms', 'Form'),
    editorType('designkit_navigation', 'Navigation Menus', 'Navigation Menu'),
    editorType('designkit_header', 'Headers', 'Header'),
    editorType('designkit_query', 'Queries', 'Query'),
    editorType('designkit_query_card', 'Query Cards', 'Query Card'),
    editorType('kb_icon', 'Custom Icons', 'Custom Icon'),
  ],
});
