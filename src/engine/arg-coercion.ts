import type { ArgDescriptor } from './spec.ts';

/** WordPress's arg types and how a raw value is coerced to the type its arg declares, before it is checked. */

const TYPE_ALIASES: Record<string, string> = { bool: 'boolean', int: 'integer' };
/** A type as JSON Schema names it: WordPress also takes `bool` and `int`. */
export const canonicalType = (t: unknown) => TYPE_ALIASES[String(t)] ?? String(t);
export const typesOf = (s: ArgDescriptor): string[] => (s.type === undefined ? [] : (Array.isArray(s.type) ? s.type : [s.type]).map(canonicalType));

// --- coercion: WordPress accepts strings for every scalar type (rest_validate_value_from_schema) ---

/** PHP's is_numeric: optional leading whitespace, sign, digits with an optional fraction, optional exponent. */
export const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
const isNumeric = (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && NUMERIC.test(v));
export const BOOL_STRINGS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };
const isBooleanish = (v: unknown) => typeof v === 'boolean' || v === 0 || v === 1 || (typeof v === 'string' && v.toLowerCase() in BOOL_STRINGS);
export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const INTEGER_KEY = /^(0|-?[1-9]\d*)$/;
/** wp_is_numeric_array: a PHP array whose keys are all integers is a list, gaps or not (`a[0]=x&a[2]=y`). */
const isList = (v: unknown) => Array.isArray(v) || (isPlainObject(v) && Object.keys(v).every((k) => INTEGER_KEY.test(k)));

/** wp_parse_list: split scalars on commas and whitespace. */
export function parseList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v)) return Object.values(v);
  return String(v ?? '').split(/[\s,]+/).filter((x) => x !== '');
}

export const FITS: Record<string, (v: unknown) => boolean> = {
  array: (v) => isList(v) || (v !== null && typeof v !== 'object'),
  object: (v) => isPlainObject(v) || Array.isArray(v) || v === '',
  integer: (v) => isNumeric(v) && Number.isInteger(Number(v)),
  number: isNumeric,
  boolean: isBooleanish,
  string: (v) => typeof v === 'string',
  null: (v) => v === null,
};

export type Coercer = (v: unknown) => unknown;

/** Builds, once, the function that turns a raw value into the type the schema declares, as WordPress does before checking it. */
export function compileCoercer(schema: ArgDescriptor): Coercer {
  const types = typesOf(schema);
  const itemCoercer = isPlainObject(schema.items) ? compileCoercer(schema.items as ArgDescriptor) : null;
  const props = isPlainObject(schema.properties) ? Object.entries(schema.properties as Record<string, ArgDescriptor>).map(([k, s]) => [k, compileCoercer(s)] as const) : [];
  const extraCoercer = isPlainObject(schema.additionalProperties) ? compileCoercer(schema.additionalProperties as ArgDescriptor) : null;
  const toType = (t: string, v: unknown): unknown => {
    switch (t) {
      case 'boolean':
        return typeof v === 'string' ? BOOL_STRINGS[v.toLowerCase()] : v === 0 || v === 1 ? v === 1 : v;
      case 'integer':
      case 'number':
        return typeof v === 'string' ? Number(v) : v;
      case 'array': {
        const list = parseList(v);
        return itemCoercer ? list.map(itemCoercer) : list;
      }
      case 'object': {
        const obj: Record<string, unknown> = v === '' ? {} : Array.isArray(v) ? Object.fromEntries(v.map((x, i) => [String(i), x])) : { ...(v as object) };
        for (const [k, c] of props) if (obj[k] !== undefined) obj[k] = c(obj[k]);
        if (extraCoercer) for (const k of Object.keys(obj)) if (!props.some(([p]) => p === k)) obj[k] = extraCoercer(obj[k]);
        return obj;
      }
      default:
        return v;
    }
  };
  // anyOf/oneOf: once coerced to its type, the value takes the coercion of the first alternative it fits (rest_find_one_matching_schema)
  const alternatives = ((schema.oneOf ?? schema.anyOf) as ArgDescriptor[] | undefined)?.map((alt) => [typesOf(alt), compileCoercer(alt)] as const);
  if (alternatives) {
    const own = compileCoercer({ ...schema, oneOf: undefined, anyOf: undefined });
    return (v) => {
      const coerced = own(v);
      const alt = alternatives.find(([t]) => t.length === 0 || t.some((x) => FITS[x]?.(coerced)));
      return alt ? alt[1](coerced) : coerced;
    };
  }
  if (types.length === 0) return (v) => v;
  if (types.length === 1) {
    const [t] = types;
    const fits = FITS[t];
    return fits ? (v) => (fits(v) ? toType(t, v) : v) : (v) => v;
  }
  // `type: [a, b]` takes the first declared type the value fits; '' is a string when string is allowed.
  return (v) => {
    if (v === '' && types.includes('string')) return v;
    for (const t of types) if (FITS[t]?.(v)) return toType(t, v);
    return v;
  };
}
