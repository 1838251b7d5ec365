import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compileArgs, type CompiledArgs } from './args.ts';
import { importModule } from './load-module.ts';
import { Router } from './router.ts';
import { BUILTIN_HANDLERS, routesForVariant, SpecError, type EndpointSpec, type RouteSpec, type Spec, type Variant } from './spec.ts';
import type { Handler } from './types.ts';

export interface CompiledEndpoint {
  methods: ReadonlySet<string>;
  handlerName: string;
  handler: Handler | null;
  /** A capability, or `public`. */
  permission: string;
  allowBatch: boolean;
  args: CompiledArgs;
  spec: EndpointSpec;
}

export interface CompiledRoute {
  key: string;
  namespace: string;
  spec: RouteSpec;
  endpoints: CompiledEndpoint[];
  /** The route's descriptor in the index, built once. */
  descriptor: Record<string, unknown>;
}

export interface RouteTable {
  variant: Variant;
  routes: CompiledRoute[];
  router: Router<CompiledRoute>;
  namespaces: string[];
}

/** Imported handler modules by name; null for a module the spec names that does not exist. */
export type HandlerModules = Map<string, Record<string, unknown> | null>;

/** Splits `module.export` (the module may itself contain dots: `code-snippets.list`). */
export function splitHandlerName(name: string): [string, string] {
  const i = name.lastIndexOf('.');
  return i < 0 ? ['', name] : [name.slice(0, i), name.slice(i + 1)];
}

/** Imports every handler module the spec names; problems come back as `file:line: handler-exists: ...`. */
export async function loadHandlerModules(spec: Spec): Promise<{ modules: HandlerModules; problems: string[] }> {
  const modules: HandlerModules = new Map();
  const problems: string[] = [];
  for (const route of spec.routes) {
    for (const e of route.endpoints) {
      if (BUILTIN_HANDLERS.has(e.handler)) continue;
      const [mod, fn] = splitHandlerName(e.handler);
      if (!modules.has(mod)) {
        const file = ['.ts', '.js', '/index.ts'].map((ext) => join(spec.handlersDir, mod + ext)).find(existsSync);
        modules.set(mod, file && mod ? await importModule(file) : null);
      }
      const exported = modules.get(mod);
      if (!exported) problems.push(`${e.pos.file}:${e.pos.line}: handler-exists: ${route.key} ${e.methods.join(',')} names handler '${e.handler}', but no handler module '${mod}' exists in ${spec.handlersDir}`);
      else if (typeof exported[fn] !== 'function')
        problems.push(`${e.pos.file}:${e.pos.line}: handler-exists: ${route.key} ${e.methods.join(',')} names handler '${e.handler}', which module '${mod}' does not export`);
    }
  }
  return { modules, problems };
}

function describeRoute(route: RouteSpec, endpoints: CompiledEndpoint[], restUrl: (p: string) => string): Record<string, unknown> {
  const d: Record<string, unknown> = {
    namespace: route.namespace,
    methods: endpoints.flatMap((e) => [...e.methods]),
    endpoints: endpoints.map((e) => (e.allowBatch ? { methods: [...e.methods], allow_batch: { v1: true }, args: e.args.index } : { methods: [...e.methods], args: e.args.index })),
  };
  if (!route.fullPath.includes('{')) d._links = { self: [{ href: restUrl(route.fullPath) }] };
  return d;
}

/** Compiles one variant of the spec: validators, router and descriptors, all built here and never per request. */
export function compileRoutes(spec: Spec, variant: Variant, modules: HandlerModules, restUrl: (p: string) => string): RouteTable {
  const router = new Router<CompiledRoute>();
  const routes: CompiledRoute[] = [];
  const problems: string[] = [];
  for (const r of routesForVariant(spec, variant)) {
    const endpoints = r.endpoints.map((e): CompiledEndpoint => {
      const [mod, fn] = splitHandlerName(e.handler);
      const handler = BUILTIN_HANDLERS.has(e.handler) ? null : ((modules.get(mod)?.[fn] as Handler | undefined) ?? null);
      if (!handler && !BUILTIN_HANDLERS.has(e.handler)) problems.push(`${e.pos.file}:${e.pos.line}: handler-exists: handler '${e.handler}' not found`);
      return { methods: new Set(e.methods), handlerName: e.handler, handler, permission: e.permission ?? 'public', allowBatch: e.allowBatch, args: compileArgs(e.args), spec: e };
    });
    const compiled: CompiledRoute = { key: r.key, namespace: r.namespace, spec: r, endpoints, descriptor: {} };
    compiled.descriptor = describeRoute(r, endpoints, restUrl);
    routes.push(compiled);
    router.add(r.fullPath, r.params, compiled);
  }
  if (problems.length) throw new SpecError(problems);
  const namespaces = [...new Set(routes.map((r) => r.namespace).filter(Boolean))];
  return { variant, routes, router, namespaces };
}

/** Rebuilds only the `_links` of descriptors when the site's address changes. */
export function relinkRoutes(table: RouteTable, restUrl: (p: string) => string): void {
  for (const r of table.routes) r.descriptor = describeRoute(r.spec, r.endpoints, restUrl);
}
