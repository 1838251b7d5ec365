import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv } from './ajv.ts';
import { isIP } from 'node:net';
import type { ArgDescriptor } from './spec.ts';
import { invalidParams, listJoin, missingParams, type ParamFailure, RestError } from './errors.ts';

/** The JSON-Schema keywords WordPress keeps in the index (rest_get_allowed_schema_keywords). */
export const INDEX_KEYWORDS = new Set([
  'title', 'description', 'default', 'type', 'format', 'enum', 'items', 'properties', 'additionalProperties',
  'patternProperties', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'anyOf', 'oneOf',
]);

/** The descriptor WordPress shows: allowed keywords in the order written, then `required` as a boolean. */
export function indexDescriptor(arg: ArgDescriptor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(arg)) if (INDEX_KEYWORDS.has(k)) out[k] = v;
  out.required = arg.required === true;
  return out;
}

const TYPE_ALIASES: Record<string, string> = { bool: 'boolean', int: 'integer' };
/** A type as JSON Schema names it: WordPress also takes `bool` and `int`. */
export const canonicalType = (t: unknown) => TYPE_ALIASES[String(t)] ?? String(t);
const typesOf = (s: ArgDescriptor): string[] => (s.type === undefined ? [] : (Array.isArray(s.type) ? s.type : [s.type]).map(canonicalType));

// --- coercion: WordPress accepts strings for every scalar type (rest_validate_value_from_schema) ---

/** PHP's is_numeric: optional leading whitespace, sign, digits with an optional fraction, optional exponent. */
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
const isNumeric = (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && NUMERIC.test(v));
const BOOL_STRINGS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };
const isBooleanish = (v: unknown) => typeof v === 'boolean' || v === 0 || v === 1 || (typeof v === 'string' && v.toLowerCase() in BOOL_STRINGS);
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const INTEGER_KEY = /^(0|-?[1-9]\d*)$/;
/** wp_is_numeric_array: a PHP array whose keys are all integers is a list, gaps or not (`a[0]=x&a[2]=y`). */
const isList = (v: unknown) => Array.isArray(v) || (isPlainObject(v) && Object.keys(v).every((k) => INTEGER_KEY.test(k)));

/** wp_parse_list: split scalars on commas and whitespace. */
export function parseList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v)) return Object.values(v);
  return String(v ?? '').split(/[\s,]+/).filter((x) => x !== '');
}

const FITS: Record<string, (v: unknown) => boolean> = {
  array: (v) => isList(v) || (v !== null && typeof v !== 'object'),
  object: (v) => isPlainObject(v) || Array.isArray(v) || v === '',
  integer: (v) => isNumeric(v) && Number.isInteger(Number(v)),
  number: isNumeric,
  boolean: isBooleanish,
  string: (v) => typeof v === 'string',
  null: (v) => v === null,
};

type Coercer = (v: unknown) => unknown;

/** Builds, once, the function that turns a raw value into the type the schema declares, as WordPress does before checking it. */
function compileCoercer(schema: ArgDescriptor): Coercer {
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

// --- the Ajv schema WordPress semantics map onto ---

/** Rewrites a WordPress arg descriptor into a JSON Schema Ajv can compile (aliases, v3 `required`, draft-04 exclusives, formats). */
function toAjvSchema(arg: ArgDescriptor): Record<string, unknown> {
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

/** The formats WordPress checks, with its own rules (rest_validate_value_from_schema); `uri` is only sanitised. */
function addWordPressFormats(ajv: Ajv) {
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:\d{2})?)?$/);
  ajv.addFormat('email', /^[^\s@]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/);
  ajv.addFormat('ip', { validate: (s: string) => isIP(s) !== 0 });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  ajv.addFormat('hex-color', /^#([A-Fa-f0-9]{3}){1,2}$/);
}

// Ajv's code optimiser costs more at start-up than it saves on validators this small. Nor is each
// schema checked against JSON Schema's meta-schema as it compiles (compiling the meta-schema alone
// takes 50 ms): `cms-spec lint` checks every arg that way (`validatorNow`).
const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, coerceTypes: false, useDefaults: false, validateFormats: true, validateSchema: false, code: { optimize: false } });
addWordPressFormats(ajv);

