import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import type { ApiRoot } from './api-root.ts';
import type { CompiledRoute } from './compile.ts';
import { COMPRESS_MIN_BYTES, compressNow, isCompressible, keptEncoding, negotiate } from './compression.ts';
import type { Engine } from './engine.ts';
import type { Outcome } from './pipeline.ts';
import { encodeJson, filterFields, parseFields } from './response.ts';
import { matchesEtag, type KeptAnswer } from './response-cache.ts';
import type { PageResponse } from './types.ts';
import type { User } from './types.ts';
import { envelopeHeaders, EVERY_ANSWER } from './wp-rest.ts';

/**
 * An answer as it will be sent, before its coding: `kept` when the body is a kept document's (its
 * encodings are kept with it); a list of buffers is one body in parts (a list of kept items').
 */
export interface PreparedAnswer {
  status: number;
  headers: Record<string, string>;
  payload: string | Buffer | readonly Buffer[] | Readable | undefined;
  kept: boolean;
}

/**
 * Writes an Outcome as the bytes and headers WordPress sends (serve_request): CORS, the cache
 * rules of credentialed answers, Allow, `_fields`, `_envelope`, `_pretty`, HEAD without a body;
 * compressed for a client that accepts it. The site's pages go out the same way (sendPage).
 */
export class ReplyWriter {
  /** The headers of an anonymous GET without Origin (the common request), per route; cleared when the routes or the API's address change. */
  private readonly anonymousGetHeaders = new Map<CompiledRoute, Record<string, string>>();

  constructor(private readonly engine: Engine) {
    engine.onChange(() => this.anonymousGetHeaders.clear());
  }

  /**
   * serve_request's `Link` to the API root the request was sent to: an alias's answers point at the
   * alias (`/wp-json/` for a request there), as WordPress's point at the root it answers under.
   */
  private apiLink(root: ApiRoot | undefined): string {
    return root && root !== this.engine.root ? `<${root.url}>; rel="https://api.w.org/"` : this.engine.site.linkHeader;
  }

  /** The headers every answer starts from: serve_request's, CORS, credentials' cache rules, Allow. */
  private baseHeaders(method: string | undefined, outcome: Outcome, user: User | null, reqHeaders: Record<string, string>, root: ApiRoot | undefined): Record<string, string> {
    const origin = reqHeaders.origin;
    const route = outcome.route;
    const common = route && !user && method === 'GET' && !origin && !reqHeaders.authorization;
    if (common) {
      const known = this.anonymousGetHeaders.get(route);
      if (known) return withAllow(copyOf(known, 'Link', this.apiLink(root)), outcome);
    }
    const headers = copyOf(EVERY_ANSWER, 'Link', this.apiLink(root));
    if (origin) {
      headers['Access-Control-Allow-Origin'] = origin;
      headers['Access-Control-Allow-Methods'] = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
      headers['Access-Control-Allow-Credentials'] = 'true';
      headers.Vary = 'Origin';
    } else if (!user && method === 'GET') headers.Vary = 'Origin';
    // rest_send_nocache_headers: only a logged-in user's answers (wp_get_nocache_headers); an anonymous one, whatever credentials it failed with, gets none
    if (user) {
      headers.Expires = 'Wed, 11 Jan 1984 05:00:00 GMT';
      headers['Cache-Control'] = 'no-cache, must-revalidate, max-age=0';
      if (user.answerHeaders) Object.assign(headers, user.answerHeaders);
    }
    if (common) this.anonymousGetHeaders.set(route, Object.assign({}, headers));
    return withAllow(headers, outcome);
  }

  /** Answers an outcome; `root` is the API root the request was sent to, when it got that far. */
  send(res: ServerResponse, req: IncomingMessage, outcome: Outcome, query: Record<string, unknown>, user: User | null, reqHeaders: Record<string, string>, root?: ApiRoot): void {
    this.write(res, req, this.prepare(req.method, outcome, query, user, reqHeaders, root), reqHeaders);
  }

