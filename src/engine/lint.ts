import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compileArgs, INDEX_KEYWORDS } from './args.ts';
import { HandlerModules } from './compile.ts';
import { diagnostic, SpecError, type Diagnostic, type Report } from './diagnostics.ts';
import { RestError } from './errors.ts';
import { checkHandlerArgs } from './lint-args.ts';
import { checkErrorCatalogues } from './lint-errors.ts';
import { checkPermissionNames, type PermissionNames } from './lint-permissions.ts';
import { checkUnreachableRoutes } from './lint-routes.ts';
import { SourceModules } from './lint-source.ts';
import { ALL_VARIANTS, BUILTIN_HANDLERS, loadSpec, type AbilityCategorySpec, type ArgDescriptor, type EndpointSpec, type RouteSpec, type SourcePos, type Spec } from './spec.ts';


export interface LintOptions {
  /**
   * The capabilities and roles that exist, given the spec (the engine knows no CMS: the application
   * says). Without it, or when it gives none, permission names are not checked (permission-known).
   */
  permissionNames?: (spec: Spec) => PermissionNames | null | Promise<PermissionNames | null>;
}

/**
 * Checks a spec folder: its schema (through the loader), its handler modules and the lint rules.
 * Findings come back sorted by file and line, each reported once even when a shared arg set repeats it.
 */
export async function lintSpec(specDir: string, options: LintOptions = {}): Promise<Diagnostic[]> {
  let spec: Spec;
  try {
    spec = loadSpec(specDir);
  } catch (e) {
    if (e instanceof SpecError) return e.problems;
    throw e;
  }
  const findings = new Map<string, Diagnostic>();
  const add = (d: Diagnostic) => findings.set(`${d.file}:${d.line}:${d.rule}:${d.message}`, d);
  const report: Report = (at, rule, message, severity = 'error') => add(diagnostic(at, rule, message, severity));

  const modules = new HandlerModules();
  for (const d of await modules.load(spec.routes, BUILTIN_HANDLERS)) add(d);
  await checkOrphanHandlers(spec, modules, report);
  for (const ns of spec.namespaces) checkNamespaceFormat(ns.name, ns.pos, report);
  checkUnreachableRoutes(spec, report);
  // handler modules as source, parsed once for the rules that read them
  const sources = new SourceModules();
  const permissionNames = await options.permissionNames?.(spec);
  if (permissionNames) checkPermissionNames(spec, permissionNames, sources, report);
  checkHandlerArgs(spec, sources, report);
  const compiledArgs = new Map<string, [string, string] | null>();
  for (const route of spec.routes) {
    checkPathArgs(route, report);
    checkRouteMethods(route, report);
    for (const e of route.endpoints) {
      checkEndpoint(route, e, report);
      for (const [name, arg] of Object.entries(e.args)) checkArg(name, arg, e.argPos[name] ?? e.pos, report, compiledArgs);
    }
  }
  checkAbilities(spec, report);
  checkErrorCatalogues(spec, sources, report);
  return [...findings.values()].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

// --- handlers ---

/** The handler modules of a handlers folder: `x.ts`/`x.js` and `x/index.ts`, by module name. */
function handlerModuleFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (existsSync(join(path, 'index.ts'))) files.set(name, join(path, 'index.ts'));
    } else if (/\.(ts|js)$/.test(name) && !/\.(d|test)\.ts$/.test(name)) {
      files.set(name.replace(/\.(ts|js)$/, ''), path);
    }
  }
  return files;
}

/** The line of the `export` that names `fn`, or 1 when it is re-exported wholesale (`export *`). */
function exportLine(file: string, fn: string): number {
  const exportNaming = new RegExp(`^\\s*export\\b.*\\b${fn}\\b`);
  const i = readFileSync(file, 'utf8').split('\n').findIndex((l) => exportNaming.test(l));
  return i < 0 ? 1 : i + 1;
}

const isFunction = (v: unknown): v is (...a: unknown[]) => unknown => typeof v === 'function' && !/^class\b/.test(Function.prototype.toString.call(v));

/** handler-orphan: an exported function of a handlers folder that no endpoint names is dead code or a typo in the spec. */
async function checkOrphanHandlers(spec: Spec, modules: HandlerModules, report: Report): Promise<void> {
  // Compared by function, so a handler re-exported by a folder's index counts as used under either name.
  const used = new Set<unknown>();
  for (const route of spec.routes) for (const e of route.endpoints) for (const name of [e.handler, ...(e.check ? [e.check] : [])]) if (!BUILTIN_HANDLERS.has(name)) used.add(await modules.handler(route, name));
  const dirs = new Set([spec.handlersDir, ...spec.namespaces.map((n) => n.handlersDir)]);
  for (const dir of dirs) {
    for (const [mod, file] of handlerModuleFiles(dir)) {
      let exports: Record<string, unknown>;
      try {
        exports = await modules.module(file);
      } catch {
        continue; // reported as handler-load where an endpoint names it
      }
      for (const [fn, value] of Object.entries(exports)) {
        if (!isFunction(value) || used.has(value)) continue;
        report({ file: relative(process.cwd(), file), line: exportLine(file, fn) }, 'handler-orphan', `'${mod}.${fn}' is exported but no endpoint names it`, 'warning');
      }
    }
  }
}

