import { randomInt } from 'node:crypto';
import { truthy } from '../../format/php-values.ts';
import { noteUnrepeatable } from '../../store/table-versions.ts';
import { escapeAttr, escapeHtml } from '../../format/format.ts';
import { escUrl } from '../../format/esc-url.ts';
import type { OEmbedData } from './fetch.ts';

const SECRET_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** wp_generate_password(10, false): the secret that pairs an embed iframe with its blockquote, new every time (so an answer holding one is not kept). */
export function embedSecret(): string {
  noteUnrepeatable();
  let s = '';
  for (let i = 0; i < 10; i++) s += SECRET_CHARS[randomInt(SECRET_CHARS.length)];
  return s;
}

const NUMERIC = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;
const isNumeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && NUMERIC.test(v));
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v !== '' && v !== '0';
/** PHP's empty() of a decoded JSON or XML value. */
const phpEmpty = (v: unknown) => !truthy(v);
/** esc_attr of a value PHP prints: numbers as written. */
const attrOf = (v: unknown) => escapeAttr(String(v));

/**
 * WP_oEmbed::data2html with WordPress 6.1's oembed_dataparse filters in their order:
 * wp_filter_oembed_iframe_title_attribute (5), wp_filter_oembed_result (10) for a provider not on
 * the sanctioned list (`trusted` false), WP_oEmbed::_strip_newlines. False when the answer holds
 * nothing to show.
 */
export function oembedHtml(data: OEmbedData, url: string, trusted: boolean): string | false {
  let html = dataToHtml(data, url);
  if (html === false) return false;
  if (data.type === 'rich' || data.type === 'video') {
    html = withIframeTitle(html, data);
    if (!trusted) html = filterUntrusted(html);
    if (html === false) return false;
  }
  return stripNewlines(html);
}

function dataToHtml(data: OEmbedData, url: string): string | false {
  switch (data.type) {
    case 'photo': {
      if (!nonEmptyString(data.url) || phpEmpty(data.width) || phpEmpty(data.height) || !isNumeric(data.width) || !isNumeric(data.height)) return false;
      const title = nonEmptyString(data.title) ? data.title : '';
      return `<a href="${escUrl(url)}"><img src="${escUrl(data.url)}" alt="${escapeAttr(title)}" width="${attrOf(data.width)}" height="${attrOf(data.height)}" /></a>`;
    }
    case 'video':
    case 'rich':
      return nonEmptyString(data.html) ? data.html : false;
    case 'link':
      return nonEmptyString(data.title) ? `<a href="${escUrl(url)}">${escapeHtml(data.title)}</a>` : false;
    default:
      return false;
  }
}

interface HairAttribute {
  value: string;
  /** The attribute as kses writes it back: `name="value"`, `name='value'` or a bare name. */
  whole: string;
}

