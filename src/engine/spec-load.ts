/**
 * Reading a spec folder into plain data: site.yaml and each namespace file (a namespace's head file,
 * then its parts), their defaults, routes, endpoints, error catalogues and API aliases.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { diagnostic, SpecError, type Diagnostic } from './diagnostics.ts';
import { expandSchemaUse, publicItemSchema, SCHEMA_ARGS_MODULE } from './schema-args.ts';
import { checkAgainstSchema, lineAt, readYaml, SPEC_CHECK_MODULE, type LoadedYaml } from './spec-check.ts';
import { expandArgs, fileInstances, mostInstances, resolveSchemas, routesToCheck, SPEC_EXPAND_MODULE, toRouteKey, writtenRoutes, type ArgSets, type SchemaUse, type Schemas, type WrittenRoute, type WrittenSchema } from './spec-expand.ts';
import { ALL_VARIANTS, BUILTIN_NAMESPACE_INDEX, type AbilityCategorySpec, type AbilitySpec, type EndpointSpec, type ErrorSpec, type NamespaceSpec, type RouteSpec, type SourcePos, type Spec, type Variant } from './spec-model.ts';
import type { ApiAliasSpec } from './api-root.ts';

/** The code the parsed spec depends on besides the files it reads: a change to it must not read old cache entries. */
export const LOADER_MODULES = [import.meta.filename, SPEC_CHECK_MODULE, SPEC_EXPAND_MODULE, SCHEMA_ARGS_MODULE, join(import.meta.dirname, 'spec-model.ts')];


function variantsOf(v: unknown, fallback: Variant[]): Variant[] {
  return Array.isArray(v) ? (v.map((x) => String(x).toUpperCase()) as Variant[]) : fallback;
}

function normaliseMethods(m: unknown): string[] {
  const list = Array.isArray(m) ? m : String(m ?? 'GET').split(',');
  return [...new Set(list.map((x) => String(x).trim().toUpperCase()).filter(Boolean))];
}

function buildRoute(y: LoadedYaml, { path, raw, docPath }: WrittenRoute, namespace: string, handlersDir: string, sets: ArgSets, defaults: FileDefaults, schemas: Schemas, nsVariants: Variant[], problems: Diagnostic[]): RouteSpec {
  /** Where something of the route was written: the template's line, or the instance's for what an instance gives. */
  const at = (...inRoute: (string | number)[]): SourcePos => ({ file: y.file, line: lineAt(y, docPath(inRoute)) });
  const follows = typeof raw.follows === 'string' ? raw.follows : typeof y.value.follows === 'string' ? y.value.follows : undefined;
  const { params, paramPos } = paramsOf(at, path, raw, defaults);
  const fullPath = namespace ? `/${namespace}${path === '/' ? '' : path}` : path;
  const routeVariants = variantsOf(raw.variants, nsVariants);
  const pos = at();
  const fromSchema: SchemaUse = (schema, purpose) => expandSchemaUse(schema ?? raw.schema, purpose, schemas);
  const commonArgs = expandArgs(raw.args, sets, fromSchema, at('args'), problems);
  const routeBatch = raw.allow_batch === undefined ? defaults.allowBatch : Boolean((raw.allow_batch as Record<string, unknown> | null)?.v1);
  const endpoints = ((raw.endpoints ?? []) as Record<string, unknown>[]).map((e, i): EndpointSpec => {
    const ePath = ['endpoints', i];
    const permission = e.permission === undefined ? defaults.permission : { value: String(e.permission), pos: at(...ePath, 'permission') };
    const own = expandArgs(e.args, sets, fromSchema, at(...ePath, 'args'), problems);
    const args = { ...structuredClone(commonArgs), ...own };
    const argPos: Record<string, SourcePos> = {};
    for (const name of Object.keys(args)) {
      const inOwn = e.args && typeof e.args === 'object' && name in (e.args as object);
      argPos[name] = at(...(inOwn ? [...ePath, 'args', name] : name in commonArgs && raw.args && name in (raw.args as object) ? ['args', name] : [...ePath, 'args']));
    }
    return {
      methods: normaliseMethods(e.methods),
      handler: String(e.handler ?? ''),
      ...(permission ? { permission: permission.value, permissionPos: permission.pos, ...(e.permission === undefined ? { permissionInherited: true as const } : {}) } : {}),
      ...(e.permission_check ? { check: String(e.permission_check) } : {}),
      ...(e.forbidden ? { forbidden: { code: 'rest_forbidden', ...(e.forbidden as { code?: string; message: string }) } } : {}),
      args,
      allowBatch: e.allow_batch === undefined ? routeBatch : Boolean((e.allow_batch as Record<string, unknown> | null)?.v1),
      variants: variantsOf(e.variants, routeVariants),
      repeat: e.repeat === true,
      upload: e.upload === true,
      pos: at(...ePath),
      argPos,
      ...(e.allow_batch === undefined ? {} : { batchPos: at(...ePath, 'allow_batch') }),
      ...(e.ability ? { ability: { ...(e.ability as Omit<AbilitySpec, 'pos'>), pos: at(...ePath, 'ability') } } : {}),
      ...(e.response ? { response: e.response as Record<string, unknown>, responsePos: at(...ePath, 'response') } : {}),
    };
  });
  const config = (raw.config ?? {}) as Record<string, unknown>;
  const each = typeof raw.each === 'string' ? { each: raw.each } : {};
  const schemaName = typeof raw.schema === 'string' ? { schemaName: raw.schema } : {};
  const collection = typeof raw.collection === 'string' ? { collection: raw.collection as RouteSpec['collection'] } : {};
  return { namespace, path, fullPath, key: toRouteKey(fullPath, params), params, paramPos, config, handlersDir, endpoints, pos, ...each, ...(follows ? { follows } : {}), ...schemaName, ...collection };
}

