/** PHP's readings of values: what a WordPress function's `(int)`, `if ( $value )` and `empty()` make of them. */

/** PHP's (int) of a string: its leading integer ('150px' is 150), 0 when it has none. */
export function phpInt(value: string): number {
  const m = /^[ \t\n\r\v\f]*([+-]?[0-9]+)/.exec(value);
  if (!m) return 0;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n : n > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}

/** PHP's truthiness of a decoded JSON value (`if ( $value )`). */
export const truthy = (v: unknown): boolean =>
  !(v === undefined || v === null || v === false || v === 0 || v === '' || v === '0' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0));
