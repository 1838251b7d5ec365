import { type AbilityCategorySpec, type ArgDescriptor, compileArgs, type CompiledArgs, type EndpointSpec, INDEX_KEYWORDS, type RouteSpec, type Spec } from '../../engine/index.ts';

/** WP_Ability's annotations: what an agent may assume about running it. */
export interface Annotations {
  instructions: string;
  readonly: boolean;
  destructive: boolean;
  idempotent: boolean;
}

/** An ability as WP_Ability holds it, made from an endpoint the spec declares one. */
export interface Ability {
  name: string;
  label: string;
  description: string;
  category: string;
  inputSchema: Record<string, unknown>;
  /** The endpoint's declared response; `[]` when it declares none (WordPress's empty PHP array). */
  outputSchema: Record<string, unknown> | [];
  annotations: Annotations;
  /** How the endpoint is called: its first method, and the route with its path variables. */
  method: string;
  route: RouteSpec;
  endpoint: EndpointSpec;
  /** The input schema compiled as an arg named `input`, so failures read as WordPress's (`input[status] is not one of …`). */
  input: CompiledArgs;
  output: CompiledArgs | null;
}

export interface Registry {
  abilities: Ability[];
  byName: ReadonlyMap<string, Ability>;
  categories: AbilityCategorySpec[];
}

/** What running an endpoint's method tells an agent: reads change nothing, deletes are destructive and idempotent. */
function annotationsOf(method: string): Annotations {
  if (method === 'GET') return { instructions: '', readonly: true, destructive: false, idempotent: true };
  if (method === 'DELETE') return { instructions: '', readonly: false, destructive: true, idempotent: true };
  return { instructions: '', readonly: false, destructive: false, idempotent: false };
}

/**
 * An arg as a property of the input schema: the keywords WordPress shows, without its v3 `required`.
 * An arg declared `validate: false` (title, content: a string or `{raw}`) is taken as its handler
 * takes it, so its schema keeps no `type` for the engine to refuse a string by.
 */
function property(arg: ArgDescriptor): Record<string, unknown> {
  return Object.fromEntries(Object.entries(arg).filter(([k]) => INDEX_KEYWORDS.has(k) && !(k === 'type' && arg.validate === false)));
}

/** A path variable no arg describes: an integer where its pattern is digits (ids), else a string of its pattern. */
const pathVariable = (pattern: string): Record<string, unknown> => (/^(\[\\d\]|\\d)\+$/.test(pattern) ? { type: 'integer' } : { type: 'string', pattern: `^(?:${pattern})$` });

/**
 * The input schema of an endpoint: an object of its args (path variables among them, required,
 * since the path needs them), nothing else allowed. With nothing required, no input means `{}`.
 */
function inputSchemaOf(route: RouteSpec, e: EndpointSpec): Record<string, unknown> {
  const pathVars = [...route.fullPath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const properties: Record<string, unknown> = {};
  for (const v of pathVars) properties[v] = e.args[v] ? property(e.args[v]) : pathVariable(route.params[v]);
  // an arg the index does not show (`index: false`: a raw read WordPress does not document) is not offered to agents either
  const shown = Object.entries(e.args).filter(([, arg]) => arg.index !== false);
  for (const [name, arg] of shown) properties[name] ??= property(arg);
  const required = [...new Set([...pathVars, ...shown.filter(([, arg]) => arg.required === true).map(([name]) => name)])];
  return { type: 'object', properties, ...(required.length ? { required } : { default: {} }), additionalProperties: false };
}

function abilityOf(route: RouteSpec, e: EndpointSpec): Ability {
  const a = e.ability!;
  const inputSchema = inputSchemaOf(route, e);
  return {
    name: a.name,
    label: a.label,
    description: a.description,
    category: a.category,
    inputSchema,
    outputSchema: e.response ?? [],
    annotations: annotationsOf(e.methods[0]),
    method: e.methods[0],
    route,
    endpoint: e,
    input: compileArgs({ input: inputSchema }),
    output: e.response ? compileArgs({ output: e.response }) : null,
  };
}

/** validate_request_method: reads run with GET, destructive idempotent actions with DELETE, the rest with POST. */
export function runMethodOf(a: Ability): 'GET' | 'DELETE' | 'POST' {
  return a.annotations.readonly ? 'GET' : a.annotations.destructive && a.annotations.idempotent ? 'DELETE' : 'POST';
}

/** Whether a caller with these capabilities may run the ability: its endpoint's permission. */
export function mayRun(a: Ability, can: (cap: string) => boolean): boolean {
  const permission = a.endpoint.permission ?? 'public';
  return permission === 'public' || permission.split('|').some(can);
}

const registries = new WeakMap<readonly RouteSpec[], Registry>();

/**
 * The abilities of the routes served now, in registration order, and the categories they may use
 * (site.yaml's and the served namespaces'). Built once per set of served routes: a plugin
 * (de)activation or a variant serves another set, and gets its own registry.
 */
export function registryOf(spec: Spec, served: readonly RouteSpec[]): Registry {
  let registry = registries.get(served);
  if (!registry) {
    const abilities = served.flatMap((route) => route.endpoints.filter((e) => e.ability).map((e) => abilityOf(route, e)));
    const namespaces = new Set(served.map((r) => r.namespace));
    const categories = [...spec.abilityCategories, ...spec.namespaces.filter((n) => namespaces.has(n.name)).flatMap((n) => n.abilityCategories)];
    registries.set(served, (registry = { abilities, byName: new Map(abilities.map((x) => [x.name, x])), categories }));
  }
  return registry;
}
