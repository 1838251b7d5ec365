/**
 * WordPress's text formatting functions the site and the REST handlers share: wpautop, esc_html /
 * esc_attr, wp_strip_all_tags and the excerpt trimming of wp_trim_excerpt. Ports of formatting.php;
 * every regex is built once, at load.
 */

const ALL_BLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

// wp_html_split: text, then a tag or comment or CDATA section, alternately (odd indexes are markup).
const HTML_SPLIT = /(<(?:!--[\s\S]*?(?:-->|$)|!\[CDATA\[[\s\S]*?(?:\]\]>|$)|[^>]*>?))/;

const AUTOP = {
  doubleBr: /<br\s*\/?>\s*<br\s*\/?>/g,
  blockOpen: new RegExp(`(<${ALL_BLOCKS}[\\s/>])`, 'g'),
  blockClose: new RegExp(`(</${ALL_BLOCKS}>)`, 'g'),
  hr: /(<hr\s*?\/?>)/g,
  crlf: /\r\n|\r/g,
  optionBefore: /\s*<option/g,
  optionAfter: /<\/option>\s*/g,
  objectOpen: /(<object[^>]*>)\s*/g,
  objectClose: /\s*<\/object>/g,
  paramEmbed: /\s*(<\/?(?:param|embed)[^>]*>)\s*/g,
  mediaOpen: /([<[](?:audio|video)[^>\]]*[>\]])\s*/g,
  mediaClose: /\s*([<[]\/(?:audio|video)[>\]])/g,
  sourceTrack: /\s*(<(?:source|track)[^>]*>)\s*/g,
  figcaptionOpen: /\s*(<figcaption[^>]*>)/g,
  figcaptionClose: /<\/figcaption>\s*/g,
  manyNewlines: /\n\n+/g,
  paragraphSplit: /\n\s*\n/,
  edgeNewlines: /^\n+|\n+$/g,
  emptyP: /<p>\s*<\/p>/g,
  unclosedInBlock: /<p>([^<]+)<\/(div|address|form)>/g,
  wrappedBlock: new RegExp(`<p>\\s*(</?${ALL_BLOCKS}[^>]*>)\\s*</p>`, 'g'),
  wrappedLi: /<p>(<li.+?)<\/p>/g,
  blockquoteInP: /<p><blockquote([^>]*)>/gi,
  pBeforeBlock: new RegExp(`<p>\\s*(</?${ALL_BLOCKS}[^>]*>)`, 'g'),
  pAfterBlock: new RegExp(`(</?${ALL_BLOCKS}[^>]*>)\\s*</p>`, 'g'),
  preserveNewlines: /<(script|style|svg|math)[\s\S]*?<\/\1>/g,
  brVariants: /<br>|<br\/>/g,
  newlineToBr: /(?<!<br \/>)\s*\n/g,
  brAfterBlock: new RegExp(`(</?${ALL_BLOCKS}[^>]*>)\\s*<br />`, 'g'),
  brBeforeBlock: /<br \/>(\s*<\/?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)/g,
  trailingNewlineP: /\n<\/p>$/,
  wpnl: / <!-- wpnl --> |<!-- wpnl -->/g,
};

/** wp_html_split: text, then a tag, comment or CDATA section, alternately (odd indexes are markup). */
export const htmlSplit = (html: string): string[] => html.split(HTML_SPLIT);

/** wp_replace_in_html_tags with one needle: replaces only inside tags and comments, never in text. */
export function replaceInTags(html: string, needle: string, replacement: string): string {
  const parts = html.split(HTML_SPLIT);
  for (let i = 1; i < parts.length; i += 2) if (parts[i].includes(needle)) parts[i] = parts[i].split(needle).join(replacement);
  return parts.join('');
}

/**
 * wpautop: double line breaks become paragraphs, single ones `<br />` (when `br`), leaving block
 * elements, `<pre>` and the newlines inside tags alone. Same output as WordPress for the same input.
 */