/**
 * A route's path patterns: its own `params:`, then the file's default for each other `{var}` of its
 * path, each with where it was written (the defaults line when inherited).
 */
function paramsOf(at: (...inRoute: string[]) => SourcePos, path: string, raw: Record<string, unknown>, defaults: FileDefaults): Pick<RouteSpec, 'params' | 'paramPos'> {
  const params = { ...((raw.params ?? {}) as Record<string, string>) };
  const paramPos: Record<string, SourcePos> = {};
  for (const name of Object.keys(params)) paramPos[name] = at('params', name);
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    const inherited = defaults.params[name];
    if (name in params || !inherited) continue;
    params[name] = inherited.pattern;
    paramPos[name] = inherited.pos;
  }
  return { params, paramPos };
}

/** What a file's routes and endpoints get unless they say otherwise (`defaults:`), each value with where it was written. */
interface FileDefaults {
  permission?: { value: string; pos: SourcePos };
  params: Record<string, { pattern: string; pos: SourcePos }>;
  allowBatch: boolean;
}

const NO_DEFAULTS: FileDefaults = { params: {}, allowBatch: false };

/** A file's `defaults:`, over those of its namespace's head file for a part (`extends:`): what the part does not set, it inherits. */
function defaultsOf(y: LoadedYaml, inherited: FileDefaults): FileDefaults {
  const raw = (y.value.defaults ?? {}) as { permission?: string; params?: Record<string, string>; allow_batch?: { v1?: boolean } };
  const at = (...path: string[]): SourcePos => ({ file: y.file, line: lineAt(y, ['defaults', ...path]) });
  const params = { ...inherited.params };
  for (const [name, pattern] of Object.entries(raw.params ?? {})) params[name] = { pattern, pos: at('params', name) };
  const permission = raw.permission === undefined ? inherited.permission : { value: String(raw.permission), pos: at('permission') };
  return { ...(permission ? { permission } : {}), params, allowBatch: raw.allow_batch === undefined ? inherited.allowBatch : raw.allow_batch.v1 === true };
}

function abilityCategoriesOf(y: LoadedYaml): AbilityCategorySpec[] {
  const raw = (y.value.ability_categories ?? {}) as Record<string, { label: string; description: string }>;
  return Object.entries(raw).map(([slug, c]) => ({ slug, label: c.label, description: c.description, pos: { file: y.file, line: lineAt(y, ['ability_categories', slug]) } }));
}

