import { randomUUID } from 'node:crypto';
import type { IOptions } from 'sanitize-html';
import allowed from './kses-allowed-html.json' with { type: 'json' };
import { escapeAttr } from './format.ts';

/**
 * WordPress's kses for what people without `unfiltered_html` write: wp_filter_post_kses on post
 * content and excerpts ($allowedposttags), wp_filter_kses on titles and term descriptions
 * ($allowedtags). Tags outside the list lose their markup and keep their text, attributes outside
 * it go, URLs with a protocol outside wp_allowed_protocols go, style keeps only the declarations
 * safecss_filter_attr would. HTML comments (block delimiters, `<!--more-->`) stay, their own text
 * filtered as kses filters it. The parsing and rewriting is sanitize-html's; the lists are data
 * (kses-allowed-html.json).
 */
export type KsesContext = 'post' | 'data';

/** A declaration value safecss_filter_attr keeps: none of `\ ( & } =` nor a comment (so no url(), var() or calc() either). */
const SAFE_CSS_VALUE = /^(?!.*\/\*)[^\\(&}=]*$/s;

function optionsFor(context: KsesContext): IOptions {
  const tags: Record<string, string[]> = context === 'post' ? allowed.post : allowed.data;
  const global = context === 'post' ? allowed.globalAttributes : [];
  const styles = Object.fromEntries(allowed.safeStyleProperties.map((p) => [p, [SAFE_CSS_VALUE]]));
  return {
    allowedTags: Object.keys(tags),
    allowedAttributes: Object.fromEntries(Object.entries(tags).map(([tag, attrs]) => [tag, [...attrs, ...global]])),
    allowedSchemes: allowed.protocols,
    allowedSchemesByTag: {},
    allowedSchemesAppliedToAttributes: allowed.uriAttributes,
    allowProtocolRelative: true,
    allowedStyles: { '*': styles },
    // kses removes a disallowed element's tags, not its text
    disallowedTagsMode: 'discard',
    nonTextTags: [],
  };
}

type Sanitizer = typeof import('sanitize-html');
let loaded: Promise<{ sanitize: Sanitizer; options: Record<KsesContext, IOptions> }> | undefined;

/** sanitize-html (and the postcss and htmlparser2 it brings) is loaded on the first filtered write, not at start-up. */
function load() {
  return (loaded ??= import('sanitize-html').then((m) => ({ sanitize: m.default, options: { post: optionsFor('post'), data: optionsFor('data') } })));
}

/**
 * Deepest element nesting handed to the parser, as browsers cap it (Blink: 512). The parser's
 * open-element stack costs time in proportion to its depth at every tag, so 300,000 unclosed
 * `<b>` took half a minute; tags that would open deeper lose their markup, as kses drops a tag.
 */
const MAX_NESTING = 512;
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** A start or end tag, never scanning past the next `<` (so a text of `<` is read once). */
const TAG = /<(\/?)([a-zA-Z][^\s/<>]*)[^<>]*>/g;

function capNesting(html: string): string {
  let depth = 0;
  return html.replace(TAG, (tag, closing: string, name: string) => {
    if (closing) depth = Math.max(0, depth - 1);
    else if (!VOID_ELEMENTS.has(name.toLowerCase()) && !tag.endsWith('/>') && ++depth > MAX_NESTING) {
      depth--;
      return '';
    }
    return tag;
  });
}

/** `<!--…-->`, or an unclosed one to the end, as wp_kses_split finds them. */
const COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;

/** wp_kses: the filtered HTML of `html` for the context. */
export async function kses(html: string, context: KsesContext): Promise<string> {
  if (!html) return html;
  const { sanitize, options } = await load();
  const comments: string[] = [];
  // comments are set aside behind a token the sanitiser keeps as text, and put back filtered
  const token = `kses${randomUUID().replace(/-/g, '')}c`;
  const marked = capNesting(html).replace(COMMENT, (_m, body: string) => `${token}${comments.push(filteredComment(body, sanitize, options[context])) - 1}_`);
  if (!comments.length) return sanitize(marked, options[context]);
  const tokens = new RegExp(`${token}(\\d+)_`, 'g');
  const out = sanitize(marked, { ...options[context], textFilter: (text) => text.replace(tokens, (_m, i: string) => comments[Number(i)]) });
  // a token left in an attribute value stands for text written there: put back as text
  return out.replace(tokens, (_m, i: string) => escapeAttr(comments[Number(i)]));
}

/** wp_kses_split2 on a comment: its text filtered, runs of dashes made one (so nothing inside can close it), none at the end. */
function filteredComment(body: string, sanitize: Sanitizer, options: IOptions): string {
  const text = sanitize(body.replace(/<!--|-->/g, ''), options).replace(/--+/g, '-').replace(/-$/, '');
  return text ? `<!--${text}-->` : '';
}
