import { phpInt } from '../../format/php-values.ts';
import { attributeMap, shortcodeAtts, type ShortcodeAttributes } from '../../format/shortcodes.ts';
import { escapeAttr } from '../../format/format.ts';
import { kses } from '../../format/kses.ts';
import { sanitizeHtmlClass } from '../menus.ts';
import type { ShortcodeContext } from '../site.ts';

/** The linked or bare image a new-style caption starts with, and the caption text after it. */
const IMAGE_THEN_CAPTION = /((?:<a [^>]+>\s*)?<img [^>]+>(?:\s*<\/a>)?)([\s\S]*)/i;

/**
 * img_caption_shortcode (`[caption]`, `[wp_caption]`) as an HTML5 theme has it: a `<figure>` as
 * wide as the image, its caption in a `<figcaption>` that the figure is described by. The caption
 * is the `caption` attribute (through kses when it holds markup) or the text after the image.
 * Without a width or a caption, the enclosed content as it is.
 */
export async function captionShortcode(given: ShortcodeAttributes, enclosed: string, _tag: string, ctx: ShortcodeContext): Promise<string> {
  const attr = attributeMap(given);
  let content = enclosed;
  const own = attr.get('caption');
  if (own === undefined) {
    const m = IMAGE_THEN_CAPTION.exec(content);
    if (m) {
      content = m[1];
      attr.set('caption', m[2].replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, ''));
    }
  } else if (own.includes('<')) attr.set('caption', await kses(own, 'post'));
  const atts = shortcodeAtts({ id: '', caption_id: '', align: 'alignnone', width: '', caption: '', class: '' }, attr);
  const width = phpInt(atts.width);
  if (width < 1 || atts.caption === '' || atts.caption === '0') return content;
  const id = atts.id ? sanitizeHtmlClass(atts.id) : '';
  const captionId = atts.caption_id ? sanitizeHtmlClass(atts.caption_id) : id ? `caption-${id.split('_').join('-')}` : '';
  const idAttr = id ? `id="${escapeAttr(id)}" ` : '';
  const describedBy = captionId ? `aria-describedby="${escapeAttr(captionId)}" ` : '';
  const captionIdAttr = captionId ? `id="${escapeAttr(captionId)}" ` : '';
  const className = `wp-caption ${atts.align} ${atts.class}`.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');
  return `<figure ${idAttr}${describedBy}style="width: ${width}px" class="${escapeAttr(className)}">${await ctx.doShortcode(content)}<figcaption ${captionIdAttr}class="wp-caption-text">${atts.caption}</figcaption></figure>`;
}