/** An `errors: {$use: other/v1}`: the namespace also answers the codes another one declares (both served by one plugin's modules). */
interface ErrorsUse {
  into: Record<string, ErrorSpec>;
  from: string;
  pos: SourcePos;
}

/** A file's `errors:`, each code added to `into` unless a file read before declared it (an error names the first); its `$use` goes to `uses`. */
function addErrors(y: LoadedYaml, into: Record<string, ErrorSpec>, problems: Diagnostic[], uses?: ErrorsUse[]): Record<string, ErrorSpec> {
  for (const [code, e] of Object.entries((y.value.errors ?? {}) as Record<string, { status: number; message: string }>)) {
    const pos = { file: y.file, line: lineAt(y, ['errors', code]) };
    if (code === '$use') {
      if (uses) uses.push({ into, from: String(e), pos });
      else problems.push(diagnostic(pos, 'spec-schema', "errors: $use names a namespace's catalogue, which only a namespace file may take"));
      continue;
    }
    const first = into[code];
    if (first) problems.push(diagnostic(pos, 'spec-schema', `error code ${code} is already declared at ${first.pos.file}:${first.pos.line}`));
    else into[code] = { status: e.status, message: e.message, pos };
  }
  return into;
}

export function namespaceIndexRoute(ns: NamespaceSpec): RouteSpec {
  const fullPath = `/${ns.name}`;
  return {
    namespace: ns.name,
    path: '/',
    fullPath,
    key: fullPath,
    follows: 'WordPress 6.1 WP_REST_Server::get_namespace_index',
    params: {},
    config: {},
    handlersDir: ns.handlersDir,
    pos: ns.pos,
    endpoints: [
      {
        methods: ['GET'],
        handler: BUILTIN_NAMESPACE_INDEX,
        permission: 'public',
        args: { namespace: { default: ns.name }, context: { default: 'view' } },
        allowBatch: false,
        variants: ns.variants,
        repeat: false,
        upload: false,
        pos: ns.pos,
        argPos: {},
      },
    ],
  };
}

/** The files a spec folder is made of. */
export interface SpecFiles {
  siteFile: string;
  /** The spec's own schemas: the folder's `schema/` if it has one, else the engine's. */
  schemaDir: string;
  /** `namespaces/*.yaml`, sorted. */
  namespaceFiles: string[];
}

export function specFiles(dir: string): SpecFiles {
  const nsDir = join(dir, 'namespaces');
  return {
    siteFile: join(dir, 'site.yaml'),
    schemaDir: existsSync(join(dir, 'schema')) ? join(dir, 'schema') : resolve(import.meta.dirname, '../../spec/schema'),
    namespaceFiles: existsSync(nsDir) ? readdirSync(nsDir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(nsDir, f)) : [],
  };
}

/**
 * A spec as parsed, before its route list is put together: plain JSON, kept by the spec cache.
 * (The route list holds the namespaces' own route objects, which a JSON copy would duplicate.)
 */
export type ParsedSpec = Omit<Spec, 'routes'> & { rootRoutes: RouteSpec[] };

