/**
 * WP_Embed::run_shortcode: do_shortcode with `embed` the only shortcode registered, run at the_content's
 * priority 8, before wpautop and the other shortcodes (do_shortcode at 11 renders those). With
 * shortcode_parse_atts, as it reads the attributes.
 */

/** Shortcode attributes as shortcode_parse_atts returns them: lower-cased names, and positional values under 0, 1… */
export type ShortcodeAttributes = Map<string | number, string>;

/**
 * get_shortcode_regex(['embed']) taken in two steps, so that no text makes it slow (PCRE stops a
 * runaway match at its backtracking limit; JavaScript has none): the opening tag, `[embed` then
 * its attributes up to the first `]` (`/]` closing it), then, for an enclosing one, everything up
 * to the first `[/embed]`, which is what the regex's content group matches.
 */
const EMBED_OPENING = /\[(\[?)embed(?![\w-])/g;
const EMBED_ATTRIBUTES = /([^\]/]*(?:\/(?!\])[^\]/]*)*?)(\/?)\]/y;
const EMBED_CLOSING = '[/embed]';
const HAS_EMBED_TAG = /\[embed(?![^<>&/[\]\x00-\x20=])/;
// wp_html_split's markup: comments, CDATA sections and tags
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<[^>]*>?/g;
const ESCAPED_BRACKET = /&#9[13];/g;

/** get_shortcode_atts_regex */
const ATTRIBUTE = /([\w-]+)\s*=\s*"([^"]*)"(?:\s|$)|([\w-]+)\s*=\s*'([^']*)'(?:\s|$)|([\w-]+)\s*=\s*([^\s'"]+)(?:\s|$)|"([^"]*)"(?:\s|$)|'([^']*)'(?:\s|$)|(\S+)(?:\s|$)/g;
const NBSP_OR_ZWSP = /[\u00a0\u200b]+/g;
const BALANCED_TAGS = /^[^<]*(?:<[^>]*>[^<]*)*$/;
const C_ESCAPE = /\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|([\s\S]))/g;
const C_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', v: '\v', f: '\f', a: '\x07', e: '\x1b' };
const INTEGER_KEY = /^(?:0|[1-9]\d*)$/;

/** PHP's stripcslashes. */
const stripcslashes = (s: string) =>
  s.replace(C_ESCAPE, (_m, oct: string | undefined, hex: string | undefined, c: string | undefined) =>
    oct ? String.fromCharCode(Number.parseInt(oct, 8) & 0xff) : hex ? String.fromCharCode(Number.parseInt(hex, 16)) : (C_ESCAPES[c!] ?? c!),
  );

/** shortcode_parse_atts (no attributes at all gives none, as WP_Embed reads the string it returns then). */
export function parseShortcodeAttributes(text: string): ShortcodeAttributes {
  const atts: ShortcodeAttributes = new Map();
  let next = 0;
  const named = (name: string, value: string) => {
    const key = name.toLowerCase();
    // PHP makes an integer-like array key an integer
    const k = INTEGER_KEY.test(key) ? Number(key) : key;
    if (typeof k === 'number') next = Math.max(next, k + 1);
    atts.set(k, stripcslashes(value));
  };
  for (const m of text.replace(NBSP_OR_ZWSP, ' ').matchAll(ATTRIBUTE)) {
    if (m[1]) named(m[1], m[2]);
    else if (m[3]) named(m[3], m[4]);
    else if (m[5]) named(m[5], m[6]);
    else atts.set(next++, stripcslashes(m[7] ?? m[8] ?? m[9] ?? ''));
  }
  // values with an unclosed element are rejected
  for (const [k, v] of atts) if (v.includes('<') && !BALANCED_TAGS.test(v)) atts.set(k, '');
  return atts;
}

/** What renders one `[embed]`: its attributes and the URL between its tags ('' when self-closed). */
export type EmbedShortcodeHandler = (attributes: ShortcodeAttributes, url: string) => Promise<string>;

/**
 * do_shortcode($content, true) with only `embed` registered: brackets inside tags and comments are
 * ignored (escaped as `&#91;`/`&#93;` while it runs, and unescaped after, with every other escaped
 * bracket of the content, as unescape_invalid_shortcodes does), `[[embed]]` gives `[embed]`.
 */
export async function doEmbedShortcode(content: string, render: EmbedShortcodeHandler): Promise<string> {
  if (!content.includes('[') || !HAS_EMBED_TAG.test(content)) return content;
  const escaped = content.replace(MARKUP, (tag) => (tag.includes('[') || tag.includes(']') ? tag.split('[').join('&#91;').split(']').join('&#93;') : tag));
  let out = '';
  let last = 0;
  const lastBracket = escaped.lastIndexOf(']');
  const lastClosing = escaped.lastIndexOf(EMBED_CLOSING);
  // a search of its own: renderings run concurrently, each waiting on its embeds
  const openings = new RegExp(EMBED_OPENING);
  for (let open = openings.exec(escaped); open; open = openings.exec(escaped)) {
    const start = open.index;
    const afterName = start + open[0].length;
    // no `]` left: this opening and every later one are text
    if (afterName > lastBracket) break;
    EMBED_ATTRIBUTES.lastIndex = afterName;
    const tag = EMBED_ATTRIBUTES.exec(escaped);
    if (!tag) continue;
    let end = EMBED_ATTRIBUTES.lastIndex;
    let url = '';
    if (!tag[2] && end <= lastClosing) {
      const closing = escaped.indexOf(EMBED_CLOSING, end);
      url = escaped.slice(end, closing);
      end = closing + EMBED_CLOSING.length;
    }
    const outer = open[1] === '[' ? '[' : '';
    const trailing = escaped[end] === ']' ? ']' : '';
    end += trailing.length;
    out += escaped.slice(last, start);
    // `[[embed]]` is the shortcode written out, not run
    out += outer && trailing ? escaped.slice(start + 1, end - 1) : outer + (await render(parseShortcodeAttributes(tag[1]), url)) + trailing;
    last = end;
    openings.lastIndex = end;
  }
  out += escaped.slice(last);
  return out.replace(ESCAPED_BRACKET, (e) => (e === '&#91;' ? '[' : ']'));
}
