import { attributeMap, shortcodeAtts, type ShortcodeAttributes } from '../../format/shortcodes.ts';
import { wptexturize } from '../../format/format.ts';
import type { PostRow } from '../../store/posts.ts';
import { sanitizeHtmlClass } from '../menus.ts';
import { parseMetadata } from '../content-tags.ts';
import { ATTACHMENT_METADATA } from '../media.ts';
import allowed from '../../format/kses-allowed-html.json' with { type: 'json' };
import { attachmentImage, attachmentLink } from './attachment-markup.ts';
import { phpInt } from './caption.ts';
import type { ShortcodeContext } from '../site.ts';

/** Most images a gallery shows (get_children asks for all of them; this is a bound, never reached by a real post). */
const MOST_IMAGES = 1000;

/** wp_parse_id_list: the distinct positive integers of a comma- or space-separated list. */
export const idList = (list: string): number[] => [...new Set(list.split(/[\s,]+/).map((s) => Math.abs(phpInt(s))).filter((n) => n > 0))];

type Sortable = PostRow & { [key: string]: unknown };

/** WP_Query::parse_orderby's keys and the column each sorts on ('post__in' and 'rand' apart). */
const ORDER_COLUMNS: Record<string, keyof PostRow> = {
  post_name: 'slug', name: 'slug',
  post_author: 'author', author: 'author',
  post_date: 'date', date: 'date',
  post_title: 'title', title: 'title',
  post_modified: 'modified', modified: 'modified',
  post_parent: 'parent', parent: 'parent',
  post_type: 'type', type: 'type',
  ID: 'id', menu_order: 'menu_order', comment_count: 'comment_count',
};

/** MySQL's utf8mb4_unicode_ci, near enough: case is ignored. */
const compareValues = (a: unknown, b: unknown): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a).toLowerCase() < String(b).toLowerCase() ? -1 : String(a).toLowerCase() > String(b).toLowerCase() ? 1 : 0;

/**
 * WP_Query's ordering of a gallery's images: each key of `orderby` (space-separated; unknown ones
 * skipped, none at all is the date) in `order` (ASC, anything else DESC), `post__in` the order
 * of the ids given, `rand` shuffled; ties in id order, as MySQL hands them.
 */
function sortAttachments(rows: PostRow[], orderby: string, order: string, ids: number[]): PostRow[] {
  const direction = order.toUpperCase() === 'ASC' ? 1 : -1;
  const keys = orderby.split(' ').filter((k) => k in ORDER_COLUMNS || k === 'rand' || (k === 'post__in' && ids.length));
  if (keys.includes('rand')) {
    const shuffled = [...rows];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    return shuffled;
  }
  if (!keys.length) keys.push('post_date');
  const position = new Map(ids.map((id, i) => [id, i]));
  const value = (row: Sortable, key: string) => (key === 'post__in' ? (position.get(row.id) ?? -1) : row[ORDER_COLUMNS[key]]);
  return [...rows].sort((a, b) => {
    for (const key of keys) {
      const c = compareValues(value(a as Sortable, key), value(b as Sortable, key));
      if (c) return c * direction;
    }
    return a.id - b.id;
  });
}

/** The images a gallery shows: the ids it lists (`include`), else the post's attached images but those it excludes. */
async function galleryImages(ctx: ShortcodeContext, atts: { include: string; exclude: string; id: string; order: string; orderby: string }): Promise<PostRow[] | null> {
  const { store } = ctx.page;
  const include = idList(atts.include);
  const base = { types: ['attachment'], statuses: ['inherit'], mimeTypes: ['image/'], offset: 0, limit: MOST_IMAGES };
  if (include.length) return sortAttachments(await store.posts.list({ ...base, include }), atts.orderby, atts.order, include);
  const parentId = phpInt(atts.id);
  const exclude = atts.exclude ? idList(atts.exclude) : [];
  const rows = await store.posts.list({ ...base, parent: [parentId], ...(exclude.length ? { exclude } : {}) });
  if (parentId && parentId !== ctx.page.postId) {
    // another post's images only when anyone may see that post (the post rendered is the reader's to see)
    const parent = await store.posts.get(parentId);
    if (!parent || parent.password || !['publish', 'inherit'].includes(parent.status)) return null;
  }
  return sortAttachments(rows, atts.orderby, atts.order, []);
}

const allowedTags = allowed.post as Record<string, unknown>;

/** tag_escape, then an element the post's allowed HTML lacks is replaced by the classic one. */
const galleryTag = (tag: string, fallback: string) => {
  const escaped = tag.toLowerCase().replace(/[^a-z0-9_:]/g, '');
  return escaped in allowedTags ? escaped : fallback;
};

/**
 * gallery_shortcode as an HTML5 theme renders it (no default style then): the images of the ids
 * given, or attached to the post, each in a `gallery-item` with its icon (unlinked with link=none,
 * else linked to its file: see attachmentLink) and its caption (its excerpt),
 * in `gallery-N` numbered in the order the galleries render.
 */
export async function galleryShortcode(given: ShortcodeAttributes, _content: string, _tag: string, ctx: ShortcodeContext): Promise<string> {
  const instance = ctx.instance('gallery');
  const attr = attributeMap(given);
  if (attr.get('ids')) {
    if (!attr.get('orderby')) attr.set('orderby', 'post__in');
    attr.set('include', attr.get('ids')!);
  }
  const atts = shortcodeAtts(
    { order: 'ASC', orderby: 'menu_order ID', id: String(ctx.page.postId ?? 0), itemtag: 'figure', icontag: 'div', captiontag: 'figcaption', columns: '3', size: 'thumbnail', include: '', exclude: '', link: '' },
    attr,
  );
  const images = await galleryImages(ctx, atts);
  if (!images?.length) return '';
  const itemTag = galleryTag(atts.itemtag, 'dl');
  const captionTag = galleryTag(atts.captiontag, 'dd');
  const iconTag = galleryTag(atts.icontag, 'dt');
  const columns = phpInt(atts.columns);
  const selector = `gallery-${instance}`;
  let out = `<div id='${selector}' class='gallery galleryid-${phpInt(atts.id)} gallery-columns-${columns} gallery-size-${sanitizeHtmlClass(atts.size)}'>`;
  const metas = await ctx.page.store.posts.meta.ofMany(images.map((i) => i.id), [ATTACHMENT_METADATA]);
  for (const image of images) {
    const captioned = image.excerpt.trim() !== '';
    const extra: Record<string, string> = captioned ? { 'aria-describedby': `${selector}-${image.id}` } : {};
    // link=file and the attachment's own link are one here: an attachment's link is its file
    const icon = atts.link === 'none' ? await attachmentImage(ctx.page, image.id, atts.size, extra) : await attachmentLink(ctx.page, image, atts.size, extra);
    const meta = parseMetadata(metas.get(image.id)?.[ATTACHMENT_METADATA]);
    const orientation = meta?.width !== undefined && meta.height !== undefined ? (meta.height > meta.width ? 'portrait' : 'landscape') : '';
    out += `<${itemTag} class='gallery-item'>\n\t\t\t<${iconTag} class='gallery-icon ${orientation}'>\n\t\t\t\t${icon}\n\t\t\t</${iconTag}>`;
    if (captionTag && captioned) out += `\n\t\t\t\t<${captionTag} class='wp-caption-text gallery-caption' id='${selector}-${image.id}'>\n\t\t\t\t${wptexturize(image.excerpt)}\n\t\t\t\t</${captionTag}>`;
    out += `</${itemTag}>`;
  }
  return `${out}\n\t\t</div>\n`;
}
