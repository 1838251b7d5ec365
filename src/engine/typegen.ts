import { basename, dirname, relative, sep } from 'node:path';
import { handlerModuleFile, splitHandlerName } from './compile.ts';
import { diagnostic, SpecError } from './diagnostics.ts';
import { answerOf } from './responses.ts';
import { BUILTIN_HANDLERS, type ArgDescriptor, type EndpointSpec, type RouteSpec, type Spec } from './spec.ts';

/**
 * `cms-spec types`: one TypeScript type per handler the spec names, of the args the validator
 * hands it and of the answer its endpoints declare, so `tsc` catches a handler reading an arg no
 * endpoint of it declares. A small mapper rather than a JSON-Schema-to-TypeScript generator:
 * WordPress arg descriptors are not quite JSON Schema (`required: true` on the arg, a map as
 * `enum`, `validate: false`, `int`/`bool` aliases) and what a handler gets is the coerced value.
 */

/**
 * A handler's key in the generated types: the folder of its module, then the name the spec gives
 * it, `cms-v2:posts.listPosts` or `code-snippets:snippets.get`. The folder is named by its own
 * name, or its parent's when it is called `handlers` (a plugin's `src/plugins/<plugin>/handlers`).
 */
export function handlersFolderName(handlersDir: string): string {
  return basename(handlersDir) === 'handlers' ? basename(dirname(handlersDir)) : basename(handlersDir);
}

const TYPE_ALIASES: Record<string, string> = { bool: 'boolean', int: 'integer' };
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const quoted = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
const literal = (v: unknown) => (typeof v === 'string' ? quoted(v) : JSON.stringify(v));
const propertyName = (name: string) => (IDENTIFIER.test(name) ? name : quoted(name));
/** The members of a union, each once, in the order met; anything with `unknown` is `unknown`. */
const union = (members: string[]): string[] => {
  const distinct = [...new Set(members)];
  return distinct.includes('unknown') ? ['unknown'] : distinct;
};
const arrayOf = (item: string[]) => (item.length === 1 && /^[\w$]+(\[\])*$/.test(item[0]) ? `${item[0]}[]` : `Array<${item.join(' | ')}>`);

/**
 * The TypeScript type of a value this schema has passed, once coerced (WordPress descriptor or
 * JSON Schema): a property is required when WordPress marks it `required: true` or JSON Schema
 * lists it in its object's `required`. `indent` is that of the line the type starts on.
 *
 * Of an answer (`answer`), WordPress's `required: true` says what a create requires, not what is
 * answered, and a field is left out by the context or `_fields`: only JSON Schema's `required`
 * list makes a property always there, and one shown in no context (`context: []`, a password) is
 * not there at all.
 */
function schemaType(schema: ArgDescriptor, indent = '', answer = false): string {
  return typeMembers(schema, indent, answer).join(' | ');
}

function typeMembers(schema: ArgDescriptor, indent: string, answer = false): string[] {
  const enumValues = Array.isArray(schema.enum) ? schema.enum : isPlainObject(schema.enum) ? Object.values(schema.enum) : undefined;
  if (enumValues) return union(enumValues.map(literal));
  const alternatives = (schema.oneOf ?? schema.anyOf) as ArgDescriptor[] | undefined;
  if (Array.isArray(alternatives)) {
    // an alternative without a type of its own narrows the outer one
    const { oneOf: _o, anyOf: _a, ...outer } = schema;
    return union(alternatives.flatMap((alt) => typeMembers(alt.type === undefined && outer.type !== undefined ? { ...outer, ...alt } : alt, indent, answer)));
  }
  if (schema.type === undefined) return ['unknown'];
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).map((t) => TYPE_ALIASES[String(t)] ?? String(t));
  return union(types.map((t) => typeNamed(t, schema, indent, answer)));
}

function typeNamed(type: string, schema: ArgDescriptor, indent: string, answer: boolean): string {
  switch (type) {
    case 'integer':
    case 'number':
      return 'number';
    case 'string':
    case 'boolean':
    case 'null':
      return type;
    case 'array':
      return isPlainObject(schema.items) ? arrayOf(typeMembers(schema.items, indent, answer)) : 'unknown[]';
    case 'object':
      return objectType(schema, indent, answer);
    default:
      return 'unknown';
  }
}

