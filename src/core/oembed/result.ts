import { randomInt } from 'node:crypto';
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
const phpEmpty = (v: unknown) => !v || v === '0' || (Array.isArray(v) && v.length === 0);
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

const FIRST_IFRAME = /<iframe([^>]*)>/i;
const IFRAME_START = /<iframe /gi;

/** wp_filter_oembed_iframe_title_attribute: the iframe's own title, else the answer's, written first on every iframe. */
function withIframeTitle(html: string, data: OEmbedData): string {
  let title = nonEmptyString(data.title) ? data.title : '';
  const iframe = FIRST_IFRAME.exec(html);
  let attrs: Map<string, HairAttribute> | undefined;
  if (iframe) {
    attrs = new Map();
    // names written in capitals count as their lower-case selves, unless that is there too
    const found = hair(iframe[1]);
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
    out = out.split(iframe[0]).join(`<iframe ${[...attrs.values()].map((a) => a.whole).join(' ').trim()}>`);
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

const BLOCKQUOTE_THEN_IFRAME = /^(<blockquote>[\s\S]*?<\/blockquote>)?[\s\S]*(<iframe[\s\S]*?><\/iframe>)/;
const SRC = / src=(['"])(.*?)\1/;

/**
 * wp_filter_oembed_result for markup from a provider that was only discovered: cut down to a
 * blockquote (only when it leads) and the last iframe, the iframe sandboxed and given a secret
 * that pairs it with the blockquote, and hidden behind the blockquote when there is one. False
 * (WordPress's value) when no iframe is left to show.
 */
function filterUntrusted(result: string): string | false {
  let html = ksesWith(result, EMBED_TAGS);
  const content = BLOCKQUOTE_THEN_IFRAME.exec(html);
  if (!content?.[2]) return false;
  const blockquote = content[1] ?? '';
  html = blockquote + content[2];
  const src = SRC.exec(html);
  if (src) {
    const secret = embedSecret();
    const [whole, q, value] = src;
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

const PRE_ELEMENT = /<pre[^>]*>[\s\S]+?<\/pre>/gi;

/** WP_oEmbed::_strip_newlines: line breaks go (wpautop would break the markup apart), but not inside `<pre>`. */
function stripNewlines(html: string): string {
  if (!html.includes('\n')) return html;
  const pres: string[] = [];
  const held = html.replace(PRE_ELEMENT, (pre) => `\u0000${pres.push(pre) - 1}\u0000`);
  return held.replace(/\r?\n/g, '').replace(/\u0000(\d+)\u0000/g, (_m, i: string) => pres[Number(i)]);
}
