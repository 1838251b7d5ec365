/**
 * What the spec format lets a file say once and use many times, expanded into plain data: arg sets
 * (`$use`), route templates with `<placeholders>` (`each:`), and resource schemas built on others
 * (`$extends`, property sets).
 */
import { diagnostic, type Diagnostic } from './diagnostics.ts';
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

/**
 * Expands `$use: set` (a name or a list) in place, so the served key order is the order written;
 * an arg written after a `$use` that gave it replaces it in place.
 */
export function expandArgs(raw: unknown, sets: ArgSets, fromSchema: SchemaUse, where: SourcePos, problems: Diagnostic[]): Record<string, ArgDescriptor> {
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
