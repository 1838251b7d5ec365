import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve, relative } from 'node:path';
import { createRequire } from 'node:module';
import type { Document, LineCounter, Node } from 'yaml';
import type { ErrorObject } from 'ajv';
import { Ajv } from './ajv.ts';
import { diagnostic, SpecError, type Diagnostic } from './diagnostics.ts';
import { cachedParse } from './parse-cache.ts';
import type { ApiAliasSpec } from './api-root.ts';
import { expandSchemaUse, publicItemSchema, SCHEMA_ARGS_MODULE } from './schema-args.ts';

export type Variant = 'A' | 'B';
export const ALL_VARIANTS: Variant[] = ['A', 'B'];

/** An argument descriptor exactly as written in YAML (key order kept). */
export type ArgDescriptor = Record<string, unknown>;

/** Where a spec item was written, for `file:line:` messages. */
export interface SourcePos {
  file: string;
  line: number;
}

/**
 * An endpoint offered as a named action (WordPress 6.9's Abilities API): what an agent is told it
 * does. The engine only carries the declaration; whoever serves abilities reads it from the Spec.
 */
export interface AbilitySpec {
  /** `vendor/action`: lower-case letters, digits and hyphens on each side of one slash. */
  name: string;
  label: string;
  description: string;
  /** The slug of a category declared in site.yaml or in the endpoint's namespace file. */
  category: string;
  pos: SourcePos;
}

/** A code of an error catalogue (`errors:` in a namespace file or site.yaml): what `ctx.fail(code, values)` answers. */
export interface ErrorSpec {
  status: number;
  /** The message, `{name}` placeholders filled from the raise's values. */
  message: string;
  pos: SourcePos;
}

/** A group of abilities (`ability_categories:` in site.yaml or a namespace file). */
export interface AbilityCategorySpec {
  slug: string;
  label: string;
  description: string;
  pos: SourcePos;
}

export interface EndpointSpec {
  methods: string[];
  handler: string;
  /** Unset when the spec declares none (lint reports it); the spec is plain JSON, so absent rather than undefined. */
  permission?: string;
  /** Where the permission was written: the endpoint's own line, or its file's `defaults:`. */
  permissionPos?: SourcePos;
  /** Present (true) when the permission comes from the file's `defaults:` rather than the endpoint. */
  permissionInherited?: true;
  /** The refusal a caller without the permission gets (a permission callback's own WP_Error). */
  forbidden?: { code: string; message: string };
  /**
   * `permission_check:`, a handler module's export (`comments.mayCreate`) deciding for the request
   * what the capability cannot (WordPress's permission_callback): it throws the refusal, and the
   * engine runs it before the handler and for the Allow header.
   */
  check?: string;
  args: Record<string, ArgDescriptor>;
  allowBatch: boolean;
  variants: Variant[];
  /** Declared as a second handler for a method the route already has (the interface's repeated methods). */
  repeat: boolean;
  /**
   * Takes file uploads (a raw body, or multipart/form-data): the body may be as large as the
   * server's upload limit and is streamed to temporary files, which the handler finds in
   * `ctx.request.files`, instead of being read into memory under the body limit.
   */
  upload: boolean;
  pos: SourcePos;
  /** Position of each arg, for lint messages. */
  argPos: Record<string, SourcePos>;
  /** Where the endpoint itself declares `allow_batch` (absent when it inherits the route's), for lint. */
  batchPos?: SourcePos;
  /** Declared as an ability; never shown in the index (WordPress's index does not show abilities either). */
  ability?: AbilitySpec;
  /** The JSON Schema of a successful answer's body, as declared; not shown in the index. */
  response?: Record<string, unknown>;
  responsePos?: SourcePos;
}

