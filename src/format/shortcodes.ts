import allowed from './kses-allowed-html.json' with { type: 'json' };
import { escapeAttr } from './format.ts';
import { ksesBadProtocol } from './kses-bad-protocol.ts';

/**
 * WordPress 6.1's shortcode API as text functions (wp-includes/shortcodes.php): the pattern a
 * shortcode is found with, its attributes as shortcode_parse_atts reads them (quirks included),
 * shortcode_atts, do_shortcode with do_shortcodes_in_html_tags, and strip_shortcodes. Which
 * shortcodes exist and what they render is the caller's (the core's registry, src/core/shortcodes/).
 */

/**
 * shortcode_parse_atts's answer: the PHP array it builds, in its order (named attributes
 * lower-cased, the others under their positions '0', '1'...), or the text itself, left-trimmed,
 * when no attribute was found at all.
 */
export type ShortcodeAttributes = ReadonlyMap<string, string> | string;

/** What renders one shortcode: its attributes, the text it encloses ('' when it encloses none) and its name. */
export type ShortcodeHandler = (atts: ShortcodeAttributes, content: string, tag: string) => string | Promise<string>;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/#-]/g, '\\$&');

/**
 * get_shortcode_regex for `names`: groups 1 and 6 the doubled brackets that escape a shortcode,
 * 2 its name, 3 its attribute text, 4 the slash of a self-closed one, 5 what an enclosing one
 * encloses. (WordPress's possessive loops match the same texts here: each turn of the enclosed
 * part's loop starts at a `[`, so backtracking can find no other end.)
 */
export function getShortcodeRegex(names: readonly string[]): string {
  const tags = names.map(escapeRegExp).join('|');
  return (
    `\\[(\\[?)(${tags})(?![\\w-])` +
    '([^\\]\\/]*(?:\\/(?!\\])[^\\]\\/]*)*?)' +
    '(?:(\\/)\\]|\\](?:([^\\[]*(?:\\[(?!\\/\\2\\])[^\\[]*)*)\\[\\/\\2\\])?)' +
    '(\\]?)'
  );
}

/** A shortcode found: get_shortcode_regex's groups (`[whole, [, name, attributes, /, content, ]]`) and where it starts. */
type ShortcodeMatch = [whole: string, before: string, name: string, attributes: string, slash: string | undefined, content: string | undefined, after: string] & { index: number };

const namePatterns = new Map<string, RegExp>();

/** The start of get_shortcode_regex: `[`, the optional escaping `[` and the name. */
function namePattern(names: readonly string[]): RegExp {
  const key = names.join('|');
  let pattern = namePatterns.get(key);
  if (!pattern) {
    if (namePatterns.size > 64) namePatterns.clear();
    namePatterns.set(key, (pattern = new RegExp(`\\[(\\[?)(${names.map(escapeRegExp).join('|')})(?![\\w-])`, 'g')));
  }
  pattern.lastIndex = 0;
  return pattern;
}

/**
 * Each match of get_shortcode_regex in order, as preg_replace_callback finds them. Its pattern's
 * attributes run to the first `]` after the name (a `/` just before it closes the shortcode), and
 * what an enclosing one encloses to the first `[/name]` after that: both are looked up here, the
 * next one remembered, so a text of many unclosed shortcodes is read once, not once for each.
 */
function* shortcodesIn(text: string, names: readonly string[]): Generator<ShortcodeMatch> {
  const start = namePattern(names);
  let bracket = -2;
  const nextClosing = new Map<string, number>();
  const closingAfter = (name: string, from: number) => {
    let at = nextClosing.get(name) ?? -2;
    if (at !== -1 && at < from) nextClosing.set(name, (at = text.indexOf(`[/${name}]`, from)));
    return at;
  };
  for (let m = start.exec(text); m; m = start.exec(text)) {
    const [opened, before, name] = m;
    const attributesFrom = m.index + opened.length;
    if (bracket < attributesFrom) bracket = text.indexOf(']', attributesFrom);
    // no `]` after it: no shortcode starts here, nor anywhere later
    if (bracket < 0) return;
    const slash = bracket > attributesFrom && text[bracket - 1] === '/' ? '/' : undefined;
    const attributes = text.slice(attributesFrom, slash ? bracket - 1 : bracket);
    let end = bracket + 1;
    let content: string | undefined;
    if (!slash) {
      const closing = closingAfter(name, end);
      if (closing >= 0) {
        content = text.slice(end, closing);
        end = closing + name.length + 3;
      }
    }
    const after = text[end] === ']' ? ']' : '';
    end += after.length;
    yield Object.assign([text.slice(m.index, end), before, name, attributes, slash, content, after], { index: m.index }) as ShortcodeMatch;
    start.lastIndex = end;
  }
}

