import { INDEX_KEYWORDS } from '../../src/engine/args.ts';
import type { ArgDescriptor, Spec } from '../../src/engine/spec.ts';

const TYPE_ALIASES: Record<string, string> = { bool: 'boolean', int: 'integer' };
/** Index keywords that only document an arg; Ajv in strict mode would not know `context` and the like anyway. */
const DOC_ONLY = new Set(['title', 'description']);

function plainSchema(arg: ArgDescriptor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(arg)) {
    if (!INDEX_KEYWORDS.has(k) || DOC_ONLY.has(k)) continue;
    if (k === 'type') out.type = Array.isArray(v) ? v.map((t) => TYPE_ALIASES[t] ?? t) : (TYPE_ALIASES[String(v)] ?? v);
    else if (k === 'items' && typeof v === 'object' && v !== null && !Array.isArray(v)) out.items = plainSchema(v as ArgDescriptor);
    else if (k === 'properties' && typeof v === 'object' && v !== null && !Array.isArray(v))
      out.properties = Object.fromEntries(Object.entries(v as Record<string, ArgDescriptor>).map(([p, s]) => [p, plainSchema(s)]));
    else if (k === 'format' && v !== 'date-time' && v !== 'email' && v !== 'ip' && v !== 'uuid') continue; // WordPress-only formats
    else out[k] = v;
  }
  return out;
}

/**
 * The querystring JSON Schema Fastify gets for a spec endpoint: the same types, bounds, enums
 * and defaults as the spec's args, so both servers validate and coerce the same things.
 */
export function querySchemaOf(spec: Spec, routeKey: string, method = 'GET'): Record<string, unknown> {
  const route = spec.routes.find((r) => r.key === routeKey);
  const endpoint = route?.endpoints.find((e) => e.methods.includes(method));
  if (!endpoint) throw new Error(`the spec has no ${method} ${routeKey}`);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, arg] of Object.entries(endpoint.args)) {
    properties[name] = plainSchema(arg);
    if (arg.required === true) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