// --- Ajv errors into WordPress messages ---

const FORMAT_ERRORS: Record<string, (name: string) => [string, string]> = {
  'date-time': () => ['rest_invalid_date', 'Invalid date.'],
  email: () => ['rest_invalid_email', 'Invalid email address.'],
  ip: (n) => ['rest_invalid_ip', `${n} is not a valid IP address.`],
  uuid: (n) => ['rest_invalid_uuid', `${n} is not a valid UUID.`],
  'hex-color': () => ['rest_invalid_hex_color', 'Invalid hex color.'],
};

/** `/requests/0/method` under arg `requests` is named `requests[0][method]`, as WordPress names nested params. */
function wpName(param: string, pointerRest: string[]): string {
  return param + pointerRest.map((p) => `[${p.replace(/~1/g, '/').replace(/~0/g, '~')}]`).join('');
}

const truncInt = (n: unknown) => Math.trunc(Number(n));

function boundsMessage(name: string, s: Record<string, unknown>): string {
  const min = s.minimum ?? s.exclusiveMinimum;
  const max = s.maximum ?? s.exclusiveMaximum;
  const minEx = s.exclusiveMinimum !== undefined;
  const maxEx = s.exclusiveMaximum !== undefined;
  if (min !== undefined && max !== undefined)
    return `${name} must be between ${truncInt(min)} (${minEx ? 'exclusive' : 'inclusive'}) and ${truncInt(max)} (${maxEx ? 'exclusive' : 'inclusive'})`;
  if (min !== undefined) return `${name} must be greater than ${minEx ? '' : 'or equal to '}${truncInt(min)}`;
  return `${name} must be less than ${maxEx ? '' : 'or equal to '}${truncInt(max)}`;
}