/** get_shortcode_atts_regex: name="value", name='value', name=value, "value", 'value', value. */
/** PCRE's `\\s` without the u flag: ASCII spaces only. */
const SP = '[\\t\\n\\v\\f\\r ]';
const ATTRIBUTE = new RegExp(`([\\w-]+)${SP}*=${SP}*"([^"]*)"(?:${SP}|$)|([\\w-]+)${SP}*=${SP}*'([^']*)'(?:${SP}|$)|([\\w-]+)${SP}*=${SP}*([^\\t\\n\\v\\f\\r '"]+)(?:${SP}|$)|"([^"]*)"(?:${SP}|$)|'([^']*)'(?:${SP}|$)|([^\\t\\n\\v\\f\\r ]+)(?:${SP}|$)`, 'g');
/** A value holding `<` is kept only when every tag in it is closed by `>`. */
const CLOSED_TAGS = /^[^<]*(?:<[^>]*>[^<]*)*$/;
const C_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', v: '\v', b: '\b', f: '\f' };

/** PHP's stripcslashes: C escapes (`\n`, `\x41`, `\101`) become their characters, any other backslash goes. */
export function stripcslashes(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|[\s\S]?)/g, (_, e: string) => {
    if (e === '') return '';
    if (e[0] === 'x' && e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    return C_ESCAPES[e] ?? e;
  });
}

/** A PHP array key that PHP stores as an integer (a canonical decimal). */
const INTEGER_KEY = /^(?:0|-?[1-9][0-9]{0,17})$/;

/**
 * shortcode_parse_atts: the attributes of a shortcode's opening tag. No-break and zero-width
 * spaces count as spaces; a name `0` (empty to PHP) drops its attribute; a value with an unclosed
 * tag becomes ''; a numeric name is a PHP integer key, so the next positional value follows it.
 */
export function shortcodeParseAtts(text: string): ShortcodeAttributes {
  const spaced = text.replace(/[\u00a0\u200b]+/g, ' ');
  const atts = new Map<string, string>();
  let next = 0;
  const set = (key: string, value: string) => {
    if (INTEGER_KEY.test(key) && Number(key) >= next) next = Number(key) + 1;
    atts.set(key, value);
  };
  let found = false;
  for (const m of spaced.matchAll(ATTRIBUTE)) {
    found = true;
    const full = (s: string | undefined) => s !== undefined && s !== '' && s !== '0';
    if (full(m[1])) set(m[1].toLowerCase(), stripcslashes(m[2]));
    else if (full(m[3])) set(m[3].toLowerCase(), stripcslashes(m[4]));
    else if (full(m[5])) set(m[5].toLowerCase(), stripcslashes(m[6]));
    else if (m[7]) set(String(next), stripcslashes(m[7]));
    else if (m[8]) set(String(next), stripcslashes(m[8]));
    // PHP leaves a group unset when no later one matched: `0=x` (its name empty to PHP) adds nothing
    else if (m[9] !== undefined) set(String(next), stripcslashes(m[9]));
  }
  if (!found) return spaced.replace(/^[ \t\n\r\0\x0B]+/, '');
  for (const [key, value] of atts) if (value.includes('<') && !CLOSED_TAGS.test(value)) atts.set(key, '');
  return atts;
}

/**
 * shortcode_atts: each of `pairs`' names with the attribute's value when the shortcode has it,
 * else the default. Attributes that are a string (none parsed) count as none (PHP 8 fails on the
 * handlers that then write into them; this server renders them with the defaults instead).
 */
export function shortcodeAtts<T extends Record<string, string>>(pairs: T, atts: ShortcodeAttributes): T {
  const out: Record<string, string> = {};
  for (const [name, fallback] of Object.entries(pairs)) out[name] = typeof atts !== 'string' && atts.has(name) ? atts.get(name)! : fallback;
  return out as T;
}

/** The named attributes as a map a handler may add to (a string of attributes is none). */
export const attributeMap = (atts: ShortcodeAttributes): Map<string, string> => new Map(typeof atts === 'string' ? [] : atts);