// --- namespaces and routes ---

const NAMESPACE_FORMAT = /^[a-z0-9]+(?:[-_][a-z0-9]+)*\/(?:v\d+|\d+\.\d+)$/;

function checkNamespaceFormat(name: string, at: SourcePos, report: Report): void {
  if (!NAMESPACE_FORMAT.test(name)) report(at, 'namespace-format', `namespace '${name}' is not of the form vendor/v<N> or vendor/<N>.<M> (e.g. cms/v2, oembed/1.0)`);
}

/**
 * Star height of a regex source: how deeply repetitions nest. Above 1 (e.g. `(a+)+`) the pattern can
 * backtrack exponentially, the check safe-regex makes for find-my-way.
 */
export function starHeight(source: string): number {
  const frames: number[] = [0];
  let last: number | null = null;
  let max = 0;
  const atom = (h: number) => {
    last = h;
    frames[frames.length - 1] = Math.max(frames[frames.length - 1], h);
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      atom(0);
    } else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      atom(0);
    } else if (c === '(') {
      if (source[i + 1] === '?') {
        i += 2;
        if (source[i] === '<' && source[i + 1] !== '=' && source[i + 1] !== '!') i = source.indexOf('>', i);
        else if (source[i] === '<') i++;
      }
      frames.push(0);
      last = null;
    } else if (c === ')') {
      atom(frames.length > 1 ? frames.pop()! : 0);
    } else if (c === '*' || c === '+' || c === '{') {
      const bounds = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i)) : null;
      if (c === '{' && !bounds) {
        atom(0);
        continue;
      }
      if (bounds) i += bounds[0].length - 1;
      const repeats = !bounds || (bounds[2] !== undefined && (bounds[3] === '' || Number(bounds[3]) > 1)) || Number(bounds[1]) > 1;
      if (last !== null && repeats) {
        const h: number = last + 1;
        frames[frames.length - 1] = Math.max(frames[frames.length - 1], h);
        max = Math.max(max, h);
      }
      last = null;
    } else if (c === '?' || c === '|' || c === '^' || c === '$') {
      last = null;
    } else {
      atom(0);
    }
  }
  return Math.max(max, ...frames);
}

/** path-args: every `{var}` is a whole segment with a pattern, every pattern is used, compiles, and cannot backtrack badly. */
function checkPathArgs(route: RouteSpec, report: Report): void {
  const used = new Set<string>();
  for (const segment of route.path.split('/')) {
    for (const [whole, name] of segment.matchAll(/\{([^{}]*)\}/g)) {
      if (!/^\w+$/.test(name)) report(route.pos, 'path-args', `path variable ${whole} in ${route.path} must be a name of letters, digits and underscores`);
      else if (whole !== segment) report(route.pos, 'path-args', `path variable ${whole} in ${route.path} must be a whole path segment`);
      else if (!(name in route.params)) report(route.pos, 'path-args', `path variable {${name}} in ${route.path} has no pattern under params`);
      used.add(name);
    }
  }
  for (const [name, pattern] of Object.entries(route.params)) {
    const at = route.paramPos?.[name] ?? route.pos;
    if (!used.has(name)) report(route.pos, 'path-args', `params entry '${name}' is not used in the path ${route.path}`);
    try {
      new RegExp(`^(?:${pattern})$`);
    } catch (e) {
      report(at, 'path-args', `pattern of {${name}} does not compile: ${(e as Error).message}`);
      continue;
    }
    if (starHeight(pattern) > 1) report(at, 'path-args', `pattern of {${name}} (${pattern}) nests repetitions and can backtrack exponentially`);
  }
}

/** route-method-unique: a method served twice by one route must be declared a repeat (the interface lists some routes that way). */
function checkRouteMethods(route: RouteSpec, report: Report): void {
  for (const variant of ALL_VARIANTS) {
    const seen = new Set<string>();
    for (const e of route.endpoints.filter((x) => x.variants.includes(variant))) {
      for (const m of e.methods) if (seen.has(m) && !e.repeat) report(e.pos, 'route-method-unique', `${m} ${route.key} is already handled by an earlier endpoint; add repeat: true if the index should list it twice`);
      for (const m of e.methods) seen.add(m);
    }
  }
}