function toFailure(param: string, e: ErrorObject): ParamFailure {
  const rest = e.instancePath.split('/').slice(2);
  const name = wpName(param, rest);
  const s = (e.parentSchema ?? {}) as Record<string, unknown>;
  const p = e.params as Record<string, unknown>;
  const fail = (code: string, message: string, data: Record<string, unknown> | null = null): ParamFailure => ({ code, message, data });
  switch (e.keyword) {
    case 'type': {
      const t = Array.isArray(s.type) ? (s.type as string[]).join(',') : String(s.type);
      return fail('rest_invalid_type', `${name} is not of type ${t}.`, { param: name });
    }
    case 'enum': {
      const values = s.enum as unknown[];
      return fail('rest_not_in_enum', values.length === 1 ? `${name} is not ${listJoin(values)}.` : `${name} is not one of ${listJoin(values)}.`);
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return fail('rest_out_of_bounds', boundsMessage(name, s));
    case 'multipleOf':
      return fail('rest_invalid_multiple', `${name} must be a multiple of ${String(s.multipleOf)}.`);
    case 'minLength':
      return fail('rest_too_short', `${name} must be at least ${String(s.minLength)} character${s.minLength === 1 ? '' : 's'} long.`);
    case 'maxLength':
      return fail('rest_too_long', `${name} must be at most ${String(s.maxLength)} character${s.maxLength === 1 ? '' : 's'} long.`);
    case 'pattern':
      return fail('rest_invalid_pattern', `${name} does not match pattern ${String(s.pattern)}.`);
    case 'minItems':
      return fail('rest_too_few_items', `${name} must contain at least ${String(s.minItems)} item${s.minItems === 1 ? '' : 's'}.`);
    case 'maxItems':
      return fail('rest_too_many_items', `${name} must contain at most ${String(s.maxItems)} item${s.maxItems === 1 ? '' : 's'}.`);
    case 'uniqueItems':
      return fail('rest_duplicate_items', `${name} has duplicate items.`);
    case 'minProperties':
      return fail('rest_too_few_properties', `${name} must contain at least ${String(s.minProperties)} propert${s.minProperties === 1 ? 'y' : 'ies'}.`);
    case 'maxProperties':
      return fail('rest_too_many_properties', `${name} must contain at most ${String(s.maxProperties)} propert${s.maxProperties === 1 ? 'y' : 'ies'}.`);
    case 'required':
      return fail('rest_property_required', `${String(p.missingProperty)} is a required property of ${name}.`);
    case 'additionalProperties':
      return fail('rest_additional_properties_forbidden', `${String(p.additionalProperty)} is not a valid property of Object.`);
    case 'format': {
      const f = FORMAT_ERRORS[String(p.format)];
      const [code, message] = f ? f(name) : ['rest_invalid_format', `${name} is not a valid ${String(p.format)}.`];
      return fail(code, message);
    }
    case 'anyOf':
      return fail('rest_no_matching_schema', `${name} does not match any of the expected formats.`);
    case 'oneOf':
      // Ajv reports both ways a oneOf fails under one keyword: several matches name the ones that passed
      return Array.isArray(p.passingSchemas)
        ? fail('rest_one_of_multiple_matches', `${name} matches more than one of the expected formats.`)
        : fail('rest_no_matching_schema', `${name} does not match any of the expected formats.`);
    default:
      return fail('rest_invalid_param', `${name} is invalid.`);
  }
}

/**
 * rest_get_combining_operation_error: a value no alternative of a oneOf/anyOf takes. Each
 * alternative's own first failure is its reason; mismatches of the value's own type are set
 * aside, and a single reason left is given with its alternative's title and position.
 */
function combiningFailure(param: string, e: ErrorObject, all: ErrorObject[]): ParamFailure {
  const name = wpName(param, e.instancePath.split('/').slice(2));
  const alternatives = ((e.parentSchema as Record<string, unknown>)[e.keyword] ?? []) as Record<string, unknown>[];
  const reasons: { index: number; title: unknown; failure: ParamFailure }[] = [];
  alternatives.forEach((schema, index) => {
    const prefix = `${e.schemaPath}/${index}/`;
    let first: { error: ErrorObject; order: number[] } | undefined;
    for (const sub of all) {
      if (!sub.schemaPath.startsWith(prefix)) continue;
      const order = checkOrder(sub.instancePath.split('/').slice(2), sub.keyword);
      if (!first || comesBefore(order, first.order)) first = { error: sub, order };
    }
    if (first) reasons.push({ index, title: schema.title, failure: toFailure(param, first.error) });
  });
  const kept = reasons.length === 1 ? reasons : reasons.filter((r) => !(r.failure.code === 'rest_invalid_type' && (r.failure.data as { param?: unknown } | null)?.param === name));
  if (kept.length === 1) {
    const [{ index, title, failure }] = kept;
    const message = typeof title === 'string' ? `${name} is not a valid ${title}. Reason: ${failure.message}` : `${name} does not match the expected format. Reason: ${failure.message}`;
    return { code: 'rest_no_matching_schema', message, data: { position: index } };
  }
  const titles = alternatives.map((a) => a.title).filter((t) => typeof t === 'string');
  if (titles.length && titles.length === alternatives.length) return { code: 'rest_no_matching_schema', message: `${name} is not a valid ${listJoin(titles)}.`, data: null };
  return { code: 'rest_no_matching_schema', message: `${name} does not match any of the expected formats.`, data: null };
}

// --- which failure WordPress reports when a value breaks several rules ---

/**
 * rest_validate_value_from_schema stops at the first failure, checking anyOf/oneOf, then the type,
 * then required properties, then items and properties, then the type's own bounds, then enum, then format.
 */
const KEYWORD_ORDER: Record<string, number> = { anyOf: 0, oneOf: 0, type: 1, required: 2, additionalProperties: 3, enum: 5, format: 6 };
const NESTED = 3;
const CONSTRAINT = 4;

/** A sort key for an error `rest` levels below its param: each level is (nested, item index), then the keyword's place. */
function checkOrder(rest: string[], keyword: string): number[] {
  const order: number[] = [];
  for (const seg of rest) order.push(NESTED, /^\d+$/.test(seg) ? Number(seg) : 0);
  order.push(KEYWORD_ORDER[keyword] ?? CONSTRAINT);
  return order;
}

function comesBefore(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

// --- sanitising what passed (rest_sanitize_value_from_schema) ---

const URL_PROTOCOLS = new Set(['http:', 'https:', 'ftp:', 'ftps:', 'mailto:', 'news:', 'irc:', 'irc6:', 'ircs:', 'gopher:', 'nntp:', 'feed:', 'telnet:', 'mms:', 'rtsp:', 'sms:', 'svn:', 'tel:', 'fax:', 'xmpp:', 'webcal:', 'urn:']);

/** sanitize_url: a URL with a protocol WordPress allows, else the empty string. */
export function sanitizeUrl(v: string): string {
  const s = v.trim().replace(/ /g, '%20');
  if (s === '') return '';
  try {
    return URL_PROTOCOLS.has(new URL(s).protocol) ? s : '';
  } catch {
    return '';
  }
}

/**
 * PHP's (int) cast: the integer part, saturated into the range integers have. PHP's is 64-bit;
 * here it is the range JavaScript numbers hold exactly, which every store keeps (SQLite's INTEGER
 * and PostgreSQL's bigint are 64-bit), so an id of 1e308 is looked up, and not found, everywhere.
 */
export const exactInteger = (v: number) => Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Math.trunc(v)));

