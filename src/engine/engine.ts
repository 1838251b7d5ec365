import { RestError, forbidden, invalidJson, noRoute } from './errors.ts';
import type { CompiledEndpoint, CompiledRoute, RouteTable } from './compile.ts';
import { relinkRoutes } from './compile.ts';
import { buildNamespaceIndex, buildRootIndex } from './index-doc.ts';
import type { Site } from './site.ts';
import type { Spec } from './spec.ts';
import { RestResponse, type HandlerContext, type Logger, type RawBody, type User } from './types.ts';
import type { Store } from '../store/index.ts';
import { parseQueryString } from './params.ts';
import { serveBatch } from './batch.ts';

/** A REST request after HTTP parsing; batch and embedded sub-requests are built the same way. */
export interface InternalRequest {
  method: string;
  /** The REST path without the API prefix and without a trailing slash; `/` for the root. */
  path: string;
  query: Record<string, unknown>;
  /** Form-encoded body params (or a batch item's `body`). */
  body: Record<string, unknown>;
  /** The decoded JSON body, when the content type was JSON. */
  json?: unknown;
  jsonError?: string;
  headers: Record<string, string>;
  ip: string;
}

export interface Outcome {
  status: number;
  headers: Record<string, string>;
  data: unknown;
  raw?: RawBody;
  /** Ready-made JSON bytes for `data` (the prebuilt indexes). */
  json?: Buffer;
  /** The route the request matched, for the Allow header. */
  route?: CompiledRoute;
}

export interface Matched {
  route: CompiledRoute;
  endpoint: CompiledEndpoint;
  urlParams: Record<string, string>;
}

/** A sub-request that matched and validated, ready to run (batch phase 2 → phase 3). */
export interface Prepared {
  route: CompiledRoute;
  endpoint: CompiledEndpoint;
  params: Record<string, unknown>;
  urlParams: Record<string, string>;
  req: InternalRequest;
}