export function wpautop(input: string, br = true): string {
  if (input.trim() === '') return '';
  let text = input + '\n';
  const preTags = new Map<string, string>();
  if (text.includes('<pre')) {
    const parts = text.split('</pre>');
    const last = parts.pop()!;
    text = '';
    for (const part of parts) {
      const start = part.indexOf('<pre');
      if (start < 0) {
        text += part;
        continue;
      }
      const name = `<pre wp-pre-tag-${preTags.size}></pre>`;
      preTags.set(name, part.slice(start) + '</pre>');
      text += part.slice(0, start) + name;
    }
    text += last;
  }
  const A = AUTOP;
  text = text.replace(A.doubleBr, '\n\n');
  text = text.replace(A.blockOpen, '\n\n$1');
  text = text.replace(A.blockClose, '$1\n\n');
  text = text.replace(A.hr, '$1\n\n');
  text = text.replace(A.crlf, '\n');
  text = replaceInTags(text, '\n', ' <!-- wpnl --> ');
  if (text.includes('<option')) text = text.replace(A.optionBefore, '<option').replace(A.optionAfter, '</option>');
  if (text.includes('</object>')) text = text.replace(A.objectOpen, '$1').replace(A.objectClose, '</object>').replace(A.paramEmbed, '$1');
  if (text.includes('<source') || text.includes('<track')) text = text.replace(A.mediaOpen, '$1').replace(A.mediaClose, '$1').replace(A.sourceTrack, '$1');
  if (text.includes('<figcaption')) text = text.replace(A.figcaptionOpen, '$1').replace(A.figcaptionClose, '</figcaption>');
  text = text.replace(A.manyNewlines, '\n\n');

  let rebuilt = '';
  for (const paragraph of text.split(A.paragraphSplit)) {
    if (paragraph === '') continue;
    rebuilt += `<p>${paragraph.replace(A.edgeNewlines, '')}</p>\n`;
  }
  text = rebuilt
    .replace(A.emptyP, '')
    .replace(A.unclosedInBlock, '<p>$1</p></$2>')
    .replace(A.wrappedBlock, '$1')
    .replace(A.wrappedLi, '$1')
    .replace(A.blockquoteInP, '<blockquote$1><p>')
    .split('</blockquote></p>')
    .join('</p></blockquote>')
    .replace(A.pBeforeBlock, '$1')
    .replace(A.pAfterBlock, '$1');
  if (br) {
    text = text
      .replace(A.preserveNewlines, (m) => m.split('\n').join('<WPPreserveNewline />'))
      .replace(A.brVariants, '<br />')
      .replace(A.newlineToBr, '<br />\n')
      .split('<WPPreserveNewline />')
      .join('\n');
  }
  text = text.replace(A.brAfterBlock, '$1').replace(A.brBeforeBlock, '$1').replace(A.trailingNewlineP, '</p>');
  for (const [name, original] of preTags) text = text.split(name).join(original);
  if (text.includes('<!-- wpnl -->')) text = text.replace(A.wpnl, '\n');
  return text;
}

const HTML_SPECIAL = /[<>"']|&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#\d+|#x[0-9a-fA-F]+);)/g;
const HTML_ENTITY_OF: Record<string, string> = { '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;', '&': '&amp;' };

/**
 * esc_html / esc_attr: escapes markup characters but, as WordPress does, leaves entities that are
 * already encoded (`&amp;`, `&#8217;`) alone, so stored titles with entities print once.
 */
export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIAL, (c) => HTML_ENTITY_OF[c]);
}

export const escapeAttr = escapeHtml;

const BLOCK_DELIMITER = /<!--\s+\/?wp:[^>]*?-->\n?/g;

/**
 * Content as text is read from it (excerpts, analysis): block content keeps its markup with the
 * block delimiters removed and is not autop'd, as WordPress unhooks wpautop for it; classic content
 * gets wpautop. the_content itself renders through the block registry (src/core/blocks.ts), which
 * also runs the dynamic blocks and does the same for everything else.
 */