/** The JSON type a sanitized value has, as a schema's `type` names it. */
const shapeOf = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);

function compileSanitizer(schema: ArgDescriptor): Coercer | null {
  const types = typesOf(schema);
  // rest_sanitize_value_from_schema sanitizes a oneOf/anyOf value by the alternative it fits: here
  // the first whose type takes its shape (a term-id list or a `{terms, operator}` object)
  const alternatives = (schema.oneOf ?? schema.anyOf) as ArgDescriptor[] | undefined;
  if (Array.isArray(alternatives)) {
    const branches = alternatives.map((b) => ({ types: typesOf(b), sanitize: compileSanitizer(b) })).filter((b) => b.sanitize !== null);
    if (branches.length)
      return (v) => {
        const shape = shapeOf(v);
        const branch = branches.find((b) => b.types.includes(shape) || (shape === 'integer' && b.types.includes('number')));
        return branch ? branch.sanitize!(v) : v;
      };
  }
  if (schema.format === 'uri' && (types.length === 0 || types.includes('string'))) return (v) => (typeof v === 'string' ? sanitizeUrl(v) : v);
  if (types.length === 1 && types[0] === 'integer') return (v) => (typeof v === 'number' ? exactInteger(v) : v);
  const items = isPlainObject(schema.items) ? compileSanitizer(schema.items as ArgDescriptor) : null;
  if (items) return (v) => (Array.isArray(v) ? v.map(items) : v);
  if (isPlainObject(schema.properties)) {
    const props = Object.entries(schema.properties as Record<string, ArgDescriptor>)
      .map(([k, s]) => [k, compileSanitizer(s)] as const)
      .filter((x): x is readonly [string, Coercer] => x[1] !== null);
    if (props.length) return (v) => {
      if (!isPlainObject(v)) return v;
      for (const [k, f] of props) if (v[k] !== undefined) v[k] = f(v[k]);
      return v;
    };
  }
  return null;
}

// --- the one-pass path of plain arg sets, generated per arg set ---

/** A generated check: coerces, checks and sanitises every declared param in place and returns true, or returns false having changed nothing. */
export type QuickCheck = (params: Record<string, unknown>) => boolean;

