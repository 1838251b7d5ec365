import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { RestError } from './errors.ts';
import { errorOutcome, normaliseRestPath, type Engine, type InternalRequest, type Outcome } from './engine.ts';
import type { CompiledRoute } from './compile.ts';
import { isFormMediaType, isJsonMediaType, parseQueryString } from './params.ts';
import { encodeJson, filterFields, parseFields } from './response.ts';
import { embedLinks } from './embed.ts';
import type { Authenticator, User } from './types.ts';

/** A request for a page of the site (anything outside the API), handed to the site renderer. */
export interface PageRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: Buffer;
  ip: string;
}

export interface PageResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export type PageHandler = (req: PageRequest) => Promise<PageResponse | null>;

export interface ServerOptions {
  engine: Engine;
  auth: Authenticator;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  pages?: PageHandler;
}

const payloadTooLarge = (limit: number) => new RestError('rest_payload_too_large', `The request body is larger than the limit of ${limit} bytes.`, 413);

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
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

/**
 * node:http already joins repeated request headers with ', '; only `set-cookie` stays a list,
 * and no client sends it to a server. So its parsed headers are used as they are, uncopied.
 */
const requestHeaders = (req: IncomingMessage) => req.headers as Record<string, string>;

/** The headers serve_request sends with every answer, in its order; `Link` is the site's, filled in per answer. */
const EVERY_ANSWER = {
  'Content-Type': 'application/json; charset=UTF-8',
  'X-Robots-Tag': 'noindex',
  Link: '',
  'X-Content-Type-Options': 'nosniff',
  'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
  'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
};

/**
 * node:http front of the engine: it turns bytes into an InternalRequest and an Outcome back into
 * bytes with the headers WordPress sends (serve_request). Everything between is the engine's.
 */
