import { attributeMap, type ShortcodeAttributes } from '../../format/shortcodes.ts';
import type { PostRow } from '../../store/posts.ts';
import type { ShortcodeContext } from '../site.ts';
import { phpInt } from '../../format/php-values.ts';

/** Most attachments a gallery or playlist shows (get_children asks for all of them; this is a bound, never reached by a real post). */
const MOST_ATTACHMENTS = 1000;

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

/**
 * The named attributes of a gallery or playlist, `ids` read as WordPress's gallery_shortcode and
 * wp_playlist_shortcode read it: the attachments to include, in the order given unless an orderby is.
 */
export function withIdsIncluded(given: ShortcodeAttributes): Map<string, string> {
  const attr = attributeMap(given);
  if (attr.get('ids')) {
    if (!attr.get('orderby')) attr.set('orderby', 'post__in');
    attr.set('include', attr.get('ids')!);
  }
  return attr;
}

/**
 * The attachments of a kind (image, audio, video) a gallery or playlist shows: the ids it lists
 * (`include`), else those attached to the post `id` but the ones it excludes; null when that post
 * is not the reader's to see.
 */
export async function listedAttachments(ctx: ShortcodeContext, kind: string, atts: { include: string; exclude: string; id: string; order: string; orderby: string }): Promise<PostRow[] | null> {
  const { store } = ctx.page;
  const include = idList(atts.include);
  const base = { types: ['attachment'], statuses: ['inherit'], mimeTypes: [`${kind}/`], offset: 0, limit: MOST_ATTACHMENTS };
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

