import type { ServerFixture } from './server.ts';

/** A resource's JSON Schema as OPTIONS serves it (WordPress's get_item_schema), or one of its properties. */
export interface ItemSchema {
  type?: string | string[];
  context?: string[];
  properties?: Record<string, ItemSchema>;
  items?: ItemSchema;
  enum?: unknown[];
  additionalProperties?: boolean | ItemSchema;
}

/** What every item answer may carry beside its schema's properties (WordPress adds them after shaping). */
const ENVELOPE = new Set(['_links', '_embedded']);

/** The schema `OPTIONS` answers for a route: the same one the handlers' answers are checked against here. */
export async function routeSchema(server: ServerFixture, route: string): Promise<ItemSchema> {
  const descriptor = await server.json(route, { method: 'OPTIONS' });
  if (!descriptor.schema) throw new Error(`OPTIONS ${route} answers no schema`);
  return descriptor.schema as ItemSchema;
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'object':
      // PHP's empty associative array is served as [] (WordPress answers `meta: []` so)
      return typeOf(value) === 'object' || (Array.isArray(value) && value.length === 0);
    default:
      return typeOf(value) === type;
  }
}

/**
 * Where an answer does not match its schema for a context, as `path: problem` lines (none when it
 * matches): a property the schema does not show in that context is present, a property the schema
 * does not declare is present, or a value has a type or an enum value the schema does not allow.
 * Nested properties are checked the same way (WordPress's rest_filter_response_by_context filters
 * them by context too).
 */
export function schemaProblems(value: unknown, schema: ItemSchema, context: string, path = '$'): string[] {
  const problems: string[] = [];
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length && !types.some((t) => hasType(value, t))) return [`${path}: ${JSON.stringify(value)?.slice(0, 60)} is not of type ${types.join('|')}`];
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => problems.push(...schemaProblems(v, schema.items!, context, `${path}[${i}]`)));
  if (typeOf(value) === 'object' && schema.properties) {
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const property = schema.properties[key];
      if (!property) {
        if (!(path === '$' && ENVELOPE.has(key)) && schema.additionalProperties !== true && typeof schema.additionalProperties !== 'object') problems.push(`${path}.${key}: not declared in the schema`);
        continue;
      }
      if (property.context && !property.context.includes(context)) problems.push(`${path}.${key}: present, but the schema shows it only in ${property.context.join(', ')}`);
      else problems.push(...schemaProblems(v, property, context, `${path}.${key}`));
    }
  }
  return problems;
}

/**
 * The properties the schema shows at the top level in a context and the answer lacks: a shaped
 * answer carries every one of them (WordPress fills each field the context asks for).
 */
export function missingProperties(value: Record<string, unknown>, schema: ItemSchema, context: string): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([key, p]) => (p.context ?? []).includes(context) && !(key in value))
    .map(([key]) => key);
}
