/**
 * What the spec format lets a file say once and use many times, expanded into plain data: arg sets
 * (`$use`), route templates with `<placeholders>` (`each:`), and resource schemas built on others
 * (`$extends`, property sets).
 */
import { diagnostic, type Diagnostic } from './diagnostics.ts';
import { lineAt, type LoadedYaml } from './spec-check.ts';
import type { ArgDescriptor, NamespaceSpec, RouteSpec, SourcePos } from './spec-model.ts';

export const SPEC_EXPAND_MODULE = import.meta.filename;

/** Turns `/snippets/{id}` with `{id: '[\d]+'}` into the WordPress key `/snippets/(?P<id>[\d]+)`. */
export function toRouteKey(fullPath: string, params: Record<string, string>): string {
  return fullPath.replace(/\{(\w+)\}/g, (_, name: string) => `(?P<${name}>${params[name] ?? '[^/]+'})`);
}

export type ArgSets = Record<string, Record<string, ArgDescriptor>>;
export type Schemas = NamespaceSpec['schemas'];
/** Derives the args of a `$use: {schema, for}` entry for one route (its own `schema:` the default), or says what is wrong. */
export type SchemaUse = (schema: unknown, purpose: unknown) => Record<string, ArgDescriptor> | string;

/** What a set holds: args (`arg_sets:`) or a resource schema's properties (`property_sets:`). */
type SetKind = 'arg' | 'property';

/**
 * Expands `$use: set` (a name or a list) in place, so the served key order is the order written;
 * an arg (or property) written after a `$use` that gave it replaces it in place.
 */
export function expandArgs(raw: unknown, sets: ArgSets, fromSchema: SchemaUse, where: SourcePos, problems: Diagnostic[], kind: SetKind = 'arg'): Record<string, ArgDescriptor> {
  const out: Record<string, ArgDescriptor> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (name === '$use') {
      for (const setName of Array.isArray(value) ? value : [value]) Object.assign(out, useSet(setName, sets, fromSchema, where, problems, kind));
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
function useSet(use: unknown, sets: ArgSets, fromSchema: SchemaUse, where: SourcePos, problems: Diagnostic[], kind: SetKind): Record<string, ArgDescriptor> {
  const { set: setName, schema, for: purpose, ...adjust } = use !== null && typeof use === 'object' ? (use as Record<string, unknown>) : { set: use };
  const source = purpose === undefined ? `'${String(setName)}'` : `{for: ${String(purpose)}}`;
  const args = purpose === undefined ? (sets[String(setName)] ? structuredClone(sets[String(setName)]) : `unknown ${kind} set '${String(setName)}'`) : fromSchema(schema, purpose);
  if (typeof args === 'string') {
    problems.push(diagnostic(where, 'spec-schema', args));
    return {};
  }
  const names = Object.keys(args);
  for (const [key, value] of Object.entries(adjust)) {
    if (key in args && value === null) delete args[key];
    else if (key in args && value !== null && typeof value === 'object' && !Array.isArray(value)) args[key] = withKeywords(args[key], value as ArgDescriptor);
    else if (names.length === 1 && !(key in args)) args[names[0]] = withKeywords(args[names[0]], { [key]: value });
    else problems.push(diagnostic(where, 'spec-schema', key in args ? `$use of ${source}: '${key}' takes a map of keywords, or null to leave the ${kind} out` : `$use of ${source}: the set has no ${kind} '${key}' (it has ${names.join(', ')})`));
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
const PLACEHOLDER = /<(\w+)>/g;
const WHOLE_PLACEHOLDER = /^<(\w+)>$/;

/** What one instance of a template gives each `<name>` of it. */
export type InstanceValues = Readonly<Record<string, unknown>>;

/**
 * A template's value for one instance: each `<name>` in a string becomes the instance's value for
 * it; a string that is only `<name>` becomes the value as written, a list or a map too (so an
 * instance can give a route its own args). Names the instance has no value for stay as written.
 */
export function fillPlaceholders<T>(value: T, values: InstanceValues): T {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value)?.[1];
    if (whole !== undefined && values[whole] !== undefined && typeof values[whole] !== 'string') return structuredClone(values[whole]) as T;
    return value.replace(PLACEHOLDER, (written, name: string) => (['string', 'number', 'boolean'].includes(typeof values[name]) ? String(values[name]) : written)) as T;
  }
  if (Array.isArray(value)) return value.map((v) => fillPlaceholders(v, values)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPlaceholders(v, values)])) as T;
  return value;
}

