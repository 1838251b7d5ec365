import type { Ctx } from '../../../core/context.ts';
import { invalidParam } from '../../../engine/index.ts';
import { canEdit } from '../../../core/post-access.ts';
import { indexedPostTypes } from '../indexables.ts';
import seo from '../plugin.ts';

/** Routes that read the site's content for the editor: file_size, available_posts, meta/search. */

/**
 * GET file_size?url=: the size of a media file of this site, from its attachment's metadata
 * (`filesize` in `_wp_attachment_metadata`, as WordPress records it on upload). Another host, or a
 * URL of no attachment with a known size, is a 404 `wpseo_file_size_unknown` (Yoast answers
 * `{type: 'failure', response}`; here errors have WordPress's shape).
 */
export async function fileSize(ctx: Ctx<'seo:content.fileSize'>) {
  const failure = (reason: string) => ctx.fail('wpseo_file_size_unknown', { reason });
  const raw = String(ctx.args.url);
  let url: URL;
  try {
    url = new URL(raw, `${ctx.site.home}/`);
  } catch {
    throw failure('The URL is not a valid URL.');
  }
  if (url.host.toLowerCase() !== new URL(`${ctx.site.home}/`).host.toLowerCase()) throw failure(`The file ${raw} is not on this site, so its size cannot be read.`);
  const id = await ctx.store.plugin(seo).attachmentIdByUrl(url.href);
  const metadata = id === undefined ? undefined : await ctx.store.posts.meta.get(id, '_wp_attachment_metadata');
  let size: unknown;
  try {
    size = metadata ? (JSON.parse(metadata) as { filesize?: unknown }).filesize : undefined;
  } catch {
    size = undefined;
  }
  if (typeof size !== 'number' || !Number.isFinite(size)) throw failure(`The size of ${raw} is unknown: no media file of this site has that URL.`);
  return { type: 'success', size_in_bytes: size };
}

/** At most this many posts in available_posts (a picker's list). */
const AVAILABLE_LIMIT = 100;

/** GET available_posts?search=&postType=page: published posts of a type as `[{id, title, slug}]`, searched as the site searches. */
export async function availablePosts(ctx: Ctx<'seo:content.availablePosts'>) {
  const postType = String(ctx.args.postType);
  if (!indexedPostTypes(ctx.site).includes(postType)) throw invalidParam('postType', 'Invalid post type.');
  const search = String(ctx.args.search ?? '').trim();
  const { rows } = await ctx.store.posts.query({ types: [postType], statuses: ['publish'], search: search || undefined, offset: 0, limit: AVAILABLE_LIMIT });
  return rows.map((p) => ({ id: p.id, title: p.title, slug: p.slug }));
}

const META_SEARCH_LIMIT = 25;
/** A PHP-serialised value (an array, object or string the plugin would not show). */
const SERIALIZED = /^(?:a|O|s|i|b|d):\d*[:;]/;

/**
 * GET meta/search?post_id=&query=: up to 25 meta entries of a post the user may edit whose key
 * starts with `query`; without a query, keys starting with `_` (hidden meta) are left out.
 */
export async function metaSearch(ctx: Ctx<'seo:content.metaSearch'>) {
  const post = await ctx.store.posts.get(ctx.args.post_id);
  const type = post && ctx.site.types.postType(post.type);
  if (!post || !type) throw ctx.fail('rest_post_invalid_id');
  if (!canEdit(ctx, type, post)) throw ctx.fail('rest_forbidden');
  const query = ctx.args.query;
  const meta = Object.entries(await ctx.store.posts.meta.all(post.id))
    .filter(([key, value]) => key.startsWith(query) && !(query === '' && key.startsWith('_')) && !SERIALIZED.test(value))
    .slice(0, META_SEARCH_LIMIT)
    .map(([key, value]) => ({ key, value }));
  return { meta };
}
