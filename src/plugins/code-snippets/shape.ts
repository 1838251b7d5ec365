import type { Spec } from '../../engine/index.ts';
import type { Snippet, SnippetFields } from './repo.ts';

export const NAMESPACE = 'code-snippets/v1';

interface PropertySchema {
  type?: string | string[];
  default?: unknown;
}

/** The snippet read shape declared in the namespace's spec file, compiled once per loaded spec. */
export interface SnippetShape {
  /** The JSON Schema as written, served by `GET snippets/schema`. */
  schema: Record<string, unknown>;
  /** A snippet as the API shows it: the schema's keys in its order, each value of its declared type. */
  present(snippet: Snippet): Record<string, unknown>;
  /** The fields of a snippet nobody has set anything on. */
  defaults(): Omit<SnippetFields, 'modified'>;
  /** The declared default of each field that has one. */
  defaultOf: ReadonlyMap<string, unknown>;
}

const shapes = new WeakMap<Spec, SnippetShape>();

export function snippetShape(spec: Spec): SnippetShape {
  let shape = shapes.get(spec);
  if (!shape) {
    const schema = spec.namespaces.find((n) => n.name === NAMESPACE)?.schemas.snippet;
    if (!schema) throw new Error(`the ${NAMESPACE} spec declares no 'snippet' schema`);
    shape = compileShape(schema);
    shapes.set(spec, shape);
  }
  return shape;
}

/** Fields the server assigns; a new snippet takes no default for them. */
const SERVER_SET = new Set(['id', 'modified']);

type Convert = (v: unknown) => unknown;

const CONVERT: Record<string, Convert> = {
  integer: (v) => Math.trunc(Number(v) || 0),
  number: (v) => Number(v) || 0,
  string: (v) => (v === null || v === undefined ? '' : String(v)),
  boolean: (v) => Boolean(v),
  array: (v) => (Array.isArray(v) ? v : []),
};

/** Keeps null where the schema allows it, else converts to the first declared type. */
function converter(prop: PropertySchema): Convert {
  const types = Array.isArray(prop.type) ? prop.type : [prop.type ?? 'string'];
  const nullable = types.includes('null');
  const convert = CONVERT[types.find((t) => t !== 'null') ?? 'string'] ?? ((v: unknown) => v);
  return (v) => (nullable && (v === null || v === undefined) ? null : convert(v));
}

function compileShape(schema: Record<string, unknown>): SnippetShape {
  const props = Object.entries((schema.properties ?? {}) as Record<string, PropertySchema>);
  const fields = props.map(([name, prop]) => ({ name, convert: converter(prop) }));
  const defaultOf = new Map(props.filter(([, p]) => p.default !== undefined).map(([name, p]) => [name, p.default]));
  return {
    schema,
    defaultOf,
    present(snippet) {
      const out: Record<string, unknown> = {};
      const values = snippet as unknown as Record<string, unknown>;
      for (const f of fields) out[f.name] = f.convert(values[f.name] ?? defaultOf.get(f.name));
      return out;
    },
    defaults() {
      const out: Record<string, unknown> = {};
      for (const f of fields) if (!SERVER_SET.has(f.name)) out[f.name] = f.convert(structuredClone(defaultOf.get(f.name)));
      return out as Omit<SnippetFields, 'modified'>;
    },
  };
}