export function parseSpec(dir: string, { siteFile, schemaDir, namespaceFiles }: SpecFiles): ParsedSpec {
  const problems: Diagnostic[] = [];
  const short = (f: string) => relative(process.cwd(), f) || f;

  if (!existsSync(siteFile)) throw new SpecError([diagnostic({ file: short(siteFile), line: 1 }, 'spec-schema', 'site.yaml not found')]);
  const site = readYaml(siteFile, short(siteFile), problems);
  if (site) checkAgainstSchema(site, schemaDir, 'site.schema.json', problems);
  if (!site || problems.length) throw new SpecError(problems);

  const sv = site.value;
  // paths in a spec file are relative to the folder of that file
  const defaultHandlers = resolve(dir, String(sv.handlers ?? '../src/handlers'));
  const globalSets = (sv.arg_sets ?? {}) as ArgSets;
  const namespaces: NamespaceSpec[] = [];
  const loaded = namespaceFiles.flatMap((file) => {
    const y = readYaml(file, short(file), problems);
    return y ? fileInstances(y.value).map((value) => ({ ...y, value })).filter((instance) => checkNamespaceFile(instance, schemaDir, problems)) : [];
  });
  // every file's schemas first: any file of a namespace may derive args from a schema any other declares
  const written = new Map<string, { schemas: Record<string, WrittenSchema>; propertySets: ArgSets }>();
  for (const y of loaded) {
    const name = String(y.value.namespace ?? y.value.extends);
    const ns = written.get(name) ?? { schemas: {}, propertySets: {} };
    for (const [schemaName, schema] of Object.entries((y.value.schemas ?? {}) as Record<string, Record<string, unknown>>)) ns.schemas[schemaName] = { schema, y };
    Object.assign(ns.propertySets, y.value.property_sets ?? {});
    written.set(name, ns);
  }
  const schemasOf = new Map<string, Schemas>([...written].map(([name, ns]) => [name, resolveSchemas(ns.schemas, ns.propertySets, problems)]));
  // a namespace's head file (`namespace:`) first, then its parts (`extends:`) in file-name order:
  // a part shares the head's arg sets, defaults, variants and handler folder unless it names its own
  const heads = new Map<string, { y: LoadedYaml; ns: NamespaceSpec; sets: ArgSets; defaults: FileDefaults }>();
  const errorUses: ErrorsUse[] = [];
  for (const y of loaded.filter((f) => f.value.namespace !== undefined)) {
    const v = y.value;
    const name = String(v.namespace);
    const variants = variantsOf(v.variants, ALL_VARIANTS);
    const sets = { ...globalSets, ...((v.arg_sets ?? {}) as ArgSets) };
    const defaults = defaultsOf(y, NO_DEFAULTS);
    const handlersDir = typeof v.handlers === 'string' ? resolve(dirname(y.file), v.handlers) : defaultHandlers;
    const routes = writtenRoutes((v.routes ?? {}) as Record<string, Record<string, unknown>>).map((route) =>
      buildRoute(y, route, name, handlersDir, sets, defaults, schemasOf.get(name)!, variants, problems),
    );
    const ns: NamespaceSpec = {
      name,
      variants,
      routes,
      handlersDir,
      schemas: schemasOf.get(name)!,
      abilityCategories: abilityCategoriesOf(y),
      errors: addErrors(y, {}, problems, errorUses),
      pos: { file: y.file, line: lineAt(y, ['namespace']) },
    };
    if (heads.has(name)) problems.push(diagnostic(ns.pos, 'spec-schema', `namespace ${name} is already declared in ${heads.get(name)!.y.file}; a further file of it says 'extends: ${name}'`));
    else heads.set(name, { y, ns, sets, defaults });
    namespaces.push(ns);
  }
  for (const y of loaded.filter((f) => f.value.extends !== undefined)) {
    const v = y.value;
    const head = heads.get(String(v.extends));
    if (!head) {
      problems.push(diagnostic({ file: y.file, line: lineAt(y, ['extends']) }, 'spec-schema', `extends ${String(v.extends)}, which no file declares with 'namespace:'`));
      continue;
    }
    const { ns } = head;
    const sets = { ...head.sets, ...((v.arg_sets ?? {}) as ArgSets) };
    const defaults = defaultsOf(y, head.defaults);
    const handlersDir = typeof v.handlers === 'string' ? resolve(dirname(y.file), v.handlers) : ns.handlersDir;
    for (const route of writtenRoutes((v.routes ?? {}) as Record<string, Record<string, unknown>>)) {
      ns.routes.push(buildRoute(y, route, ns.name, handlersDir, sets, defaults, ns.schemas, ns.variants, problems));
    }
    ns.abilityCategories.push(...abilityCategoriesOf(y));
    addErrors(y, ns.errors, problems, errorUses);
  }
  // the codes the other namespace's own files declare (the same objects, so lint knows them as one declaration)
  const declared = new Map(namespaces.map((ns) => [ns.name, { ...ns.errors }]));
  for (const use of errorUses) {
    const from = declared.get(use.from);
    if (!from) problems.push(diagnostic(use.pos, 'spec-schema', `errors: $use names namespace ${use.from}, which no file declares`));
    else for (const [code, e] of Object.entries(from)) if (!use.into[code]) use.into[code] = e;
  }
  // OPTIONS serves a schema as WordPress's get_public_item_schema does: without its properties' arg_options
  for (const ns of namespaces)
    for (const r of ns.routes) {
      if (r.schemaName === undefined) continue;
      const schema = ns.schemas[r.schemaName];
      if (schema) r.schema = publicItemSchema(schema);
      else problems.push(diagnostic(r.pos, 'spec-schema', `route ${r.path} names schema '${r.schemaName}', which no file of ${ns.name} declares under schemas:`));
    }

  const order = ((sv.namespace_order ?? []) as string[]).map(String);
  const rank = (n: string) => (order.includes(n) ? order.indexOf(n) : order.length);
  namespaces.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));

  const rootRoutes = writtenRoutes((sv.routes ?? {}) as Record<string, Record<string, unknown>>).map((route) =>
    buildRoute(site, route, '', defaultHandlers, globalSets, NO_DEFAULTS, {}, ALL_VARIANTS, problems),
  );
  const apiPrefix = String(sv.api_prefix ?? 'cms-json').replace(/^\/|\/$/g, '');
  const apiAliases = aliasesOf(site, apiPrefix, new Set(namespaces.map((n) => n.name)), problems);
  const errors = addErrors(site, {}, problems);
  if (problems.length) throw new SpecError(problems);

  return {
    dir,
    apiPrefix,
    apiAliases,
    handlersDir: defaultHandlers,
    settings: sv,
    namespaces,
    rootRoutes,
    abilityCategories: abilityCategoriesOf(site),
    errors,
  };
}