/**
 * A file written once for several namespaces (`each:` at its top, a list of instances): its value
 * for each instance, placeholders filled; a file without is its own single instance.
 */
export function fileInstances(value: Record<string, unknown>): Record<string, unknown>[] {
  if (!Array.isArray(value.each)) return [value];
  const { each, ...template } = value;
  return (each as InstanceValues[]).map((values) => fillPlaceholders(template, values));
}

/** A route as the file gives it: its path and value (for one instance of a template), and where each part of it was written. */
export interface WrittenRoute {
  path: string;
  raw: Record<string, unknown>;
  /** The document path of something of the route (`['endpoints', 0, 'args']`): under its key, or in the instance that gave it. */
  docPath(inRoute: (string | number)[]): (string | number)[];
}

/** The instances written in place of a route template (`each: [...]`), or undefined for an application's kind (`each: post_type`) or a plain route. */
function instancesWritten(raw: Record<string, unknown>): InstanceValues[] | undefined {
  return Array.isArray(raw.each) ? (raw.each as InstanceValues[]) : undefined;
}

/**
 * A file's routes with each template whose instances it writes expanded in place, as
 * expandTemplates expands the application's: a run of consecutive templates with the same
 * instances (one list, given by a YAML anchor) is repeated once per instance, each instance's
 * routes together in the order written.
 */
export function writtenRoutes(routes: Record<string, Record<string, unknown> | null>): WrittenRoute[] {
  const entries = Object.entries(routes).map(([key, raw]) => ({ key, raw: raw ?? {} }));
  const out: WrittenRoute[] = [];
  for (let i = 0; i < entries.length; ) {
    const instances = instancesWritten(entries[i].raw);
    if (!instances) {
      const { key, raw } = entries[i++];
      out.push({ path: key, raw, docPath: (inRoute) => ['routes', key, ...inRoute] });
      continue;
    }
    const same = JSON.stringify(instances);
    let end = i;
    while (end < entries.length && JSON.stringify(instancesWritten(entries[end].raw)) === same) end++;
    instances.forEach((values, n) => {
      for (const { key, raw } of entries.slice(i, end)) out.push({ path: fillPlaceholders(key, values), raw: routeInstance(raw, values), docPath: instanceDocPath(key, raw, n, values) });
    });
    i = end;
  }
  return out;
}

function routeInstance(raw: Record<string, unknown>, values: InstanceValues): Record<string, unknown> {
  const { each: _instances, ...template } = raw;
  return fillPlaceholders(template, values);
}

/**
 * Where something of a template's instance was written: in the template, unless the path passes
 * through a value that is only a `<name>` (`permission: <cap>`, `args: <args>`); then in the
 * instance, at that name.
 */
function instanceDocPath(key: string, template: Record<string, unknown>, n: number, values: InstanceValues): WrittenRoute['docPath'] {
  return (inRoute) => {
    let node: unknown = template;
    for (let depth = 0; depth <= inRoute.length; depth++) {
      const name = typeof node === 'string' ? WHOLE_PLACEHOLDER.exec(node)?.[1] : undefined;
      if (name !== undefined && values[name] !== undefined) return ['routes', key, 'each', n, name, ...inRoute.slice(depth)];
      if (depth === inRoute.length || node === null || typeof node !== 'object') break;
      node = (node as Record<string | number, unknown>)[inRoute[depth]];
    }
    return ['routes', key, ...inRoute];
  };
}

/**
 * The routes as the spec's JSON Schema checks them: each template written with instances in place
 * filled with its `n`th instance (its last when it has fewer), under the key it is written under,
 * so a problem is reported at the line written. Checking `n` from 0 to the most instances any
 * template has checks every instance.
 */
