import { escapeAttr } from '../../format/format.ts';

/**
 * wp_filter_oembed_result: markup from a provider that was only discovered (not on the sanctioned
 * list) is cut down to a blockquote and an iframe, the iframe sandboxed, so an arbitrary page
 * cannot put script into the editor that shows the preview.
 */
const ALLOWED: Record<string, ReadonlySet<string>> = {
  a: new Set(['href']),
  blockquote: new Set(),
  iframe: new Set(['src', 'width', 'height', 'frameborder', 'marginwidth', 'marginheight', 'scrolling', 'title']),
};
const URL_ATTRIBUTES = new Set(['href', 'src']);
const SAFE_URL = /^https?:\/\//i;
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>/g;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g;
const TEXT_SPECIAL = /[<>]/g;
const TEXT_ENTITY: Record<string, string> = { '<': '&lt;', '>': '&gt;' };
const BLOCKQUOTE_THEN_IFRAME = /(<blockquote>[\s\S]*?<\/blockquote>)?[\s\S]*?(<iframe[^>]*><\/iframe>)/;

function rebuildTag(closing: string, name: string, rawAttrs: string): string {
  const allowed = ALLOWED[name];
  if (closing) return `</${name}>`;
  let attrs = '';
  for (const a of rawAttrs.matchAll(ATTRIBUTE)) {
    const key = a[1].toLowerCase();
    const value = a[2] ?? a[3] ?? a[4];
    if (!allowed.has(key) || (URL_ATTRIBUTES.has(key) && !SAFE_URL.test(value.trim()))) continue;
    attrs += ` ${key}="${escapeAttr(value)}"`;
  }
  return `<${name}${attrs}>`;
}

/** The sanitised markup, or false (WordPress's value) when no iframe is left to show. */
export function sanitizeEmbedHtml(html: string): string | false {
  let out = '';
  let last = 0;
  for (const m of html.matchAll(TAG)) {
    out += html.slice(last, m.index).replace(TEXT_SPECIAL, (c) => TEXT_ENTITY[c]);
    last = m.index! + m[0].length;
    const name = m[2].toLowerCase();
    if (ALLOWED[name]) out += rebuildTag(m[1], name, m[3]);
  }
  out += html.slice(last).replace(TEXT_SPECIAL, (c) => TEXT_ENTITY[c]);
  const parts = BLOCKQUOTE_THEN_IFRAME.exec(out);
  if (!parts) return false;
  return (parts[1] ?? '') + parts[2].replace('<iframe', '<iframe sandbox="allow-scripts" security="restricted"');
}