export interface RouteSpec {
  namespace: string;
  /** Path as written, relative to the namespace: `/snippets/{id}`. */
  path: string;
  /** Full path with `{name}` variables: `/code-snippets/v1/snippets/{id}`. */
  fullPath: string;
  /** The route key WordPress clients know: `/code-snippets/v1/snippets/(?P<id>[\d]+)`. */
  key: string;
  params: Record<string, string>;
  /** Where each of `params` was written: the route's `params:`, or the file's `defaults:` it inherits. */
  paramPos?: Record<string, SourcePos>;
  /** Handed to the handlers as `ctx.config`: what one handler serving several routes needs to tell them apart. */
  config: Record<string, unknown>;
  /** Folder of the handler modules the endpoints name. */
  handlersDir: string;
  endpoints: EndpointSpec[];
  pos: SourcePos;
  /**
   * Set on a route template: the kind of thing it is written for (`each: post_type`). It is served
   * once per instance the application names for that kind (EngineHost.routeInstances), with each
   * `<name>` in its path and config replaced by the instance's value.
   */
  each?: string;
  /** What the route's behaviour follows (`follows:` of the route or its file), for the docs: `WordPress 6.1 WP_REST_Comments_Controller`. Not served. */
  follows?: string;
  /** The name of its resource's schema among the namespace's `schemas:` (`schema: post`), as written. */
  schemaName?: string;
  /** That schema, resolved once every file of the namespace is read: OPTIONS answers it (WordPress's get_item_schema). */
  schema?: Record<string, unknown>;
  /**
   * What a GET of the route answers of its resource, when its path does not say it (`collection:`):
   * `list` (items), `map` (items by name, WordPress's types and statuses) or `none` (one item,
   * `/users/me`). Unsaid, a path ending in a static segment is a list. Not served. See responses.ts.
   */
  collection?: 'list' | 'map' | 'none';
}

export interface NamespaceSpec {
  name: string;
  variants: Variant[];
  routes: RouteSpec[];
  /** Folder of the namespace's handler modules (its `handlers:`, else site.yaml's). */
  handlersDir: string;
  /** Named JSON Schemas of the namespace's resources (`schemas:`), for handlers that shape and serve them. */
  schemas: Record<string, Record<string, unknown>>;
  /** Ability categories this file declares for its own endpoints. */
  abilityCategories: AbilityCategorySpec[];
  /** The namespace's error catalogue (`errors:` of its files), by code; site.yaml's and the engine's codes are not repeated here. */
  errors: Record<string, ErrorSpec>;
  pos: SourcePos;
}

export interface Spec {
  dir: string;
  apiPrefix: string;
  /** Further addresses the API answers at (site.yaml's `api_aliases`), each with the namespaces it renames. */
  apiAliases: ApiAliasSpec[];
  /** Default folder of handler modules (site.yaml's `handlers`), for namespaces that name none of their own. */
  handlersDir: string;
  /** site.yaml as written: the application reads its own keys (`site`, `auth_path`, `plugins`) from it. */
  settings: Record<string, unknown>;
  namespaces: NamespaceSpec[];
  /** Every route in registration order: root routes, then each namespace's index and routes. */
  routes: RouteSpec[];
  /** Ability categories site.yaml declares, for the endpoints of any namespace. */
  abilityCategories: AbilityCategorySpec[];
  /** site.yaml's error catalogue: codes every namespace's handlers may raise. */
  errors: Record<string, ErrorSpec>;
}

interface LoadedYaml {
  file: string;
  doc: Document;
  value: Record<string, unknown>;
  lines: LineCounter;
}

const BUILTIN_INDEX = '@index';
const BUILTIN_BATCH = '@batch';
export const BUILTIN_NAMESPACE_INDEX = '@namespace_index';
export const BUILTIN_HANDLERS = new Set([BUILTIN_INDEX, BUILTIN_BATCH, BUILTIN_NAMESPACE_INDEX]);

// loaded on first use: a start whose spec is in the spec cache parses no YAML
let yamlModule: typeof import('yaml') | undefined;
const yaml = () => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

