import { attributeMap, shortcodeAtts, type ShortcodeAttributes } from '../../format/shortcodes.ts';
import { escapeAttr, escapeHtml } from '../../format/format.ts';
import { escUrl } from '../../format/esc-url.ts';
import type { PostRow } from '../../store/posts.ts';
import type { ShortcodeContext } from '../site.ts';
import mimeTypes from './mime-types.json' with { type: 'json' };
import { attachmentUrl } from './attachment-markup.ts';
import { phpInt } from '../../format/php-values.ts';

/**
 * wp_audio_shortcode and wp_video_shortcode: MediaElement's `<audio>`/`<video>` markup with a
 * `<source>` for each file given (the `src`, else one per extension attribute), the attachment
 * the post has of that kind when none is given, and a link to the file as the no-script fallback.
 */

const MIME_PATTERNS = Object.entries(mimeTypes.types).map(([extensions, type]) => ({ pattern: new RegExp(`\\.(${extensions})$`, 'i'), type }));

/** wp_check_filetype: the extension a file name ends with and its type, by the first of wp_get_mime_types' patterns that fits. */
export function checkFiletype(file: string): { ext: string; type: string } | null {
  for (const { pattern, type } of MIME_PATTERNS) {
    const m = pattern.exec(file);
    if (m) return { ext: m[1], type };
  }
  return null;
}

/** wp_validate_boolean: 'false' (any case) is false, anything else PHP counts as true is true. */
const validateBoolean = (v: string) => v.toLowerCase() !== 'false' && v !== '' && v !== '0';

/** add_query_arg('_', n, url): the instance number as the `_` query argument, before any fragment. */
function withInstance(url: string, n: number): string {
  const hash = url.indexOf('#');
  const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const q = base.indexOf('?');
  if (q < 0) return `${base}?_=${n}${fragment}`;
  const args = base.slice(q + 1).split('&').filter((a) => a !== '' && a.split('=')[0] !== '_');
  return `${base.slice(0, q)}?${[...args, `_=${n}`].join('&')}${fragment}`;
}

/** get_attached_media: the post's first attachment of the kind, by menu order. */
async function firstAttached(ctx: ShortcodeContext, kind: 'audio' | 'video'): Promise<PostRow | undefined> {
  const { postId, store } = ctx.page;
  if (!postId) return undefined;
  const rows = await store.posts.list({ types: ['attachment'], parent: [postId], mimeTypes: [`${kind}/`], orderby: 'menu_order', order: 'asc', offset: 0, limit: 1 });
  return rows[0];
}

/** wp_mediaelement_fallback: the file as a link, for browsers without the player. */
const fallback = (url: string) => `<a href="${escUrl(url)}">${escUrl(url)}</a>`;

/** The `<source>`s of the files given, each with its instance argument, and the first file's URL. */
function sources(atts: Record<string, string>, order: string[], instance: number, typeOf: (key: string, url: string) => string): { html: string; first: string } {
  let html = '';
  let first = '';
  for (const key of order) {
    const url = atts[key];
    if (!url || url === '0') continue;
    first ||= url;
    html += `<source type="${typeOf(key, url)}" src="${escUrl(withInstance(url, instance))}" />`;
  }
  return { html, first };
}

/**
 * The files the shortcode plays: with `src`, that one (null, for a link instead, when its type is
 * not one of the kind's); else the extension attributes, and when none of them has its own
 * extension, the post's first attachment of the kind (none: nothing to play).
 */
async function playedFiles(ctx: ShortcodeContext, kind: 'audio' | 'video', atts: Record<string, string>, extensions: string[], streamed = false): Promise<{ order: string[] } | { link: string } | null> {
  if (atts.src) {
    if (!streamed && !extensions.includes((checkFiletype(atts.src)?.ext ?? '').toLowerCase())) return { link: atts.src };
    return { order: ['src', ...extensions] };
  }
  if (extensions.some((ext) => atts[ext] && (checkFiletype(atts[ext])?.ext ?? '').toLowerCase() === ext)) return { order: extensions };
  const attached = await firstAttached(ctx, kind);
  if (!attached) return null;
  atts.src = await attachmentUrl(ctx.page, attached);
  return atts.src ? { order: ['src', ...extensions] } : null;
}

const AUDIO_EXTENSIONS = ['mp3', 'ogg', 'flac', 'm4a', 'wav'];
const VIDEO_EXTENSIONS = ['mp4', 'm4v', 'webm', 'ogv', 'flv'];

/** `name="value"` pairs, a space between. */
const attributes = (pairs: [string, string | number][]) => pairs.map(([k, v]) => `${k}="${escapeAttr(String(v))}"`).join(' ');

