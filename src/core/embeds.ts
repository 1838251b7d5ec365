import { createHash } from 'node:crypto';
import { config } from '../config.ts';
import { escapeHtml, htmlSplit, replaceInTags } from '../format/format.ts';
import { escUrl } from '../format/esc-url.ts';
import type { ContentEvent, PageContext, Site } from './site.ts';
import type { Store } from '../store/index.ts';
import { phpInt } from '../format/php-values.ts';
import { doShortcode, type ShortcodeAttributes } from '../format/shortcodes.ts';
import { fetchOEmbed } from './oembed/fetch.ts';
import { localEmbedData, postForUrl } from './oembed/own-posts.ts';
import { providerEndpoint } from './oembed/providers.ts';
import { oembedHtml } from './oembed/result.ts';

/**
 * WordPress's WP_Embed: URLs in content become the provider's markup. `[embed]` and a URL alone on
 * its line or in its own paragraph (which is how a core/embed block saves its URL) go to the embed
 * handlers (YouTube's embed URLs, audio and video files), else to oEmbed: this site's own posts
 * as their wp-embedded-content card, other sites through the provider list or discovery. The
 * answer is kept in the post's meta as WordPress keeps it (`_oembed_<md5>` and `_oembed_time_<md5>`,
 * `{{unknown}}` for a URL that gave nothing), and served from there; what is not embedded stays a
 * link (`[embed]`) or the URL as written (autoembed).
 */

/** A PHP value as serialize() writes it: the cache key is an md5 of the URL and the serialized attributes. */
type PhpScalar = string | { int: number } | { float: number };
type EmbedAttributes = Map<string | number, PhpScalar>;

export interface EmbedRun {
  ctx: PageContext;
  /** WP_Embed::$usecache: false while the post's embeds are refreshed, when an answer older than the TTL is asked again. */
  usecache: boolean;
}

const UNKNOWN = '{{unknown}}';
const DEFAULT_WIDTH = 500;
const MAX_DEFAULT_HEIGHT = 1000;
/** PHP's (int) of an attribute value: a string's leading integer, 0 when none. */
const intOf = (v: PhpScalar | undefined): number => (v === undefined ? 0 : typeof v === 'string' ? phpInt(v) : Math.trunc('int' in v ? v.int : v.float));

/** PHP's empty() of a shortcode attribute. */
const empty = (v: string | undefined) => v === undefined || v === '' || v === '0';

/** wp_embed_defaults: no theme sets $content_width here, so WordPress's 500 wide and at most 1000 high (1.5 times, a float). */
const embedDefaults = (): EmbedAttributes =>
  new Map<string | number, PhpScalar>([
    ['width', { int: DEFAULT_WIDTH }],
    ['height', { float: Math.min(Math.ceil(DEFAULT_WIDTH * 1.5), MAX_DEFAULT_HEIGHT) }],
  ]);

/** A key PHP keeps as an integer (shortcode_parse_atts numbers positional values so). */
const INTEGER_KEY = /^(?:0|-?[1-9]\d*)$/;

/**
 * wp_parse_args($attr, wp_embed_defaults()): array_merge, so the defaults' keys first, integer keys
 * renumbered after them. Attributes that are a string (none parsed) parse to nothing.
 */
function withDefaults(raw: ShortcodeAttributes): EmbedAttributes {
  const out = embedDefaults();
  if (typeof raw === 'string') return out;
  let next = 0;
  for (const [k, v] of raw) out.set(INTEGER_KEY.test(k) ? next++ : k, v);
  return out;
}

/** An attribute's value (undefined when absent), whatever shape shortcode_parse_atts gave. */
const attribute = (raw: ShortcodeAttributes, name: string): string | undefined => (typeof raw === 'string' ? undefined : raw.get(name));

function phpSerialize(attrs: EmbedAttributes): string {
  const scalar = (v: PhpScalar | string | number) =>
    typeof v === 'number' ? `i:${v};` : typeof v === 'string' ? `s:${Buffer.byteLength(v)}:"${v}";` : 'int' in v ? `i:${v.int};` : `d:${v.float};`;
  let out = `a:${attrs.size}:{`;
  for (const [k, v] of attrs) out += scalar(k) + scalar(v);
  return `${out}}`;
}

/** The suffix of the two meta keys: md5( $url . serialize( $attr ) ). */
const embedCacheKey = (url: string, attrs: EmbedAttributes) =>
  createHash('md5')
    .update(url + phpSerialize(attrs))
    .digest('hex');

/** PHP's urlencode. */
const urlencode = (s: string) => encodeURIComponent(s).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');

