import type { Site } from '../site.ts';
import type { Store } from '../../store/index.ts';
import type { PostRow } from '../../store/posts.ts';
import { storedObject } from '../../store/stored-json.ts';
import { escapeAttr, escapeHtml } from '../../format/format.ts';
import { parsePermalink, permalink } from '../permalinks.ts';
import { embedSecret } from './result.ts';

/** The post types that have an embed view. */
const EMBEDDABLE_TYPES = ['post', 'page'];
const MIN_WIDTH = 200;
const MAX_WIDTH = 600;
const MIN_HEIGHT = 200;
const LEADING_INT = /^\s*[+-]?\d+/;

/** PHP's absint: the leading integer of the value, made positive; 0 for anything else. */
export function absint(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.abs(Math.trunc(v)) : 0;
  const m = LEADING_INT.exec(String(v ?? ''));
  return m ? Math.abs(Number(m[0])) : 0;
}

/** url_to_postid for embeddable content: the published post or page a URL of this site shows. */
export async function postForUrl(store: Store, site: Site, url: string): Promise<PostRow | null> {
  const target = parsePermalink(site, url);
  if (!target) return null;
  const pretty = !!site.options.permalink_structure;
  const dated = pretty && site.options.permalink_structure.includes('%year%');
  let post: PostRow | undefined;
  switch (target.kind) {
    case 'id':
      post = await store.posts.get(target.id);
      break;
    case 'dated':
      if (dated) {
        post = await store.posts.findBySlug(target.slug, ['post']);
        if (post && post.date.slice(0, 10) !== `${target.year}-${target.month}-${target.day}`) post = undefined;
      }
      break;
    case 'path':
      if (pretty) {
        post = await store.posts.findByPath(target.segments, ['page']);
        if (!post && !dated && target.segments.length === 1) post = await store.posts.findBySlug(target.segments[0], ['post']);
      }
      break;
    case 'home':
      if (site.info.show_on_front === 'page' && site.info.page_on_front) post = await store.posts.get(site.info.page_on_front);
      break;
  }
  return post && post.status === 'publish' && EMBEDDABLE_TYPES.includes(post.type) ? post : null;
}

/**
 * get_oembed_response_data with the rich-type filter: WordPress's keys in WordPress's order,
 * the blockquote and iframe of the embed view as `html`, thumbnail fields for a featured image.
 */
export async function localEmbedData(store: Store, site: Site, post: PostRow, maxwidth: unknown): Promise<Record<string, unknown>> {
  const width = Math.min(Math.max(MIN_WIDTH, absint(maxwidth)), MAX_WIDTH);
  const height = Math.max(Math.ceil((width / 16) * 9), MIN_HEIGHT);
  const author = post.author ? await store.users.get(post.author) : undefined;
  const link = permalink(site, { ...post, parentPath: (await store.posts.ancestorSlugs(post)).join('/') });
  const title = post.password ? `Protected: ${post.title}` : post.title;
  const data: Record<string, unknown> = {
    version: '1.0',
    provider_name: site.info.name,
    provider_url: site.home,
    author_name: author?.display_name || site.info.name,
    author_url: author ? authorUrl(site, author.id, author.nicename) : site.home,
    title,
    type: 'rich',
    width,
    height,
    html: embedMarkup(site, link, title, width, height),
  };
  const thumbnail = await featuredImage(store, post.id, width);
  if (thumbnail) Object.assign(data, { thumbnail_url: thumbnail.url, thumbnail_width: thumbnail.width, thumbnail_height: thumbnail.height });
  return data;
}

/** get_author_posts_url */
function authorUrl(site: Site, id: number, nicename: string): string {
  return site.options.permalink_structure ? `${site.home}/author/${encodeURIComponent(nicename)}/` : `${site.home}/?author=${id}`;
}

/** get_post_embed_html without the inline wp-embed script: the card works without it, only unresized. */
function embedMarkup(site: Site, link: string, title: string, width: number, height: number): string {
  const secret = embedSecret();
  // get_post_embed_url: pretty permalinks end in a slash; plain ones take a query arg
  const embedUrl = `${link.includes('?') ? `${link}&embed=true` : `${link.endsWith('/') ? link : `${link}/`}embed/`}#?secret=${secret}`;
  const frameTitle = `&#8220;${title}&#8221; &#8212; ${site.info.name}`;
  return (
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${escapeAttr(link)}">${escapeHtml(title)}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${escapeAttr(embedUrl)}" width="${width}" height="${height}" title="${escapeAttr(frameTitle)}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`
  );
}

/**
 * The featured image (`_thumbnail_id`) as wp_get_attachment_image_src at the embed's width: the
 * attachment's URL and its size from `_wp_attachment_metadata`, scaled down to fit.
 */
async function featuredImage(store: Store, postId: number, maxWidth: number): Promise<{ url: string; width: number; height: number } | null> {
  const id = Number(await store.posts.meta.get(postId, '_thumbnail_id'));
  if (!id) return null;
  const attachment = await store.posts.get(id);
  if (!attachment || attachment.type !== 'attachment' || !attachment.mime_type.startsWith('image/') || !attachment.guid) return null;
  // metadata this server cannot read leaves the size unknown
  const size = storedObject(await store.posts.meta.get(id, '_wp_attachment_metadata'));
  const w = absint(size?.width);
  const h = absint(size?.height);
  if (!w || !h) return null;
  const scale = Math.min(1, maxWidth / w);
  return { url: attachment.guid, width: Math.round(w * scale), height: Math.round(h * scale) };
}
