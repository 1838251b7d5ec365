import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compileArgs, type CompiledArgs } from './args.ts';
import { diagnostic, SpecError, type Diagnostic } from './diagnostics.ts';
import { importModule } from './load-module.ts';
import { Router } from './router.ts';
import type { ApiRoot } from './api-root.ts';
import { BUILTIN_NAMESPACE_INDEX, type EndpointSpec, type RouteSpec, type Variant } from './spec.ts';
import type { Handler } from './types.ts';

export interface CompiledEndpoint {
  methods: ReadonlySet<string>;
  handlerName: string;
  handler: Handler;
  /** A capability, `a|b` for any of them, or `public`. */
  permission: string;
  /** The capabilities `permission` names, any of which lets a caller in (split once, not per request). */
  capabilities: readonly string[];
  /** The endpoint's permission callback (`permission_check:`): throws its refusal. */
  check?: Handler;
  allowBatch: boolean;
  args: CompiledArgs;
  spec: EndpointSpec;
}

export interface CompiledRoute {
  key: string;
  namespace: string;
  spec: RouteSpec;
  endpoints: CompiledEndpoint[];
  /** The route's descriptor in the index at each root it is served at, built once per change of the API's address. */
  descriptors: Map<ApiRoot, Record<string, unknown>>;
  /** The Allow header for each set of its endpoints, by the bit mask of their positions (`1 << i`): made once, not per request. */
  allowOf: readonly string[];
}

export interface RouteTable {
  variant: Variant;
  routes: CompiledRoute[];
  router: Router<CompiledRoute>;
  namespaces: string[];
}

/** Built-in handlers by their `@name` in the spec. */
export type Builtins = ReadonlyMap<string, Handler>;

/** Splits `module.export` (the module may itself contain dots: `code-snippets.list`). */
export function splitHandlerName(name: string): [string, string] {
  const i = name.lastIndexOf('.');
  return i < 0 ? ['', name] : [name.slice(0, i), name.slice(i + 1)];
}

/** The file of handler module `mod` in a handlers folder: `mod.ts`, `mod.js` or `mod/index.ts`. */
export function handlerModuleFile(dir: string, mod: string): string | undefined {
  if (!mod) return undefined;
  return ['.ts', '.js', '/index.ts'].map((ext) => join(dir, mod + ext)).find(existsSync);
}

/** A handler module as imported, with its file's modification time then. */
interface ImportedModule {
  module: Promise<Record<string, unknown>>;
  mtimeMs: number;
}

/**
 * Imported handler modules by file, shared by every compile of a process: activating a plugin
 * imports its modules once. A module that throws on import is remembered with its error.
 */
export class HandlerModules {
  /** `fresh`: files whose module must be imported anew (a new URL), the one imported before being out of date. */
  constructor(
    private readonly byFile = new Map<string, ImportedModule>(),
    private readonly fresh = new Set<string>(),
  ) {}

  /** These modules, less those whose file changed since it was imported: those are imported afresh when asked for. */
  refreshed(): HandlerModules {
    const kept = new Map<string, ImportedModule>();
    const fresh = new Set<string>();
    for (const [file, m] of this.byFile) {
      if (statSync(file, { throwIfNoEntry: false })?.mtimeMs === m.mtimeMs) kept.set(file, m);
      else fresh.add(file);
    }
    return new HandlerModules(kept, fresh);
  }

  /**
   * Finds the modules the routes name and, when `importing` (lint, `serve --watch` after an edit),
   * imports them; each problem (no module, and when importing, no such export or a module that
   * throws) comes back as a diagnostic. Serving imports a module at its first call instead (see
   * `handler`): start-up imports none.
   */
  async load(routes: readonly RouteSpec[], builtins: { has(name: string): boolean }, importing = true): Promise<Diagnostic[]> {
    const problems: Diagnostic[] = [];
    for (const route of routes) {
      for (const [e, name, kind] of route.endpoints.flatMap((e) => [[e, e.handler, 'handler'] as const, ...(e.check ? [[e, e.check, 'permission check'] as const] : [])])) {
        if (builtins.has(name)) continue;
        const [mod, fn] = splitHandlerName(name);
        const file = handlerModuleFile(route.handlersDir, mod);
        const what = `${route.key} ${e.methods.join(',')} names ${kind} '${name}'`;
        if (!file) {
          problems.push(diagnostic(e.pos, 'handler-exists', `${what}, but no handler module '${mod}' exists in ${route.handlersDir}`));
          continue;
        }
        if (!importing) continue;
        let exported: Record<string, unknown>;
        try {
          exported = await this.module(file);
        } catch (err) {
          problems.push(diagnostic(e.pos, 'handler-load', `${what}; importing ${file} failed: ${err instanceof Error ? err.message : String(err)}`));
          continue;
        }
        if (typeof exported[fn] !== 'function') problems.push(diagnostic(e.pos, 'handler-exists', `${what}, which module '${mod}' does not export`));
      }
    }
    return problems;
  }

  module(file: string): Promise<Record<string, unknown>> {
    let m = this.byFile.get(file);
    if (!m) {
      const mtimeMs = statSync(file).mtimeMs;
      this.byFile.set(file, (m = { module: importModule(file, this.fresh.has(file) ? String(mtimeMs) : undefined), mtimeMs }));
    }
    return m.module;
  }