const PERMISSION_FORMAT = /^[\w-]+(\|[\w-]+)*$/;
const READ_METHODS = new Set(['GET', 'HEAD']);

function checkEndpoint(route: RouteSpec, e: EndpointSpec, report: Report): void {
  if (e.permission === undefined) report(e.pos, 'permission-declared', `${e.methods.join(',')} ${route.key} declares no permission (a capability, cap_a|cap_b, or public)`);
  else if (!PERMISSION_FORMAT.test(e.permission)) report(e.permissionPos ?? e.pos, 'permission-declared', `permission '${e.permission}' of ${e.methods.join(',')} ${route.key} is not a capability, cap_a|cap_b, or public`);
  // a namespace whose reads are public may default to it; a write open to anyone must say so where it is declared
  else if (e.permission === 'public' && e.permissionInherited && e.methods.some((m) => !READ_METHODS.has(m)))
    report(e.pos, 'permission-declared', `${e.methods.join(',')} ${route.key} inherits 'public' from defaults: a write endpoint open to anyone says permission: public itself`);
  if (e.batchPos && e.allowBatch && e.methods.every((m) => READ_METHODS.has(m)))
    report(e.batchPos, 'batch-allowed-methods', `allow_batch on ${e.methods.join(',')} ${route.key} has no effect: batch/v1 only runs POST, PUT, PATCH and DELETE`, 'warning');
}

// --- args ---

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const TYPE_ALIASES: Record<string, string> = { bool: 'boolean', int: 'integer' };
const VALUE_IS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  array: Array.isArray,
  object: isPlainObject,
  null: (v) => v === null,
};

/** The schema and every schema nested in it, with the name WordPress would print (`requests[0][method]` style, shortened). */
function* nestedSchemas(name: string, schema: ArgDescriptor): Generator<[string, ArgDescriptor]> {
  yield [name, schema];
  if (isPlainObject(schema.items)) yield* nestedSchemas(`${name}[]`, schema.items);
  if (isPlainObject(schema.additionalProperties)) yield* nestedSchemas(`${name}[*]`, schema.additionalProperties);
  for (const key of ['properties', 'patternProperties'])
    if (isPlainObject(schema[key])) for (const [p, s] of Object.entries(schema[key])) if (isPlainObject(s)) yield* nestedSchemas(`${name}[${p}]`, s);
  for (const key of ['anyOf', 'oneOf'])
    if (Array.isArray(schema[key])) for (const s of schema[key] as unknown[]) if (isPlainObject(s)) yield* nestedSchemas(name, s);
}

const BOUND_PAIRS = [
  ['minimum', 'maximum'],
  ['minLength', 'maxLength'],
  ['minItems', 'maxItems'],
  ['minProperties', 'maxProperties'],
] as const;

function checkArg(name: string, arg: ArgDescriptor, at: SourcePos, report: Report, compiled: Map<string, [string, string] | null>): void {
  for (const key of Object.keys(arg))
    if (!INDEX_KEYWORDS.has(key) && key !== 'required' && key !== 'validate' && key !== 'index' && key !== 'unread' && key !== 'refused_default') report(at, 'arg-keyword-allowed', `arg '${name}': '${key}' is not a keyword WordPress shows in the index, so it vanishes from it`, 'warning');

  let errors = 0;
  const counted: Report = (pos, rule, message) => (errors++, report(pos, rule, message));
  for (const [path, schema] of nestedSchemas(name, arg)) {
    if (schema.enum !== undefined) checkEnum(path, schema, at, counted);
    for (const [lo, hi] of BOUND_PAIRS) {
      const [min, max] = [schema[lo], schema[hi]];
      if (typeof min === 'number' && typeof max === 'number' && min > max) counted(at, 'arg-min-max-order', `arg '${path}': ${lo} ${min} is greater than ${hi} ${max}`);
    }
  }
  // A schema already found wrong would only repeat the same fault as a compile or default error.
  if (!errors) checkCompiledArg(name, arg, at, report, compiled);
}

function checkEnum(path: string, schema: ArgDescriptor, at: SourcePos, report: Report): void {
  // a map is PHP's associative array (WordPress shows some enums so); its values are the allowed ones
  const values = isPlainObject(schema.enum) ? Object.values(schema.enum) : schema.enum;
  if (!Array.isArray(values)) return report(at, 'arg-typed-enum', `arg '${path}': enum must be a list or a map`);
  const types = (Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]).map((t) => TYPE_ALIASES[String(t)] ?? String(t));
  const seen = new Set<string>();
  for (const value of values as unknown[]) {
    const shown = JSON.stringify(value);
    if (types.length && !types.some((t) => VALUE_IS[t]?.(value))) report(at, 'arg-typed-enum', `arg '${path}': enum value ${shown} is not of type ${types.join(',')}`);
    if (seen.has(shown)) report(at, 'arg-typed-enum', `arg '${path}': enum value ${shown} is listed twice`);
    seen.add(shown);
  }
}

