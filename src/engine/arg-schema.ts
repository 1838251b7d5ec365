import type { ArgDescriptor } from './spec.ts';
import { canonicalType, isPlainObject } from './arg-coercion.ts';

// --- the Ajv schema WordPress semantics map onto ---

/** Rewrites a WordPress arg descriptor into a JSON Schema Ajv can compile (aliases, v3 `required`, draft-04 exclusives, formats). */
export function toAjvSchema(arg: ArgDescriptor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(arg)) {
    switch (k) {
      case 'type':
        out.type = Array.isArray(v) ? v.map(canonicalType) : canonicalType(v);
        break;
      case 'required':
      case 'default':
      case 'description':
      case 'index':
      case 'refused_default':
        break;
      case 'format':
        if (v !== 'uri' && v !== 'text-field' && v !== 'textarea-field') out.format = v;
        break;
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        break; // folded into minimum/maximum below (draft-04 booleans)
      case 'enum':
        // a map is PHP's associative array, as WordPress shows some enums: its values are the allowed ones
        out.enum = isPlainObject(v) ? Object.values(v) : v;
        break;
      case 'items':
        out.items = isPlainObject(v) ? toAjvSchema(v) : v;
        break;
      case 'anyOf':
      case 'oneOf':
        out[k] = (v as ArgDescriptor[]).map(toAjvSchema);
        break;
      case 'properties': {
        const props: Record<string, unknown> = {};
        const required: string[] = [];
        for (const [pk, ps] of Object.entries(isPlainObject(v) ? (v as Record<string, ArgDescriptor>) : {})) {
          props[pk] = toAjvSchema(ps);
          if (ps.required === true) required.push(pk);
        }
        out.properties = props;
        if (required.length) out.required = required;
        break;
      }
      case 'additionalProperties':
        out.additionalProperties = isPlainObject(v) ? toAjvSchema(v) : v;
        break;
      case 'patternProperties':
        out.patternProperties = Object.fromEntries(Object.entries(v as Record<string, ArgDescriptor>).map(([p, s]) => [p, toAjvSchema(s)]));
        break;
      default:
        out[k] = v;
    }
  }
  if (Array.isArray(arg.required)) out.required = arg.required;
  if (arg.exclusiveMinimum === true && typeof arg.minimum === 'number') (out.exclusiveMinimum = arg.minimum), delete out.minimum;
  if (arg.exclusiveMaximum === true && typeof arg.maximum === 'number') (out.exclusiveMaximum = arg.maximum), delete out.maximum;
  return out;
}

/** The args checked: `validate: false` declares one for the index only, the handler sanitises the raw value itself. */
export const checkedNames = (args: Record<string, ArgDescriptor>) => Object.keys(args).filter((n) => args[n].validate !== false);
