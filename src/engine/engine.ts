import { batchHandler } from './batch.ts';
import { compileRoutes, HandlerModules, relinkRoutes, type Builtins, type CompiledEndpoint, type CompiledRoute, type RouteTable } from './compile.ts';
import { SpecError, type Diagnostic } from './diagnostics.ts';
import { RestError, forbidden, invalidJson, noRoute } from './errors.ts';
import { buildNamespaceIndex } from './index-doc.ts';
import { parseQueryString } from './params.ts';
import { answered, errorOutcome, normaliseRestPath, type InternalRequest, type Matched, type Outcome, type Pipeline, type Prepared } from './pipeline.ts';
import { expandTemplates, routesForVariant, type RouteSpec, type Spec, type Variant } from './spec.ts';
import { PrebuiltJson, RestResponse, type EngineHost, type Handler, type HandlerContext, type Logger, type TransactionalStore, type User } from './types.ts';

/** Query params that steer the server itself and never reach a handler's args. */
const GLOBAL_PARAMS = new Set(['_fields', '_envelope', '_embed', '_method', '_jsonp', '_pretty', 'rest_route', '_locale', '_wpnonce']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface EngineOptions<S, H> {
  spec: Spec;
  variant: Variant;
  host: H;
  /** The store handlers get when a request brings no transaction of its own. */
  store: S;
  log: Logger;
}

/**
 * The request pipeline over one compiled route table: match, merge params, validate, check the
 * permission, run the handler. Which namespaces the table holds can change while serving
 * (`serve`): the new table is compiled aside and swapped in, and requests under way finish on the
 * routes they matched.
 */
export class Engine<S extends TransactionalStore<S> = any, H extends EngineHost = EngineHost> implements Pipeline<S> {
  readonly spec: Spec;
  readonly variant: Variant;
  readonly site: H;
  readonly store: S;
  readonly log: Logger;
  private table!: RouteTable;
  private servedRoutes: readonly RouteSpec[] = [];
  private readonly variantRoutes: RouteSpec[];
  private readonly modules = new HandlerModules();
  private readonly builtins: Builtins;
  /** The root and namespace index documents, serialised at their first request after a change. */
  private indexes: { root: PrebuiltJson; namespaces: Map<string, PrebuiltJson> } | null = null;
  /** The Allow header for an anonymous caller, per route (the common case, computed once per table). */
  private anonymousAllow = new Map<CompiledRoute, string>();
  private readonly listeners: (() => void)[] = [];

  constructor(o: EngineOptions<S, H>) {
    this.spec = o.spec;
    this.variant = o.variant;
    this.site = o.host;
    this.store = o.store;
    this.log = o.log;
    this.variantRoutes = routesForVariant(o.spec, o.variant);
    this.builtins = new Map<string, Handler>([
      ['@index', () => this.builtIndexes().root],
      ['@namespace_index', (ctx) => this.builtIndexes().namespaces.get(String(ctx.args.namespace)) ?? invalidNamespace()],
      ['@batch', batchHandler<S>(this)],
    ]);
    o.host.onChange(() => this.rebuildIndexes());
  }

  /** The namespaces the variant's spec declares, served or not. */
  get knownNamespaces(): string[] {
    return [...new Set(this.variantRoutes.map((r) => r.namespace).filter(Boolean))];
  }

  /** The namespaces being served now. */
  get namespaces(): readonly string[] {
    return this.table?.namespaces ?? [];
  }

  /** The routes being served now, as the spec declares them (one array per route table). */
  get served(): readonly RouteSpec[] {
    return this.servedRoutes;
  }

  /** Imports the handler modules of these namespaces and compiles their routes on the side: the problems that serving them would meet. */
  async check(namespaces: Iterable<string>): Promise<Diagnostic[]> {
    const routes = this.routesOf(new Set(namespaces), false);
    const problems = await this.modules.load(routes, this.builtins);
    if (problems.length) return problems;
    try {
      await compileRoutes(routes, this.variant, this.modules, this.builtins, (p) => this.restUrl(p));
      return [];
    } catch (e) {
      if (e instanceof SpecError) return e.problems;
      throw e;
    }
  }

  /** Serves the root routes and exactly these namespaces from now on. Throws SpecError, serving what it served before, when they do not compile. */
  async serve(namespaces: Iterable<string>): Promise<void> {
    const routes = this.routesOf(new Set(namespaces), true);
    const problems = await this.modules.load(routes, this.builtins);
    if (problems.length) throw new SpecError(problems);
    this.table = await compileRoutes(routes, this.variant, this.modules, this.builtins, (p) => this.restUrl(p));
    this.servedRoutes = this.table.routes.map((r) => r.spec);
    this.anonymousAllow = new Map(this.table.routes.map((r) => [r, allowFor(r, null)]));
    this.rebuildIndexes();
  }

  /** The routes of these namespaces, templates expanded for the instances the host names now. */
  private routesOf(namespaces: Set<string>, withRoot: boolean): RouteSpec[] {
    const chosen = this.variantRoutes.filter((r) => (r.namespace === '' ? withRoot : namespaces.has(r.namespace)));
    return expandTemplates(chosen, (each) => this.site.routeInstances?.(each) ?? []);
  }

  /** Told after every change of the routes served or of the host's address, once the indexes are rebuilt. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Serialises the indexes once; called whenever the table or the host's description changes. */
  /**
   * After a change of the routes or of the site's address: the descriptors' links now, the index
   * documents at their next request (a start, which changes both twice, serialises them once).
   */
  private rebuildIndexes(): void {
    if (!this.table) return;
    relinkRoutes(this.table, (p) => this.restUrl(p));
    this.indexes = null;
    for (const l of this.listeners) l();
  }

  private builtIndexes(): NonNullable<Engine['indexes']> {
    if (this.indexes) return this.indexes;
    const routes: Record<string, unknown> = {};
    for (const r of this.table.routes) routes[r.key] = r.descriptor;
    return (this.indexes = {
      root: PrebuiltJson.of(this.site.rootIndex(this.table.namespaces, routes)),
      namespaces: new Map(this.table.namespaces.map((ns) => [ns, PrebuiltJson.of(buildNamespaceIndex(ns, this.table, this.site.apiRoot))])),
    });
  }

  /** rest_url(): the absolute URL of an API path. */
  restUrl(path: string): string {
    return this.site.apiRoot + path.replace(/^\/+/, '');
  }

  /**
   * The whole pipeline for one request, errors included; never throws (nor rejects). Synchronous
   * answers stay synchronous: the request path awaits only what a handler really waits for.
   */
  handle(req: InternalRequest, user: User | null, store: S = this.store): Outcome | Promise<Outcome> {
    if (req.method === 'OPTIONS') return this.options(req);
    const prepared = this.prepare(req);
    if (!('params' in prepared)) return prepared;
    return this.execute(prepared, user, store);
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
  execute(p: Prepared, user: User | null, store: S = this.store): Outcome | Promise<Outcome> {
    const { route, endpoint } = p;
    if (!permitted(endpoint, user)) {
      const refusal = endpoint.spec.forbidden;
      return errorOutcome(refusal ? forbidden(user !== null, refusal.message, refusal.code) : forbidden(user !== null), route);
    }
    let result: unknown;
    try {
      result = endpoint.handler(new RequestContext(this, p, user, store));
    } catch (e) {
      return this.failure(e, route, p);
    }
    if (result instanceof Promise) return result.then((r: unknown) => answered(r, route), (e: unknown) => this.failure(e, route, p));
    return answered(result, route);
  }

  private failure(e: unknown, route: CompiledRoute, p: Prepared): Outcome {
    if (e instanceof RestError) return errorOutcome(e, route);
    this.log.error(`internal error in ${p.endpoint.handlerName} (${p.req.method} ${p.req.path}): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return errorOutcome(new RestError('internal_server_error', 'The server could not complete the request because of an internal error.', 500), route);
  }

  /** A GET/POST... run in-process as the same user (rest_do_request): for embedding and plugin routes. */
  async subRequest(method: string, pathWithQuery: string, params: Record<string, unknown>, user: User | null, store: S, parent?: InternalRequest): Promise<RestResponse> {
    const [path, qs = ''] = pathWithQuery.split('?', 2);
    let query: Record<string, unknown>;
    try {
      query = { ...parseQueryString(qs), ...(method === 'GET' ? params : {}) };
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      return new RestResponse(e.toBody(), e.status);
    }
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

  /**
   * Whether a request takes file uploads, and whether this user may make it: the server streams
   * the body of a permitted upload to disk, and leaves a refused one unread.
   */
  isUpload(req: InternalRequest): boolean {
    const matched = this.match(req);
    return 'endpoint' in matched && matched.endpoint.spec.upload;
  }

  mayUpload(req: InternalRequest, user: User | null): boolean {
    const matched = this.match(req);
    return 'endpoint' in matched && permitted(matched.endpoint, user);
  }

  /** Methods of the route the user may call, for the Allow header. */
  allowHeader(route: CompiledRoute, user: User | null): string {
    const known = user === null ? this.anonymousAllow.get(route) : undefined;
    return known ?? allowFor(route, user);
  }

  /** Resolves a REST URL of this site to its path under the API root, or null for anything else. */
  restPathOf(href: string): string | null {
    const root = this.site.apiRoot;
    return href.startsWith(root) ? `/${href.slice(root.length)}` : null;
  }
}

const invalidNamespace = (): never => {
  throw new RestError('rest_invalid_namespace', 'The specified namespace could not be found.', 404);
};

/**
 * A handler's view of one request. Methods live on the prototype and `request` is built when a
 * handler first reads it, so a handler that needs only its args costs one small object.
 */
class RequestContext<S extends TransactionalStore<S>, H extends EngineHost> implements HandlerContext<S, H> {
  readonly args: Record<string, any>;
  readonly site: H;
  readonly log: Logger;
  private info: HandlerContext['request'] | undefined;

  constructor(
    private readonly engine: Engine<S, H>,
    private readonly p: Prepared,
    readonly user: User | null,
    readonly store: S,
  ) {
    this.args = p.params;
    this.site = engine.site;
    this.log = engine.log;
  }

  get config(): Readonly<Record<string, unknown>> {
    return this.p.route.spec.config;
  }

  get request(): HandlerContext['request'] {
    const { req, route, urlParams } = this.p;
    return (this.info ??= { method: req.method, path: req.path, query: req.query, route: route.key, urlParams, headers: req.headers, ip: req.ip, head: req.method === 'HEAD', files: req.files ?? [] });
  }

  can(cap: string): boolean {
    return this.user !== null && this.user.caps.has(cap);
  }

  dispatch(method: string, path: string, params?: Record<string, unknown>): Promise<RestResponse> {
    return this.engine.subRequest(method, path, params ?? {}, this.user, this.store, this.p.req);
  }

  get served(): readonly RouteSpec[] {
    return this.engine.served;
  }
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