/** wp_audio_shortcode. */
export async function audioShortcode(given: ShortcodeAttributes, _content: string, _tag: string, ctx: ShortcodeContext): Promise<string> {
  const instance = ctx.instance('audio');
  const postId = ctx.page.postId ?? 0;
  const defaults: Record<string, string> = { src: '', loop: '', autoplay: '', preload: 'none', class: 'wp-audio-shortcode', style: 'width: 100%;' };
  for (const ext of AUDIO_EXTENSIONS) defaults[ext] = '';
  const atts = shortcodeAtts(defaults, attributeMap(given));
  const files = await playedFiles(ctx, 'audio', atts, AUDIO_EXTENSIONS);
  if (!files) return '';
  if ('link' in files) return `<a class="wp-embedded-audio" href="${escUrl(files.link)}">${escapeHtml(files.link)}</a>`;
  const pairs: [string, string | number][] = [['class', atts.class], ['id', `audio-${postId}-${instance}`]];
  if (validateBoolean(atts.loop)) pairs.push(['loop', 1]);
  if (validateBoolean(atts.autoplay)) pairs.push(['autoplay', 1]);
  if (atts.preload && atts.preload !== '0') pairs.push(['preload', atts.preload]);
  pairs.push(['style', atts.style]);
  const { html, first } = sources(atts, files.order, instance, (_key, url) => checkFiletype(url)?.type ?? '');
  const ie = instance === 1 ? "<!--[if lt IE 9]><script>document.createElement('audio');</script><![endif]-->\n" : '';
  return `${ie}<audio ${attributes(pairs)} controls="controls">${html}${fallback(first)}</audio>`;
}

const YOUTUBE = /^https?:\/\/(?:www\.)?(?:youtube\.com\/watch|youtu\.be\/)/;
const VIMEO = /^https?:\/\/(.+\.)?vimeo\.com\/.*/;

/** remove_query_arg('feature') and set_url_scheme(https) for a YouTube address. */
function youtubeSource(url: string): string {
  const https = url.replace(/^http:/, 'https:');
  const q = https.indexOf('?');
  if (q < 0) return https;
  const hash = https.indexOf('#', q);
  const query = https.slice(q + 1, hash < 0 ? undefined : hash).split('&').filter((a) => a.split('=')[0] !== 'feature');
  return `${https.slice(0, q)}${query.length ? `?${query.join('&')}` : ''}${hash < 0 ? '' : https.slice(hash)}`;
}

/** wp_video_shortcode (no $content_width: the theme sets none). */
export async function videoShortcode(given: ShortcodeAttributes, content: string, _tag: string, ctx: ShortcodeContext): Promise<string> {
  const instance = ctx.instance('video');
  const postId = ctx.page.postId ?? 0;
  const defaults: Record<string, string> = { src: '', poster: '', loop: '', autoplay: '', muted: 'false', preload: 'metadata', width: '640', height: '360', class: 'wp-video-shortcode' };
  for (const ext of VIDEO_EXTENSIONS) defaults[ext] = '';
  const atts = shortcodeAtts(defaults, attributeMap(given));
  const youtube = atts.src !== '' && YOUTUBE.test(atts.src);
  const vimeo = atts.src !== '' && VIMEO.test(atts.src);
  const files = await playedFiles(ctx, 'video', atts, VIDEO_EXTENSIONS, youtube || vimeo);
  if (!files) return '';
  if ('link' in files) return `<a class="wp-embedded-video" href="${escUrl(files.link)}">${escapeHtml(files.link)}</a>`;
  if (youtube) atts.src = youtubeSource(atts.src);
  else if (vimeo) {
    const u = new URL(atts.src);
    atts.src = withQueryArg(`https://${u.host}${u.pathname}`, 'loop', atts.loop && atts.loop !== '0' ? '1' : '0');
  }
  const width = Math.abs(phpInt(atts.width));
  const height = Math.abs(phpInt(atts.height));
  const pairs: [string, string | number][] = [['class', atts.class], ['id', `video-${postId}-${instance}`], ['width', width], ['height', height]];
  const poster = escUrl(atts.poster);
  if (poster) pairs.push(['poster', poster]);
  if (validateBoolean(atts.loop)) pairs.push(['loop', 1]);
  if (validateBoolean(atts.autoplay)) pairs.push(['autoplay', 1]);
  if (validateBoolean(atts.muted)) pairs.push(['muted', 1]);
  if (atts.preload && atts.preload !== '0') pairs.push(['preload', atts.preload]);
  const typeOf = (key: string, url: string) => (key === 'src' && youtube ? 'video/youtube' : key === 'src' && vimeo ? 'video/vimeo' : (checkFiletype(url)?.type ?? ''));
  const { html, first } = sources(atts, files.order, instance, typeOf);
  const inner = content && content !== '0' ? (content.includes('\n') ? content.replace(/\r\n|\n|\t/g, '') : content).replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '') : '';
  const ie = instance === 1 ? "<!--[if lt IE 9]><script>document.createElement('video');</script><![endif]-->\n" : '';
  const widthRule = atts.width !== '' && atts.width !== '0' ? `width: ${phpInt(atts.width)}px;` : '';
  return `<div style="${widthRule}" class="wp-video">${ie}<video ${attributes(pairs)} controls="controls">${html}${inner}${fallback(first)}</video></div>`;
}

/** add_query_arg(name, value, url) on a URL without a query. */
const withQueryArg = (url: string, name: string, value: string) => `${url}?${name}=${value}`;