export function routesToCheck(routes: Record<string, Record<string, unknown> | null>, n: number): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(routes).map(([key, raw]) => {
      const instances = raw ? instancesWritten(raw) : undefined;
      return [key, instances ? routeInstance(raw!, instances[Math.min(n, instances.length - 1)]) : raw];
    }),
  );
}

/** How many instances the most numerous template of these routes writes (1 when none does). */
export function mostInstances(routes: Record<string, Record<string, unknown> | null>): number {
  return Math.max(1, ...Object.values(routes).map((raw) => (raw ? (instancesWritten(raw)?.length ?? 1) : 1)));
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

/** A resource schema as a namespace file declares it (`schemas:`), with the file. */
export interface WrittenSchema {
  schema: Record<string, unknown>;
  y: LoadedYaml;
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A namespace's resource schemas, in the order declared, with what they say once expanded:
 * `$extends: NAME` makes a schema that one (itself expanded) with the keys written merged over it
 * (mergedOver), and `$use` in a `properties:` map, at any depth, gives the properties of a set of
 * the namespace's `property_sets:` in place, adjusted as an arg set's args are.
 */
export function resolveSchemas(written: Record<string, WrittenSchema>, propertySets: ArgSets, problems: Diagnostic[]): Schemas {
  const done: Schemas = {};
  const resolve = (name: string, chain: string[]): Record<string, unknown> | undefined => {
    if (done[name]) return done[name];
    const w = written[name];
    if (!w) return undefined;
    const at = (path: (string | number)[]): SourcePos => ({ file: w.y.file, line: lineAt(w.y, ['schemas', name, ...path]) });
    if (chain.includes(name)) {
      problems.push(diagnostic(at(['$extends']), 'spec-schema', `schema '${name}' extends itself: ${[...chain, name].join(' → ')}`));
      return {};
    }
    const { $extends: base, ...own } = w.schema;
    const expanded = withPropertySets(own, [], propertySets, at, problems);
    if (base === undefined) return (done[name] = expanded);
    const from = resolve(String(base), [...chain, name]);
    if (!from) {
      problems.push(diagnostic(at(['$extends']), 'spec-schema', `schema '${name}' extends '${String(base)}', which no file of the namespace declares under schemas:`));
      return (done[name] = expanded);
    }
    return (done[name] = mergedOver(from, expanded) as Record<string, unknown>);
  };
  return Object.fromEntries(Object.keys(written).map((name) => [name, resolve(name, []) ?? {}]));
}

const NOT_FROM_A_SCHEMA: SchemaUse = () => '$use in properties: takes the name of a property set, not {for: …}';

/** A schema (or part of one, at `path`) with each `properties:` map's `$use` expanded. */
function withPropertySets(value: Record<string, unknown>, path: (string | number)[], sets: ArgSets, at: (path: (string | number)[]) => SourcePos, problems: Diagnostic[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!isMap(v)) out[key] = v;
    else if (key !== 'properties') out[key] = withPropertySets(v, [...path, key], sets, at, problems);
    else {
      const properties = '$use' in v ? expandArgs(v, sets, NOT_FROM_A_SCHEMA, at([...path, key, '$use']), problems, 'property') : v;
      out[key] = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, isMap(p) ? withPropertySets(p, [...path, key, name], sets, at, problems) : p]));
    }
  }
  return out;
}

/**
 * `over` merged over `base` (`$extends`): maps key by key, in the base's order, a key the base does
 * not have last and a `null` removing the base's; anything else (a list, a scalar) replaces.
 */
function mergedOver(base: unknown, over: unknown): unknown {
  if (!isMap(base) || !isMap(over)) return structuredClone(over);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(base)) {
    if (!(k in over)) out[k] = structuredClone(v);
    else if (over[k] !== null) out[k] = mergedOver(v, over[k]);
  }
  for (const [k, v] of Object.entries(over)) if (!(k in base) && v !== null) out[k] = v;
  return out;
}