  /** Writes an answer prepared by prepare(). */
  write(res: ServerResponse, req: IncomingMessage, answer: PreparedAnswer, reqHeaders: Record<string, string>): void {
    writeAnswer(res, req, answer.status, answer.headers, answer.payload, answer.kept, reqHeaders);
  }

  /**
   * A kept answer of the response cache: 304 when the client holds it already (If-None-Match), else
   * its bytes in the kept encoding the client accepts (compressed on the fly until that is made).
   */
  sendKept(res: ServerResponse, req: IncomingMessage, answer: KeptAnswer, reqHeaders: Record<string, string>): void {
    const headers = Object.assign({}, answer.headers);
    if (matchesEtag(reqHeaders['if-none-match'], answer.etag)) writeAnswer(res, req, 304, headers, undefined, false, reqHeaders);
    else writeAnswer(res, req, 200, headers, answer.body, true, reqHeaders);
  }

  /** The status, headers and body an outcome is answered with, before the coding the client accepts is applied. */
  prepare(method: string | undefined, outcome: Outcome, query: Record<string, unknown>, user: User | null, reqHeaders: Record<string, string>, root?: ApiRoot): PreparedAnswer {
    const headers = this.baseHeaders(method, outcome, user, reqHeaders, root);
    const enveloped = query._envelope !== undefined && !outcome.raw;
    // the response's own headers, as rest_post_dispatch leaves them (an envelope carries them instead)
    let own = outcome.headers;
    if (enveloped) {
      own = Object.assign({}, own);
      if (headers.Allow) {
        own.Allow = headers.Allow;
        delete headers.Allow;
      }
    } else for (const k in own) headers[k] = own[k];

    let payload: PreparedAnswer['payload'];
    let status = outcome.status;
    if (outcome.raw) {
      headers['Content-Type'] = outcome.raw.contentType;
      payload = outcome.raw.body;
    } else {
      let data = outcome.data;
      let json: Buffer | readonly Buffer[] | undefined = outcome.json ?? outcome.parts;
      if (typeof query._fields === 'string' && status < 400) {
        const keepLinks = outcome.document === true; // the index keeps its _links whatever _fields says
        const tree = parseFields(query._fields);
        if (keepLinks) tree.set('_links', true);
        data = filterFields(data, tree);
        json = undefined;
      }
      if (enveloped) {
        data = { body: data, status, headers: envelopeHeaders(own) };
        status = 200;
        json = undefined;
      }
      const pretty = query._pretty !== undefined;
      if (status === 204 || data === null || data === undefined) payload = undefined;
      else payload = json && !pretty ? json : encodeJson(data, pretty);
    }
    return { status, headers, payload, kept: payload !== undefined && payload === outcome.json };
  }

  /** A page of the site (outside the API): compressed as API answers are; a stream (a file from disk) goes as it is. */
  sendPage(res: ServerResponse, req: IncomingMessage, page: PageResponse, reqHeaders: Record<string, string>): void {
    writeAnswer(res, req, page.status, { Link: this.engine.site.linkHeader, ...page.headers }, page.body, false, reqHeaders);
  }
}

/** Whether an answer's body is a stream (a file from disk, an export written as it is read) rather than bytes in hand. */
export const isStream = (body: PreparedAnswer['payload']): body is Readable => body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body) && !Array.isArray(body);

/** A body in hand as one buffer (to compress or keep it): its parts joined, its text encoded. */
export const bodyBytes = (body: string | Buffer | readonly Buffer[]): Buffer => (typeof body === 'string' ? Buffer.from(body) : Array.isArray(body) ? Buffer.concat(body) : (body as Buffer));

const sizeOf = (body: string | Buffer | readonly Buffer[]): number => (typeof body === 'string' ? Buffer.byteLength(body) : Array.isArray(body) ? body.reduce((n: number, b: Buffer) => n + b.length, 0) : (body as Buffer).length);

/** A stream goes as it comes (its length unknown); one that fails, or a client that goes, ends the other side too. */
function writeStream(res: ServerResponse, req: IncomingMessage, status: number, headers: Record<string, string>, body: Readable): void {
  res.writeHead(status, headers);
  if (req.method === 'HEAD') {
    body.destroy();
    res.end();
  } else pipeline(body, res, () => {});
}

