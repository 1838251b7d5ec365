import { engineError } from './errors.ts';
import { decodePercent } from './url-decoding.ts';

/** Most params one query string or form body may carry (PHP caps them too, with max_input_vars). */
export const MAX_PARAMS = 100_000;
/** Deepest `a[b][c]…` nesting, in bracket pairs: PHP's default max_input_nesting_level. */
export const MAX_PARAM_DEPTH = 64;

const tooManyParams = () => engineError('rest_too_many_params', { max: MAX_PARAMS });
const tooDeep = () => engineError('rest_params_too_deep', { max: MAX_PARAM_DEPTH });

/**
 * PHP's parse_str, which WordPress's query and form params come from: `a=1`, `a[]=x&a[]=y` (a list),
 * `options[widget]=x` (an object), `a[b][]=x` (nested); a repeated plain key keeps the last value.
 * Linear in the input; more than MAX_PARAMS pairs or a key nested deeper than MAX_PARAM_DEPTH
 * throws a 400 RestError, as it runs before the caller is known.
 */
export function parseQueryString(qs: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!qs) return out;
  let nested: NextIndexes | undefined;
  let count = 0;
  for (const pair of qs.split('&')) {
    if (!pair) continue;
    if (++count > MAX_PARAMS) throw tooManyParams();
    const eq = pair.indexOf('=');
    const rawKey = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const bracket = rawKey.indexOf('[');
    if (bracket <= 0 || !rawKey.endsWith(']')) {
      if (rawKey) out[rawKey] = value;
      continue;
    }
    const keys = [rawKey.slice(0, bracket), ...rawKey.slice(bracket + 1, -1).split('][')];
    if (keys.length - 1 > MAX_PARAM_DEPTH) throw tooDeep();
    assignPath(out, keys, value, (nested ??= new WeakMap()));
  }
  if (nested) for (const k of Object.keys(out)) out[k] = toLists(out[k]);
  return out;
}

function decode(s: string): string {
  const plus = s.includes('+') ? s.replace(/\+/g, ' ') : s;
  return decodePercent(plus) ?? plus;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** An integer key as PHP reads one (`5`, not `05`), small enough to count on exactly. */
const INTEGER_KEY = /^(?:0|[1-9]\d{0,14})$/;

/** The index `[]` takes next in each object: one past the largest integer key, kept as keys are written. */
type NextIndexes = WeakMap<Record<string, unknown>, number>;

/** Writes into plain objects (`[]` takes the next index), then lists are restored by `toLists`. */
function assignPath(target: Record<string, unknown>, keys: string[], value: string, nextIndex: NextIndexes): void {
  let node = target;
  for (let i = 0; i < keys.length; i++) {
    let key = keys[i];
    if (FORBIDDEN_KEYS.has(key)) return;
    if (key === '') key = String(nextIndex.get(node) ?? 0);
    if (INTEGER_KEY.test(key)) nextIndex.set(node, Math.max(nextIndex.get(node) ?? 0, Number(key) + 1));
    if (i === keys.length - 1) {
      node[key] = value;
      return;
    }
    let next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = next = {};
    node = next as Record<string, unknown>;
  }
}

/** A PHP array whose keys are 0..n-1 is a list in JSON; so it is here. Recursion is bounded by MAX_PARAM_DEPTH. */
function toLists(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  for (const k of keys) o[k] = toLists(o[k]);
  return keys.length > 0 && keys.every((k, i) => k === String(i)) ? keys.map((k) => o[k]) : o;
}

/** `application/json` or `application/*+json`, as wp_is_json_media_type reads it. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const t = contentType.split(';')[0].trim().toLowerCase();
  return t === 'application/json' || (t.startsWith('application/') && t.endsWith('+json'));
}

export function isFormMediaType(contentType: string | undefined): boolean {
  return !contentType || contentType.split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded';
}
