/**
 * PHP's parse_str, which WordPress's query and form params come from: `a=1`, `a[]=x&a[]=y` (a list),
 * `options[widget]=x` (an object), `a[b][]=x` (nested); a repeated plain key keeps the last value.
 */
export function parseQueryString(qs: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!qs) return out;
  let nested = false;
  for (const pair of qs.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const bracket = rawKey.indexOf('[');
    if (bracket <= 0 || !rawKey.endsWith(']')) {
      if (rawKey) out[rawKey] = value;
      continue;
    }
    const keys = [rawKey.slice(0, bracket), ...rawKey.slice(bracket + 1, -1).split('][')];
    assignPath(out, keys, value);
    nested = true;
  }
  if (nested) for (const k of Object.keys(out)) out[k] = toLists(out[k]);
  return out;
}

function decode(s: string): string {
  const plus = s.includes('+') ? s.replace(/\+/g, ' ') : s;
  if (!plus.includes('%')) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Writes into plain objects (`[]` takes the next index), then lists are restored by `toLists`. */
function assignPath(target: Record<string, unknown>, keys: string[], value: string): void {
  let node = target;
  for (let i = 0; i < keys.length; i++) {
    let key = keys[i];
    if (FORBIDDEN_KEYS.has(key)) return;
    if (key === '') key = String(nextIndex(node));
    if (i === keys.length - 1) {
      node[key] = value;
      return;
    }
    let next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = next = {};
    node = next as Record<string, unknown>;
  }
}

function nextIndex(node: Record<string, unknown>): number {
  let n = 0;
  for (const k of Object.keys(node)) if (/^\d+$/.test(k)) n = Math.max(n, Number(k) + 1);
  return n;
}

/** A PHP array whose keys are 0..n-1 is a list in JSON; so it is here. */
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
