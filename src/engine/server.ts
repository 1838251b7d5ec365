import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { RestError } from './errors.ts';
import { errorOutcome, normaliseRestPath, type Engine, type InternalRequest, type Outcome } from './engine.ts';
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

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const h = req.headers;
  for (const k in h) {
    const v = h[k];
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(',') : v;
  }
  return out;
}

/** The headers serve_request sends with every answer; the API root link is rebuilt only when the address changes. */
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

    const headers = flatHeaders(req);
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
      res.writeHead(out.status, { Link: `<${engine.site.apiRoot}>; rel="https://api.w.org/"`, ...out.headers });
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
    try {
      user = await auth.authenticate(headers, ip);
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      return send(res, req, errorOutcome(e), query, null, headers);
    }
    const outcome = await engine.handle(internal, user);
    if (query._embed !== undefined && outcome.status < 400 && outcome.data && typeof outcome.data === 'object') {
      outcome.data = await embedLinks(engine, outcome.data, query._embed, user);
      outcome.json = undefined;
    }
    send(res, req, outcome, query, user, headers);
  }

  let linkedRoot = '';
  let link = '';
  function apiLink(): string {
    const root = engine.site.apiRoot;
    if (root !== linkedRoot) (linkedRoot = root), (link = `<${root}>; rel="https://api.w.org/"`);
    return link;
  }

  function send(res: ServerResponse, req: IncomingMessage, outcome: Outcome, query: Record<string, unknown>, user: User | null, reqHeaders: Record<string, string>): void {
    const headers: Record<string, string | string[]> = { ...EVERY_ANSWER, Link: apiLink() };
    // the response's own headers, as rest_post_dispatch leaves them (an envelope carries them instead)
    const own: Record<string, string> = outcome.route ? { ...outcome.headers, Allow: engine.allowHeader(outcome.route, user) } : { ...outcome.headers };
    const enveloped = query._envelope !== undefined && !outcome.raw;
    const origin = reqHeaders.origin;
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
    if (!enveloped) Object.assign(headers, own);

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
