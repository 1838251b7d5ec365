import { isSerialized, serialize, unserialize } from 'php-serialize';

/**
 * PHP's serialized values, which WordPress writes into its exports as meta values are stored
 * (`a:1:{s:3:"key";…}`), read as data: the one place the importer meets the `php-serialize`
 * library. Objects become plain objects (their class is dropped, as nothing here runs PHP).
 */

export type Unserialized = { ok: true; value: unknown } | { ok: false; reason: string };

/** Plain data: class instances the library makes for PHP objects become plain objects. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== '__PHP_Incomplete_Class_Name') out[k] = plain(v);
    return out;
  }
  return value;
}

/** maybe_unserialize: a serialized value read, anything else as it is; a serialized value that cannot be read is reported. */
export function maybeUnserialize(raw: string): Unserialized {
  // is_serialized's strict test ends in ';' or '}' (the library's own strict mode wants '"' before an array's end)
  const trimmed = raw.trim();
  if (!/[;}]$/.test(trimmed) || !isSerialized(trimmed)) return { ok: true, value: raw };
  try {
    return { ok: true, value: plain(unserialize(trimmed, {}, { strict: false, encoding: 'utf8' })) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * A meta value as this site stores it: a string as it is, anything else as JSON (what
 * src/core/post-meta.ts reads back). PHP's scalars keep WordPress's string forms (true '1', false '').
 */
export function storedMetaValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '';
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

/**
 * A stored meta value as WordPress would have stored it, for an export: what this site keeps as
 * JSON (an array or object) PHP serialized, as maybe_serialize writes it; anything else as it is.
 */
export function phpStoredMetaValue(stored: string): string {
  if (!/^[[{]/.test(stored)) return stored;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return stored;
  }
  return value && typeof value === 'object' ? serialize(value) : stored;
}