function objectType(schema: ArgDescriptor, indent: string, answer: boolean): string {
  const declared = isPlainObject(schema.properties) ? (schema.properties as Record<string, ArgDescriptor>) : {};
  const shown = ([, p]: [string, ArgDescriptor]) => !(answer && Array.isArray(p.context) && p.context.length === 0);
  const properties = Object.fromEntries(Object.entries(declared).filter(shown));
  const listed = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const extra = schema.additionalProperties;
  const extraType = extra === false ? null : isPlainObject(extra) ? typeMembers(extra, indent, answer) : ['unknown'];
  const names = Object.keys(properties);
  if (!names.length) return extraType === null ? 'Record<string, never>' : `Record<string, ${extraType.join(' | ')}>`;
  const inner = `${indent}  `;
  const lines = names.map((name) => {
    const p = properties[name];
    const optional = (p.required === true && !answer) || listed.has(name) ? '' : '?';
    return `${inner}${propertyName(name)}${optional}: ${schemaType(p, inner, answer)};`;
  });
  // every declared property's type must fit the index signature, so it takes them all in
  if (extraType !== null) lines.push(`${inner}[property: string]: ${union([...extraType, ...names.flatMap((n) => typeMembers(properties[n], inner, answer)), 'undefined']).join(' | ')};`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** One arg as one endpoint hands it over: its type, and whether it is always there. */
interface ArgShape {
  /** The members of its type's union. */
  type: string[];
  present: boolean;
  description?: string;
}

/**
 * An endpoint's args as its handler gets them: each declared arg after coercion (`validate:
 * false` ones raw), present when required or defaulted; and each path variable of the route (a
 * string, unless an arg of the same name gives it a type), always present.
 */
function endpointArgs(route: RouteSpec, endpoint: EndpointSpec): Map<string, ArgShape> {
  const out = new Map<string, ArgShape>();
  for (const name of route.fullPath.match(/\{\w+\}/g) ?? []) out.set(name.slice(1, -1), { type: ['string'], present: true });
  for (const [name, arg] of Object.entries(endpoint.args)) {
    const defaulted = arg.default !== undefined && arg.default !== null;
    const type = arg.validate === false ? ['unknown'] : typeMembers(arg, '    ');
    const present = arg.required === true || defaulted || out.has(name);
    // a JSON null counts as not sent, so it passes unchecked (isset()): what is neither required nor defaulted may be null
    out.set(name, { type: present ? type : union([...type, 'null']), present, ...(typeof arg.description === 'string' ? { description: arg.description } : {}) });
  }
  return out;
}

/** What every endpoint a handler serves guarantees: an arg some do not declare is optional there. */
function mergeArgs(all: Map<string, ArgShape>[]): Map<string, ArgShape> {
  const out = new Map<string, ArgShape>();
  for (const args of all)
    for (const [name, shape] of args) {
      const seen = out.get(name);
      out.set(name, seen ? { ...seen, type: union([...seen.type, ...shape.type]), present: seen.present && shape.present } : { ...shape });
    }
  for (const [name, shape] of out) if (!all.every((args) => args.has(name))) shape.present = false;
  return out;
}

/** A comment's text that cannot end the comment. */
const commentText = (s: string) => s.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();

interface HandlerUse {
  route: RouteSpec;
  endpoint: EndpointSpec;
}

/** Every endpoint of every variant, by the key of the handler it names (built-ins left out), keys sorted. */
function handlerUses(spec: Spec): Map<string, HandlerUse[]> {
  const folders = new Map<string, string>();
  const uses = new Map<string, HandlerUse[]>();
  for (const route of spec.routes)
    for (const endpoint of route.endpoints) {
      if (BUILTIN_HANDLERS.has(endpoint.handler)) continue;
      const folder = handlersFolderName(route.handlersDir);
      const other = folders.get(folder);
      if (other !== undefined && other !== route.handlersDir)
        throw new SpecError([diagnostic(endpoint.pos, 'handler-folders', `handler folders ${other} and ${route.handlersDir} are both named '${folder}', so their handlers' type keys would clash; rename one`)]);
      folders.set(folder, route.handlersDir);
      const key = `${folder}:${endpoint.handler}`;
      uses.set(key, [...(uses.get(key) ?? []), { route, endpoint }]);
    }
  return new Map([...uses].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A resource's key in `Resources`: its namespace and its name among the namespace's `schemas:`, `cms/v2:post`. */
const resourceKey = (route: RouteSpec) => `${route.namespace}:${route.schemaName}`;

/** What one endpoint answers, over its methods, as answerOf decides it (a resource named by its `Resources` entry). */
function answerMembers(route: RouteSpec, endpoint: EndpointSpec, methods: readonly string[] = endpoint.methods): string[] {
  const resource = `Resources[${quoted(resourceKey(route))}]`;
  return union(
    methods.flatMap((method) => {
      const answer = answerOf(route, endpoint, method);
      switch (answer.kind) {
        case 'declared':
          return typeMembers(answer.schema, '  ', true);
        case 'unknown':
          return ['unknown'];
        case 'item':
          return [resource];
        case 'list':
          return [`${resource}[]`];
        case 'map':
          return [`Record<string, ${resource}>`];
        case 'deleted':
          return [`{ deleted: boolean; previous: ${resource} }`, ...(answer.orItem ? [resource] : [])];
      }
    }),
  );
}

const byKey = <T>(entries: Iterable<[string, T]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * What `cms-spec types` writes: the types of the spec, and the answers of the handlers that
 * implement it. Two modules, so that the context handlers are typed with (which imports the
 * first) never reaches the handlers themselves: only the second imports them, and nothing a
 * handler imports imports it.
 */
export interface GeneratedTypes {
  /** The spec's types (`endpoints.ts`). */
  types: string;
  /** `HandlerAnswers`, importing each handler module (`endpoints.answers.ts`); null when no handler module is a TypeScript one. */
  answers: string | null;
}

/** Where the handlers' answers are written beside the spec's types: `endpoints.ts` → `endpoints.answers.ts`. */
export const answersFileOf = (typesFile: string): string => typesFile.replace(/(\.ts)?$/, '.answers.ts');

/**
 * The generated modules' text: `HandlerArgs` and `HandlerResults`, each keyed by handler;
 * `EndpointResults`, what a client gets from each method and path; and `Resources`, the resources'
 * schemas those answers are made of. The same spec gives the same bytes (keys sorted, args and
 * properties in the order written), so CI can compare.
 */
export function generateTypes(spec: Spec, from: string, outDir?: string): GeneratedTypes {
  const args: string[] = [];
  const results: string[] = [];
  const modules = new Map<string, string>();
  const answers: string[] = [];
  for (const [key, uses] of handlerUses(spec)) {
    const [mod, name] = splitHandlerName(uses[0].endpoint.handler);
    const file = outDir === undefined ? undefined : handlerModuleFile(uses[0].route.handlersDir, mod);
    if (file?.endsWith('.ts')) {
      if (!modules.has(file)) modules.set(file, `handlers${modules.size}`);
      answers.push(`  ${quoted(key)}: Answer<typeof ${modules.get(file)}${IDENTIFIER.test(name) ? `.${name}` : `[${quoted(name)}]`}>;`);
    }
    const served = [...new Set(uses.map(({ route, endpoint }) => `${endpoint.methods.join(',')} ${route.fullPath}`))];
    const doc = `  /** ${commentText(served.join('; '))} */`;
    const members = [...mergeArgs(uses.map(({ route, endpoint }) => endpointArgs(route, endpoint)))].flatMap(([name, a]) => [
      ...(a.description ? [`    /** ${commentText(a.description)} */`] : []),
      `    ${propertyName(name)}${a.present ? '' : '?'}: ${a.type.join(' | ')};`,
    ]);
    args.push(doc, `  ${quoted(key)}: {${members.length ? `\n${members.join('\n')}\n  ` : ''}};`);
    results.push(`  ${quoted(key)}: ${union(uses.flatMap(({ route, endpoint }) => answerMembers(route, endpoint))).join(' | ')};`);
  }
  // by method and path, as a client calls it; an endpoint of each variant (or a repeat) adds its answer
  const endpoints = new Map<string, string[]>();
  const resources = new Map<string, string>();
  for (const route of spec.routes) {
    if (route.schema && route.schemaName && !resources.has(resourceKey(route))) resources.set(resourceKey(route), schemaType(route.schema, '  ', true));
    for (const endpoint of route.endpoints) {
      if (BUILTIN_HANDLERS.has(endpoint.handler)) continue;
      for (const method of endpoint.methods) {
        const key = `${method} ${route.fullPath}`;
        endpoints.set(key, union([...(endpoints.get(key) ?? []), ...answerMembers(route, endpoint, [method])]));
      }
    }
  }
  const importPath = (file: string) => {
    const path = relative(outDir!, file).split(sep).join('/');
    return path.startsWith('.') ? path : `./${path}`;
  };
  const header = [
    `// Generated by \`cms-spec types\` from ${from}: do not edit. Run it again after a change to the spec;`,
    '// `cms-spec types --check` fails while this file is out of date.',
    '',
  ];
  const types = [
    ...header,
    '/** The validated args each handler gets (`ctx.args`), by `handlers-folder:module.export`. */',
    'export interface HandlerArgs {',
    ...args,
    '}',
    '',
    "/** What each handler's endpoints answer (EndpointResults), together; unknown where the spec does not say for one of them. */",
    'export interface HandlerResults {',
    ...results,
    '}',
    '',
    '/** What a client gets from each method and path on success: its `response:`, else its route\'s resource (`Resources`) as WordPress answers it; unknown where the spec does not say. */',
    'export interface EndpointResults {',
    ...byKey(endpoints).map(([key, type]) => `  ${quoted(key)}: ${type.join(' | ')};`),
    '}',
    '',
    "/** The resources' schemas (a namespace's `schemas:`) as answered, by `namespace:name`: any field may be left out by the context or `_fields`. */",
    'export interface Resources {',
    ...byKey(resources).map(([key, type]) => `  ${quoted(key)}: ${type};`),
    '}',
    '',
  ].join('\n');
  if (!modules.size) return { types, answers: null };
  return {
    types,
    answers: [
      ...header,
      ...[...modules].map(([file, alias]) => `import type * as ${alias} from ${quoted(importPath(file))};`),
      '',
      '/** What each handler (of a TypeScript module) returns, awaited: held to HandlerResults by AnswerMisfits (src/engine/types.ts). */',
      'export interface HandlerAnswers {',
      ...answers,
      '}',
      '',
      'type Answer<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;',
      '',
    ].join('\n'),
  };
}