const YOUTUBE_EMBED_URL = /https?:\/\/(www.)?youtube\.com\/(?:v|embed)\/([^/]+)/i;
const AUDIO_FILE = /^https?:\/\/.+?\.(mp3|ogg|flac|m4a|wav)$/i;
const VIDEO_FILE = /^https?:\/\/.+?\.(mp4|m4v|webm|ogv|flv)$/i;

/**
 * WP_Embed::get_embed_handler_html with the handlers wp_maybe_load_embeds registers, in their
 * priority order: YouTube's embed URLs (10) become its watch URL, autoembedded; audio and video
 * files (9999) become `[audio]` and `[video]`, which do_shortcode renders later.
 */
async function embedHandlerHtml(raw: ShortcodeAttributes, url: string, run: EmbedRun): Promise<string | false> {
  const youtube = YOUTUBE_EMBED_URL.exec(url);
  if (youtube) return autoembed(`https://youtube.com/watch?v=${urlencode(youtube[2])}`, run);
  if (AUDIO_FILE.test(url)) return `[audio src="${escUrl(url)}" /]`;
  if (VIDEO_FILE.test(url)) {
    const width = attribute(raw, 'width');
    const height = attribute(raw, 'height');
    const dimensions = !empty(width) && !empty(height) ? `width="${intOf(width)}" height="${intOf(height)}" ` : '';
    return `[video ${dimensions} src="${escUrl(url)}" /]`;
  }
  return false;
}

/** WP_Embed::maybe_make_link: `[embed]` links what it cannot embed, autoembed leaves the URL as it was. */
const maybeMakeLink = (url: string, linkIfUnknown: boolean) => (linkIfUnknown ? `<a href="${escUrl(url)}">${escapeHtml(url)}</a>` : url);

/**
 * wp_oembed_get: this site's own post (wp_filter_pre_oembed_result: its card, made as WordPress
 * makes another site's), else the provider's answer. False for anything that gives no markup, a
 * failure to fetch included (offline, a refused address, a timeout, a 404), as WordPress has it.
 */
async function oembedGet(url: string, attrs: EmbedAttributes, { ctx }: EmbedRun): Promise<string | false> {
  const own = await postForUrl(ctx.store, ctx.site, url);
  const trusted = providerEndpoint(url) !== null;
  if (own) return oembedHtml(await localEmbedData(ctx.store, ctx.site, own, intOf(attrs.get('width'))), url, trusted);
  let answer;
  try {
    answer = await fetchOEmbed({ url, maxwidth: intOf(attrs.get('width')), maxheight: intOf(attrs.get('height')), discover: true, home: ctx.site.home });
  } catch {
    // WP_oEmbed::get_data: a request that fails is no embed
    return false;
  }
  return answer ? oembedHtml(answer.data, url, answer.trusted) : false;
}

/**
 * WP_Embed::shortcode: the embed markup for a URL (an `[embed]`'s content or its `src`), from the
 * handlers, the post's cached answer, or oEmbed (then cached); otherwise the URL, linked when
 * `linkIfUnknown` (the shortcode) and as written when not (autoembed).
 */
export async function embedShortcode(raw: ShortcodeAttributes, content: string, run: EmbedRun, linkIfUnknown = true): Promise<string> {
  const src = attribute(raw, 'src');
  let url = content || (empty(src) ? '' : src!);
  if (!url) return '';
  const attrs = withDefaults(raw);
  // kses writes & as &amp; in the URL
  url = url.split('&amp;').join('&');
  const handled = await embedHandlerHtml(raw, url, run);
  if (handled !== false) return handled;

  const { ctx } = run;
  // what oEmbed answers depends on the post's meta and on other sites: a rendering holding it is not kept
  if (ctx.trace) ctx.trace.volatile = true;
  const postId = ctx.postId;
  const suffix = embedCacheKey(url, attrs);
  const key = `_oembed_${suffix}`;
  const timeKey = `_oembed_time_${suffix}`;
  let cache = '';
  let cacheTime = 0;
  if (postId) {
    const meta = await ctx.store.posts.meta.ofMany([postId], [key, timeKey]);
    cache = meta.get(postId)?.[key] ?? '';
    cacheTime = intOf(meta.get(postId)?.[timeKey] ?? '');
  }
  const now = Math.floor(Date.now() / 1000);
  const cachedRecently = now - cacheTime < config().oembed.cacheTtlSeconds;
  if (run.usecache || cachedRecently) {
    // failures are cached too
    if (cache === UNKNOWN) return maybeMakeLink(url, linkIfUnknown);
    if (cache && cache !== '0') return cache;
  }

  const html = await oembedGet(url, attrs, run);
  if (postId) {
    if (html) {
      await ctx.store.posts.meta.set(postId, key, html);
      await ctx.store.posts.meta.set(postId, timeKey, String(now));
    } else if (!cache) {
      // a failure does not replace an answer kept before
      await ctx.store.posts.meta.set(postId, key, UNKNOWN);
    }
  }
  return html || maybeMakeLink(url, linkIfUnknown);
}