export function renderContent(raw: string): string {
  return raw.includes('<!-- wp:') ? raw.replace(BLOCK_DELIMITER, '') : wpautop(raw);
}

const SCRIPT_STYLE_OPEN = /<(script|style)[^>]*?>/gi;
const SCRIPT_STYLE_CLOSE: Record<string, RegExp> = { script: /<\/script>/gi, style: /<\/style>/gi };
const TAG = /<[^>]*>/g;
const BREAKS = /[\r\n\t ]+/g;

/**
 * `html.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '')`, in linear time: the pattern
 * rescans to the end from every opening that has no closing after it, so once a name's closing
 * is not found, its later openings are passed over; openings are looked for only before the last
 * `>`, where each one's `>` is near.
 */
function dropScriptAndStyle(html: string): string {
  const head = html.slice(0, html.lastIndexOf('>') + 1);
  const closable: Record<string, boolean> = { script: true, style: true };
  let out = '';
  let kept = 0;
  SCRIPT_STYLE_OPEN.lastIndex = 0;
  for (let open = SCRIPT_STYLE_OPEN.exec(head); open; open = SCRIPT_STYLE_OPEN.exec(head)) {
    const name = open[1].toLowerCase();
    if (!closable[name]) continue;
    const close = SCRIPT_STYLE_CLOSE[name];
    close.lastIndex = SCRIPT_STYLE_OPEN.lastIndex;
    if (!close.exec(html)) {
      closable[name] = false;
      continue;
    }
    out += html.slice(kept, open.index);
    kept = SCRIPT_STYLE_OPEN.lastIndex = close.lastIndex;
  }
  return kept ? out + html.slice(kept) : html;
}

/**
 * `text.replace(/<[^>]*>/g, '')` in linear time: no tag closes after the last `>`, so the pattern
 * runs only before it (from every `<` of a text without `>` it would rescan to the end).
 */
export function stripTagMarkup(text: string): string {
  const end = text.lastIndexOf('>') + 1;
  return end === 0 ? text : text.slice(0, end).replace(TAG, '') + text.slice(end);
}

/** wp_strip_all_tags keeping line breaks: text without markup (script and style bodies dropped), trimmed. */
export function stripTagsKeepingLines(html: string): string {
  return stripTagMarkup(dropScriptAndStyle(html)).trim();
}

/** wp_strip_all_tags: text without markup (script and style bodies dropped), whitespace collapsed. */
export function stripAllTags(html: string): string {
  return stripTagsKeepingLines(html).replace(BREAKS, ' ').trim();
}

const WORD_SEPARATORS = /[\n\r\t ]+/;

/** wp_trim_words: the first `count` words of the text without markup, `more` appended when cut. */
export function trimWords(html: string, count: number, more = '&hellip;'): string {
  const words = stripAllTags(html).split(WORD_SEPARATORS).filter(Boolean);
  return words.length > count ? words.slice(0, count).join(' ') + more : words.join(' ');
}

/** The excerpt WordPress shows: the post's own, else wp_trim_excerpt's 55 words of the content. */
export function excerptText(excerpt: string, content: string, words = 55, more = ' [&hellip;]'): string {
  return excerpt.trim() ? excerpt.trim() : trimWords(content, words, more);
}

// --- wptexturize, convert_chars, convert_smilies, shortcode_unautop, capital_P_dangit ---

/** wp_spaces_regexp's default: the characters WordPress counts as spaces around quotes, dashes and smilies. */
const SPACES = '[\\r\\n\\t ]|\\u00a0|&nbsp;';
/** PHP's `\Z` (the end, or before a newline that ends the text) where it stands inside a lookaround. */
const END = '\\n?$';

const OPEN_Q_FLAG = '<!--oq-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const APOS_FLAG = '<!--apos-->';
const OPENING_QUOTE = '&#8220;';
const CLOSING_QUOTE = '&#8221;';
const APOS = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const OPENING_SINGLE_QUOTE = '&#8216;';
const CLOSING_SINGLE_QUOTE = '&#8217;';

