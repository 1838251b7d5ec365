import { ApiRoot } from './api-root.ts';
import { batchHandler } from './batch.ts';
import { compileRoutes, HandlerModules, relinkRoutes, type Builtins, type CompiledEndpoint, type CompiledRoute, type RouteTable } from './compile.ts';
import { SpecError, type Diagnostic } from './diagnostics.ts';
import { criticalError, logCriticalError } from './critical-error.ts';
import { RestError, catalogued, engineError, forbidden, invalidJson, noRoute, ENGINE_ERRORS, type CataloguedError, type ErrorValues } from './errors.ts';
import { buildNamespaceIndex } from './index-doc.ts';
import { openApiDocument } from './openapi.ts';
import { optionsDocument } from './options-doc.ts';
import { parseQueryString } from './params.ts';
import { answered, errorOutcome, normaliseRestPath, type InternalRequest, type Matched, type Outcome, type Pipeline, type Prepared } from './pipeline.ts';
import { expandTemplates, routesForVariant, type RouteSpec, type Spec, type Variant } from './spec.ts';
import { PrebuiltJson, RestResponse, type EngineHost, type Handler, type HandlerContext, type Logger, type RequestInfo, type TransactionalStore, type UploadedFile, type User } from './types.ts';
import { answerVaries } from './response-cache.ts';
import { noteCapability, noteIdentity } from './caller-reads.ts';
import { GLOBAL_PARAMS } from './wp-rest.ts';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface EngineOptions<S, H> {
  spec: Spec;
  variant: Variant;
  host: H;
  /** The store handlers get when a request brings no transaction of its own. */
  store: S;
  log: Logger;
  /** Whether the spec's `api_aliases` answer too (default true); off, only the API's own root does. */
  aliases?: boolean;
}

/**
 * The request pipeline over one compiled route table: match, merge params, validate, check the
 * permission, run the handler. Which namespaces the table holds can change while serving
 * (`serve`): the new table is compiled aside and swapped in, and requests under way finish on the
 * routes they matched.
 */
/**
 * The index's links with a user's added in WordPress's add_link order: the first of the index's
 * own (help), the user's (the active theme), the index's others (the logo and icon), and the
 * CURIEs last, as WordPress compacts them.
 */
function userLinksAdded(own: Record<string, unknown[]>, extra: Record<string, unknown[]>): Record<string, unknown[]> {
  const [first, ...rest] = Object.entries(own).filter(([rel]) => rel !== 'curies');
  const { curies = own.curies, ...added } = extra;
  return { ...(first ? Object.fromEntries([first]) : {}), ...added, ...Object.fromEntries(rest), ...(curies ? { curies } : {}) };
}

export class Engine<S extends TransactionalStore<S> = any, H extends EngineHost = EngineHost> implements Pipeline<S> {
  private specNow: Spec;
  readonly variant: Variant;
  readonly site: H;
  readonly store: S;
  readonly log: Logger;
  /** The API's own root (`api_prefix`), where the host's address points. */
  readonly root: ApiRoot;
  /** Every root the API answers at: its own, then the aliases served. */
  readonly roots: readonly ApiRoot[];
  private table!: RouteTable;
  private servedRoutes: readonly RouteSpec[] = [];
  private variantRoutes: RouteSpec[];
  private modules = new HandlerModules();
  private readonly builtins: Builtins;
  /** Each root's root and namespace index documents, serialised at their first request there after a change. */
  private readonly indexes = new Map<ApiRoot, { root: PrebuiltJson; namespaces: Map<string, PrebuiltJson> }>();
  /** The Allow header for an anonymous caller, per route without permission checks (the common case, computed once per table). */
  private anonymousAllow = new Map<CompiledRoute, string>();
  private readonly listeners: (() => void)[] = [];
  /** Each root index with the links the host adds for some users, by that index and the links' JSON. */
  private readonly linkedIndexes = new WeakMap<PrebuiltJson, Map<string, PrebuiltJson>>();
  /** The 'help' context of each index document served, by that document. */
  private readonly helpIndexes = new WeakMap<PrebuiltJson, PrebuiltJson>();
  /** Each root's OpenAPI document (`?_openapi=1` on the root), built at its first request after a change. */
  private readonly openApiDocuments = new Map<ApiRoot, PrebuiltJson>();
  /** The codes a handler of each namespace may raise: the engine's, site.yaml's and the namespace's own ('' for the root routes). */
  private errorCatalogues: ReadonlyMap<string, ReadonlyMap<string, CataloguedError>>;