/** Keywords a plain arg may carry beside its type; any other (format, multipleOf, uniqueItems, objects, unions…) leaves the arg set to the general path. */
const QUICK_KEYWORDS: Record<string, Set<string>> = {
  integer: new Set(['enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']),
  number: new Set(['enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']),
  boolean: new Set(['enum']),
  string: new Set(['enum', 'minLength', 'maxLength', 'pattern']),
};
const NOT_CHECKED = new Set(['type', 'title']);
const BOUNDS: [string, string][] = [['minimum', '<'], ['maximum', '>'], ['exclusiveMinimum', '<='], ['exclusiveMaximum', '>=']];
const isLiteral = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * The code that takes one raw value `raw` of a scalar arg to `out` (coerced as compileCoercer
 * does, then sanitised as compileSanitizer does), or `return false` when the value is not one
 * that arg's Ajv schema (toAjvSchema) surely accepts; null when the schema is not a plain one.
 */
function scalarCode(schema: Record<string, unknown>, raw: string, out: string, constants: unknown[]): string | null {
  const type = schema.type;
  if (typeof type !== 'string' || !QUICK_KEYWORDS[type]) return null;
  for (const k of Object.keys(schema)) if (!NOT_CHECKED.has(k) && !QUICK_KEYWORDS[type].has(k)) return null;
  const lines: string[] = [];
  const constant = (v: unknown) => `K[${constants.push(v) - 1}]`;
  switch (type) {
    case 'integer':
    case 'number': {
      // is_numeric strings become numbers; Ajv's integer is a whole number, and a number that is not finite is left to it
      const whole = type === 'integer' ? 'Number.isInteger' : 'Number.isFinite';
      lines.push(`if (typeof ${raw} === 'number') ${out} = ${raw}; else if (typeof ${raw} === 'string' && NUMERIC.test(${raw})) ${out} = Number(${raw}); else return false;`);
      lines.push(`if (!${whole}(${out})) return false;`);
      for (const [k, op] of BOUNDS) {
        if (schema[k] === undefined) continue;
        if (typeof schema[k] !== 'number') return null;
        lines.push(`if (${out} ${op} ${constant(schema[k])}) return false;`);
      }
      break;
    }
    case 'boolean':
      lines.push(`if (typeof ${raw} === 'boolean') ${out} = ${raw}; else if (typeof ${raw} === 'string') ${out} = BOOL_STRINGS[${raw}.toLowerCase()]; else if (${raw} === 0 || ${raw} === 1) ${out} = ${raw} === 1; else return false;`);
      lines.push(`if (typeof ${out} !== 'boolean') return false;`);
      break;
    case 'string':
      lines.push(`if (typeof ${raw} !== 'string') return false;`, `${out} = ${raw};`);
      if (schema.minLength !== undefined || schema.maxLength !== undefined) {
        if ((schema.minLength !== undefined && typeof schema.minLength !== 'number') || (schema.maxLength !== undefined && typeof schema.maxLength !== 'number')) return null;
        lines.push(`{ const n = codePoints(${out});`);
        if (schema.minLength !== undefined) lines.push(`if (n < ${constant(schema.minLength)}) return false;`);
        if (schema.maxLength !== undefined) lines.push(`if (n > ${constant(schema.maxLength)}) return false;`);
        lines.push('}');
      }
      if (schema.pattern !== undefined) {
        // as Ajv compiles it (unicodeRegExp); a pattern it would refuse is left to it
        let re: RegExp;
        try {
          re = new RegExp(String(schema.pattern), 'u');
        } catch {
          return null;
        }
        lines.push(`if (!${constant(re)}.test(${out})) return false;`);
      }
      break;
  }
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum) || !schema.enum.length || !schema.enum.every(isLiteral)) return null;
    lines.push(`if (${schema.enum.map((v) => `${out} !== ${constant(v)}`).join(' && ')}) return false;`);
  }
  if (type === 'integer') lines.push(`${out} = exactInteger(${out});`);
  return lines.join('\n');
}

