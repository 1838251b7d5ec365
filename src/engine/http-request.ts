import type { IncomingMessage } from 'node:http';
import type { ApiRoot } from './api-root.ts';
import { engineError } from './errors.ts';
import { isFormMediaType, isJsonMediaType, parseQueryString } from './params.ts';
import { normaliseRestPath, type InternalRequest } from './pipeline.ts';

/** The request line taken apart: the path as sent, its query params, and the REST path when it addresses the API. */
export interface RequestTarget {
  rawPath: string;
  query: Record<string, unknown>;
  /** The path under the API root (`/cms-json/x` or `/?rest_route=/x`), as sent; null for a page of the site. */
  restPath: string | null;
  /** The root it addresses (the API's own for a page). */
  root: ApiRoot;
}

export const payloadTooLarge = (limit: number) => engineError('rest_payload_too_large', { limit });

export class BodyTooLarge extends Error {}

/**
 * Splits the URL and finds the root it addresses (`roots[0]` is the API's own). `?rest_route=` on
 * the site root reaches the API as WordPress's plain permalinks do, at the root whose namespace
 * names it uses (`/wp/v2/...` the WordPress alias's). Throws a RestError for a query past the
 * parser's limits.
 */
export function parseTarget(url: string, roots: readonly ApiRoot[]): RequestTarget {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? {} : parseQueryString(url.slice(q + 1));
  for (const root of roots) {
    const prefix = `/${root.prefix}`;
    if (rawPath === prefix || rawPath.startsWith(`${prefix}/`)) return { rawPath, query, restPath: rawPath.slice(prefix.length), root };
  }
  if (typeof query.rest_route === 'string' && (rawPath === '/' || rawPath === '/index.php')) {
    const route = query.rest_route;
    return { rawPath, query, restPath: route, root: roots.find((r) => r.owns(route)) ?? roots[0] };
  }
  return { rawPath, query, restPath: null, root: roots[0] };
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

/** The REST request the engine runs; the body is decoded later, once the caller is authenticated. */
export function restRequest(method: string, target: RequestTarget, headers: Record<string, string>, ip: string): InternalRequest {
  const { root } = target;
  return { method, path: root.path(normaliseRestPath(target.restPath ?? '/')), root, query: target.query, body: {}, headers, ip };
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