/** Query params that steer the server itself and never reach a handler's args. */
const GLOBAL_PARAMS = new Set(['_fields', '_envelope', '_embed', '_method', '_jsonp', '_pretty', 'rest_route', '_locale', '_wpnonce']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class Engine {
  private rootIndex!: Record<string, unknown>;
  private rootIndexJson!: Buffer;
  private namespaceIndexes = new Map<string, { data: unknown; json: Buffer }>();
  /** The Allow header for an anonymous caller, per route (the common case, computed once). */
  private anonymousAllow = new Map<CompiledRoute, string>();

  constructor(
    readonly spec: Spec,
    readonly table: RouteTable,
    readonly site: Site,
    readonly store: Store,
    readonly log: Logger,
  ) {
    for (const r of table.routes) this.anonymousAllow.set(r, allowFor(r, null));
    this.rebuildIndexes();
    site.onChange(() => this.rebuildIndexes());
  }

  /** Serialises the indexes once; called at start and whenever the site's options change. */
  private rebuildIndexes(): void {
    relinkRoutes(this.table, (p) => this.site.restUrl(p));
    this.rootIndex = buildRootIndex(this.spec, this.table, this.site);
    this.rootIndexJson = Buffer.from(JSON.stringify(this.rootIndex));
    this.namespaceIndexes.clear();
    for (const ns of this.table.namespaces) {
      const data = buildNamespaceIndex(ns, this.table, this.site);
      this.namespaceIndexes.set(ns, { data, json: Buffer.from(JSON.stringify(data)) });
    }
  }

  /**
   * The whole pipeline for one request, errors included; never throws (nor rejects). Synchronous
   * answers stay synchronous: the request path awaits only what a handler really waits for.
   */
  handle(req: InternalRequest, user: User | null, store: Store = this.store): Outcome | Promise<Outcome> {
    if (req.method === 'OPTIONS') return this.options(req);
    const prepared = this.prepare(req);
    if (!(prepared as Prepared).endpoint) return prepared as Outcome;
    return this.execute(prepared as Prepared, user, store);
  }

  /** OPTIONS: the matched route's descriptor and Allow header; `[]` when nothing matches. */
  private options(req: InternalRequest): Outcome {
    const match = this.table.router.find(req.path);
    if (!match) return { status: 200, headers: {}, data: [] };
    return { status: 200, headers: {}, data: match.value.descriptor, route: match.value };
  }

  /** Finds the route and the endpoint for the method (HEAD falls back to GET). */
  match(req: InternalRequest): Matched | Outcome {
    const found = this.table.router.find(req.path);
    if (!found) return errorOutcome(noRoute());
    const route = found.value;
    const method = req.method === 'HEAD' && !route.endpoints.some((e) => e.methods.has('HEAD')) ? 'GET' : req.method;
    const endpoint = route.endpoints.find((e) => e.methods.has(method));
    if (!endpoint) return errorOutcome(noRoute());
    return { route, endpoint, urlParams: found.params };
  }

  /** Match, then merge the params in WordPress precedence and validate them: everything before permission checks. */
  prepare(req: InternalRequest, matched: Matched | Outcome = this.match(req)): Prepared | Outcome {
    if (!('endpoint' in matched)) return matched;
    const { route, endpoint, urlParams } = matched;
    if (req.jsonError !== undefined) return errorOutcome(invalidJson(req.jsonError), route);
    const params: Record<string, unknown> = {};
    for (const [name, value] of endpoint.args.defaults) params[name] = typeof value === 'object' ? cloneDefault(value) : value;
    mergeInto(params, urlParams);
    mergeInto(params, req.query, GLOBAL_PARAMS);
    if (BODY_METHODS.has(req.method)) mergeInto(params, req.body);
    if (req.json && typeof req.json === 'object') mergeInto(params, req.json as Record<string, unknown>);
    try {
      endpoint.args.apply(params);
    } catch (e) {
      return errorOutcome(e as RestError, route);
    }
    return { route, endpoint, params, urlParams, req };
  }

  /** Permission, then the handler. */
  execute(p: Prepared, user: User | null, store: Store = this.store): Outcome | Promise<Outcome> {
    const { route, endpoint } = p;
    if (!permitted(endpoint, user)) {
      const refusal = endpoint.spec.forbidden;
      return errorOutcome(refusal ? forbidden(user !== null, refusal.message, refusal.code) : forbidden(user !== null), route);
    }
    const prebuilt = this.prebuiltIndex(p);
    if (prebuilt) return { status: 200, headers: {}, data: prebuilt.data, json: prebuilt.json, route };
    let result: unknown;
    try {
      result = this.invoke(p, user, store);
    } catch (e) {
      return this.failure(e, route, p);
    }
    if (result instanceof Promise) return result.then((r: unknown) => answered(r, route), (e: unknown) => this.failure(e, route, p));
    return answered(result, route);
  }

  private invoke(p: Prepared, user: User | null, store: Store): unknown {
    const { endpoint, params, req } = p;
    switch (endpoint.handlerName) {
      case '@namespace_index':
        throw new RestError('rest_invalid_namespace', 'The specified namespace could not be found.', 404);
      case '@batch':
        return serveBatch(this, params, user, req);
    }
    return endpoint.handler!(new RequestContext(this, p, user, store));
  }

  /** The root or a namespace index, as data and as the bytes serialised at the last change. */
  private prebuiltIndex(p: Prepared): { data: unknown; json: Buffer } | undefined {
    if (p.endpoint.handlerName === '@index') return { data: this.rootIndex, json: this.rootIndexJson };
    if (p.endpoint.handlerName === '@namespace_index') return this.namespaceIndexes.get(String(p.params.namespace));
    return undefined;
  }

  private failure(e: unknown, route: CompiledRoute, p: Prepared): Outcome {
    if (e instanceof RestError) return errorOutcome(e, route);
    this.log.error(`internal error in ${p.endpoint.handlerName} (${p.req.method} ${p.req.path}): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return errorOutcome(new RestError('internal_server_error', 'The server could not complete the request because of an internal error.', 500), route);
  }

  /** A GET/POST... run in-process as the same user (rest_do_request): for embedding and plugin routes. */
  async subRequest(method: string, pathWithQuery: string, params: Record<string, unknown>, user: User | null, store: Store, parent?: InternalRequest): Promise<RestResponse> {
    const [path, qs = ''] = pathWithQuery.split('?', 2);
    const query = { ...parseQueryString(qs), ...(method === 'GET' ? params : {}) };
    const req: InternalRequest = {
      method,
      path: normaliseRestPath(path),
      query,
      body: method === 'GET' ? {} : params,
      headers: parent?.headers ?? {},
      ip: parent?.ip ?? '',
    };
    const out = await this.handle(req, user, store);
    return new RestResponse(out.data, out.status, out.headers, out.raw);
  }

  /** Methods of the route the user may call, for the Allow header. */
  allowHeader(route: CompiledRoute, user: User | null): string {
    return user === null ? this.anonymousAllow.get(route)! : allowFor(route, user);
  }

  /** Resolves a REST URL of this site to its path under the API root, or null for anything else. */
  restPathOf(href: string): string | null {
    const root = this.site.apiRoot;
    return href.startsWith(root) ? `/${href.slice(root.length)}` : null;
  }
}

/**
 * A handler's view of one request. Methods live on the prototype and `request` is built when a
 * handler first reads it, so a handler that needs only its args costs one small object.
 */
class RequestContext implements HandlerContext {
  readonly args: Record<string, any>;
  readonly site: Site;
  readonly log: Logger;
  private info: HandlerContext['request'] | undefined;

  constructor(
    private readonly engine: Engine,
    private readonly p: Prepared,
    readonly user: User | null,
    readonly store: Store,
  ) {
    this.args = p.params;
    this.site = engine.site;
    this.log = engine.log;
  }

  get request(): HandlerContext['request'] {
    const { req, route, urlParams } = this.p;
    return (this.info ??= { method: req.method, path: req.path, query: req.query, route: route.key, urlParams, headers: req.headers, ip: req.ip, head: req.method === 'HEAD' });
  }

  can(cap: string): boolean {
    return this.user !== null && this.user.caps.has(cap);
  }

  dispatch(method: string, path: string, params?: Record<string, unknown>): Promise<RestResponse> {
    return this.engine.subRequest(method, path, params ?? {}, this.user, this.store, this.p.req);
  }
}

function answered(result: unknown, route: CompiledRoute): Outcome {
  if (result instanceof RestResponse) return { status: result.status, headers: result.headers, data: result.data, raw: result.raw, route };
  return { status: 200, headers: {}, data: result, route };
}

export function normaliseRestPath(path: string): string {
  // the common case, a clean path, needs no rewriting
  if (path.length > 1 && path.charCodeAt(0) === 47 && path.charCodeAt(1) !== 47 && path.charCodeAt(path.length - 1) !== 47) return path;
  const p = `/${path.replace(/^\/+/, '')}`.replace(/\/+$/, '');
  return p === '' ? '/' : p;
}

/** A handler may change its args, so object defaults are copied; an empty list, the usual one, cheaply. */
function cloneDefault(value: unknown): unknown {
  if (Array.isArray(value) && value.length === 0) return [];
  return structuredClone(value);
}

function mergeInto(target: Record<string, unknown>, source: Record<string, unknown>, skip?: Set<string>): void {
  for (const k in source) {
    if (skip?.has(k) || k === '__proto__') continue;
    const v = source[k];
    // isset(): a null from a higher source does not hide a value from a lower one
    if (v !== null || !(k in target)) target[k] = v;
  }
}

export function permitted(endpoint: CompiledEndpoint, user: User | null): boolean {
  if (endpoint.permission === 'public') return true;
  if (user === null) return false;
  return endpoint.permission.split('|').some((cap) => user.caps.has(cap));
}

function allowFor(route: CompiledRoute, user: User | null): string {
  const methods: string[] = [];
  for (const e of route.endpoints) if (permitted(e, user)) for (const m of e.methods) if (!methods.includes(m)) methods.push(m);
  return methods.join(', ');
}

export function errorOutcome(e: RestError, route?: CompiledRoute): Outcome {
  return { status: e.status, headers: { ...e.headers }, data: e.toBody(), route };
}