/** The code for one arg: a scalar, a list of scalars (wp_parse_list), or any value when the arg declares nothing to check. */
function argCode(schema: Record<string, unknown>, raw: string, out: string, constants: unknown[]): string | null {
  if (Object.keys(schema).every((k) => k === 'title')) return `${out} = ${raw};`;
  if (schema.type !== 'array') return scalarCode(schema, raw, out, constants);
  const { items, minItems, maxItems } = schema;
  for (const k of Object.keys(schema)) if (!['type', 'title', 'items', 'minItems', 'maxItems'].includes(k)) return null;
  if (!isPlainObject(items) || (minItems !== undefined && typeof minItems !== 'number') || (maxItems !== undefined && typeof maxItems !== 'number')) return null;
  const item = scalarCode(items, 'item', 'next', constants);
  if (item === null) return null;
  const lines = [
    `if (!FITS_ARRAY(${raw})) return false;`,
    `{ const list = parseList(${raw}); ${out} = new Array(list.length);`,
    `for (let i = 0; i < list.length; i++) { const item = list[i]; let next; ${item} ${out}[i] = next; } }`,
  ];
  if (minItems !== undefined) lines.push(`if (${out}.length < ${minItems}) return false;`);
  if (maxItems !== undefined) lines.push(`if (${out}.length > ${maxItems}) return false;`);
  return lines.join('\n');
}

/** Ajv's string length (ucs2length): code points, a surrogate pair counting once. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; n++) {
    const c = s.charCodeAt(i++);
    if (c >= 0xd800 && c <= 0xdbff && i < s.length && (s.charCodeAt(i) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

/**
 * One function for an arg set whose every checked arg is plain (an integer, number, boolean or
 * string with enum, bounds, lengths or a pattern, a list of those, or an arg with nothing to
 * check), as fast-json-stringify generates its serialisers: it coerces, checks and sanitises
 * each param in one pass and writes them back only when all passed. A value it does not surely
 * accept (a failure, a null, anything unusual) makes it return false with nothing changed, and
 * the general path (coercers, Ajv, WordPress's failure messages and their order) decides, so
 * every answer, error bodies included, is the general path's. Null for any other arg set.
 */
export function compileQuickCheck(args: Record<string, ArgDescriptor>): QuickCheck | null {
  const constants: unknown[] = [];
  const reads: string[] = [];
  const writes: string[] = [];
  for (const [i, n] of checkedNames(args).entries()) {
    const code = argCode(toAjvSchema(args[n]), `v${i}`, `c${i}`, constants);
    if (code === null) return null;
    const key = JSON.stringify(n);
    reads.push(`const v${i} = p[${key}]; let c${i};`, `if (v${i} !== undefined) {`, code, '}');
    writes.push(`if (v${i} !== undefined) p[${key}] = c${i};`);
  }
  const body = `return function quickCheck(p) {\n${reads.join('\n')}\n${writes.join('\n')}\nreturn true;\n};`;
  return new Function('K', 'NUMERIC', 'BOOL_STRINGS', 'FITS_ARRAY', 'parseList', 'exactInteger', 'codePoints', body)(constants, NUMERIC, BOOL_STRINGS, FITS.array, parseList, exactInteger, codePoints) as QuickCheck;
}

// --- the compiled arg set of one endpoint ---

export interface CompiledArgs {
  names: string[];
  /** Args with a default: [name, default], applied below every request source. */
  defaults: [string, unknown][];
  required: string[];
  /**
   * Coerces and checks the merged params in place. Throws rest_missing_callback_param or
   * rest_invalid_param exactly as WordPress words them.
   */
  apply(params: Record<string, unknown>): void;
  /** The descriptors served in the index, built once. */
  index: Record<string, Record<string, unknown>> | [];
}

/**
 * Endpoints with the same arg set (the item routes of a namespace, shared `$use` sets, a spec's
 * copies) share one compiled validator: Ajv's generated code is most of a route's memory and
 * start-up time. Sharing is safe because validation is synchronous.
 */
const validators = new Map<string, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = ajv.compile(schema)));
  return validate;
}

/** The declared params that are set and not null. */
function withoutNulls(params: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (params[n] !== undefined && params[n] !== null) out[n] = params[n];
  return out;
}

/** The args checked: `validate: false` declares one for the index only, the handler sanitises the raw value itself. */
const checkedNames = (args: Record<string, ArgDescriptor>) => Object.keys(args).filter((n) => args[n].validate !== false);