/**
 * WP_Embed::run_shortcode: do_shortcode($content, true) with `embed` the only shortcode registered,
 * before the_content's other filters (priority 8).
 */
export function runEmbedShortcode(content: string, run: EmbedRun): Promise<string> {
  return doShortcode(content, new Map([['embed', (attrs: ShortcodeAttributes, url: string) => embedShortcode(attrs, url, run)]]), true);
}

const LINE_BREAK_MARK = '<!-- wp-line-break -->';
const ANY_URL = /(^|[ \t\n\x0B\f\r]|>)https?:\/\//i;
const HTTP_URL = /https?:\/\//i;
// PCRE's \s (vertical tab included) and the URL autoembed takes: up to a space, `<`, `>` or `"`
const URL_ALONE = /^([ \t\n\x0B\f\r]*)(https?:\/\/[^ \t\n\x0B\f\r<>"]+)([ \t\n\x0B\f\r]*)$/i;
const PARAGRAPH_OPEN = /^<p(?: [^>]*)?>$/i;
const PARAGRAPH_CLOSE = /^<\/p>$/i;

/** WP_Embed::autoembed_callback: the URL embedded, or left as written, its surrounding space kept. */
async function embedAlone(text: string, run: EmbedRun): Promise<string> {
  const m = URL_ALONE.exec(text);
  return m ? m[1] + (await embedShortcode(new Map(), m[2], run, false)) + m[3] : text;
}

/**
 * WP_Embed::autoembed: every URL alone on its line (the line breaks inside tags set aside first),
 * then every URL alone in its paragraph, is embedded. WordPress's two regexes (`^\s*URL\s*$` on each
 * line, `<p…>\s*URL\s*</p>`) are applied to each line and to each paragraph's text, which matches
 * the same and stays linear in the content's length, whatever it holds.
 */
export async function autoembed(content: string, run: EmbedRun): Promise<string> {
  // nothing to embed and no mark to turn back into a line break: the content as it is, unsplit
  if (!HTTP_URL.test(content) && !content.includes(LINE_BREAK_MARK)) return content;
  let html = replaceInTags(content, '\n', LINE_BREAK_MARK);
  if (ANY_URL.test(html)) {
    const lines = html.split('\n');
    for (let i = 0; i < lines.length; i++) if (lines[i].includes('://')) lines[i] = await embedAlone(lines[i], run);
    const parts = htmlSplit(lines.join('\n'));
    for (let i = 1; i + 2 < parts.length; i += 2) {
      if (PARAGRAPH_OPEN.test(parts[i]) && PARAGRAPH_CLOSE.test(parts[i + 2]) && parts[i + 1].includes('://')) parts[i + 1] = await embedAlone(parts[i + 1], run);
    }
    html = parts.join('');
  }
  return html.split(LINE_BREAK_MARK).join('\n');
}

/**
 * the_content at priority 8: WP_Embed::run_shortcode, then WP_Embed::autoembed (added in that
 * order); what core/block's renderer does to a reusable block's content too (core/template-part's
 * runs `autoembed` alone).
 */
export async function embedContent(content: string, ctx: PageContext): Promise<string> {
  const run: EmbedRun = { ctx, usecache: true };
  return autoembed(await runEmbedShortcode(content, run), run);
}

/**
 * WP_Embed::cache_oembed, run after a post of a type with an editing screen is saved (WordPress's
 * editor asks for it right after a save): the post's embeds looked up with the cache used only for
 * answers younger than the TTL, so an older answer, or a URL that gave nothing, is asked again. A
 * failure leaves an answer kept before in place.
 */
export async function refreshPostEmbeds(store: Store, site: Site, event: ContentEvent): Promise<void> {
  if (event.type !== 'postSaved' || site.types.postType(event.postType)?.showUi === false) return;
  const content = event.content ?? (await store.posts.get(event.postId))?.content;
  if (!content) return;
  const run: EmbedRun = { ctx: { store, site, kind: 'post', postId: event.postId, url: '' }, usecache: false };
  await autoembed(await runEmbedShortcode(content, run), run);
}
