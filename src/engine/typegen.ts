import { basename, dirname } from 'node:path';
import { diagnostic, SpecError } from './diagnostics.ts';
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
 */
function schemaType(schema: ArgDescriptor, indent = ''): string {
  return typeMembers(schema, indent).join(' | ');
}

function typeMembers(schema: ArgDescriptor, indent: string): string[] {
  const enumValues = Array.isArray(schema.enum) ? schema.enum : isPlainObject(schema.enum) ? Object.values(schema.enum) : undefined;
  if (enumValues) return union(enumValues.map(literal));
  const alternatives = (schema.oneOf ?? schema.anyOf) as ArgDescriptor[] | undefined;
  if (Array.isArray(alternatives)) {
    // an alternative without a type of its own narrows the outer one
    const { oneOf: _o, anyOf: _a, ...outer } = schema;
    return union(alternatives.flatMap((alt) => typeMembers(alt.type === undefined && outer.type !== undefined ? { ...outer, ...alt } : alt, indent)));
  }
  if (schema.type === undefined) return ['unknown'];
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).map((t) => TYPE_ALIASES[String(t)] ?? String(t));
  return union(types.map((t) => typeNamed(t, schema, indent)));
}

function typeNamed(type: string, schema: ArgDescriptor, indent: string): string {
  switch (type) {
    case 'integer':
    case 'number':
      return 'number';
    case 'string':
    case 'boolean':
    case 'null':
      return type;
    case 'array':
      return isPlainObject(schema.items) ? arrayOf(typeMembers(schema.items, indent)) : 'unknown[]';
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

function objectType(schema: ArgDescriptor, indent: string): string {
  const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, ArgDescriptor>) : {};
  const listed = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const extra = schema.additionalProperties;
  const extraType = extra === false ? null : isPlainObject(extra) ? typeMembers(extra, indent) : ['unknown'];
  const names = Object.keys(properties);
  if (!names.length) return extraType === null ? 'Record<string, never>' : `Record<string, ${extraType.join(' | ')}>`;
  const inner = `${indent}  `;
  const lines = names.map((name) => {
    const p = properties[name];
    const optional = p.required === true || listed.has(name) ? '' : '?';
    return `${inner}${propertyName(name)}${optional}: ${schemaType(p, inner)};`;
  });
  // every declared property's type must fit the index signature, so it takes them all in
  if (extraType !== null) lines.push(`${inner}[property: string]: ${union([...extraType, ...names.flatMap((n) => typeMembers(properties[n], inner)), 'undefined']).join(' | ')};`);
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

/** The answer a handler's endpoints declare (`response:`): their union, or unknown when one declares none. */
function resultType(uses: HandlerUse[]): string {
  return union(uses.flatMap(({ endpoint }) => (endpoint.response ? typeMembers(endpoint.response, '  ') : ['unknown']))).join(' | ');
}

/**
 * The generated module's text: `HandlerArgs` and `HandlerResults`, each keyed by handler. The same
 * spec gives the same bytes (keys sorted, args in the order written), so CI can compare.
 */
export function generateTypes(spec: Spec, from: string): string {
  const args: string[] = [];
  const results: string[] = [];
  for (const [key, uses] of handlerUses(spec)) {
    const served = [...new Set(uses.map(({ route, endpoint }) => `${endpoint.methods.join(',')} ${route.fullPath}`))];
    const doc = `  /** ${commentText(served.join('; '))} */`;
    const members = [...mergeArgs(uses.map(({ route, endpoint }) => endpointArgs(route, endpoint)))].flatMap(([name, a]) => [
      ...(a.description ? [`    /** ${commentText(a.description)} */`] : []),
      `    ${propertyName(name)}${a.present ? '' : '?'}: ${a.type.join(' | ')};`,
    ]);
    args.push(doc, `  ${quoted(key)}: {${members.length ? `\n${members.join('\n')}\n  ` : ''}};`);
    results.push(`  ${quoted(key)}: ${resultType(uses)};`);
  }
  return [
    `// Generated by \`cms-spec types\` from ${from}: do not edit. Run it again after a change to the spec;`,
    '// `cms-spec types --check` fails while this file is out of date.',
    '',
    '/** The validated args each handler gets (`ctx.args`), by `handlers-folder:module.export`. */',
    'export interface HandlerArgs {',
    ...args,
    '}',
    '',
    "/** The body each handler's endpoints declare they answer (`response:`), else unknown. */",
    'export interface HandlerResults {',
    ...results,
    '}',
    '',
  ].join('\n');
}