  /**
   * The handler a route names, its module imported at the handler's first call (a module already
   * imported, at once); undefined when there is no module file, or when the module imported does
   * not export it. A module that fails to import, or lacks the export, fails the calls that reach
   * it (`cms-spec lint` finds both before serving).
   */
  async handler(route: RouteSpec, name: string): Promise<Handler | undefined> {
    const [mod, fn] = splitHandlerName(name);
    const file = handlerModuleFile(route.handlersDir, mod);
    if (!file) return undefined;
    const imported = this.byFile.get(file);
    if (imported) {
      try {
        const f = (await imported.module)[fn];
        return typeof f === 'function' ? (f as Handler) : undefined;
      } catch {
        return undefined;
      }
    }
    let found: Handler | undefined;
    let importing: Promise<Handler> | undefined;
    const first = () =>
      (importing ??= this.module(file).then((m) => {
        if (typeof m[fn] !== 'function') throw new Error(`handler '${name}' not found: module ${file} does not export ${fn}`);
        return (found = m[fn] as Handler);
      }));
    // synchronous once imported, as the handler itself is
    return (ctx) => (found ? found(ctx) : first().then((f) => f(ctx)));
  }
}

function describeRoute(route: RouteSpec, endpoints: CompiledEndpoint[], root: ApiRoot): Record<string, unknown> {
  const d: Record<string, unknown> = {
    namespace: root.namespace(route.namespace),
    methods: endpoints.flatMap((e) => [...e.methods]),
    endpoints: endpoints.map((e) => {
      const args = argsAt(e, root);
      return e.allowBatch ? { methods: [...e.methods], allow_batch: { v1: true }, args } : { methods: [...e.methods], args };
    }),
  };
  if (!route.fullPath.includes('{')) d._links = { self: [{ href: root.restUrl(route.fullPath) }] };
  return d;
}

/** An endpoint's args in the index; a namespace index's `namespace` default is the namespace as the root names it. */
function argsAt(e: CompiledEndpoint, root: ApiRoot): Record<string, unknown> {
  const index = e.args.index as Record<string, Record<string, unknown>>;
  if (e.handlerName !== BUILTIN_NAMESPACE_INDEX || !root.renames) return index;
  return { ...index, namespace: { ...index.namespace, default: root.namespace(String(index.namespace.default)) } };
}

/**
 * Compiles the routes one variant serves (already filtered to it): validators, router and
 * descriptors, built here (each validator at its endpoint's first request) and never per
 * request. Handler modules not imported yet are imported at their first call.
 */
export async function compileRoutes(routes: readonly RouteSpec[], variant: Variant, modules: HandlerModules, builtins: Builtins, roots: readonly ApiRoot[]): Promise<RouteTable> {
  const router = new Router<CompiledRoute>();
  const compiled: CompiledRoute[] = [];
  const problems: Diagnostic[] = [];
  for (const r of routes) {
    const endpoints: CompiledEndpoint[] = [];
    for (const e of r.endpoints) {
      const handler = builtins.get(e.handler) ?? (await modules.handler(r, e.handler));
      if (!handler) {
        problems.push(diagnostic(e.pos, 'handler-exists', `handler '${e.handler}' not found`));
        continue;
      }
      const check = e.check ? await modules.handler(r, e.check) : undefined;
      if (e.check && !check) {
        problems.push(diagnostic(e.pos, 'handler-exists', `permission check '${e.check}' not found`));
        continue;
      }
      endpoints.push({ methods: new Set(e.methods), handlerName: e.handler, handler, permission: e.permission ?? 'public', capabilities: (e.permission ?? 'public').split('|'), ...(check ? { check } : {}), allowBatch: e.allowBatch, args: compileArgs(e.args), spec: e });
    }
    const route: CompiledRoute = { key: r.key, namespace: r.namespace, spec: r, endpoints, descriptors: describeAt(r, endpoints, roots), allowOf: allowHeaders(endpoints) };
    compiled.push(route);
    router.add(r.fullPath, r.params, route);
  }
  if (problems.length) throw new SpecError(problems);
  const namespaces = [...new Set(compiled.map((r) => r.namespace).filter(Boolean))];
  return { variant, routes: compiled, router, namespaces };
}

/** Rebuilds only the descriptors (their `_links`) when the API's address changes. */
export function relinkRoutes(table: RouteTable, roots: readonly ApiRoot[]): void {
  for (const r of table.routes) r.descriptors = describeAt(r.spec, r.endpoints, roots);
}

function describeAt(route: RouteSpec, endpoints: CompiledEndpoint[], roots: readonly ApiRoot[]): Map<ApiRoot, Record<string, unknown>> {
  return new Map(roots.map((root) => [root, describeRoute(route, endpoints, root)]));
}

/** The Allow header of every subset of a route's endpoints (rest_send_allow_header joins their methods, each once, in order). */
function allowHeaders(endpoints: readonly CompiledEndpoint[]): string[] {
  const out: string[] = [];
  for (let mask = 0; mask < 1 << endpoints.length; mask++) {
    const methods = new Set<string>();
    endpoints.forEach((e, i) => {
      if (mask & (1 << i)) for (const m of e.methods) methods.add(m);
    });
    out.push([...methods].join(', '));
  }
  return out;
}
