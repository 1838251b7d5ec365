import allowed from './kses-allowed-html.json' with { type: 'json' };

/**
 * wp_kses_bad_protocol (kses.php of WordPress 6.1): what a URL attribute keeps of a URL whose
 * protocol wp_allowed_protocols lacks.
 */

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