  constructor(o: EngineOptions<S, H>) {
    this.specNow = o.spec;
    this.variant = o.variant;
    this.site = o.host;
    this.store = o.store;
    this.log = o.log;
    this.root = new ApiRoot(o.spec.apiPrefix);
    const aliases = o.aliases === false ? [] : (o.spec.apiAliases ?? []);
    this.roots = [this.root, ...aliases.map((a) => new ApiRoot(a.prefix, a.namespaces))];
    this.rehome();
    this.variantRoutes = routesForVariant(o.spec, o.variant);
    this.errorCatalogues = errorCataloguesOf(o.spec);
    this.builtins = new Map<string, Handler>([
      ['@index', (ctx) => (ctx.args._openapi === undefined ? this.withSchemas(this.rootIndexFor(ctx.api, ctx.user), ctx.api, ctx.args.context) : this.openApiAt(ctx.api))],
      ['@namespace_index', (ctx) => this.withSchemas(this.builtIndexes(ctx.api).namespaces.get(String(ctx.args.namespace)) ?? invalidNamespace(), ctx.api, ctx.args.context)],
      ['@batch', batchHandler<S>(this)],
    ]);
    o.host.onChange(() => this.rebuildIndexes());
  }

  /** The spec served: the one the engine started with, until `reload` swaps in another. */
  get spec(): Spec {
    return this.specNow;
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

  /**
   * Finds the handler modules of these namespaces and compiles their routes on the side: the
   * problems that serving them would meet (a module's own problems are met at its first call).
   */
  async check(namespaces: Iterable<string>): Promise<Diagnostic[]> {
    const routes = this.routesOf(new Set(namespaces), false);
    const problems = await this.modules.load(routes, this.builtins, false);
    if (problems.length) return problems;
    try {
      await compileRoutes(routes, this.variant, this.modules, this.builtins, this.roots);
      return [];
    } catch (e) {
      if (e instanceof SpecError) return e.problems;
      throw e;
    }
  }

  /** Serves the root routes and exactly these namespaces from now on. Throws SpecError, serving what it served before, when they do not compile. */
  async serve(namespaces: Iterable<string>): Promise<void> {
    const routes = this.routesOf(new Set(namespaces), true);
    // handler modules are imported at their routes' first call: start-up and activation import none
    const problems = await this.modules.load(routes, this.builtins, false);
    if (problems.length) throw new SpecError(problems);
    this.install(await compileRoutes(routes, this.variant, this.modules, this.builtins, this.roots));
  }

  /**
   * `serve --watch`: another version of the spec, with the handler modules whose files changed
   * since they were imported imported afresh. The namespaces served now are compiled with it on
   * the side; when they do not compile, nothing changes and the problems come back. Otherwise
   * the new table is swapped in (requests under way finish on the routes they matched); which
   * namespaces to serve is then the host's to say again, with `serve` (a namespace may be new).
   */
  async reload(spec: Spec): Promise<Diagnostic[]> {
    const variantRoutes = routesForVariant(spec, this.variant);
    const modules = this.modules.refreshed();
    const routes = this.routesOf(new Set(this.namespaces), true, variantRoutes);
    const problems = await modules.load(routes, this.builtins);
    if (problems.length) return problems;
    let table: RouteTable;
    try {
      table = await compileRoutes(routes, this.variant, modules, this.builtins, this.roots);
    } catch (e) {
      if (e instanceof SpecError) return e.problems;
      throw e;
    }
    this.specNow = spec;
    this.errorCatalogues = errorCataloguesOf(spec);
    this.variantRoutes = variantRoutes;
    this.modules = modules;
    this.install(table);
    return [];
  }

  private install(table: RouteTable): void {
    this.table = table;
    this.servedRoutes = table.routes.map((r) => r.spec);
    this.anonymousAllow = new Map(table.routes.filter((r) => r.endpoints.every((e) => !e.check)).map((r) => [r, uncheckedAllow(r, null)]));
    this.rebuildIndexes();
  }

  /** The routes of these namespaces, templates expanded for the instances the host names now. */
  private routesOf(namespaces: Set<string>, withRoot: boolean, from = this.variantRoutes): RouteSpec[] {
    const chosen = from.filter((r) => (r.namespace === '' ? withRoot : namespaces.has(r.namespace)));
    return expandTemplates(chosen, (each) => this.site.routeInstances?.(each) ?? []);
  }

  /** Told after every change of the routes served or of the host's address, once the indexes are rebuilt. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * After a change of the routes or of the site's address: the descriptors' links now, the index
   * documents at their next request (a start, which changes both twice, serialises them once).
   */
  private rebuildIndexes(): void {
    this.rehome();
    if (!this.table) return;
    relinkRoutes(this.table, this.roots);
    this.indexes.clear();
    this.openApiDocuments.clear();
    for (const l of this.listeners) l();
  }

  /** Each root's URL from the host's: an alias is a sibling of the API's own root (`{home}/wp-json/` beside `{home}/cms-json/`). */
  private rehome(): void {
    const home = this.site.apiRoot.slice(0, this.site.apiRoot.length - this.root.prefix.length - 1);
    for (const root of this.roots) root.url = root === this.root ? this.site.apiRoot : `${home}${root.prefix}/`;
  }

  private builtIndexes(root: ApiRoot): { root: PrebuiltJson; namespaces: Map<string, PrebuiltJson> } {
    let built = this.indexes.get(root);
    if (built) return built;
    const routes: Record<string, unknown> = {};
    for (const r of this.table.routes) routes[root.path(r.key)] = r.descriptors.get(root);
    built = {
      root: PrebuiltJson.document(this.site.rootIndex(this.table.namespaces.map((ns) => root.namespace(ns)), routes, (p) => root.restUrl(p))),
      namespaces: new Map(this.table.namespaces.map((ns) => [ns, PrebuiltJson.document(buildNamespaceIndex(ns, this.table, root))])),
    };
    this.indexes.set(root, built);
    return built;
  }

  /** The root index as this user sees it: the prebuilt one, with the links the host adds for the user appended to its own. */
  private rootIndexFor(root: ApiRoot, user: User | null): PrebuiltJson {
    const built = this.builtIndexes(root).root;
    const extra = this.site.indexLinks?.(user, (p) => root.restUrl(p));
    if (!extra) return built;
    // built once per set of links, as the index itself (its bytes and their kept compressions): hosts add links by capability, so the sets are few
    let linked = this.linkedIndexes.get(built);
    if (!linked) this.linkedIndexes.set(built, (linked = new Map()));
    const key = JSON.stringify(extra);
    let doc = linked.get(key);
    if (!doc) {
      const data = built.data as Record<string, unknown>;
      linked.set(key, (doc = PrebuiltJson.document({ ...data, _links: userLinksAdded(data._links as Record<string, unknown[]>, extra) })));
    }
    return doc;
  }

  /** The OpenAPI document of the routes served, as this root names them (openapi.ts). */
  openApiAt(root: ApiRoot): PrebuiltJson {
    let doc = this.openApiDocuments.get(root);
    if (!doc) this.openApiDocuments.set(root, (doc = PrebuiltJson.document(openApiDocument(this.spec, { routes: this.servedRoutes, root, url: root.url, variant: this.variant }))));
    return doc;
  }

  /**
   * An index in WordPress's 'help' context (`?context=help`): each route's descriptor with its
   * resource's schema, as OPTIONS answers it. Built once per index document.
   */
  private withSchemas(index: PrebuiltJson, root: ApiRoot, context: unknown): PrebuiltJson {
    if (context !== 'help') return index;
    let help = this.helpIndexes.get(index);
    if (!help) {
      const doc = index.data as { routes: Record<string, unknown> };
      const routes: Record<string, unknown> = {};
      for (const r of this.table.routes) {
        const key = root.path(r.key);
        if (key in doc.routes) routes[key] = optionsDocument(r, r.descriptors.get(root)!, (p) => root.restUrl(p)).data;
      }
      this.helpIndexes.set(index, (help = PrebuiltJson.document({ ...doc, routes })));
    }
    return help;
  }

  /**
   * The whole pipeline for one request, errors included; never throws (nor rejects). Synchronous
   * answers stay synchronous: the request path awaits only what a handler really waits for.
   */
  handle(req: InternalRequest, user: User | null, store: S = this.store): Outcome | Promise<Outcome> {
    const prepared = req.method === 'OPTIONS' ? this.options(req) : this.prepare(req);
    if (!('params' in prepared)) return this.withAllow(prepared, user, store);
    return this.execute(prepared, user, store, (out) => this.withAllow(out, user, store));
  }

  /** OPTIONS: the matched route's descriptor with its resource's schema, and its Allow header; `[]` when nothing matches. */
  private options(req: InternalRequest): Outcome {
    const match = this.table.router.find(req.path);
    if (!match) return { status: 200, headers: {}, data: [] };
    const root = req.root ?? this.root;
    const route = match.value;
    const out = answered(optionsDocument(route, route.descriptors.get(root)!, (p) => root.restUrl(p)), route);
    // rest_handle_options_request answers before any handler is chosen: the checks see the URL's params and the query, no defaults
    out.asked = { route, endpoint: route.endpoints[0], urlParams: match.params, params: { ...req.query, ...match.params }, req };
    return out;
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
    const params: Record<string, unknown> = {};
    for (const [name, value] of endpoint.args.defaults) params[name] = typeof value === 'object' ? cloneDefault(value) : value;
    mergeInto(params, urlParams);
    mergeInto(params, req.query, GLOBAL_PARAMS);
    if (BODY_METHODS.has(req.method)) mergeInto(params, req.body);
    if (req.json && typeof req.json === 'object') mergeInto(params, req.json as Record<string, unknown>);
    const prepared = { route, endpoint, params, urlParams, req };
    if (req.jsonError !== undefined) return errorOutcome(invalidJson(req.jsonError), route, prepared);
    try {
      endpoint.args.apply(params);
    } catch (e) {
      if (!(e instanceof RestError)) {
        logCriticalError(this.log, `the args of ${req.method} ${route.key} (${req.path})`, e, req.headers);
        return errorOutcome(criticalError(), route, prepared);
      }
      return errorOutcome(e, route, prepared);
    }
    return prepared;
  }

  /**
   * Permission (the capability, then the endpoint's permission check), then the handler; `then`
   * continues from the outcome in the same step as the handler's promise (no promise more per request).
   */
  execute(p: Prepared, user: User | null, store: S = this.store, then: (out: Outcome) => Outcome | Promise<Outcome> = (out) => out): Outcome | Promise<Outcome> {
    const { route, endpoint } = p;
    if (!permitted(endpoint, user)) {
      const refusal = endpoint.spec.forbidden;
      return then(errorOutcome(refusal ? forbidden(user !== null, refusal.message, refusal.code) : forbidden(user !== null), route, p));
    }
    let result: unknown;
    const ctx = new RequestContext(this, p, user, store);
    try {
      result = endpoint.check ? checkThenHandle(endpoint, ctx) : endpoint.handler(ctx);
    } catch (e) {
      return then(this.failure(e, route, p));
    }
    if (result instanceof Promise) return result.then((r: unknown) => then(this.answer(r, p, ctx.headers)), (e: unknown) => then(this.failure(e, route, p)));
    return then(this.answer(result, p, ctx.headers));
  }

  /**
   * A handler's result. A forced DELETE answers `{deleted: true, previous}`: the object is gone
   * (for the Allow header), and `previous` is the prepared response's get_data(), which never
   * holds its links.
   */
  private answer(result: unknown, p: Prepared, headers: Record<string, string> | undefined): Outcome {
    const out = answered(result, p.route);
    out.asked = p;
    if (headers) out.headers = Object.assign({}, headers, out.headers);
    const data = out.data as { deleted?: unknown; previous?: unknown } | null;
    if (p.req.method === 'DELETE' && data && typeof data === 'object' && data.deleted === true) {
      out.gone = true;
      if (data.previous && typeof data.previous === 'object' && '_links' in data.previous) {
        const { _links, ...previous } = data.previous as Record<string, unknown>;
        out.data = { ...data, previous };
      }
    }
    return out;
  }

  private failure(e: unknown, route: CompiledRoute, p: Prepared): Outcome {
    if (e instanceof RestError) {
      const out = errorOutcome(e, route, p);
      if (e.objectMissing) out.gone = true;
      else if (e.status === 401 || e.status === 403) out.refused = p.endpoint;
      return out;
    }
    logCriticalError(this.log, `${p.endpoint.handlerName} (${p.req.method} ${route.key}, ${p.req.path})`, e, p.req.headers);
    return errorOutcome(criticalError(), route, p);
  }

  /**
   * A GET/POST... run in-process as the same user (rest_do_request): for embedding and plugin
   * routes. The path is a served one (`/cms/v2/...`); the answer is built for the root the parent
   * request came in on, or the one given.
   */
  async subRequest(method: string, pathWithQuery: string, params: Record<string, unknown>, user: User | null, store: S, parent?: InternalRequest, root?: ApiRoot): Promise<RestResponse> {
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
      root: root ?? parent?.root,
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

  /**
   * rest_send_allow_header, once the answer is made (a check then sees what the request changed):
   * the methods of the matched route whose permission passes for this request, '' when none
   * (WordPress then sends no Allow). An endpoint passes when the caller holds its capability and
   * its permission check, run on this request's params, does not refuse; one without a check
   * decides in its handler, and fails where the request showed it would (`refused`, `gone`).
   */
  withAllow(out: Outcome, user: User | null, store: S = this.store): Outcome | Promise<Outcome> {
    const route = out.route;
    if (!route) return out;
    const known = user === null && !out.refused && !out.gone ? this.anonymousAllow.get(route) : undefined;
    if (known !== undefined) {
      out.allow = known;
      return out;
    }
    const passes = route.endpoints.map((e) => this.passes(e, out, user, store));
    const done = (ok: boolean[]): Outcome => {
      out.allow = allowOfPassed(route, ok);
      return out;
    };
    return passes.some((p) => p instanceof Promise) ? Promise.all(passes).then(done) : done(passes as boolean[]);
  }

  private passes(e: CompiledEndpoint, out: Outcome, user: User | null, store: S): boolean | Promise<boolean> {
    if (!permitted(e, user)) return false;
    if (!e.check) return e !== out.refused && !out.gone;
    if (!out.asked) return false;
    // the endpoint that answered a read passed its check in this request, and a read changed nothing it could see again
    if (e === out.asked.endpoint && out.status < 400 && (out.asked.req.method === 'GET' || out.asked.req.method === 'HEAD')) return true;
    const refused = (err: unknown): false => {
      if (!(err instanceof RestError)) this.log.error(`internal error in the permission check ${e.spec.check} (${out.asked!.req.method} ${out.asked!.req.path}): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return false;
    };
    try {
      const checked = e.check(new RequestContext(this, out.asked, user, store));
      return checked instanceof Promise ? checked.then(() => true, refused) : true;
    } catch (err) {
      return refused(err);
    }
  }

  /** The error `code` names for a handler of this namespace (HandlerContext.fail). */
  errorFor(namespace: string, code: string, values?: ErrorValues, data?: Record<string, unknown>): RestError {
    const entry = this.errorCatalogues.get(namespace)?.get(code);
    if (!entry) throw new Error(`error code ${code} is declared in no error catalogue of ${namespace || 'the root routes'}`);
    return catalogued(code, entry, values, data);
  }

  /** Resolves a REST URL of this site to the served path it names and the root it names it at, or null for anything else. */
  restPathOf(href: string): { path: string; root: ApiRoot } | null {
    const root = this.roots.find((r) => href.startsWith(r.url));
    return root ? { path: root.path(`/${href.slice(root.url.length)}`), root } : null;
  }
}

/** Each namespace's codes ('' for the root routes): the engine's, then site.yaml's, then its own. */
function errorCataloguesOf(spec: Spec): Map<string, ReadonlyMap<string, CataloguedError>> {
  const shared: [string, CataloguedError][] = [...Object.entries(ENGINE_ERRORS), ...Object.entries(spec.errors)];
  return new Map([['', new Map(shared)], ...spec.namespaces.map((ns): [string, ReadonlyMap<string, CataloguedError>] => [ns.name, new Map([...shared, ...Object.entries(ns.errors)])])]);
}

const invalidNamespace = (): never => {
  throw engineError('rest_invalid_namespace');
};

/**
 * A handler's view of one request. Methods live on the prototype and `request` is built when a
 * handler first reads it, so a handler that needs only its args costs one small object.
 */
class RequestContext<S extends TransactionalStore<S>, H extends EngineHost> implements HandlerContext<S, H> {
  readonly args: Record<string, any>;
  readonly site: H;
  readonly log: Logger;
  readonly api: ApiRoot;
  private info: HandlerContext['request'] | undefined;
  /** What `header` added to the answer; none on most requests. */
  headers: Record<string, string> | undefined;

  constructor(
    private readonly engine: Engine<S, H>,
    private readonly p: Prepared,
    private readonly caller: User | null,
    readonly store: S,
  ) {
    this.args = p.params;
    this.site = engine.site;
    this.log = engine.log;
    this.api = p.req.root ?? engine.root;
  }

  get config(): Readonly<Record<string, unknown>> {
    return this.p.route.spec.config;
  }

  get request(): HandlerContext['request'] {
    return (this.info ??= new RequestFacts(this.p));
  }

  /** The caller; what reads it depends on who they are (caller-reads.ts). */
  get user(): User | null {
    noteIdentity();
    return this.caller;
  }

  can(cap: string): boolean {
    const answer = this.caller !== null && this.caller.caps.has(cap);
    noteCapability(cap, answer);
    return answer;
  }

  dispatch(method: string, path: string, params?: Record<string, unknown>): Promise<RestResponse> {
    return this.engine.subRequest(method, path, params ?? {}, this.caller, this.store, this.p.req);
  }

  header(name: string, value: string): void {
    (this.headers ??= {})[name] = value;
  }

  get served(): readonly RouteSpec[] {
    return this.engine.served;
  }

  fail(code: string, values?: ErrorValues, data?: Record<string, unknown>): RestError {
    return this.engine.errorFor(this.p.route.namespace, code, values, data);
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
  for (const cap of endpoint.capabilities) if (user.caps.has(cap)) return true;
  return false;
}

/** The Allow of a route without permission checks: the methods whose capability the user holds. */
function uncheckedAllow(route: CompiledRoute, user: User | null): string {
  return allowOfPassed(route, route.endpoints.map((e) => permitted(e, user)));
}

/** The route's Allow for the endpoints that passed (`passed[i]` for its i-th endpoint): the compiled one of that set. */
function allowOfPassed(route: CompiledRoute, passed: readonly boolean[]): string {
  return route.allowOf[passed.reduce((mask, ok, i) => (ok ? mask | (1 << i) : mask), 0)];
}

/**
 * What a handler sees of its request. A class, not an object literal with getters: V8 makes such a
 * literal's shape anew each time (~3.5 µs a request, measured), a class's getters live on its prototype.
 */
class RequestFacts implements RequestInfo {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, unknown>;
  readonly route: string;
  readonly urlParams: Record<string, string>;
  readonly head: boolean;
  readonly files: readonly UploadedFile[];
  private readonly req: InternalRequest;

  constructor(p: Prepared) {
    const { req } = p;
    this.req = req;
    this.method = req.method;
    this.path = req.path;
    this.query = req.query;
    this.route = p.route.key;
    this.urlParams = p.urlParams;
    this.head = req.method === 'HEAD';
    this.files = req.files ?? [];
  }

  // an answer made from the request's headers or address is not the same for every request of its URL: the response cache keeps none
  get headers(): Record<string, string> {
    answerVaries();
    return this.req.headers;
  }

  get ip(): string {
    answerVaries();
    return this.req.ip;
  }
}

/** WordPress's respond_to_request: the permission callback, then (once it passed) the callback. */
function checkThenHandle(endpoint: CompiledEndpoint, ctx: HandlerContext): unknown {
  const checked = endpoint.check!(ctx);
  return checked instanceof Promise ? checked.then(() => endpoint.handler(ctx)) : endpoint.handler(ctx);
}