function readYaml(file: string, shortName: string, problems: Diagnostic[]): LoadedYaml | null {
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter: lines, keepSourceTokens: false });
  if (doc.errors.length) {
    for (const e of doc.errors) problems.push(diagnostic({ file: shortName, line: e.linePos?.[0]?.line ?? 1 }, 'spec-yaml', e.message.split('\n')[0]));
    return null;
  }
  const value = doc.toJS({ mapAsMap: false }) as Record<string, unknown>;
  return { file: shortName, doc, value: value ?? {}, lines };
}

function lineAt(y: LoadedYaml, path: (string | number)[]): number {
  const { isMap, isSeq } = yaml();
  for (let n = path.length; n >= 0; n--) {
    const node = (n === 0 ? y.doc.contents : y.doc.getIn(path.slice(0, n), true)) as Node | null | undefined;
    if (node && typeof node === 'object' && 'range' in node && node.range) return y.lines.linePos(node.range[0]).line;
    // a key node's position is the next best thing for scalars that lost their node
    if (n > 0) {
      const parent = (n === 1 ? y.doc.contents : y.doc.getIn(path.slice(0, n - 1), true)) as Node | null;
      if (parent && isMap(parent)) {
        const pair = parent.items.find((p) => (p.key as { value?: unknown })?.value === path[n - 1]);
        const k = pair?.key as Node | undefined;
        if (k?.range) return y.lines.linePos(k.range[0]).line;
      }
      if (parent && isSeq(parent)) {
        const item = parent.items[path[n - 1] as number] as Node | undefined;
        if (item?.range) return y.lines.linePos(item.range[0]).line;
      }
    }
  }
  return 1;
}

const schemaValidators = new Map<string, Ajv>();

/**
 * One Ajv per schema folder, holding both spec schemas so site.yaml can refer to the route
 * definition. The schemas ship with the engine and its tests compile them, so they are not
 * checked against the meta-schema at every start; nor is Ajv's code optimiser run on what is
 * used a few dozen times.
 */
function specSchemas(schemaDir: string): Ajv {
  let ajv = schemaValidators.get(schemaDir);
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, code: { optimize: false } });
    for (const f of ['namespace.schema.json', 'site.schema.json']) ajv.addSchema(JSON.parse(readFileSync(join(schemaDir, f), 'utf8')));
    schemaValidators.set(schemaDir, ajv);
  }
  return ajv;
}

function checkAgainstSchema(y: LoadedYaml, schemaDir: string, id: string, problems: Diagnostic[]): boolean {
  const validate = specSchemas(schemaDir).getSchema(id)!;
  if (validate(y.value)) return true;
  for (const e of validate.errors as ErrorObject[]) {
    const path = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const at = path.length ? path.join('.') : '(top level)';
    const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'` : e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
    problems.push(diagnostic({ file: y.file, line: lineAt(y, path) }, 'spec-schema', `${at} ${e.message}${extra}`));
  }
  return false;
}

/** Turns `/snippets/{id}` with `{id: '[\d]+'}` into the WordPress key `/snippets/(?P<id>[\d]+)`. */
export function toRouteKey(fullPath: string, params: Record<string, string>): string {
  return fullPath.replace(/\{(\w+)\}/g, (_, name: string) => `(?P<${name}>${params[name] ?? '[^/]+'})`);
}

type ArgSets = Record<string, Record<string, ArgDescriptor>>;
type Schemas = NamespaceSpec['schemas'];
/** Derives the args of a `$use: {schema, for}` entry for one route (its own `schema:` the default), or says what is wrong. */
type SchemaUse = (schema: unknown, purpose: unknown) => Record<string, ArgDescriptor> | string;

/**
 * Expands `$use: set` (a name or a list) in place, so the served key order is the order written;
 * an arg written after a `$use` that gave it replaces it in place.
 */