/**
 * A namespace file (one instance of it) checked against the spec's JSON Schema, as many times as
 * its most numerous route template has instances written in place (routesToCheck), each problem
 * reported once, at the line written.
 */
function checkNamespaceFile(y: LoadedYaml, schemaDir: string, problems: Diagnostic[]): boolean {
  const routes = y.value.routes;
  if (!routes || typeof routes !== 'object' || Array.isArray(routes)) return checkAgainstSchema(y, schemaDir, 'namespace.schema.json', problems);
  const found: Diagnostic[] = [];
  for (let n = 0; n < mostInstances(routes as Record<string, Record<string, unknown> | null>); n++) checkAgainstSchema({ ...y, value: { ...y.value, routes: routesToCheck(routes as Record<string, Record<string, unknown> | null>, n) } }, schemaDir, 'namespace.schema.json', found);
  const seen = new Set<string>();
  for (const d of found) if (!seen.has(JSON.stringify(d)) && seen.add(JSON.stringify(d))) problems.push(d);
  return found.length === 0;
}

/**
 * site.yaml's `api_aliases`: each a prefix other than the API's own and than each other's, renaming
 * namespaces the spec declares to names it does not (a renaming is a swap, so a new name that is
 * also a served namespace would hide that one at the alias).
 */
function aliasesOf(site: LoadedYaml, apiPrefix: string, declared: ReadonlySet<string>, problems: Diagnostic[]): ApiAliasSpec[] {
  const aliases = (site.value.api_aliases ?? []) as ApiAliasSpec[];
  const prefixes = new Set([apiPrefix]);
  aliases.forEach((a, i) => {
    const at = (path: (string | number)[]) => ({ file: site.file, line: lineAt(site, ['api_aliases', i, ...path]) });
    if (prefixes.has(a.prefix)) problems.push(diagnostic(at(['prefix']), 'spec-schema', `api_aliases: prefix '${a.prefix}' is already the API's or another alias's`));
    prefixes.add(a.prefix);
    const shown = new Set<string>();
    for (const [served, name] of Object.entries(a.namespaces ?? {})) {
      if (!declared.has(served)) problems.push(diagnostic(at(['namespaces', served]), 'spec-schema', `api_aliases: '${a.prefix}' renames namespace '${served}', which no file declares`));
      if (declared.has(name) || shown.has(name)) problems.push(diagnostic(at(['namespaces', served]), 'spec-schema', `api_aliases: '${a.prefix}' shows '${served}' as '${name}', a name already taken`));
      shown.add(name);
    }
  });
  return aliases.map((a) => ({ prefix: a.prefix, namespaces: { ...(a.namespaces ?? {}) } }));
}

