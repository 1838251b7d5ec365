import type { ArgDescriptor } from './spec.ts';
import { BOOL_STRINGS, FITS, isPlainObject, NUMERIC, parseList } from './arg-coercion.ts';
import { checkedNames, toAjvSchema } from './arg-schema.ts';
import { exactInteger } from './arg-sanitizers.ts';

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