/** The names of shortcodes the text seems to open (`[name`), as do_shortcode finds them. */
const OPENED_NAME = /\[([^<>&/[\]\x00-\x20=]+)/g;

function namesIn(content: string, names: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const m of content.matchAll(OPENED_NAME)) seen.add(m[1]);
  return [...names].filter((n) => seen.has(n));
}

/** preg_replace_callback of get_shortcode_regex for `names`, with a callback that may wait, called in order (handlers count their instances). */
async function replaceEach(text: string, names: readonly string[], replace: (m: ShortcodeMatch) => string | Promise<string>): Promise<{ text: string; count: number }> {
  let out = '';
  let done = 0;
  let count = 0;
  for (const m of shortcodesIn(text, names)) {
    out += text.slice(done, m.index) + (await replace(m));
    done = m.index + m[0].length;
    count++;
  }
  return count ? { text: out + text.slice(done), count } : { text, count };
}

/** do_shortcode_tag: an escaped shortcode loses one bracket each side; any other is its handler's output between the extra brackets. */
async function shortcodeTag(m: ShortcodeMatch, handlers: ReadonlyMap<string, ShortcodeHandler>): Promise<string> {
  const [whole, before, tag, attText, , content = '', after] = m;
  if (before === '[' && after === ']') return whole.slice(1, -1);
  return before + (await handlers.get(tag)!(shortcodeParseAtts(attText), content, tag)) + after;
}

/** strip_shortcode_tag: an escaped shortcode loses one bracket each side, any other goes with what it encloses. */
function strippedTag(m: ShortcodeMatch): string {
  const [whole, before, , , , , after] = m;
  return before === '[' && after === ']' ? whole.slice(1, -1) : before + after;
}

/** get_html_split_regex: comments, CDATA sections and elements (each to its end, or to the end of the text). */
const HTML_SPLIT = /(<(?:(?=!--|!\[CDATA\[)(?:(?=!-)!(?:-(?!->)[^-]*)*(?:-->)?|!\[CDATA\[[^\]]*(?:\](?!\]>)[^\]]*)*(?:\]\]>)?)|[^>]*>?))/;

const encodeBrackets = (s: string) => s.replace(/[[\]]/g, (c) => (c === '[' ? '&#91;' : '&#93;'));

/** wp_kses_hair_parse's attribute: a name (or a shortcode in its place) with an optional value. */
const HAIR = `(?:[_a-zA-Z][-_a-zA-Z0-9:.]*|\\[\\[?[^\\[\\]]+\\]\\]?)(?:\\s*=\\s*(?:"[^"]*"|'[^']*'|[^\\s"']+(?:\\s|$))|(?:\\s|$))\\s*`;
const HAIR_WHOLE = new RegExp(`^(?:${HAIR})+$`);
const HAIR_EACH = new RegExp(HAIR, 'g');

/** wp_kses_attr_parse: an opening tag as [its start, each attribute with its spaces, its end], or null for anything else. */
function attributeParts(element: string): string[] | null {
  const m = /^(<\s*)(\/\s*)?([a-zA-Z0-9]+\s*)([^>]*)(>?)$/.exec(element);
  if (!m || m[2]) return null;
  let attr = m[4];
  const slash = /\s*\/\s*$/.exec(attr)?.[0] ?? '';
  if (slash) attr = attr.slice(0, -slash.length);
  let parts: string[] = [];
  if (attr !== '') {
    if (!HAIR_WHOLE.test(attr)) return null;
    parts = attr.match(HAIR_EACH) ?? [];
  }
  return [m[1] + m[3], ...parts, slash + m[5]];
}

const allowedPostHtml: Record<string, string[]> = allowed.post;

/**
 * wp_kses_one_attr: one `name="value"` attribute of `element` as the post's kses leaves it: the
 * value attribute-escaped, a URL's bad protocol taken off, and '' for an attribute (or element)
 * the post's allowed HTML does not have.
 */
function ksesOneAttr(attribute: string, element: string): string {
  const lead = /^\s*/.exec(attribute)![0];
  const trail = /\s*$/.exec(attribute.slice(lead.length))![0];
  const text = attribute.slice(lead.length, attribute.length - trail.length);
  const eq = /\s*=\s*/.exec(text);
  const name = eq ? text.slice(0, eq.index) : text;
  let whole = text;
  if (eq) {
    let value = text.slice(eq.index + eq[0].length);
    let quote = value[0] ?? '';
    if (quote === '"' || quote === "'") {
      if (value.length < 2 || !value.endsWith(quote)) return '';
      value = value.slice(1, -1);
    } else quote = '"';
    value = escapeAttr(value);
    if (allowed.uriAttributes.includes(name.toLowerCase())) value = ksesBadProtocol(value);
    whole = `${name}=${quote}${value}${quote}`;
  }
  const attrs = allowedPostHtml[element.toLowerCase()];
  const lower = name.toLowerCase();
  const permitted = attrs && (attrs.includes(lower) || allowed.globalAttributes.includes(lower) || /^data(?:-[a-z0-9_]+)+$/.test(lower));
  return lead + (permitted ? whole : '') + trail;
}