const HAIR = /([_a-zA-Z][-_a-zA-Z0-9:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+)))?/g;
const URI_ATTRIBUTES = new Set(['href', 'src', 'cite', 'action', 'background', 'poster', 'longdesc', 'usemap', 'formaction']);
const SCHEME = /^\s*([^/?#:\s]+):/;
const SAFE_SCHEMES = new Set(['http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn']);

/** wp_kses_bad_protocol, as far as an embed's URLs need it: a scheme outside wp_allowed_protocols is taken off. */
function withoutBadProtocol(value: string): string {
  let v = value;
  for (let m = SCHEME.exec(v); m && !SAFE_SCHEMES.has(m[1].toLowerCase()); m = SCHEME.exec(v)) v = v.slice(m[0].length);
  return v;
}

/** wp_kses_hair: a tag's attributes by name (the first of a repeated one), in their order. */
function hair(attrs: string): Map<string, HairAttribute> {
  const out = new Map<string, HairAttribute>();
  for (const m of attrs.matchAll(HAIR)) {
    const name = m[1];
    if (out.has(name)) continue;
    const quoted = m[2] ?? m[3];
    if (quoted === undefined && m[4] === undefined) {
      out.set(name, { value: '', whole: name });
      continue;
    }
    let value = quoted ?? m[4];
    if (URI_ATTRIBUTES.has(name.toLowerCase())) value = withoutBadProtocol(value);
    out.set(name, { value, whole: m[3] !== undefined ? `${name}='${value}'` : `${name}="${value}"` });
  }
  return out;
}

/** preg_match('`<iframe([^>]*)>`i'): the first iframe tag, its whole text and its attributes; a later one can close no sooner. */
function firstIframe(html: string): { tag: string; attrs: string } | null {
  const open = html.toLowerCase().indexOf('<iframe');
  const end = open < 0 ? -1 : html.indexOf('>', open);
  return end < 0 ? null : { tag: html.slice(open, end + 1), attrs: html.slice(open + '<iframe'.length, end) };
}
const IFRAME_START = /<iframe /gi;

/** wp_filter_oembed_iframe_title_attribute: the iframe's own title, else the answer's, written first on every iframe. */
function withIframeTitle(html: string, data: OEmbedData): string {
  let title = nonEmptyString(data.title) ? data.title : '';
  const iframe = firstIframe(html);
  let attrs: Map<string, HairAttribute> | undefined;
  if (iframe) {
    attrs = new Map();
    // names written in capitals count as their lower-case selves, unless that is there too
    const found = hair(iframe.attrs);
    for (const [name, a] of found) {
      const lower = name.toLowerCase();
      attrs.set(lower !== name && !found.has(lower) ? lower : name, a);
    }
  }
  const own = attrs?.get('title');
  if (own?.value) title = own.value;
  if (title === '') return html;
  let out = html;
  if (iframe && attrs && own) {
    attrs.delete('title');
    out = out.split(iframe.tag).join(`<iframe ${[...attrs.values()].map((a) => a.whole).join(' ').trim()}>`);
  }
  return out.replace(IFRAME_START, `<iframe title="${escapeAttr(title)}" `);
}

/** What wp_filter_oembed_result lets through kses: element → its allowed attributes. */
type AllowedHtml = Record<string, ReadonlySet<string>>;
const EMBED_TAGS: AllowedHtml = {
  a: new Set(['href']),
  blockquote: new Set(),
  iframe: new Set(['src', 'width', 'height', 'frameborder', 'marginwidth', 'marginheight', 'scrolling', 'title']),
};
const EMBED_TAGS_WITH_SECRET: AllowedHtml = { ...EMBED_TAGS, blockquote: new Set(['data-secret']), iframe: new Set([...EMBED_TAGS.iframe, 'data-secret']) };

const KSES_SPLIT = /(<!--[\s\S]*?(?:-->|$))|(<[^>]*(?:>|$)|>)/g;
const KSES_TAG = /^<\s*(\/\s*)?([a-zA-Z0-9-]+)([^>]*)>?$/;
const XHTML_SLASH = /\s*\/\s*$/;
const LONE_AMPERSAND = /&(?!(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9a-fA-F]+);)/g;

/** wp_kses with an allowed list of its own: other elements lose their tags (their text stays), other attributes go. */
function ksesWith(html: string, allowed: AllowedHtml): string {
  const normalized = html.replace(/\0/g, '').replace(LONE_AMPERSAND, '&amp;');
  return normalized.replace(KSES_SPLIT, (piece: string, comment: string | undefined) => {
    if (comment !== undefined) {
      const text = ksesWith(comment.replace(/<!--|-->/g, ''), allowed);
      return text ? `<!--${text}-->` : '';
    }
    if (piece === '>') return '&gt;';
    const tag = KSES_TAG.exec(piece);
    if (!tag) return '';
    const [, closing, name, rawAttrs] = tag;
    const names = allowed[name.toLowerCase()];
    if (!names) return '';
    if (closing) return `</${name}>`;
    const slash = XHTML_SLASH.test(rawAttrs) ? ' /' : '';
    let attrs = '';
    for (const [attr, a] of hair(rawAttrs)) if (names.has(attr.toLowerCase())) attrs += ` ${a.whole}`;
    return `<${name}${attrs.replace(/[<>]/g, '')}${slash}>`;
  });
}

const BLOCKQUOTE_OPEN = '<blockquote>';
const BLOCKQUOTE_CLOSE = '</blockquote>';
const IFRAME_OPEN = '<iframe';
const IFRAME_CLOSE = '></iframe>';

/**
 * preg_match('|(<blockquote>.*?</blockquote>)?.*(<iframe.*?></iframe>)|ms'): the last `<iframe`
 * that a `></iframe>` follows, to that end, and the blockquote that opens the markup when it
 * closes before that iframe; found with string searches, so a provider's answer cannot make it slow.
 */
function blockquoteThenIframe(html: string): { blockquote: string; iframe: string } | null {
  const lastClose = html.lastIndexOf(IFRAME_CLOSE);
  if (lastClose < 0) return null;
  const start = html.lastIndexOf(IFRAME_OPEN, lastClose - IFRAME_OPEN.length);
  if (start < 0) return null;
  const iframe = html.slice(start, html.indexOf(IFRAME_CLOSE, start + IFRAME_OPEN.length) + IFRAME_CLOSE.length);
  const quoteEnd = html.startsWith(BLOCKQUOTE_OPEN) ? html.indexOf(BLOCKQUOTE_CLOSE, BLOCKQUOTE_OPEN.length) + BLOCKQUOTE_CLOSE.length : -1;
  return { blockquote: quoteEnd > 0 && quoteEnd <= start ? html.slice(0, quoteEnd) : '', iframe };
}

/** preg_match('/ src=([\'"])(.*?)\1/'): the first ` src=` whose quoted value closes on its line; a search that only moves forward. */
function firstSrc(html: string): { whole: string; quote: string; value: string } | null {
  const next = { '"': -1, "'": -1, '\n': -1 } as Record<string, number>;
  const after = (c: string, from: number) => {
    if (next[c] !== Infinity && next[c] < from) {
      const i = html.indexOf(c, from);
      next[c] = i < 0 ? Infinity : i;
    }
    return next[c];
  };
  for (let at = html.indexOf(' src='); at >= 0; at = html.indexOf(' src=', at + 1)) {
    const quote = html[at + 5];
    if (quote !== '"' && quote !== "'") continue;
    const close = after(quote, at + 6);
    if (close === Infinity) continue;
    if (after('\n', at + 6) < close) continue;
    return { whole: html.slice(at, close + 1), quote, value: html.slice(at + 6, close) };
  }
  return null;
}

/**
 * wp_filter_oembed_result for markup from a provider that was only discovered: cut down to a
 * blockquote (only when it leads) and the last iframe, the iframe sandboxed and given a secret
 * that pairs it with the blockquote, and hidden behind the blockquote when there is one. False
 * (WordPress's value) when no iframe is left to show.
 */
function filterUntrusted(result: string): string | false {
  const content = blockquoteThenIframe(ksesWith(result, EMBED_TAGS));
  if (!content) return false;
  const { blockquote } = content;
  let html = blockquote + content.iframe;
  const src = firstSrc(html);
  if (src) {
    const secret = embedSecret();
    const { whole, quote: q, value } = src;
    html = html.split(whole).join(` src=${q}${escUrl(`${value}#?secret=${secret}`)}${q} data-secret=${q}${secret}${q}`);
    html = html.split('<blockquote').join(`<blockquote data-secret="${secret}"`);
  }
  html = ksesWith(html, EMBED_TAGS_WITH_SECRET);
  if (blockquote) {
    html = html.split('<iframe').join('<iframe style="position: absolute; clip: rect(1px, 1px, 1px, 1px);"');
    html = html.split('<blockquote').join('<blockquote class="wp-embedded-content"');
  }
  return html.replace(/<iframe/gi, '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"');
}

/**
 * WP_oEmbed::_strip_newlines: line breaks go (wpautop would break the markup apart), but not inside
 * `<pre>` (each `<pre…>` to the first `</pre>` after it, at least one character between, as its
 * `#(<pre[^>]*>.+?</pre>)#i` finds them).
 */
function stripNewlines(html: string): string {
  if (!html.includes('\n')) return html;
  const lower = html.toLowerCase();
  const strip = (text: string) => text.replace(/\r?\n/g, '');
  let out = '';
  let last = 0;
  for (let open = lower.indexOf('<pre'); open >= 0; open = lower.indexOf('<pre', last)) {
    const tagEnd = lower.indexOf('>', open);
    const close = tagEnd < 0 ? -1 : lower.indexOf('</pre>', tagEnd + 2);
    if (close < 0) break;
    out += strip(html.slice(last, open)) + html.slice(open, close + '</pre>'.length);
    last = close + '</pre>'.length;
  }
  return out + strip(html.slice(last));
}
