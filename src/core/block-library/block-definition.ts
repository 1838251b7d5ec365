import type { BlockTypeDefinition } from '../blocks.ts';

/** block.json's `__experimentalRole` key, of the attributes that hold a block's content. */
export const CONTENT = '__experimentalRole';

/**
 * block.json's typography support as most of WordPress 6.1's blocks that print text declare it:
 * every control, the font size among the defaults (key order as block.json's, as REST answers it).
 */
export const TYPOGRAPHY = { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } };

/** A core block's definition, apiVersion 2 unless it says otherwise. */
// no textdomain: register_block_type_from_metadata of WordPress 6.1 does not carry block.json's, so REST shows null
export const block = (def: Omit<BlockTypeDefinition, 'apiVersion' | 'textdomain'> & { apiVersion?: number }): BlockTypeDefinition => ({ apiVersion: 2, ...def });
