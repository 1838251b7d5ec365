/**
 * WordPress's REST conventions as the engine keeps them (rest_api_loaded, serve_request,
 * rest_cookie_check_errors): the headers of every answer, the query params that steer the server,
 * the method override, the REST nonce a request presents, and `_envelope`'s headers. The engine's
 * HTTP front and dispatch read them here; an authenticator checks the nonce it finds.
 */

/** The headers serve_request sends with every answer, in its order; `Link` is the host's, filled in per answer. */
export const EVERY_ANSWER = {
  'Content-Type': 'application/json; charset=UTF-8',
  'X-Robots-Tag': 'noindex',
  Link: '',
  'X-Content-Type-Options': 'nosniff',
  'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
  'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
};

/** Query params that steer the server itself and never reach a handler's args. */
export const GLOBAL_PARAMS = new Set(['_fields', '_envelope', '_embed', '_method', '_jsonp', '_pretty', 'rest_route', '_locale', '_wpnonce']);

/** `_method` in the query, or X-HTTP-Method-Override, replaces the HTTP method (WordPress's serve_request). */
export function effectiveMethod(method: string | undefined, query: Record<string, unknown>, headers: Record<string, string>): string {
  const override = typeof query._method === 'string' ? query._method : headers['x-http-method-override'];
  return (override || method || 'GET').toUpperCase();
}

/** The nonce a request carries: `_wpnonce` in the query first, then the `X-WP-Nonce` header (an empty one counts, and fails). */
export function presentedNonce(headers: Record<string, string>, query: Record<string, unknown>): string | undefined {
  const param = query._wpnonce;
  if (param !== undefined) return typeof param === 'string' ? param : '';
  return headers['x-wp-nonce'];
}

/** The headers WordPress's controllers set as integers (`(int) $total`): an envelope's JSON carries them as numbers. */
const NUMERIC_HEADERS = new Set(['X-WP-Total', 'X-WP-TotalPages']);

/** A response's headers as `_envelope` shows them: WordPress's integers as numbers, none as PHP's empty array. */
export function envelopeHeaders(headers: Record<string, string>): Record<string, string | number> | [] {
  const keys = Object.keys(headers);
  if (!keys.length) return [];
  const out: Record<string, string | number> = {};
  for (const k of keys) out[k] = NUMERIC_HEADERS.has(k) && /^\d+$/.test(headers[k]) ? Number(headers[k]) : headers[k];
  return out;
}