/**
 * Compiles one arg set (an endpoint's, a post meta key's, an ability's). Its Ajv validator, most
 * of the cost (about a millisecond and a half per distinct set), is compiled at the first
 * `apply`, so a server starts without compiling what nobody calls. `cms-spec lint` checks each
 * schema against the meta-schema and compiles it at once (`validatorNow`), so a schema Ajv
 * refuses fails CI, not a request.
 */
export function compileArgs(args: Record<string, ArgDescriptor>, { validatorNow = false } = {}): CompiledArgs {
  const names = Object.keys(args);
  const checked = checkedNames(args);
  const defaults = names.filter((n) => args[n].default !== undefined && args[n].default !== null).map((n) => [n, args[n].default] as [string, unknown]);
  const required = names.filter((n) => args[n].required === true);
  const coercers = checked.map((n) => [n, compileCoercer(args[n])] as const).filter(([n]) => typesOf(args[n]).length > 0);
  const sanitizers = checked.map((n) => [n, compileSanitizer(args[n])] as const).filter((x): x is readonly [string, Coercer] => x[1] !== null);
  const properties: Record<string, unknown> = {};
  for (const n of checked) properties[n] = toAjvSchema(args[n]);
  const schema = { type: 'object', properties };
  const compile = () => (checked.length ? validatorFor(schema) : null);
  if (validatorNow && !ajv.validateSchema(schema)) throw new Error(ajv.errorsText(ajv.errors));
  let validateOnce: ValidateFunction | null | undefined = validatorNow ? compile() : undefined;
  // generated at the first apply too; null when some arg is not a plain one
  let quickCheck: QuickCheck | null | undefined;
  // `index: false`: checked like any arg, but not shown (WordPress's show_in_index false)
  const shown = names.filter((n) => args[n].index !== false);
  const index: CompiledArgs['index'] = shown.length ? Object.fromEntries(shown.map((n) => [n, indexDescriptor(args[n])])) : [];

  return {
    names,
    defaults,
    required,
    index,
    apply(params) {
      let missing: string[] | null = null;
      for (const n of required) if (params[n] === undefined || params[n] === null) (missing ??= []).push(n);
      if (missing) throw missingParams(missing);
      if ((quickCheck === undefined ? (quickCheck = compileQuickCheck(args)) : quickCheck)?.(params)) return;
      const validate = validateOnce === undefined ? (validateOnce = compile()) : validateOnce;
      if (!validate) return;
      // JSON null counts as absent in WordPress (isset), so it is neither coerced nor checked: the
      // rare request with a null param is checked on a copy without it, every other one in place.
      const present = checked.some((n) => params[n] === null) ? withoutNulls(params, checked) : params;
      for (const [n, c] of coercers) if (present[n] !== undefined) present[n] = c(present[n]);
      if (!validate(present)) {
        const first = new Map<string, { error: ErrorObject; order: number[] }>();
        for (const e of validate.errors!) {
          const [, rawParam, ...rest] = e.instancePath.split('/');
          if (rawParam === undefined) continue;
          const param = rawParam.replace(/~1/g, '/').replace(/~0/g, '~');
          const order = checkOrder(rest, e.keyword);
          const seen = first.get(param);
          if (!seen || comesBefore(order, seen.order)) first.set(param, { error: e, order });
        }
        const failures = new Map<string, ParamFailure>();
        for (const [param, { error }] of first) {
          const combined = error.keyword === 'anyOf' || (error.keyword === 'oneOf' && !Array.isArray((error.params as { passingSchemas?: unknown }).passingSchemas));
          failures.set(param, combined ? combiningFailure(param, error, validate.errors!) : toFailure(param, error));
        }
        if (failures.size) throw invalidParams(failures);
        throw new RestError('rest_invalid_param', 'Invalid parameter(s).', 400);
      }
      for (const [n, s] of sanitizers) if (present[n] !== undefined) present[n] = s(present[n]);
      if (present !== params) Object.assign(params, present);
    },
  };
}
