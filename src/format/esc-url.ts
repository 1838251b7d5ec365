import allowed from './kses-allowed-html.json' with { type: 'json' };

/**
 * esc_url for display (formatting.php): characters a URL cannot hold removed, an address without
 * a scheme given `http://`, `&` written `&#038;` and `'` `&#039;`, brackets after the host
 * percent-encoded, and '' for a scheme outside wp_allowed_protocols.
 */
const PROTOCOLS = new Set(allowed.protocols);
const NOT_URL_CHARACTER = /[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi;
const ENCODED_LINE_BREAK = /%0[da]/gi;
const PHP_FILE = /^[a-z0-9-]+?\.php/i;
const LONE_AMPERSAND = /&(?!(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9a-fA-F]+);)/g;
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;
const SCHEME = /^([^/?#:]+):/;

export function escUrl(raw: string): string {
  let url = raw.replace(/^[ \t\n\r\0\x0B]+/, '');
  if (url === '') return '';
  url = url.replace(/ /g, '%20').replace(NOT_URL_CHARACTER, '');
  if (url === '') return '';
  if (!url.toLowerCase().startsWith('mailto:')) {
    // _deep_replace: until none is left, as removing one can make another
    while (ENCODED_LINE_BREAK.test(url)) url = url.replace(ENCODED_LINE_BREAK, '');
  }
  url = url.split(';//').join('://');
  if (!url.includes(':') && !['/', '#', '?'].includes(url[0]) && !PHP_FILE.test(url)) url = `http://${url}`;
  url = url.replace(LONE_AMPERSAND, '&amp;').split('&amp;').join('&#038;').split("'").join('&#039;');
  if (url.includes('[') || url.includes(']')) {
    const front = AUTHORITY.exec(url)?.[0] ?? '';
    url = front + url.slice(front.length).split('[').join('%5B').split(']').join('%5D');
  }
  if (url[0] === '/') return url;
  const scheme = SCHEME.exec(url)?.[1];
  return scheme === undefined || PROTOCOLS.has(scheme.toLowerCase()) ? url : '';
}