function expandArgs(raw: unknown, sets: ArgSets, fromSchema: SchemaUse, where: SourcePos, problems: Diagnostic[]): Record<string, ArgDescriptor> {
  const out: Record<string, ArgDescriptor> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (name === '$use') {
      for (const setName of Array.isArray(value) ? value : [value]) Object.assign(out, useSet(setName, sets, fromSchema, where, problems));
    } else {
      out[name] = (typeof value === 'object' && value !== null ? value : {}) as ArgDescriptor;
    }
  }
  return out;
}

/**
 * The args one `$use` entry gives: a set's name, or `{set: NAME, ...}` whose further keys adjust the
 * set's args: `ARG: {keyword: value}` merges into that arg (a keyword it has keeps its place, a new
 * one goes last, `null` removes one), `ARG: null` leaves the arg out, and a set of a single arg takes
 * its keywords directly (`{set: context, default: edit}`). `{for: create|update|context, schema?}`
 * derives the args from a resource schema instead (schema-args.ts), adjusted the same way
 * (`{for: context, default: view}`).
 */
function useSet(use: unknown, sets: ArgSets, fromSchema: SchemaUse, where: SourcePos, problems: Diagnostic[]): Record<string, ArgDescriptor> {
  const { set: setName, schema, for: purpose, ...adjust } = use !== null && typeof use === 'object' ? (use as Record<string, unknown>) : { set: use };
  const source = purpose === undefined ? `'${String(setName)}'` : `{for: ${String(purpose)}}`;
  const args = purpose === undefined ? (sets[String(setName)] ? structuredClone(sets[String(setName)]) : `unknown arg set '${String(setName)}'`) : fromSchema(schema, purpose);
  if (typeof args === 'string') {
    problems.push(diagnostic(where, 'spec-schema', args));
    return {};
  }
  const names = Object.keys(args);
  for (const [key, value] of Object.entries(adjust)) {
    if (key in args && value === null) delete args[key];
    else if (key in args && value !== null && typeof value === 'object' && !Array.isArray(value)) args[key] = withKeywords(args[key], value as ArgDescriptor);
    else if (names.length === 1 && !(key in args)) args[names[0]] = withKeywords(args[names[0]], { [key]: value });
    else problems.push(diagnostic(where, 'spec-schema', key in args ? `$use of ${source}: '${key}' takes a map of keywords, or null to leave the arg out` : `$use of ${source}: the set has no arg '${key}' (it has ${names.join(', ')})`));
  }
  return args;
}

