import { shortcodeAtts, type ShortcodeAttributes } from '../../format/shortcodes.ts';
import { escapeAttr } from '../../format/format.ts';
import type { ShortcodeContext } from '../site.ts';
import { ATTACHMENT_METADATA } from '../media.ts';
import { attachmentImageSrc } from '../attachment-image.ts';
import { attachmentLink, attachmentUrl } from './attachment-markup.ts';
import { listedAttachments, withIdsIncluded } from './listed-attachments.ts';
import { checkFiletype } from './media-players.ts';

/** A whole number PHP holds as a float (round()'s answer), which its JSON writes as `338.0`. */
const phpFloat = (n: number) => `\0float:${n}`;

/** wp_json_encode with PHP's default flags: `/` escaped, everything past ASCII as `\uXXXX`, whole floats with `.0`. */
const phpJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/"\\u0000float:(-?[0-9]+)"/g, '$1.0')
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** wp_get_attachment_id3_keys in the display context: what of a file's ID3 data a track shows. */
const ID3_KEYS = ['artist', 'album', 'genre', 'year', 'length_formatted'];

/** PHP's truthiness of an attribute: '' and '0' are false. */
const truthy = (v: string) => v !== '' && v !== '0';
const validateBoolean = (v: string) => v.toLowerCase() !== 'false' && truthy(v);

const DEFAULT_WIDTH = 640;
const DEFAULT_HEIGHT = 360;

function readMetadata(raw: string | undefined): Record<string, unknown> | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as unknown;
    return value && typeof value === 'object' && Object.keys(value).length ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * wp_playlist_shortcode (no $content_width: the theme sets none): the audio (or video) files
 * listed by `ids`, else attached to the post, as WordPress's playlist markup with its
 * `wp-playlist-script` JSON (each track's file, type, title, caption, description, ID3 data, video
 * dimensions and image: its featured image, else the type's icon under wp-includes, a file this
 * site does not serve), and a link to each file for browsers without script.
 */
export async function playlistShortcode(given: ShortcodeAttributes, _content: string, _tag: string, ctx: ShortcodeContext): Promise<string> {
  const instance = ctx.instance('playlist');
  const attr = withIdsIncluded(given);
  const atts = shortcodeAtts(
    { type: 'audio', order: 'ASC', orderby: 'menu_order ID', id: String(ctx.page.postId ?? 0), include: '', exclude: '', style: 'light', tracklist: '1', tracknumbers: '1', images: '1', artists: '1' },
    attr,
  );
  const type = atts.type === 'audio' ? 'audio' : 'video';
  const attachments = await listedAttachments(ctx, type, atts);
  if (!attachments?.length) return '';
  const { page } = ctx;
  if (page.kind === 'feed') {
    // in a feed, a link to each file a line
    let out = '\n';
    for (const attachment of attachments) out += `${await attachmentLink(page, attachment, 'thumbnail')}\n`;
    return out;
  }
  const metas = await page.store.posts.meta.ofMany(attachments.map((a) => a.id), [ATTACHMENT_METADATA, '_thumbnail_id']);
  const icon = `${page.site.info.url}/wp-includes/images/media/${type}.png`;
  const tracks = [];
  let themeHeight = DEFAULT_HEIGHT;
  let heightIsFloat = false;
  for (const attachment of attachments) {
    const src = await attachmentUrl(page, attachment);
    const track: Record<string, unknown> = { src, type: checkFiletype(src)?.type ?? false, title: attachment.title, caption: attachment.excerpt, description: attachment.content };
    const trackMeta: Record<string, unknown> = {};
    const meta = readMetadata(metas.get(attachment.id)?.[ATTACHMENT_METADATA]);
    if (meta) {
      for (const key of ID3_KEYS) if (meta[key] && meta[key] !== '0') trackMeta[key] = meta[key];
      if (type === 'video') {
        const known = meta.width && meta.height;
        // as WordPress's loop does, a video of known size sets the height every later one (and the player) gets
        if (known) {
          themeHeight = Math.round((Number(meta.height) * DEFAULT_WIDTH) / Number(meta.width));
          heightIsFloat = true;
        }
        const original = known ? { width: meta.width, height: meta.height } : { width: DEFAULT_WIDTH, height: DEFAULT_HEIGHT };
        track.dimensions = { original, resized: { width: DEFAULT_WIDTH, height: heightIsFloat ? phpFloat(themeHeight) : themeHeight } };
      }
    }
    // an empty PHP array is a JSON list
    track.meta = Object.keys(trackMeta).length ? trackMeta : [];
    if (track.dimensions) {
      const { dimensions } = track;
      delete track.dimensions;
      track.dimensions = dimensions;
    }
    if (truthy(atts.images)) {
      const thumbnail = Number(metas.get(attachment.id)?._thumbnail_id ?? 0);
      const full = thumbnail ? await attachmentImageSrc(page.store, thumbnail, 'full') : null;
      const small = thumbnail ? await attachmentImageSrc(page.store, thumbnail, 'thumbnail') : null;
      const image = (found: typeof full) => (found ? { src: found[0], width: found[1], height: found[2] } : { src: icon, width: 48, height: 64 });
      track.image = image(full);
      track.thumb = image(small);
    }
    tracks.push(track);
  }
  const data = {
    type,
    tracklist: validateBoolean(atts.tracklist),
    tracknumbers: validateBoolean(atts.tracknumbers),
    images: validateBoolean(atts.images),
    artists: validateBoolean(atts.artists),
    tracks,
  };
  const safeType = escapeAttr(type);
  let links = '';
  for (const attachment of attachments) links += `<li>${await attachmentLink(page, attachment, 'thumbnail')}</li>`;
  // wp_playlist_scripts, once: the IE shim
  const scripts = instance === 1 ? `<!--[if lt IE 9]><script>document.createElement('${type}');</script><![endif]-->\n\t` : '';
  return (
    `${scripts}<div class="wp-playlist wp-${safeType}-playlist wp-playlist-${escapeAttr(atts.style)}">\n` +
    (type === 'audio' ? '\t\t\t<div class="wp-playlist-current-item"></div>\n' : '') +
    `\t\t<${safeType} controls="controls" preload="none" width="${DEFAULT_WIDTH}"\n` +
    (type === 'video' ? `\t\t height="${themeHeight}"` : '\t\t') +
    `\t></${safeType}>\n` +
    '\t<div class="wp-playlist-next"></div>\n\t<div class="wp-playlist-prev"></div>\n\t<noscript>\n\t<ol>\n' +
    `\t\t${links}\t</ol>\n\t</noscript>\n` +
    `\t<script type="application/json" class="wp-playlist-script">${phpJson(data)}</script>\n</div>\n\t`
  );
}