/**
 * do_shortcodes_in_html_tags: shortcodes inside HTML tags' attributes are rendered (a quoted
 * value's result through kses, kept only when kses leaves something), and every other bracket
 * inside a tag or comment is encoded (`&#91;`, `&#93;`) so the main pass leaves it alone. With
 * `ignoreHtml` (strip_shortcodes) nothing inside tags is rendered.
 */
async function shortcodesInHtmlTags(content: string, ignoreHtml: boolean, names: readonly string[], tag: (m: ShortcodeMatch) => string | Promise<string>): Promise<string> {
  const parts = content.split('&#91;').join('&#091;').split('&#93;').join('&#093;').split(HTML_SPLIT);
  for (let i = 1; i < parts.length; i += 2) {
    const element = parts[i];
    const noOpen = !element.includes('[');
    const noClose = !element.includes(']');
    if (noOpen || noClose) {
      if (noOpen !== noClose) parts[i] = encodeBrackets(element);
      continue;
    }
    if (ignoreHtml || element.startsWith('<!--') || element.startsWith('<![CDATA[')) {
      parts[i] = encodeBrackets(element);
      continue;
    }
    const attributes = attributeParts(element);
    if (!attributes) {
      // `[name] <[email]>`: a shortcode right after the `<`
      const rendered = /^<\s*\[\[?[^[\]]+\]/.test(element) ? (await replaceEach(element, names, tag)).text : element;
      parts[i] = encodeBrackets(rendered);
      continue;
    }
    const front = attributes.shift()!;
    const back = attributes.pop()!;
    const elementName = /[a-zA-Z0-9]+/.exec(front)![0];
    for (let a = 0; a < attributes.length; a++) {
      const attr = attributes[a];
      const open = attr.indexOf('[');
      const close = attr.indexOf(']');
      if (open < 0 || close < 0) continue;
      const double = attr.indexOf('"');
      const single = attr.indexOf("'");
      if ((single < 0 || open < single) && (double < 0 || open < double)) {
        // a shortcode outside quotes is only written by someone allowed unfiltered HTML: left unfiltered
        attributes[a] = (await replaceEach(attr, names, tag)).text;
      } else {
        const { text, count } = await replaceEach(attr, names, tag);
        if (count) {
          const filtered = ksesOneAttr(text, elementName);
          if (filtered.trim() !== '') attributes[a] = filtered;
        }
      }
    }
    parts[i] = encodeBrackets(front + attributes.join('') + back);
  }
  return parts.join('');
}

/** unescape_invalid_shortcodes: the brackets encoded inside tags come back. */
const unescapeBrackets = (content: string) => content.split('&#91;').join('[').split('&#93;').join(']');

/**
 * do_shortcode: every shortcode of `handlers` in the content replaced by its handler's output,
 * in order, those inside HTML attributes too (unless `ignoreHtml`). A handler renders what it
 * encloses itself (calling this again), as WordPress's handlers do.
 */
export async function doShortcode(content: string, handlers: ReadonlyMap<string, ShortcodeHandler>, ignoreHtml = false): Promise<string> {
  if (!content.includes('[') || !handlers.size) return content;
  const names = namesIn(content, handlers.keys());
  if (!names.length) return content;
  const tag = (m: ShortcodeMatch) => shortcodeTag(m, handlers);
  const inTags = await shortcodesInHtmlTags(content, ignoreHtml, names, tag);
  return unescapeBrackets((await replaceEach(inTags, names, tag)).text);
}

/** strip_shortcodes: the shortcodes of `names` removed with what they enclose (escaped ones unescaped), none inside HTML tags. */
export async function stripShortcodes(content: string, names: readonly string[]): Promise<string> {
  if (!content.includes('[') || !names.length) return content;
  const found = namesIn(content, names);
  if (!found.length) return content;
  const inTags = await shortcodesInHtmlTags(content, true, found, strippedTag);
  return unescapeBrackets((await replaceEach(inTags, found, strippedTag)).text);
}