/** An arg with keywords replaced in place, added at the end, or removed (`null`). */
function withKeywords(arg: ArgDescriptor, keywords: ArgDescriptor): ArgDescriptor {
  const out = { ...arg };
  for (const [k, v] of Object.entries(keywords)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

function variantsOf(v: unknown, fallback: Variant[]): Variant[] {
  return Array.isArray(v) ? (v.map((x) => String(x).toUpperCase()) as Variant[]) : fallback;
}

function normaliseMethods(m: unknown): string[] {
  const list = Array.isArray(m) ? m : String(m ?? 'GET').split(',');
  return [...new Set(list.map((x) => String(x).trim().toUpperCase()).filter(Boolean))];
}

function buildRoute(y: LoadedYaml, routePath: (string | number)[], namespace: string, handlersDir: string, path: string, raw: Record<string, unknown>, sets: ArgSets, defaults: FileDefaults, schemas: Schemas, nsVariants: Variant[], problems: Diagnostic[]): RouteSpec {
  const follows = typeof raw.follows === 'string' ? raw.follows : typeof y.value.follows === 'string' ? y.value.follows : undefined;
  const { params, paramPos } = paramsOf(y, routePath, path, raw, defaults);
  const fullPath = namespace ? `/${namespace}${path === '/' ? '' : path}` : path;
  const routeVariants = variantsOf(raw.variants, nsVariants);
  const pos = { file: y.file, line: lineAt(y, routePath) };
  const fromSchema: SchemaUse = (schema, purpose) => expandSchemaUse(schema ?? raw.schema, purpose, schemas);
  const commonArgs = expandArgs(raw.args, sets, fromSchema, { file: y.file, line: lineAt(y, [...routePath, 'args']) }, problems);
  const routeBatch = raw.allow_batch === undefined ? defaults.allowBatch : Boolean((raw.allow_batch as Record<string, unknown> | null)?.v1);
  const endpoints = ((raw.endpoints ?? []) as Record<string, unknown>[]).map((e, i): EndpointSpec => {
    const ePath = [...routePath, 'endpoints', i];
    const permission = e.permission === undefined ? defaults.permission : { value: String(e.permission), pos: { file: y.file, line: lineAt(y, [...ePath, 'permission']) } };
    const own = expandArgs(e.args, sets, fromSchema, { file: y.file, line: lineAt(y, [...ePath, 'args']) }, problems);
    const args = { ...structuredClone(commonArgs), ...own };
    const argPos: Record<string, SourcePos> = {};
    for (const name of Object.keys(args)) {
      const inOwn = e.args && typeof e.args === 'object' && name in (e.args as object);
      argPos[name] = { file: y.file, line: lineAt(y, inOwn ? [...ePath, 'args', name] : name in commonArgs && raw.args && name in (raw.args as object) ? [...routePath, 'args', name] : [...ePath, 'args']) };
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
      pos: { file: y.file, line: lineAt(y, ePath) },
      argPos,
      ...(e.allow_batch === undefined ? {} : { batchPos: { file: y.file, line: lineAt(y, [...ePath, 'allow_batch']) } }),
      ...(e.ability ? { ability: { ...(e.ability as Omit<AbilitySpec, 'pos'>), pos: { file: y.file, line: lineAt(y, [...ePath, 'ability']) } } } : {}),
      ...(e.response ? { response: e.response as Record<string, unknown>, responsePos: { file: y.file, line: lineAt(y, [...ePath, 'response']) } } : {}),
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
function paramsOf(y: LoadedYaml, routePath: (string | number)[], path: string, raw: Record<string, unknown>, defaults: FileDefaults): Pick<RouteSpec, 'params' | 'paramPos'> {
  const params = { ...((raw.params ?? {}) as Record<string, string>) };
  const paramPos: Record<string, SourcePos> = {};
  for (const name of Object.keys(params)) paramPos[name] = { file: y.file, line: lineAt(y, [...routePath, 'params', name]) };
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

const PLACEHOLDER = /<(\w+)>/g;

function fillPlaceholders<T>(value: T, values: Readonly<Record<string, string>>): T {
  if (typeof value === 'string') return value.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole) as T;
  if (Array.isArray(value)) return value.map((v) => fillPlaceholders(v, values)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPlaceholders(v, values)])) as T;
  return value;
}

/** One instance of a route template: its `<name>` placeholders (path and config) filled in. */
export function instantiateRoute(route: RouteSpec, values: Readonly<Record<string, string>>): RouteSpec {
  const { each: _template, ...plain } = route;
  const path = fillPlaceholders(route.path, values);
  const fullPath = fillPlaceholders(route.fullPath, values);
  const schema = route.schema && { schema: fillPlaceholders(route.schema, values) };
  return { ...plain, path, fullPath, key: toRouteKey(fullPath, route.params), config: fillPlaceholders(route.config, values), ...schema };
}

/**
 * The routes with every template expanded in place: a run of consecutive templates for the same
 * kind is repeated once per instance, so each instance's routes stay together, in the order
 * written (WordPress registers a post type's collection route, then its item route).
 */
export function expandTemplates(routes: readonly RouteSpec[], instancesOf: (each: string) => readonly Readonly<Record<string, string>>[]): RouteSpec[] {
  const out: RouteSpec[] = [];
  for (let i = 0; i < routes.length; ) {
    const each = routes[i].each;
    if (each === undefined) {
      out.push(routes[i++]);
      continue;
    }
    let end = i;
    while (end < routes.length && routes[end].each === each) end++;
    const run = routes.slice(i, end);
    for (const values of instancesOf(each)) for (const r of run) out.push(instantiateRoute(r, values));
    i = end;
  }
  return out;
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

function namespaceIndexRoute(ns: NamespaceSpec): RouteSpec {
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

/**
 * Loads `site.yaml` and `namespaces/*.yaml` from a spec folder, checks each against the spec's own
 * JSON Schema and returns plain data. Throws SpecError with every problem found.
 */
export function loadSpec(specDir: string): Spec {
  const dir = resolve(specDir);
  const files = specFiles(dir);
  const schemas = ['namespace.schema.json', 'site.schema.json'].map((f) => join(files.schemaDir, f));
  // the derivation of schema args is part of the loader's code: a change to it must not read old entries
  const loaded = cachedParse({ kind: 'spec', loader: import.meta.filename, files: [files.siteFile, ...schemas, ...files.namespaceFiles, SCHEMA_ARGS_MODULE] }, () => parseSpec(dir, files));
  const routes: RouteSpec[] = [...loaded.rootRoutes];
  for (const ns of loaded.namespaces) routes.push(namespaceIndexRoute(ns), ...ns.routes);
  const { rootRoutes: _, ...spec } = loaded;
  return { ...spec, routes };
}

/** The files a spec folder is made of. */
interface SpecFiles {
  siteFile: string;
  /** The spec's own schemas: the folder's `schema/` if it has one, else the engine's. */
  schemaDir: string;
  /** `namespaces/*.yaml`, sorted. */
  namespaceFiles: string[];
}

function specFiles(dir: string): SpecFiles {
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
type ParsedSpec = Omit<Spec, 'routes'> & { rootRoutes: RouteSpec[] };

function parseSpec(dir: string, { siteFile, schemaDir, namespaceFiles }: SpecFiles): ParsedSpec {
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
  const loaded = namespaceFiles.map((file) => readYaml(file, short(file), problems)).filter((y): y is LoadedYaml => !!y && checkAgainstSchema(y, schemaDir, 'namespace.schema.json', problems));
  // every file's schemas first: any file of a namespace may derive args from a schema any other declares
  const schemasOf = new Map<string, Schemas>();
  for (const { value: v } of loaded) {
    const name = String(v.namespace ?? v.extends);
    schemasOf.set(name, Object.assign(schemasOf.get(name) ?? {}, (v.schemas ?? {}) as Schemas));
  }
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
    const routes = Object.entries((v.routes ?? {}) as Record<string, Record<string, unknown>>).map(([path, raw]) =>
      buildRoute(y, ['routes', path], name, handlersDir, path, raw ?? {}, sets, defaults, schemasOf.get(name)!, variants, problems),
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
    for (const [path, raw] of Object.entries((v.routes ?? {}) as Record<string, Record<string, unknown>>)) {
      ns.routes.push(buildRoute(y, ['routes', path], ns.name, handlersDir, path, raw ?? {}, sets, defaults, ns.schemas, ns.variants, problems));
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

  const rootRoutes = Object.entries((sv.routes ?? {}) as Record<string, Record<string, unknown>>).map(([path, raw]) =>
    buildRoute(site, ['routes', path], '', defaultHandlers, path, raw ?? {}, globalSets, NO_DEFAULTS, {}, ALL_VARIANTS, problems),
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

/** The routes and endpoints one variant serves, in registration order. */
export function routesForVariant(spec: Spec, variant: Variant): RouteSpec[] {
  return spec.routes
    .map((r) => ({ ...r, endpoints: r.endpoints.filter((e) => e.variants.includes(variant)) }))
    .filter((r) => r.endpoints.length > 0);
}