/**
 * Compiles the arg as the engine will at start (arg-schema-valid), then runs its default through the
 * same coercion and validation a request value gets (arg-default-valid). Results are kept per
 * descriptor, since shared arg sets repeat the same one across many endpoints.
 */
function checkCompiledArg(name: string, arg: ArgDescriptor, at: SourcePos, report: Report, seen: Map<string, [string, string] | null>): void {
  const key = JSON.stringify([name, arg]);
  if (!seen.has(key)) seen.set(key, compiledArgProblem(name, arg));
  const problem = seen.get(key);
  if (problem) report(at, problem[0], problem[1]);
}

function compiledArgProblem(name: string, arg: ArgDescriptor): [string, string] | null {
  let compiled;
  try {
    compiled = compileArgs({ [name]: arg }, { validatorNow: true });
  } catch (e) {
    return ['arg-schema-valid', `arg '${name}': its schema does not compile: ${(e as Error).message}`];
  }
  // A null default is what WordPress ignores, so there is nothing to check.
  if (arg.default === undefined || arg.default === null) return null;
  try {
    compiled.apply({ [name]: structuredClone(arg.default) });
    return arg.refused_default === true ? ['arg-default-valid', `arg '${name}': default ${JSON.stringify(arg.default)} is marked refused_default, but its own validation accepts it`] : null;
  } catch (e) {
    if (arg.refused_default === true && e instanceof RestError) return null;
    if (!(e instanceof RestError)) throw e;
    const why = (e.data?.params as Record<string, string> | undefined)?.[name] ?? e.message;
    return ['arg-default-valid', `arg '${name}': default ${JSON.stringify(arg.default)} is invalid: ${why}`];
  }
}

// --- abilities ---

/** WP_Abilities_Registry::register: a namespace prefix, a slash, a name; lower-case letters, digits and dashes. */
const ABILITY_NAME = /^[a-z0-9-]+\/[a-z0-9-]+$/;
/** WP_Ability_Categories_Registry: a slug of lower-case letters and digits, dashes between. */
const CATEGORY_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * ability-name: each ability has a well-formed name no other endpoint uses; ability-category: its
 * category is declared in site.yaml or in its own namespace file (so it is served whenever the
 * ability is), each category once; response-schema: a declared response schema compiles.
 */
function checkAbilities(spec: Spec, report: Report): void {
  const siteCategories = new Map(spec.abilityCategories.map((c) => [c.slug, c]));
  const declared = (c: AbilityCategorySpec, seen: Map<string, AbilityCategorySpec>) => {
    if (!CATEGORY_SLUG.test(c.slug)) report(c.pos, 'ability-category', `ability category '${c.slug}' must be lower-case letters and digits with dashes between`);
    const first = seen.get(c.slug);
    if (first && first !== c) report(c.pos, 'ability-category', `ability category '${c.slug}' is already declared at ${first.pos.file}:${first.pos.line}`);
  };
  for (const c of spec.abilityCategories) declared(c, siteCategories);
  const names = new Map<string, SourcePos>();
  for (const ns of spec.namespaces) {
    const local = new Map(siteCategories);
    for (const c of ns.abilityCategories) {
      declared(c, local);
      if (!local.has(c.slug)) local.set(c.slug, c);
    }
    for (const route of ns.routes) {
      for (const e of route.endpoints) {
        if (e.response) checkResponseSchema(route, e, report);
        const a = e.ability;
        if (!a) continue;
        if (!ABILITY_NAME.test(a.name)) report(a.pos, 'ability-name', `ability name '${a.name}' must be vendor/action: lower-case letters, digits and dashes around one slash`);
        const first = names.get(a.name);
        if (first) report(a.pos, 'ability-name', `ability '${a.name}' is already declared at ${first.file}:${first.line}`);
        else names.set(a.name, a.pos);
        if (!local.has(a.category)) report(a.pos, 'ability-category', `ability '${a.name}' names category '${a.category}', which neither site.yaml nor ${ns.pos.file} declares under ability_categories`);
      }
    }
  }
}

function checkResponseSchema(route: RouteSpec, e: EndpointSpec, report: Report): void {
  try {
    compileArgs({ response: e.response as ArgDescriptor }, { validatorNow: true });
  } catch (err) {
    report(e.responsePos ?? e.pos, 'response-schema', `the response schema of ${e.methods.join(',')} ${route.key} does not compile: ${(err as Error).message}`);
  }
}
