/**
 * Endpoint args derived from a resource's item schema, as WordPress derives them
 * (`WP_REST_Controller::get_endpoint_args_for_item_schema` → `rest_get_endpoint_args_for_schema`,
 * and `get_context_param`), so a resource's fields are written once, in its `schemas:` entry.
 */

/** This module's file, which the spec cache's key includes (src/engine/parse-cache.ts). */
export const SCHEMA_ARGS_MODULE = import.meta.filename;

type Schema = Record<string, unknown>;
type Descriptor = Record<string, unknown>;

/**
 * The keywords WordPress copies from a schema property to its arg, in its order
 * (`rest_get_allowed_schema_keywords()` without `default` and `required`, which only a create takes).
 */
const COPIED_KEYWORDS = [
  'title', 'description', 'type', 'format', 'enum', 'items', 'properties', 'additionalProperties', 'patternProperties',
  'minProperties', 'maxProperties', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'anyOf', 'oneOf',
];

const propertiesOf = (schema: Schema) => (schema.properties && typeof schema.properties === 'object' ? (schema.properties as Record<string, Schema>) : {});

/**
 * The args of a create (`POST` on a collection) or an update, in the schema's property order:
 * readonly properties dropped; a create keeps a property's `default` and takes `required: true`
 * from it, an update neither; then the copied keywords, then the property's `arg_options` merged
 * over them (its `default`/`required` only on a create). `arg_options: {validate: false}` is ours
 * for WordPress's nulled sanitize/validate callbacks.
 */
export function argsForItemSchema(schema: Schema, purpose: 'create' | 'update'): Record<string, Descriptor> {
  const creating = purpose === 'create';
  const out: Record<string, Descriptor> = {};
  for (const [field, property] of Object.entries(propertiesOf(schema))) {
    if (property.readonly) continue;
    const arg: Descriptor = {};
    if (creating && property.default !== undefined && property.default !== null) arg.default = property.default;
    if (creating && property.required) arg.required = true;
    for (const keyword of COPIED_KEYWORDS) if (property[keyword] !== undefined && property[keyword] !== null) arg[keyword] = property[keyword];
    const { required: _required, default: _default, ...options } = (property.arg_options ?? {}) as Descriptor;
    Object.assign(arg, creating ? property.arg_options : options);
    out[field] = structuredClone(arg);
  }
  return out;
}

/**
 * WordPress's `get_context_param()`: the contexts any property of the schema is shown in, as an
 * enum sorted the way PHP's `rsort` sorts them (`view, embed, edit`). Its default is written
 * beside the `$use` (`{for: context, default: view}`), as WordPress passes it in `$args`.
 */
export function contextParam(schema: Schema): Descriptor {
  const param: Descriptor = { description: 'Scope under which the request is made; determines fields present in response.', type: 'string' };
  const contexts = new Set<string>();
  for (const property of Object.values(propertiesOf(schema))) for (const c of Array.isArray(property.context) ? property.context : []) contexts.add(String(c));
  if (contexts.size) param.enum = [...contexts].sort().reverse();
  return param;
}

/** The schema as served (WordPress's `get_public_item_schema`): its properties without their `arg_options`. */
export function publicItemSchema(schema: Schema): Schema {
  const properties = propertiesOf(schema);
  if (!Object.values(properties).some((p) => p.arg_options !== undefined)) return schema;
  return { ...schema, properties: Object.fromEntries(Object.entries(properties).map(([k, { arg_options: _, ...p }]) => [k, p])) };
}

/**
 * The args a `$use: {for: create|update|context, schema: NAME}` entry derives from the namespace's
 * schema of that name (the route's own `schema:` when it names none), or what is wrong with it.
 */
export function expandSchemaUse(name: unknown, purpose: unknown, schemas: Readonly<Record<string, Schema>>): Record<string, Descriptor> | string {
  if (typeof name !== 'string') return `$use: {for: ${String(purpose)}} names no schema, and its route has no schema: of its own`;
  const schema = schemas[name];
  if (!schema) return `$use names schema '${name}', which no file of the namespace declares under schemas:`;
  return purpose === 'context' ? { context: contextParam(schema) } : argsForItemSchema(schema, purpose as 'create' | 'update');
}
