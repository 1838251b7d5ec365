import allowed from './kses-allowed-html.json' with { type: 'json' };

/** wp_kses_bad_protocol and esc_url (formatting.php, kses.php of WordPress 6.1). */

const PHP_TRIM = /^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g;

/** wp_kses_no_null: NUL characters and backslash-zero runs go. */
const noNull = (s: string) => s.replace(/\0+/g, '').replace(/\\+0+/g, '');

/** wp_kses_decode_entities: numeric character references become their characters. */
const decodeNumericEntities = (s: string) =>
  s.replace(/&#(0*[0-9]{1,7});/g, (_, n: string) => String.fromCodePoint(Math.min(Number(n), 0x10ffff))).replace(/&#[Xx](0*[0-9A-Fa-f]{1,6});/g, (_, n: string) => String.fromCodePoint(Math.min(parseInt(n, 16), 0x10ffff)));

/** wp_kses_bad_protocol_once: the text before the first colon kept, as its protocol, only when it is an allowed one. */
function badProtocolOnce(url: string, count = 1): string {
  const s = url.replace(/(&#0*58(?![;0-9])|&#x0*3a(?![;a-f0-9]))/gi, '$1;');
  const colon = /:|&#0*58;|&#x0*3a;|&colon;/i.exec(s);
  if (!colon || s.slice(0, colon.index).includes('/?')) return s;
  let rest = s.slice(colon.index + colon[0].length).replace(PHP_TRIM, '');
  const protocol = noNull(decodeNumericEntities(s.slice(0, colon.index)).replace(/\s/g, '')).toLowerCase();
  const kept = allowed.protocols.includes(protocol) ? `${protocol}:` : '';
  if (kept === 'feed:') {
    if (count > 2) return '';
    rest = badProtocolOnce(rest, count + 1);
    if (!rest) return rest;
  }
  return kept + rest;
}

/** wp_kses_bad_protocol: protocols outside wp_allowed_protocols taken off, again until nothing changes ('' if it still changes after six). */
export function ksesBadProtocol(url: string): string {
  let s = noNull(url);
  for (let i = 0; i < 6; i++) {
    const before = s;
    s = badProtocolOnce(s);
    if (s === before) return s;
  }
  return '';
}

/** wp_kses_normalize_entities, near enough: an `&` that starts no entity becomes `&amp;`. */
const normalizeAmpersands = (s: string) => s.replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);)/g, '&amp;');

/**
 * esc_url for display: spaces as %20, characters a URL cannot hold dropped, CR/LF escapes taken
 * out (but in mailto:), `http://` before an address without a scheme, `&` as `&#038;` and `'` as
 * `&#039;`, brackets past the host percent-encoded, and '' for a protocol WordPress does not allow.
 */
export function escUrl(input: string): string {
  if (input === '') return '';
  let url = input.replace(/^[ \t\n\r\0\x0B]+/, '').split(' ').join('%20');
  url = url.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, '');
  if (url === '') return '';
  if (!url.toLowerCase().startsWith('mailto:')) {
    // _deep_replace: again until none is left
    for (let before = ''; before !== url; ) {
      before = url;
      url = url.replace(/%0[dDaA]/g, '');
    }
  }
  url = url.split(';//').join('://');
  if (!url.includes(':') && !['/', '#', '?'].includes(url[0]) && !/^[a-z0-9-]+?\.php/i.test(url)) url = `http://${url}`;
  url = normalizeAmpersands(url).split('&amp;').join('&#038;').split("'").join('&#039;');
  if (url.includes('[') || url.includes(']')) {
    const front = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#]*/i.exec(url)?.[0] ?? '';
    url = front + url.slice(front.length).split('[').join('%5B').split(']').join('%5D');
  }
  if (url[0] === '/') return url;
  const good = ksesBadProtocol(url);
  return good.toLowerCase() === url.toLowerCase() ? good : '';
}
