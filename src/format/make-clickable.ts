import { escUrl } from './esc-url.ts';

/**
 * make_clickable (WordPress 6.1's formatting.php): addresses in text (`scheme://...`, `www.` and
 * `ftp.` hosts, e-mail addresses) become links with `rel` (WordPress's is `nofollow`, and
 * `nofollow ugc` in comment_text), never inside tags, `code`, `pre`, `script` or `style`.
 */

/** PCRE's `\s` and `\S` without the u flag: ASCII spaces only. */
const SP = '[\\t\\n\\v\\f\\r ]';
const NOT_SP = '[^\\t\\n\\v\\f\\r ]';
const URL_CHAR = "[\\w\\u0080-\\uffff#%~/@\\[\\]*(+=&$-]";
const URL_CLICKABLE = new RegExp(`([\\t\\n\\v\\f\\r (<.,;:!?])(\\w{1,20}://(?=${NOT_SP}{1,2000}${SP})${URL_CHAR}*(?:['.,;:!?)]${URL_CHAR}+)*)(\\)?)`, 'g');
const WEB_FTP = new RegExp(`([\\t\\n\\v\\f\\r >])((www|ftp)\\.[\\w\\u0080-\\uffff#$%&~/.\\-;:=,?@\\[\\]+]+)`, 'gi');
const EMAIL = new RegExp(`([\\t\\n\\v\\f\\r >])([.0-9a-z_+-]+)@(([0-9a-z-]+\\.)+[0-9a-z]{2,})`, 'gi');

const count = (s: string, c: string) => s.split(c).length - 1;

/** _make_url_clickable_cb: the address linked, a closing parenthesis it does not open left after it. */
function urlLink(whole: string, before: string, address: string, closing: string, rel: string): string {
  let url = address;
  let suffix = closing;
  if (closing === ')' && url.indexOf('(') > 0) {
    url += closing;
    suffix = '';
  }
  while (count(url, '(') < count(url, ')')) {
    const at = url.lastIndexOf(')');
    suffix = url.slice(at) + suffix;
    url = url.slice(0, at);
  }
  const escaped = escUrl(url);
  if (!escaped) return whole;
  return `${before}<a href="${escaped}" rel="${rel}">${escaped}</a>${suffix}`;
}

/** _make_web_ftp_clickable_cb: a `www.`/`ftp.` address linked over http://, a trailing `.,;:)` left outside. */
function webLink(whole: string, before: string, address: string, rel: string): string {
  let dest = `http://${address}`;
  let after = '';
  if ('.,;:)'.includes(dest[dest.length - 1])) {
    after = dest[dest.length - 1];
    dest = dest.slice(0, -1);
  }
  const escaped = escUrl(dest);
  if (!escaped) return whole;
  return `${before}<a href="${escaped}" rel="${rel}">${escaped}</a>${after}`;
}

/** _split_str_by_whitespace: pieces of about `goal` characters, each ending at a space where there is one. */
function splitByWhitespace(text: string, goal: number): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (goal < rest.length) {
    let pos = -1;
    for (let i = Math.min(goal, rest.length - 1); i >= 0; i--) if (/[\r\n\t\v\f ]/.test(rest[i])) { pos = i; break; }
    if (pos < 0) {
      const m = /[\r\n\t\v\f ]/.exec(rest.slice(goal + 1));
      if (!m) break;
      pos = goal + 1 + m.index;
    }
    chunks.push(rest.slice(0, pos + 1));
    rest = rest.slice(pos + 1);
  }
  if (rest && rest !== '0') chunks.push(rest);
  return chunks;
}

const OPENS_RAW = /^<(?:code|pre|script|style)[\s>]/i;
const CLOSES_RAW = new Set(['</code>', '</pre>', '</script>', '</style>']);

export function makeClickable(text: string, rel = 'nofollow'): string {
  let out = '';
  let nested = 0;
  for (const piece of text.split(/(<[^<>]+>)/)) {
    if (OPENS_RAW.test(piece)) nested++;
    else if (nested && CLOSES_RAW.has(piece.toLowerCase())) nested--;
    if (nested || piece === '' || piece === '0' || (piece[0] === '<' && !/^<\s*\w{1,20}:\/\//.test(piece))) {
      out += piece;
      continue;
    }
    if (piece.length > 10000) {
      for (const chunk of splitByWhitespace(piece, 2100)) out += chunk.length > 2101 ? chunk : makeClickable(chunk, rel);
      continue;
    }
    let ret = ` ${piece} `;
    ret = ret.replace(URL_CLICKABLE, (whole, before: string, address: string, closing: string) => urlLink(whole, before, address, closing, rel));
    ret = ret.replace(WEB_FTP, (whole, before: string, address: string) => webLink(whole, before, address, rel));
    ret = ret.replace(EMAIL, (_, before: string, name: string, domain: string) => `${before}<a href="mailto:${name}@${domain}">${name}@${domain}</a>`);
    out += ret.slice(1, -1);
  }
  // links made inside links are undone
  return out.replace(/(<a(?:[ \r\n\t]+[^>]+?>|>))<a [^>]+?>([^>]+?)<\/a><\/a>/gi, '$1$2</a>');
}