export function createHttpServer(opts: ServerOptions): Server {
  const { engine, auth, bodyLimit } = opts;
  const prefix = `/${engine.spec.apiPrefix}`;

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? {} : parseQueryString(url.slice(q + 1));
    const ip = req.socket.remoteAddress ?? '';
    let restPath: string | null = null;
    if (rawPath === prefix || rawPath.startsWith(`${prefix}/`)) restPath = rawPath.slice(prefix.length);
    else if (typeof query.rest_route === 'string' && (rawPath === '/' || rawPath === '/index.php')) restPath = query.rest_route;

    const headers = requestHeaders(req);
    let body: Buffer = Buffer.alloc(0);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      try {
        body = await readBody(req, bodyLimit);
      } catch (e) {
        if (!(e instanceof BodyTooLarge)) throw e;
        res.setHeader('Connection', 'close');
        return send(res, req, errorOutcome(payloadTooLarge(bodyLimit)), query, null, headers);
      }
    }

    if (restPath === null) {
      const page = opts.pages ? await opts.pages({ method: req.method ?? 'GET', path: rawPath, query, headers, body, ip }) : null;
      const out = page ?? { status: 404, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body: '<!DOCTYPE html><html><head><title>Page not found</title></head><body><h1>Not Found</h1></body></html>' };
      res.writeHead(out.status, { Link: engine.site.apiLink, ...out.headers });
      res.end(req.method === 'HEAD' ? undefined : out.body);
      return;
    }

    let method = (req.method ?? 'GET').toUpperCase();
    const override = typeof query._method === 'string' ? query._method : headers['x-http-method-override'];
    if (override) method = override.toUpperCase();

    const internal: InternalRequest = { method, path: normaliseRestPath(restPath), query, body: {}, headers, ip };
    if (body.length) {
      const type = headers['content-type'];
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

    let user: User | null = null;
    // without credentials the caller is anonymous, and most requests need no trip to the authenticator
    if (headers.authorization) {
      try {
        user = await auth.authenticate(headers, ip);
      } catch (e) {
        if (!(e instanceof RestError)) throw e;
        return send(res, req, errorOutcome(e), query, null, headers);
      }
    }
    const handled = engine.handle(internal, user);
    const outcome = handled instanceof Promise ? await handled : handled;
    if (query._embed !== undefined && outcome.status < 400 && outcome.data && typeof outcome.data === 'object') {
      outcome.data = await embedLinks(engine, outcome.data, query._embed, user);
      outcome.json = undefined;
    }
    send(res, req, outcome, query, user, headers);
  }

  /** The headers of an anonymous GET without Origin (the common request), per route; rebuilt after the site's address changes. */
  const anonymousGetHeaders = new Map<CompiledRoute, Record<string, string>>();
  engine.site.onChange(() => anonymousGetHeaders.clear());

  /** The headers every answer starts from: serve_request's, CORS, credentials' cache rules, Allow. */
  function baseHeaders(req: IncomingMessage, route: CompiledRoute | undefined, user: User | null, reqHeaders: Record<string, string>): Record<string, string> {
    const origin = reqHeaders.origin;
    const common = route && !user && req.method === 'GET' && !origin && !reqHeaders.authorization;
    if (common) {
      const known = anonymousGetHeaders.get(route);
      if (known) return { ...known };
    }
    const headers: Record<string, string> = { ...EVERY_ANSWER, Link: engine.site.apiLink };
    if (origin) {
      headers['Access-Control-Allow-Origin'] = origin;
      headers['Access-Control-Allow-Methods'] = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
      headers['Access-Control-Allow-Credentials'] = 'true';
      headers.Vary = 'Origin';
    } else if (!user && req.method === 'GET') headers.Vary = 'Origin';
    if (reqHeaders.authorization) {
      headers['Cache-Control'] = 'no-cache, private';
      if (user) headers.Expires = 'Wed, 11 Jan 1984 05:00:00 GMT';
    }
    if (route) headers.Allow = engine.allowHeader(route, user);
    if (common) anonymousGetHeaders.set(route, { ...headers });
    return headers;
  }

  function send(res: ServerResponse, req: IncomingMessage, outcome: Outcome, query: Record<string, unknown>, user: User | null, reqHeaders: Record<string, string>): void {
    const headers = baseHeaders(req, outcome.route, user, reqHeaders);
    const enveloped = query._envelope !== undefined && !outcome.raw;
    // the response's own headers, as rest_post_dispatch leaves them (an envelope carries them instead)
    let own = outcome.headers;
    if (enveloped) {
      own = { ...own };
      if (headers.Allow) {
        own.Allow = headers.Allow;
        delete headers.Allow;
      }
    } else for (const k in own) headers[k] = own[k];

    let payload: string | Buffer | undefined;
    let status = outcome.status;
    if (outcome.raw) {
      headers['Content-Type'] = outcome.raw.contentType;
      payload = outcome.raw.body;
    } else {
      let data = outcome.data;
      let json = outcome.json;
      if (typeof query._fields === 'string' && status < 400) {
        const keepLinks = json !== undefined; // the index keeps its _links whatever _fields says
        const tree = parseFields(query._fields);
        if (keepLinks) tree.set('_links', true);
        data = filterFields(data, tree);
        json = undefined;
      }
      if (enveloped) {
        data = { body: data, status, headers: Object.keys(own).length ? own : [] };
        status = 200;
        json = undefined;
      }
      const pretty = query._pretty !== undefined;
      if (status === 204 || data === null || data === undefined) payload = undefined;
      else payload = json && !pretty ? json : encodeJson(data, pretty);
    }
    if (payload !== undefined && typeof payload !== 'string') headers['Content-Length'] = String(payload.length);
    else if (payload !== undefined) headers['Content-Length'] = String(Buffer.byteLength(payload));
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : payload);
  }

  const server = createServer((req, res) => {
    onRequest(req, res).catch((e: unknown) => {
      engine.log.error(`request failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      if (!res.headersSent) send(res, req, errorOutcome(new RestError('internal_server_error', 'The server could not complete the request because of an internal error.', 500)), {}, null, {});
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  return server;
}