const COCKNEY = ["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"];
/** The fixed replacements, in WordPress's order (str_replace with arrays replaces one pair after the other). */
const STATIC_PAIRS: readonly [string, string][] = [
  ['...', '&#8230;'],
  ['``', OPENING_QUOTE],
  ["''", CLOSING_QUOTE],
  [' (tm)', ' &#8482;'],
  ...COCKNEY.map((w): [string, string] => [w, w.split("'").join(APOS)]),
];

const AFTER_QUOTE = `(?=${END}|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`;
const APOS_RULES: readonly [RegExp, string][] = [
  // '99' and '99" are ambiguous among other patterns: taken as an abbreviated year ending a quotation
  [new RegExp(`'(\\d\\d)'${AFTER_QUOTE}`, 'g'), `${APOS_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  [new RegExp(`'(\\d\\d)"${AFTER_QUOTE}`, 'g'), `${APOS_FLAG}$1${CLOSING_QUOTE}`],
  // '99 '99s '99's, never '9 '99% '999 '99.0
  [new RegExp(`'(?=\\d\\d(?:${END}|(?![%\\d]|[.,]\\d)))`, 'g'), APOS_FLAG],
  // quoted numbers like '0.42'
  [new RegExp(`(?<=^|${SPACES})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  // at the start, or after ( { < [ " - or a space
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SPACES})'`, 'g'), OPEN_SQ_FLAG],
  // an apostrophe in a word
  [new RegExp(`(?<!${SPACES})'(?!${END}|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SPACES})`, 'g'), APOS_FLAG],
];
const QUOTE_RULES: readonly [RegExp, string][] = [
  [new RegExp(`(?<=^|${SPACES})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSING_QUOTE}`],
  [new RegExp(`(?<=^|[([{\\-]|&lt;|${SPACES})"(?!${SPACES})`, 'g'), OPEN_Q_FLAG],
];
const DASH_RULES: readonly [RegExp, string][] = [
  [/---/g, '&#8212;'],
  [new RegExp(`(?<=^|${SPACES})--(?=$|${SPACES})`, 'g'), '&#8212;'],
  [/(?<!xn)--/g, '&#8211;'],
  [new RegExp(`(?<=^|${SPACES})-(?=$|${SPACES})`, 'g'), '&#8211;'],
];
const TIMES_HINT = /(?<=\d)x\d/;
/** An & that does not start an entity (texturize, convert_chars). */
const BARE_AMPERSAND = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

const NO_TEXTURIZE_TAGS = ['pre', 'code', 'kbd', 'style', 'script', 'tt'];
const NO_TEXTURIZE_SHORTCODES = ['code'];

const applyRules = (text: string, rules: readonly [RegExp, string][]) => rules.reduce((t, [re, to]) => t.replace(re, to), text);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
// PHP's trim() characters (not JavaScript's, which also strips no-break spaces)
const PHP_BLANK = /^[ \t\n\r\0\x0B]*$/;
const PHP_TRIM = /^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g;

const primeRegex = new Map<string, { quote: RegExp; prime: RegExp }>();
const PRIME_FLAG = '<!--wp-prime-or-quote-->';
const FLAG_AFTER_DIGIT = new RegExp(`(?<=\\d)${PRIME_FLAG}`, 'g');
const FLAG_NO_DIGIT = new RegExp(`(?<!\\d)${PRIME_FLAG}`, 'g');

/**
 * wptexturize_primes: whether a quote after a number (7' or 7") is a prime or closes a quotation,
 * decided sentence by sentence (a sentence starts at an opening quote), as WordPress does.
 */
function texturizePrimes(haystack: string, needle: string, prime: string, openQuote: string, closeQuote: string): string {
  let re = primeRegex.get(needle);
  if (!re) primeRegex.set(needle, (re = { quote: new RegExp(`${needle}${AFTER_QUOTE}`, 'g'), prime: new RegExp(`(?<=\\d)${needle}`, 'g') }));
  const sentences = haystack.split(openQuote);
  for (let key = 0; key < sentences.length; key++) {
    let sentence = sentences[key];
    if (!sentence.includes(needle)) continue;
    if (key !== 0 && !sentence.includes(closeQuote)) {
      let count = 0;
      sentence = sentence.replace(re.quote, () => (count++, PRIME_FLAG));
      if (count > 1) {
        // several closing quote candidates: one not after a digit closes, else the last before a period, else the last
        let closed = 0;
        sentence = sentence.replace(FLAG_NO_DIGIT, () => (closed++, closeQuote));
        if (closed === 0) {
          const dotted = sentence.lastIndexOf(`${PRIME_FLAG}.`);
          const pos = dotted >= 0 ? dotted : sentence.lastIndexOf(PRIME_FLAG);
          sentence = sentence.slice(0, pos) + closeQuote + sentence.slice(pos + PRIME_FLAG.length);
        }
        sentence = sentence.replace(re.prime, prime).replace(FLAG_AFTER_DIGIT, prime).split(PRIME_FLAG).join(closeQuote);
      } else if (count === 1) {
        sentence = sentence.split(PRIME_FLAG).join(closeQuote).replace(re.prime, prime);
      } else {
        sentence = sentence.replace(re.prime, prime);
      }
    } else {
      sentence = sentence.replace(re.prime, prime).replace(re.quote, closeQuote);
    }
    if (needle === '"' && sentence.includes('"')) sentence = sentence.split('"').join(closeQuote);
    sentences[key] = sentence;
  }
  return sentences.join(openQuote);
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isNumberChar = (c: string | undefined) => isDigit(c) || c === '.' || c === ',';
const isWordChar = (c: string | undefined) => c !== undefined && /\w/.test(c);

/**
 * 9x9 (times), never 0x9999: what WordPress's `\b(\d(?(?<=0)[\d\.,]+|[\d\.,]*))x(\d[\d\.,]*)\b`
 * replaces with `$1&#215;$2`, found in one pass (the pattern rescans a run of digits from each
 * of its word boundaries). A number before an `x` reaches back to its earliest word boundary;
 * the number after it ends at its last word boundary.
 */
function texturizeTimes(text: string): string {
  let out = '';
  let done = 0;
  for (let x = text.indexOf('x', 1); x > 0; x = text.indexOf('x', x + 1)) {
    let runStart = x;
    while (runStart > done && isNumberChar(text[runStart - 1])) runStart--;
    let start = -1;
    for (let s = runStart; s < x && start < 0; s++)
      if (isDigit(text[s]) && (s === 0 || !isWordChar(text[s - 1])) && (text[s] !== '0' || x - s >= 2)) start = s;
    if (start < 0 || !isDigit(text[x + 1])) continue;
    let runEnd = x + 2;
    while (isNumberChar(text[runEnd])) runEnd++;
    let end = runEnd;
    while (end > x + 1 && isWordChar(text[end - 1]) === isWordChar(text[end])) end--;
    if (end === x + 1) continue;
    out += `${text.slice(done, x)}&#215;${text.slice(x + 1, end)}`;
    done = end;
    x = end - 1;
  }
  return done ? out + text.slice(done) : text;
}

/** _wptexturize_pushpop_element: an opening no-texturize tag (or shortcode) is pushed, its closing pops it. */
function pushPop(text: string, stack: string[], disabled: readonly string[]): void {
  let nameOffset: number;
  let opening: boolean;
  if (text.length > 1 && text[1] !== '/') {
    opening = true;
    nameOffset = 1;
  } else if (stack.length === 0) {
    return;
  } else {
    opening = false;
    nameOffset = 2;
  }
  const space = text.indexOf(' ');
  const tag = space < 0 ? text.slice(nameOffset, -1) : text.slice(nameOffset, Math.max(nameOffset, space));
  if (!disabled.includes(tag)) return;
  if (opening) stack.push(tag);
  else if (stack[stack.length - 1] === tag) stack.pop();
}

/** An element or comment (a comment runs to `-->` or the end; an element to `>` or the end). */
const HTML_ELEMENT = '<(?:(?=!--)!(?:-(?!->)[^-]*)*(?:-->)?|(?!!--)[^>]*>?)';
const SHORTCODE_NAME = /\[\/?([^<>&/[\]\x00-\x20=]+)/g;
const splitRegexes = new Map<string, { split: RegExp; whole: RegExp | null }>();

/** _get_wptexturize_split_regex with _get_wptexturize_shortcode_regex for the shortcodes found (the shortcode body matched atomically, as WordPress's possessive pattern). */
function texturizeSplit(names: readonly string[]): { split: RegExp; whole: RegExp | null } {
  const key = names.join('|');
  let r = splitRegexes.get(key);
  if (r) return r;
  if (!names.length) r = { split: new RegExp(HTML_ELEMENT, 'g'), whole: null };
  else {
    const shortcode = (group: number) =>
      `\\[[\\/\\[]?(?:${names.map(escapeRegExp).join('|')})(?=[\\s\\]\\/])(?=((?:[^\\[\\]<>]|<[^\\[\\]>]*>)*))\\${group}\\]\\]?`;
    r = { split: new RegExp(`${HTML_ELEMENT}|${shortcode(1)}`, 'g'), whole: new RegExp(`^${shortcode(1)}$`) };
  }
  splitRegexes.set(key, r);
  return r;
}

/**
 * wptexturize: curly quotes, apostrophes, primes, dashes, ellipses, ™ and × in text, never
 * inside tags, comments, shortcodes or `pre`/`code`/`kbd`/`style`/`script`/`tt` (nor the `code`
 * shortcode); stray `&` become `&#038;`. `shortcodes` are the registered shortcode names.
 */
export function wptexturize(text: string, shortcodes: readonly string[] = []): string {
  if (!text) return text;
  const found = new Set<string>();
  for (const m of text.matchAll(SHORTCODE_NAME)) found.add(m[1]);
  const names = shortcodes.filter((n) => found.has(n));
  const { split, whole } = texturizeSplit(names);
  const parts: string[] = [];
  let at = 0;
  split.lastIndex = 0;
  for (let m = split.exec(text); m; m = split.exec(text)) {
    if (m[0] === '') {
      split.lastIndex++;
      continue;
    }
    if (m.index > at) parts.push(text.slice(at, m.index));
    parts.push(m[0]);
    at = split.lastIndex;
  }
  if (at < text.length) parts.push(text.slice(at));

  const tagsStack: string[] = [];
  const shortcodesStack: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    let curl = parts[i];
    const first = curl[0];
    if (first === '<') {
      if (curl.startsWith('<!--')) continue;
      curl = parts[i] = curl.replace(BARE_AMPERSAND, '&#038;');
      pushPop(curl, tagsStack, NO_TEXTURIZE_TAGS);
    } else if (PHP_BLANK.test(curl)) {
      continue;
    } else if (first === '[' && whole && whole.test(curl)) {
      if (!curl.startsWith('[[') && !curl.endsWith(']]')) pushPop(curl, shortcodesStack, NO_TEXTURIZE_SHORTCODES);
    } else if (!shortcodesStack.length && !tagsStack.length) {
      for (const [from, to] of STATIC_PAIRS) if (curl.includes(from)) curl = curl.split(from).join(to);
      if (curl.includes("'")) {
        curl = applyRules(curl, APOS_RULES);
        curl = texturizePrimes(curl, "'", PRIME, OPEN_SQ_FLAG, CLOSING_SINGLE_QUOTE);
        curl = curl.split(APOS_FLAG).join(APOS).split(OPEN_SQ_FLAG).join(OPENING_SINGLE_QUOTE);
      }
      if (curl.includes('"')) {
        curl = applyRules(curl, QUOTE_RULES);
        curl = texturizePrimes(curl, '"', DOUBLE_PRIME, OPEN_Q_FLAG, CLOSING_QUOTE);
        curl = curl.split(OPEN_Q_FLAG).join(OPENING_QUOTE);
      }
      if (curl.includes('-')) curl = applyRules(curl, DASH_RULES);
      if (TIMES_HINT.test(curl)) curl = texturizeTimes(curl);
      parts[i] = curl.replace(BARE_AMPERSAND, '&#038;');
    }
  }
  return parts.join('');
}

const CONVERT_CHARS = /&([^#])(?![a-z1-4]{1,8};)/gi;

/** convert_chars: an & that starts no entity becomes `&#038;`. */
export const convertChars = (content: string): string => (content.includes('&') ? content.replace(CONVERT_CHARS, '&#038;$1') : content);

/**
 * smilies_init's table: the smiley, and the emoji WordPress 6.1 prints for it. Its one image
 * smiley (`:mrgreen:`, a PNG under wp-includes) is left out: this site serves no such file, so
 * that text stays as written.
 */
const SMILIES: Readonly<Record<string, string>> = {
  ':neutral:': '\u{1F610}',
  ':twisted:': '\u{1F608}',
  ':arrow:': '\u27A1',
  ':shock:': '\u{1F62F}',
  ':smile:': '\u{1F642}',
  ':???:': '\u{1F615}',
  ':cool:': '\u{1F60E}',
  ':evil:': '\u{1F47F}',
  ':grin:': '\u{1F600}',
  ':idea:': '\u{1F4A1}',
  ':oops:': '\u{1F633}',
  ':razz:': '\u{1F61B}',
  ':roll:': '\u{1F644}',
  ':wink:': '\u{1F609}',
  ':cry:': '\u{1F625}',
  ':eek:': '\u{1F62E}',
  ':lol:': '\u{1F606}',
  ':mad:': '\u{1F621}',
  ':sad:': '\u{1F641}',
  '8-)': '\u{1F60E}',
  '8-O': '\u{1F62F}',
  ':-(': '\u{1F641}',
  ':-)': '\u{1F642}',
  ':-?': '\u{1F615}',
  ':-D': '\u{1F600}',
  ':-P': '\u{1F61B}',
  ':-o': '\u{1F62E}',
  ':-x': '\u{1F621}',
  ':-|': '\u{1F610}',
  ';-)': '\u{1F609}',
  '8O': '\u{1F62F}',
  ':(': '\u{1F641}',
  ':)': '\u{1F642}',
  ':?': '\u{1F615}',
  ':D': '\u{1F600}',
  ':P': '\u{1F61B}',
  ':o': '\u{1F62E}',
  ':x': '\u{1F621}',
  ':|': '\u{1F610}',
  ';)': '\u{1F609}',
  ':!:': '\u2757',
  ':?:': '\u2753',
};
// longest first where one smiley starts another (:???: before :?), as WordPress sorts them
const SMILEY = new RegExp(
  `(?<=${SPACES}|^)(?:${Object.keys(SMILIES)
    .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
    .map(escapeRegExp)
    .join('|')})(?=${SPACES}|$)`,
  'gm',
);
/**
 * convert_smilies' `preg_split('/(<.*>)/U')`: text and tags (a `<` to the first `>` on its line),
 * alternately, found in one pass (the pattern rescans a line from every `<` without a `>`).
 */
function splitTagsOnLines(text: string): string[] {
  const parts: string[] = [];
  let kept = 0;
  let gt = -1;
  let nl = -1;
  for (let lt = text.indexOf('<'); lt >= 0; ) {
    if (gt < lt) gt = text.indexOf('>', lt);
    if (gt < 0) break;
    if (nl < lt) nl = text.indexOf('\n', lt);
    if (nl >= 0 && nl < gt) {
      lt = text.indexOf('<', nl);
      continue;
    }
    parts.push(text.slice(kept, lt), text.slice(lt, gt + 1));
    kept = gt + 1;
    lt = text.indexOf('<', kept);
  }
  parts.push(text.slice(kept));
  return parts;
}
const SMILEY_IGNORED = /^<(code|pre|style|script|textarea)[^>]*>/;

/** convert_smilies (with the `use_smilies` option on): text smilies become their emoji, outside tags and code/pre/style/script/textarea. */
export function convertSmilies(text: string): string {
  const parts = splitTagsOnLines(text);
  let ignoring = '';
  for (let i = 0; i < parts.length; i++) {
    const content = parts[i];
    if (!ignoring) ignoring = SMILEY_IGNORED.exec(content)?.[1] ?? '';
    if (!ignoring && content.length > 0 && content[0] !== '<') parts[i] = content.replace(SMILEY, (s) => SMILIES[s.trim()] ?? s);
    if (ignoring && content === `</${ignoring}>`) ignoring = '';
  }
  return parts.join('');
}

const unautopOpenings = new Map<string, RegExp>();
/** The end of `(?:SPACES)*</p>` at `at`, or -1. */
function paragraphCloseAt(html: string, at: number): number {
  for (;;) {
    const c = html[at];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\u00a0') at++;
    else if (html.startsWith('&nbsp;', at)) at += 6;
    else break;
  }
  return html.startsWith('</p>', at) ? at + 4 : -1;
}

/**
 * shortcode_unautop: a paragraph holding nothing but one of `shortcodes` (self-closed, or with
 * its content up to its first closing tag) loses its `<p>`. Matches what WordPress's pattern
 * matches, in one pass: each closing tag is looked for once.
 */
export function shortcodeUnautop(html: string, shortcodes: readonly string[]): string {
  if (!shortcodes.length) return html;
  const key = shortcodes.join('|');
  let opening = unautopOpenings.get(key);
  if (!opening) unautopOpenings.set(key, (opening = new RegExp(`<p>(?:${SPACES})*\\[(${shortcodes.map(escapeRegExp).join('|')})(?![\\w-])`, 'g')));
  const closings = new Map<string, number>();
  /** The next `[/name]` at or after `from` (remembered: openings are met in order). */
  const closingAfter = (name: string, from: number) => {
    let at = closings.get(name) ?? -2;
    if (at !== -1 && at < from) closings.set(name, (at = html.indexOf(`[/${name}]`, from)));
    return at;
  };
  let out = '';
  let done = 0;
  let bracket = -1;
  opening.lastIndex = 0;
  for (let m = opening.exec(html); m; m = opening.exec(html)) {
    const name = m[1];
    const shortcodeStart = m.index + m[0].length - name.length - 1;
    if (bracket < m.index + m[0].length) bracket = html.indexOf(']', m.index + m[0].length);
    if (bracket < 0) break;
    let end = -1;
    let shortcodeEnd = bracket + 1;
    if (html[bracket - 1] !== '/' || bracket - 1 < m.index + m[0].length) {
      const closing = closingAfter(name, bracket + 1);
      if (closing >= 0) {
        const afterClosing = closing + name.length + 3;
        end = paragraphCloseAt(html, afterClosing);
        if (end >= 0) shortcodeEnd = afterClosing;
      }
    }
    if (end < 0) end = paragraphCloseAt(html, bracket + 1);
    if (end < 0) {
      opening.lastIndex = m.index + 1;
      continue;
    }
    out += html.slice(done, m.index) + html.slice(shortcodeStart, shortcodeEnd);
    done = opening.lastIndex = end;
  }
  return done ? out + html.slice(done) : html;
}

const DANGIT = [' Wordpress', '&#8216;Wordpress', '&#8220;Wordpress', '>Wordpress', '(Wordpress'];

/** capital_P_dangit on content: "Wordpress" after a space, an opening quote, a tag or a parenthesis is spelt WordPress. */
export function capitalPDangit(text: string): string {
  if (!text.includes('Wordpress')) return text;
  for (const wrong of DANGIT) text = text.split(wrong).join(wrong.replace('Wordpress', 'WordPress'));
  return text;
}

/** the_title's filters: wptexturize, convert_chars, trim, then capital_P_dangit's plain replacement for titles. */
export function theTitle(title: string): string {
  return convertChars(wptexturize(title)).replace(PHP_TRIM, '').split('Wordpress').join('WordPress');
}
