import type { IncomingMessage } from 'node:http';
import { RestError } from './errors.ts';
import { isFormMediaType, isJsonMediaType, parseQueryString } from './params.ts';
import { normaliseRestPath, type InternalRequest } from './pipeline.ts';

/** The request line taken apart: the path as sent, its query params, and the REST path when it addresses the API. */
export interface RequestTarget {
  rawPath: string;
  query: Record<string, unknown>;
  /** The path under the API root (`/cms-json/x` or `/?rest_route=/x`); null for a page of the site. */
  restPath: string | null;
}

export const payloadTooLarge = (limit: number) => new RestError('rest_payload_too_large', `The request body is larger than the limit of ${limit} bytes.`, 413);

export class BodyTooLarge extends Error {}

/** Splits the URL; `?rest_route=` on the site root reaches the API as WordPress's plain permalinks do. Throws a RestError for a query past the parser's limits. */
export function parseTarget(url: string, prefix: string): RequestTarget {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? {} : parseQueryString(url.slice(q + 1));
  let restPath: string | null = null;
  if (rawPath === prefix || rawPath.startsWith(`${prefix}/`)) restPath = rawPath.slice(prefix.length);
  else if (typeof query.rest_route === 'string' && (rawPath === '/' || rawPath === '/index.php')) restPath = query.rest_route;
  return { rawPath, query, restPath };
}

/** Reads the whole body, refusing (BodyTooLarge) as soon as it passes the limit, declared or sent. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** `_method` in the query, or X-HTTP-Method-Override, replaces the HTTP method (WordPress's serve_request). */
export function effectiveMethod(method: string | undefined, query: Record<string, unknown>, headers: Record<string, string>): string {
  const override = typeof query._method === 'string' ? query._method : headers['x-http-method-override'];
  return (override || method || 'GET').toUpperCase();
}

/** The REST request the engine runs; the body is decoded later, once the caller is authenticated. */
export function restRequest(method: string, target: RequestTarget, headers: Record<string, string>, ip: string): InternalRequest {
  return { method, path: normaliseRestPath(target.restPath ?? '/'), query: target.query, body: {}, headers, ip };
}

/**
 * Decodes a JSON or form body into the request. Malformed JSON is remembered, not thrown: the
 * engine answers it after matching the route, as WordPress does. A form past the parser's limits
 * throws its RestError.
 */
export function decodeBody(internal: InternalRequest, body: Buffer): void {
  if (!body.length) return;
  const type = internal.headers['content-type'];
  if (isJsonMediaType(type)) {
    try {
      internal.json = JSON.parse(body.toString('utf8'));
    } catch {
      // json_last_error_msg() for JSON_ERROR_SYNTAX: clients compare it, and V8's wording differs
      internal.jsonError = 'Syntax error';
    }
  } else if (isFormMediaType(type)) {
    internal.body = parseQueryString(body.toString('utf8'));
  }
}
