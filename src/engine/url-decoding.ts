/**
 * The one place percent-encoded text from a request or from stored data is decoded. The
 * language's decodeURIComponent/decodeURI throw on malformed escapes (`%E0%A4%A`, a lone `%`, the
 * bytes of half a surrogate), which anyone can send in a URL, a cookie or markup; every caller
 * here says what such text means instead (nothing on this site, the text as written...).
 * `test/core/url-decoding.test.ts` holds every other source file to it.
 */

/**
 * The decoded text, or null when its percent-encoding is malformed. `uri`: decodeURI's reading of
 * a whole URL (the escapes of its delimiters, `%2F` and the like, stay); else decodeURIComponent's.
 */
export function decodePercent(text: string, as: 'component' | 'uri' = 'component'): string | null {
  if (!text.includes('%')) return text;
  try {
    return as === 'uri' ? decodeURI(text) : decodeURIComponent(text);
  } catch {
    return null;
  }
}
