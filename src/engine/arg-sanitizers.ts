import type { ArgDescriptor } from './spec.ts';
import { isPlainObject, typesOf, type Coercer } from './arg-coercion.ts';

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

export function compileSanitizer(schema: ArgDescriptor): Coercer | null {
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
