import { editorType } from '../../core/content-types.ts';
import { definePlugin } from '../../core/plugin.ts';
import { vectorBlock } from './block.ts';

/** Sanitised SVGs of the Vector block (Kadence's kadence_vector): at cms/v2/designkit_vector. */
export const VECTOR_TYPE = 'designkit_vector';
/** Custom SVGs as Kadence Blocks Pro's JSON tree (kadence_custom_svg): at cms/v2/designkit_custom_svg. */
export const CUSTOM_SVG_TYPE = 'designkit_custom_svg';

/** The icon cloud `search` asks, and the license key it sends (Kadence's own service by default). */
export const SEARCH_URL_OPTION = 'designkit_svg_search_url';
export const LICENSE_KEY_OPTION = 'designkit_svg_license_key';

/**
 * Vectors and custom SVGs (Kadence Blocks' kb-vector/v1 and Kadence Blocks Pro's kb-custom-svg/v1):
 * SVG markup from the editor, or downloaded from an icon cloud, sanitised and stored as posts.
 */
const vectors = definePlugin({
  name: 'vectors',
  title: 'Vectors and Custom SVG',
  version: '1.0.0',
  description: 'Stores sanitised SVGs for the Vector and Icon blocks, and searches an icon cloud for more.',
  author: 'cms-spec',
  namespaces: ['kb-vector/v1', 'kb-custom-svg/v1'],
  postTypes: [editorType(VECTOR_TYPE, 'Vectors', 'Vector'), editorType(CUSTOM_SVG_TYPE, 'Custom SVGs', 'Custom SVG')],
  blocks: [vectorBlock(VECTOR_TYPE)],
  settings: {
    [SEARCH_URL_OPTION]: 'https://patterns.startertemplatecloud.com/wp-json/kadence-blocks-endpoints/v1/svg-api',
    [LICENSE_KEY_OPTION]: '',
  },
  outbound: {
    hosts: (o) => {
      try {
        return [new URL(o[SEARCH_URL_OPTION] ?? '').host];
      } catch {
        return [];
      }
    },
    maxBytes: 512 * 1024,
  },
});

export default vectors;
