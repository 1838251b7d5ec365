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

/** wp_replace_in_html_tags with one needle: replaces only inside tags and comments, never in text. */
function replaceInTags(html: string, needle: string, replacement: string): string {
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
