import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv } from './ajv.ts';
import { isIP } from 'node:net';
import type { ArgDescriptor } from './spec.ts';
import { invalidParams, listJoin, missingParams, type ParamFailure, RestError } from './errors.ts';
import { compileCoercer, typesOf, type Coercer } from './arg-coercion.ts';
import { checkedNames, toAjvSchema } from './arg-schema.ts';
import { compileSanitizer } from './arg-sanitizers.ts';
import { compileQuickCheck, type QuickCheck } from './quick-check.ts';

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