/** The header names this module reads or writes, by their lower case. */
const FRAMING = new Set(['content-encoding', 'content-type', 'content-length', 'vary']);

/** Header names as written, to the FRAMING name each is ('' for none): the few names answers use, lowered once rather than on every answer. */
const framingNames = new Map<string, string>();
const MAX_FRAMING_NAMES = 1000;

function framingNameOf(header: string): string {
  let name = framingNames.get(header);
  if (name === undefined) {
    const lower = header.toLowerCase();
    name = FRAMING.has(lower) ? lower : '';
    // names come from code, not from clients; the bound is for a handler that makes them up
    if (framingNames.size < MAX_FRAMING_NAMES) framingNames.set(header, name);
  }
  return name;
}

/** Where FRAMING's headers are in this set, whatever case a handler or page wrote them in; absent ones under their canonical names. */
function framingKeys(headers: Record<string, string>) {
  const keys = { 'content-encoding': 'Content-Encoding', 'content-type': 'Content-Type', 'content-length': 'Content-Length', vary: 'Vary' };
  for (const k in headers) {
    const name = framingNameOf(k);
    if (name) keys[name as keyof typeof keys] = k;
  }
  return keys;
}

/**
 * Sends an answer's body in the coding the client prefers (compression.ts) when its type is worth
 * it and nobody encoded it already: a kept document (`kept`: the prebuilt indexes' bytes) in its
 * kept encoding once made, anything else from COMPRESS_MIN_BYTES up compressed now. Every answer
 * whose coding depends on Accept-Encoding says so in Vary, its 304 and HEAD included; a HEAD
 * answer carries the headers its GET would, without the body.
 */
function writeAnswer(res: ServerResponse, req: IncomingMessage, status: number, headers: Record<string, string>, body: PreparedAnswer['payload'], kept: boolean, reqHeaders: Record<string, string>): void {
  // a 304 or 204 has no body, whatever a handler gave (its Content-Length would claim one)
  if (status === 304 || status === 204) {
    if (isStream(body)) body.destroy();
    body = undefined;
  }
  if (isStream(body)) return writeStream(res, req, status, headers, body);
  const keys = framingKeys(headers);
  const encodingKey = keys['content-encoding'];
  if (!headers[encodingKey] && isCompressible(headers[keys['content-type']])) {
    const varyKey = keys.vary;
    headers[varyKey] = headers[varyKey] ? `${headers[varyKey]}, Accept-Encoding` : 'Accept-Encoding';
    const coding = body === undefined ? null : negotiate(reqHeaders['accept-encoding']);
    const size = body === undefined ? 0 : sizeOf(body);
    if (coding && size >= COMPRESS_MIN_BYTES) {
      const bytes = bodyBytes(body!);
      body = (kept && keptEncoding(bytes, coding)) || compressNow(bytes, coding);
      headers[encodingKey] = coding;
    }
  }
  if (body !== undefined) headers[keys['content-length']] = String(sizeOf(body));
  res.writeHead(status, headers);
  if (req.method === 'HEAD' || !Array.isArray(body)) return void res.end(req.method === 'HEAD' ? undefined : body);
  // the parts go out together (one writev), never copied into one buffer
  res.cork();
  for (const part of body as readonly Buffer[]) res.write(part);
  res.end();
}

/**
 * A copy of a set of headers with one set, to be added to: made by Object.assign, not a spread, as
 * V8 (Node 20) gives a spread's copy a shape of its own that each property added to it rebuilds
 * (~1.6 µs an addition, measured; 0.05 µs for a copy made by Object.assign).
 */
function copyOf(headers: Readonly<Record<string, string>>, name: string, value: string): Record<string, string> {
  const copy: Record<string, string> = Object.assign({}, headers);
  copy[name] = value;
  return copy;
}

/** The Allow the engine found for the answer (none when it found no method allowed). */
function withAllow(headers: Record<string, string>, outcome: Outcome): Record<string, string> {
  if (outcome.allow) headers.Allow = outcome.allow;
  return headers;
}
