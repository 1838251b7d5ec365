/**
 * What an imported post's text says about the old site: its address, and the ids of its posts
 * (attachments in image classes, galleries and blocks' attributes), made this site's.
 */

/** Old id → new id. */
export type IdMap = Map<number, number>;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The old site's address (either scheme) replaced by this site's wherever a URL starts with it:
 * followed by a path, a query, a fragment or the URL's end, never by more of a host name.
 */
export function rewriteBaseUrl(text: string, oldBase: string, newHome: string): string {
  if (!oldBase || !text) return text;
  const rewrite = rewriteOf(oldBase, newHome);
  return rewrite ? text.replace(rewrite.pattern, rewrite.home) : text;
}

/** The last rewrite asked for (an import asks for one, for every text of every item), compiled once. */
let lastRewrite: { key: string; rewrite: { pattern: RegExp; home: string } | undefined } | undefined;

function rewriteOf(oldBase: string, newHome: string): { pattern: RegExp; home: string } | undefined {
  const key = `${oldBase}\u0000${newHome}`;
  if (lastRewrite?.key === key) return lastRewrite.rewrite;
  const bare = oldBase.replace(/\/+$/, '').replace(/^https?:\/\//i, '');
  const home = newHome.replace(/\/+$/, '');
  const rewrite = !bare || `//${bare}` === home.replace(/^https?:/i, '') ? undefined : { pattern: new RegExp(`https?://${escape(bare)}(?=[/?#"'\\s<>)\\]]|$)`, 'gi'), home };
  lastRewrite = { key, rewrite };
  return rewrite;
}

const mapped = (map: IdMap, digits: string) => String(map.get(Number(digits)) ?? digits);
const mapList = (map: IdMap, list: string) => list.replace(/\d+/g, (d) => mapped(map, d));

/** Block attributes that hold a post's id (core/image, file, video, audio, cover, media-text, block, navigation, gallery). */
const BLOCK_ID_ATTRS = /"(id|ref|mediaId|featuredImage)":(\d+)/g;
const BLOCK_IDS_ATTR = /"ids":\[([\d,\s]*)\]/g;

/** The ids `map` moved, in `wp-image-N` classes, `data-id`, `[gallery ids]` and the attributes of block comments. */
export function remapIds(text: string, map: IdMap): string {
  if (!map.size || !text) return text;
  return text
    .replace(/\bwp-image-(\d+)\b/g, (_, d: string) => `wp-image-${mapped(map, d)}`)
    .replace(/\bdata-id="(\d+)"/g, (_, d: string) => `data-id="${mapped(map, d)}"`)
    .replace(/\[gallery\b[^\]]*\]/g, (code) => code.replace(/\bids=(["'])([\d,\s]*)\1/, (_, q: string, list: string) => `ids=${q}${mapList(map, list)}${q}`))
    .replace(/<!-- wp:[a-z0-9/-]+ (\{.*?\}) \/?-->/g, (comment) =>
      comment.replace(BLOCK_ID_ATTRS, (_, key: string, d: string) => `"${key}":${mapped(map, d)}`).replace(BLOCK_IDS_ATTR, (_, list: string) => `"ids":[${mapList(map, list)}]`),
    );
}
