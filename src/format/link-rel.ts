import allowed from './kses-allowed-html.json' with { type: 'json' };
import { escapeAttr } from './format.ts';
import { ksesBadProtocol } from './kses-bad-protocol.ts';

/**
 * The `rel` WordPress 6.1 adds to links when text is saved: `noopener` on a link with a target
 * (wp_targeted_link_rel, on every user's titles, content, excerpts, comments and descriptions)
 * and `nofollow ugc` on a comment's links to other sites (wp_rel_ugc).
 */

interface HairAttribute {
  value: string;
  whole: string;
  valueless: boolean;
}

/** wp_kses_html_error: the malformed start of an attribute list dropped. */
const dropMalformed = (s: string) => s.replace(/^(?:"[^"]*(?:"|$)|'[^']*(?:'|$)|\S)*\s*/, '');

/**
 * wp_kses_hair: a tag's attributes by name (the first of a name wins), each with its value (a
 * URL attribute's bad protocol taken off) and its `whole` text, an unquoted value quoted.
 */
export function ksesHair(text: string): Map<string, HairAttribute> {
  const out = new Map<string, HairAttribute>();
  let attr = text;
  let mode = 0;
  let name = '';
  const valueOf = (v: string) => (allowed.uriAttributes.includes(name.toLowerCase()) ? ksesBadProtocol(v) : v);
  const add = (a: HairAttribute) => {
    if (!out.has(name)) out.set(name, a);
  };
  while (attr.length) {
    let working = false;
    if (mode === 0) {
      const m = /^[_a-zA-Z][-_a-zA-Z0-9:.]*/.exec(attr);
      if (m) {
        name = m[0];
        working = true;
        mode = 1;
        attr = attr.slice(m[0].length);
      }
    } else if (mode === 1) {
      const eq = /^\s*=\s*/.exec(attr);
      const space = /^\s+/.exec(attr);
      if (eq) {
        working = true;
        mode = 2;
        attr = attr.slice(eq[0].length);
      } else if (space) {
        working = true;
        mode = 0;
        add({ value: '', whole: name, valueless: true });
        attr = attr.slice(space[0].length);
      }
    } else {
      const double = /^"([^"]*)"(\s+|\/?$)/.exec(attr);
      const single = double ? null : /^'([^']*)'(\s+|\/?$)/.exec(attr);
      const bare = double || single ? null : /^([^\s"']+)(\s+|\/?$)/.exec(attr);
      if (double || single || bare) {
        const m = (double ?? single ?? bare)!;
        const value = valueOf(m[1]);
        add({ value, whole: single ? `${name}='${value}'` : `${name}="${value}"`, valueless: false });
        working = true;
        mode = 0;
        // the value and the spaces after it (not a closing slash)
        attr = attr.replace(double ? /^"[^"]*"(\s+|$)/ : single ? /^'[^']*'(\s+|$)/ : /^[^\s"']+(\s+|$)/, '');
      }
    }
    if (!working) {
      const before = attr;
      attr = dropMalformed(attr);
      mode = 0;
      if (attr === before) break;
    }
  }
  if (mode === 1) add({ value: '', whole: name, valueless: true });
  return out;
}

/** wp_targeted_link_rel_callback: `rel` gets `noopener` (once) on a link with a `target`, its attributes rewritten as kses_hair reads them. */
function targetedLink(linkHtml: string): string {
  const atts = ksesHair(linkHtml);
  if (!atts.has('target')) return `<a ${linkHtml}>`;
  const rel = atts.has('rel') ? [...new Set(`${atts.get('rel')!.value} noopener`.split(/\s/).filter(Boolean))].join(' ') : 'noopener';
  const whole = `rel="${escapeAttr(rel)}"`;
  if (atts.has('rel')) atts.get('rel')!.whole = whole;
  else atts.set('rel', { value: rel, whole, valueless: false });
  return `<a ${[...atts.values()].map((a) => a.whole).join(' ')}>`;
}

const SCRIPT_OR_STYLE = /<(script|style).*?<\/\1>/gis;

/** wp_targeted_link_rel: every `<a>` with a target, outside scripts and styles, gets `rel="noopener"`. */
export function targetedLinkRel(text: string): string {
  const lower = text.toLowerCase();
  if (!lower.includes('target') || !lower.includes('<a ') || isSerialized(text)) return text;
  const kept = text.match(SCRIPT_OR_STYLE) ?? [];
  const parts = text.split(SCRIPT_OR_STYLE).filter((_, i) => i % 2 === 0);
  return parts.map((part, i) => part.replace(/<a\s([^>]*target\s*=[^>]*)>/gi, (_, link: string) => targetedLink(link)) + (kept[i] ?? '')).join('');
}

/** is_serialized, as wp_targeted_link_rel asks it: PHP's serialized form of a value. */
function isSerialized(data: string): boolean {
  const s = data.trim();
  if (s === 'N;') return true;
  if (s.length < 4 || s[1] !== ':') return false;
  const last = s[s.length - 1];
  if (last !== ';' && last !== '}') return false;
  switch (s[0]) {
    case 's':
      return /^s:[0-9]+:"/.test(s) && s[s.length - 2] === '"';
    case 'a':
    case 'O':
      return /^[aO]:[0-9]+:/.test(s);
    case 'b':
    case 'i':
    case 'd':
      return new RegExp(`^${s[0]}:[0-9.E+-]+;$`).test(s);
    default:
      return false;
  }
}

/**
 * wp_rel_ugc (wp_rel_callback with 'nofollow ugc'): a comment's links get `rel="nofollow ugc"`
 * added to theirs, but those to the site's own host (http or https).
 */
export function relUgc(text: string, home: string): string {
  const homeHost = hostOf(home);
  return text.replace(/<a (.+?)>/gi, (_, inner: string) => {
    const atts = ksesHair(inner);
    const href = atts.get('href')?.value;
    if (href && /^https?:/i.test(href) && hostOf(href) === homeHost) return `<a ${inner}>`;
    let rel = 'nofollow ugc';
    let attrs = inner;
    const own = atts.get('rel');
    if (own) {
      rel = [...new Set([...own.value.split(' ').map((p) => p.trim()), 'nofollow', 'ugc'])].join(' ');
      atts.delete('rel');
      attrs = [...atts].map(([name, a]) => (a.valueless ? name : `${name}="${escapeAttr(a.value)}"`)).join(' ');
    }
    return `<a ${attrs} rel="${escapeAttr(rel)}">`;
  });
}

/** wp_parse_url's host, lower-cased ('' when none). */
function hostOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(url);
  return (m?.[1] ?? '').toLowerCase();
}
