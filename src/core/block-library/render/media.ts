import type { RenderedBlock } from '../../blocks.ts';

/** The file and cover blocks' render callbacks (WordPress 6.1's blocks/file.php and blocks/cover.php), which read nothing but the block. */

/**
 * render_block_core_file: an embedded PDF's object labelled by its file name (`Embed of
 * name.pdf.`), or `PDF embed` when it has none. (Its view script is the browser's.)
 */
export function file(block: RenderedBlock): string {
  return block.content.replace(/<object.+(aria-label="([^"]+)?")/gi, (whole, attribute: string, name: string | undefined) => {
    const label = name && name !== 'PDF embed' ? `Embed of ${name}.` : 'PDF embed';
    return whole.split(attribute).join(`aria-label="${label}"`);
  });
}

/**
 * render_block_core_cover: a cover is its saved markup. One set to use the post's featured image
 * (`useFeaturedImage`) gets that image from WordPress (get_the_post_thumbnail), which this site
 * does not insert yet: it shows as saved, without the image.
 */
export const cover = (block: RenderedBlock): string => block.content;
