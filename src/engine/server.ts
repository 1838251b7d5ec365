import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { embedLinks } from './embed.ts';
import type { Engine } from './engine.ts';
import { engineError, RestError } from './errors.ts';
import { criticalError, criticalErrorPage, logCriticalError } from './critical-error.ts';
import { BodyTooLarge, decodeBody, parseTarget, payloadTooLarge, readBody, restRequest } from './http-request.ts';
import { effectiveMethod } from './wp-rest.ts';
import type { InternalRequest, Outcome } from './pipeline.ts';
import { bodyBytes, isStream, ReplyWriter } from './http-reply.ts';
import { closeAfterAnswer } from './lingering-close.ts';
import { discardUpload, receiveUpload, type ReceivedUpload } from './http-upload.ts';
import { Miss, type ResponseCache } from './response-cache.ts';
import { errorOutcome } from './pipeline.ts';
import type { Authenticator, PageHandler, PageResponse, User } from './types.ts';

export type { PageHandler, PageRequest, PageResponse } from './types.ts';

/** How long a client may take, in milliseconds; Node's own defaults hold a dripping client for over a minute. */
export interface Timeouts {
  /** From connecting to the end of a request's headers (slowloris). */
  headersMs: number;
  /** From connecting to the end of a request's body. */
  requestMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { headersMs: 10_000, requestMs: 60_000, keepAliveMs: 5_000 };

export interface ServerOptions {
  engine: Engine;
  auth: Authenticator;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Largest body of an upload endpoint (`upload: true`), streamed to disk; defaults to bodyLimit. */
  uploadLimit?: number;
  timeouts?: Timeouts;
  pages?: PageHandler;
  /**
   * Run before each request is handled, e.g. to catch up with state other instances changed. A
   * throw answers 503: the request cannot be served as it should be (undefined: nothing to wait for).
   */
  beforeRequest?: () => Promise<void> | undefined;
  /**
   * Run after a REST request or a page is handled and before its answer is sent; a promise holds
   * the answer until it settles, e.g. until what the request wrote is durable (undefined: nothing
   * to wait for). A rejection answers 500.
   */
  beforeAnswer?: () => Promise<void> | undefined;
  /** Protocols served beside the REST routes at a path under each API root, as they are now; they add no route to the index. */
  mounts?: () => readonly Mount[];
  /** Anonymous GET answers kept and served again while what they read is unchanged; none when absent. */
  responseCache?: ResponseCache;
  /**
   * Runs the making of each API answer within the host's scope, from its start (the permission
   * checks included), e.g. so that the parts of answers the host keeps can say what they were made from.
   */
  answerScope?: <T>(make: () => Promise<T>) => Promise<T>;
}

/**
 * A protocol other than REST at a path under the API root (`/mcp`): it gets the request with its
 * caller authenticated as the API's are and its body read (bounded), and answers on the response
 * itself. A RestError it throws before answering is answered as the API's errors are.
 */
export interface Mount {
  /** The path under each API root, as `/mcp`. */
  path: string;
  /**
   * Present when it is an OAuth protected resource: its metadata (RFC 9728) at the URL it has
   * under a root (`resource`), served at `/.well-known/oauth-protected-resource{path of resource}`.
   * A Bearer token is then authenticated for it (the Authenticator's `bearer`), and each 401 it
   * answers says where that metadata is (`WWW-Authenticate: Bearer resource_metadata="…"`).
   */
  resourceMetadata?(resource: string): Record<string, unknown>;
  handle(req: IncomingMessage, res: ServerResponse, caller: { user: User | null; body: Buffer }): Promise<void>;
  /** Ends what it keeps open (sessions, streams), as the server stops or its owner goes. */
  close?(): Promise<void>;
}

/** Where RFC 9728 puts a protected resource's metadata: this, then the resource's path. */
const RESOURCE_METADATA_PREFIX = '/.well-known/oauth-protected-resource';

/** A mount's URL under a root, as an OAuth client names the resource (`http://host/cms-json/mcp`). */
const resourceOf = (root: { url: string }, mount: Mount): string => root.url.replace(/\/$/, '') + mount.path;
const resourceMetadataUrl = (resource: string): string => {
  const url = new URL(resource);
  return `${url.origin}${RESOURCE_METADATA_PREFIX}${url.pathname}`;
};

const NOT_FOUND_PAGE = '<!DOCTYPE html><html><head><title>Page not found</title></head><body><h1>Not Found</h1></body></html>';

const unavailable = () => engineError('rest_service_unavailable');

/** What Node's HTTP parser refuses before any request exists, answered as WordPress-style JSON where the socket still takes an answer. */
function clientErrorAnswer(code: string | undefined): RestError {
  if (code === 'HPE_HEADER_OVERFLOW') return engineError('rest_header_fields_too_large');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return engineError('rest_request_timeout');
  return engineError('rest_bad_request');
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * node:http front of the engine: http-request.ts turns bytes into an InternalRequest,
 * http-reply.ts an Outcome back into bytes. In between, in this order: the body is read (bounded),
 * the caller authenticated, the body decoded, and the engine runs the request; nothing that
 * costs in proportion to the body runs before the caller is known.
 */
export function createHttpServer(opts: ServerOptions): Server {
  const { engine, auth, bodyLimit } = opts;
  const uploadLimit = opts.uploadLimit ?? bodyLimit;
  const reply = new ReplyWriter(engine);
  const cache = opts.responseCache;

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // node:http joins repeated request headers with ', ' (only set-cookie stays a list, and no client sends it to a server)
    const headers = req.headers as Record<string, string>;
    let target;
    try {
      target = parseTarget(req.url ?? '/', engine.roots);
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      return reply.send(res, req, errorOutcome(e), {}, null, headers);
    }
    const { query } = target;
    const ip = req.socket.remoteAddress ?? '';
    if (opts.beforeRequest) {
      try {
        // no await (and no tick lost) when there is nothing to catch up with
        const catchingUp = opts.beforeRequest();
        if (catchingUp) await catchingUp;
      } catch (e) {
        engine.log.error(`could not prepare to serve a request: ${e instanceof Error ? e.message : String(e)}`);
        return reply.send(res, req, errorOutcome(unavailable()), query, null, headers, target.root);
      }
    }

    const method = effectiveMethod(req.method, query, headers);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    // an upload is streamed to disk under its own limit, once its caller is known and allowed to make it
    if (hasBody && target.restPath !== null && engine.isUpload(restRequest(method, target, headers, ip))) return uploadRequest(req, res, target, method, headers, ip);

    let body: Buffer = Buffer.alloc(0);
    if (hasBody) {
      try {
        body = await readBody(req, bodyLimit);
      } catch (e) {
        if (!(e instanceof BodyTooLarge)) throw e;
        closeAfterAnswer(req, res);
        return reply.send(res, req, errorOutcome(payloadTooLarge(bodyLimit)), query, null, headers, target.root);
      }
    }

    const mount = target.restPath === null ? undefined : opts.mounts?.().find((m) => m.path === target.restPath);
    if (mount) return serveMount(req, res, mount, target, body, headers, ip);

    if (target.restPath === null && target.rawPath.startsWith(`${RESOURCE_METADATA_PREFIX}/`)) {
      const metadata = resourceMetadataAt(target.rawPath.slice(RESOURCE_METADATA_PREFIX.length));
      if (metadata) return reply.sendPage(res, req, metadata, headers);
    }

    if (target.restPath === null) {
      let page: PageResponse | null = null;
      try {
        page = opts.pages ? await opts.pages({ method: req.method ?? 'GET', path: target.rawPath, query, headers, body, ip }) : null;
      } catch (e) {
        logCriticalError(engine.log, `the page ${req.method} ${target.rawPath}`, e, headers);
        page = criticalErrorPage();
      }
      const settling = opts.beforeAnswer?.();
      if (settling) await settling;
      return reply.sendPage(res, req, page ?? { status: 404, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body: NOT_FOUND_PAGE }, headers);
    }

    // after beforeRequest: what this instance knows of the versions is current
    const cacheKey = cache ? cache.keyOf(req.method, target, headers) : null;
    let miss: Miss | undefined;
    if (cacheKey !== null) {
      const found = await cache!.lookup(cacheKey);
      if (!(found instanceof Miss)) return reply.sendKept(res, req, found, headers);
      miss = found;
    }
    try {
      // no await (and no tick lost) for a caller known at once (an anonymous one)
      const authenticating = authenticated(req, res, query, headers, ip);
      const user = authenticating instanceof Promise ? await authenticating : authenticating;
      if (user === false) return;
      const internal = restRequest(method, target, headers, ip);
      try {
        decodeBody(internal, body);
      } catch (e) {
        if (!(e instanceof RestError)) throw e;
        return reply.send(res, req, errorOutcome(e), query, user, headers, target.root);
      }
      await run(req, res, internal, user, miss && { key: cacheKey!, miss });
    } finally {
      // whatever became of it (an error, a refusal, nothing kept), the misses waiting for it go on
      miss?.settle();
    }
  }

  /**
   * A protocol beside REST: its caller authenticated (by a Bearer token too when it is a protected
   * resource), then the mount answers. Its refusals are the API's errors; a protected resource's
   * 401 also says where its metadata is, and that the token was refused when one was sent.
   */
  async function serveMount(req: IncomingMessage, res: ServerResponse, mount: Mount, target: ReturnType<typeof parseTarget>, body: Buffer, headers: Record<string, string>, ip: string): Promise<void> {
    const bearer = mount.resourceMetadata !== undefined;
    let user: User | null = null;
    try {
      if (headers.authorization) user = await auth.authenticate(headers, ip, target.query, { bearer });
      return await mount.handle(req, res, { user, body });
    } catch (e) {
      if (!(e instanceof RestError) || res.headersSent) throw e;
      if (bearer && e.status === 401) {
        const refused = /^bearer\s/i.test(headers.authorization ?? '') ? 'error="invalid_token", ' : '';
        e.headers['WWW-Authenticate'] = `Bearer ${refused}resource_metadata="${resourceMetadataUrl(resourceOf(target.root, mount))}"`;
      }
      return reply.send(res, req, errorOutcome(e), target.query, user, headers, target.root);
    }
  }

  /** The metadata of the protected resource at this path (`/cms-json/mcp`), as an answer any origin may read; null when none is there. */
  function resourceMetadataAt(path: string): PageResponse | null {
    const at = parseTarget(path, engine.roots);
    const mount = at.restPath === null ? undefined : opts.mounts?.().find((m) => m.path === at.restPath && m.resourceMetadata);
    if (!mount) return null;
    const metadata = mount.resourceMetadata!(resourceOf(at.root, mount));
    return { status: 200, headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-cache' }, body: JSON.stringify(metadata) };
  }

  /** The caller, null when anonymous; false when the credentials were refused and the refusal is answered. */
  function authenticated(req: IncomingMessage, res: ServerResponse, query: Record<string, unknown>, headers: Record<string, string>, ip: string): User | null | false | Promise<User | null | false> {
    const refused = (e: unknown): false => {
      if (!(e instanceof RestError)) throw e;
      reply.send(res, req, errorOutcome(e), query, null, headers);
      return false;
    };
    try {
      const found = auth.authenticate(headers, ip, query);
      return found instanceof Promise ? found.catch(refused) : found;
    } catch (e) {
      return refused(e);
    }
  }

  /**
   * Runs a request and answers it; for a miss of the response cache (an anonymous GET), a 200
   * answer that depends on nothing but what it read is kept, and handed to the misses of its key
   * that wait for it.
   */
  async function run(req: IncomingMessage, res: ServerResponse, internal: InternalRequest, user: User | null, cached?: { key: string; miss: Miss }): Promise<void> {
    const { query, headers } = internal;
    // what it wrote (or read before it was durable) is durable before anyone sees it, this caller or, kept, another;
    // no promise (and no tick lost) when there is nothing to wait for
    const settled = (outcome: Outcome): Outcome | Promise<Outcome> => {
      const settling = opts.beforeAnswer?.();
      return settling ? settling.then(() => outcome) : outcome;
    };
    const completed = (outcome: Outcome): Outcome | Promise<Outcome> => {
      if (query._embed === undefined || outcome.status >= 400 || !outcome.data || typeof outcome.data !== 'object') return settled(outcome);
      return embedLinks(engine, outcome.data, query._embed, user).then((data) => {
        outcome.data = data;
        outcome.json = undefined;
        outcome.parts = undefined;
        return settled(outcome);
      });
    };
    const answer = (): Promise<Outcome> => {
      const handled = engine.handle(internal, user);
      return handled instanceof Promise ? handled.then(completed) : Promise.resolve(completed(handled));
    };
    const make = opts.answerScope ? () => opts.answerScope!(answer) : answer;
    if (!cached || !cache) return reply.send(res, req, await make(), query, user, headers, internal.root);
    const { value: outcome, stamp } = await cache.observe(make);
    const prepared = reply.prepare(req.method, outcome, query, user, headers, internal.root);
    const { payload } = prepared;
    if (stamp && prepared.status === 200 && payload !== undefined && !isStream(payload) && !Object.keys(prepared.headers).some((k) => k.toLowerCase() === 'set-cookie')) {
      const body = bodyBytes(payload);
      const kept = cache.keep(cached.key, prepared.headers, body, stamp);
      cached.miss.settle(kept);
      return reply.sendKept(res, req, kept, headers);
    }
    reply.write(res, req, prepared, headers);
  }

  /**
   * An upload endpoint: the caller is authenticated first; a permitted upload is streamed to
   * temporary files under the upload limit (413 as soon as it passes it) and removed once
   * answered; a refused one is not read at all, and the engine answers its 401/403.
   */
  async function uploadRequest(req: IncomingMessage, res: ServerResponse, target: ReturnType<typeof parseTarget>, method: string, headers: Record<string, string>, ip: string): Promise<void> {
    const user = await authenticated(req, res, target.query, headers, ip);
    if (user === false) return;
    const internal = restRequest(method, target, headers, ip);
    if (!engine.mayUpload(internal, user)) {
      closeAfterAnswer(req, res);
      return run(req, res, internal, user);
    }
    let upload: ReceivedUpload;
    try {
      upload = await receiveUpload(req, headers, uploadLimit);
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        closeAfterAnswer(req, res);
        return reply.send(res, req, errorOutcome(payloadTooLarge(uploadLimit)), target.query, user, headers, target.root);
      }
      if (e instanceof RestError) return reply.send(res, req, errorOutcome(e), target.query, user, headers, target.root);
      throw e;
    }
    try {
      internal.files = upload.files;
      internal.body = upload.fields;
      await run(req, res, internal, user);
    } finally {
      await discardUpload(upload);
    }
  }

  const timeouts = opts.timeouts ?? DEFAULT_TIMEOUTS;
  const front: Front = { connections: new Set(), stopping: false };
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      // how often Node looks for clients past their deadline; its default (30 s) adds that much to each
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(timeouts.headersMs / 4))),
    },
    (req, res) => {
      const connection = connectionOf(front, req.socket);
      if (connection.running.size < PIPELINED_AT_ONCE) return start(req, res, connection);
      connection.waiting.push(() => start(req, res, connection));
      // a client that pipelines faster than it is answered waits in its socket's buffer, not in this process's memory
      if (connection.waiting.length >= PIPELINED_QUEUED && !connection.paused) {
        connection.paused = true;
        connection.socket.pause();
      }
    },
  );

  /** Runs a request of a connection; once it is answered, the next one pipelined behind it starts. */
  function start(req: IncomingMessage, res: ServerResponse, connection: Connection): void {
    // a client gone before its turn: nothing more of its pipeline runs
    if (connection.socket.destroyed) return void (connection.waiting.length = 0);
    connection.running.add(res);
    res.once('close', () => {
      connection.running.delete(res);
      if (connection.paused && connection.waiting.length < PIPELINED_QUEUED) {
        connection.paused = false;
        connection.socket.resume();
      }
      // on the loop's next turn, after it has read what the other connections sent: a request that
      // makes its answer without waiting on I/O would otherwise start the next at once, and a long
      // pipeline would run to its end before anyone else is read
      const next = connection.waiting.shift();
      if (next) setImmediate(next);
    });
    if (front.stopping) {
      // a request after the shutdown began, on a connection kept alive: not run, and the connection closed after its answer, not before
      for (const before of connection.running) if (before !== res && !before.headersSent) before.removeHeader('Connection');
      closeAfterAnswer(req, res);
      return reply.send(res, req, errorOutcome(unavailable()), {}, null, {});
    }
    onRequest(req, res).catch((e: unknown) => {
      // the path only: a query string may carry credentials
      logCriticalError(engine.log, `${req.method} ${(req.url ?? '/').split('?')[0]}`, e, req.headers);
      if (!res.headersSent) reply.send(res, req, errorOutcome(criticalError()), {}, null, {});
      else res.destroy();
    });
  }
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) return socket.destroy();
    const e = clientErrorAnswer(err.code);
    const body = JSON.stringify(e.toBody());
    socket.end(`HTTP/1.1 ${e.status} ${STATUS_TEXT[e.status]}\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  fronts.set(server, front);
  return server;
}

/**
 * How many requests of one connection run at once. Node hands every request it parses to the
 * server at once, so a client pipelining 2,000 requests on one connection had all of them run
 * together, taking the event loop from every other client until the last was made (issue 40).
 * The answers of one connection go out in order anyway: a request pipelined behind these starts
 * when one of them is answered, so each connection gets its share and no more.
 */
const PIPELINED_AT_ONCE = 4;
/** Past this many waiting, the connection is not read until they start. */
const PIPELINED_QUEUED = 64;

/** The requests of one connection: those running (in the order they came), and those pipelined behind them. */
interface Connection {
  socket: Socket;
  running: Set<ServerResponse>;
  waiting: (() => void)[];
  /** Whether this front stopped reading it (PIPELINED_QUEUED). */
  paused: boolean;
}

/** What the front keeps of its connections, for their pipelines and for a shutdown. */
interface Front {
  connections: Set<Connection>;
  stopping: boolean;
}

const connections = new WeakMap<Socket, Connection>();

function connectionOf(front: Front, socket: Socket): Connection {
  let connection = connections.get(socket);
  if (!connection) {
    const made: Connection = { socket, running: new Set(), waiting: [], paused: false };
    connections.set(socket, made);
    front.connections.add(made);
    socket.once('close', () => front.connections.delete(made));
    connection = made;
  }
  return connection;
}

const fronts = new WeakMap<Server, Front>();

/**
 * The first step of a shutdown, at once: the requests in flight are answered, the last of each
 * connection with `Connection: close` (so a client keeping its connection alive with one request
 * after another does not keep it open through the shutdown), and a request that comes after on a
 * connection still open (or was pipelined behind those in flight) is answered 503 with
 * `Connection: close` and not run.
 */
export function stopTakingRequests(server: Server): void {
  const front = fronts.get(server);
  if (!front || front.stopping) return;
  front.stopping = true;
  for (const connection of front.connections) {
    // only the last answer of a connection closes it: those pipelined before it are answered first
    const last = [...connection.running].pop();
    if (last && !last.headersSent) last.setHeader('Connection', 'close');
  }
}

/**
 * Shuts a server made by createHttpServer down: it stops taking requests (stopTakingRequests) and
 * listening; the requests in flight are answered, idle connections closed at once, and those
 * still busy after `deadlineMs` closed then (`forced`: how many).
 */
export function shutDown(server: Server, deadlineMs: number): Promise<{ forced: number }> {
  stopTakingRequests(server);
  return new Promise((resolve) => {
    let forced = 0;
    const deadline = setTimeout(() => {
      server.getConnections((_, n) => {
        forced = n ?? 0;
        server.closeAllConnections();
      });
    }, deadlineMs);
    server.close(() => {
      clearTimeout(deadline);
      resolve({ forced });
    });
    server.closeIdleConnections();
  });
}
