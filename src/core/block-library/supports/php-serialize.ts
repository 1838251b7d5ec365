import type { SupportedBlock } from './wrapper.ts';

/**
 * PHP's serialize() of a parsed block as WordPress's block parser makes it (an array of
 * blockName, attrs, innerBlocks, innerHTML, innerContent), for the hashes WordPress takes of a
 * block (wp_get_elements_class_name's md5). The attributes are json_decode()d as arrays: a key
 * that is a decimal integer becomes an integer key, an integral number an int. JSON cannot tell
 * `2.0` from `2` once read, so a float written with a zero fraction serializes as an int here.
 */

const str = (s: string) => `s:${Buffer.byteLength(s, 'utf8')}:"${s}";`;
const INTEGER_KEY = /^(?:0|-?[1-9]\d*)$/;
const key = (k: string) => (INTEGER_KEY.test(k) && Number.isSafeInteger(Number(k)) ? `i:${k};` : str(k));

/** PHP's float repr with serialize_precision -1: the shortest round-trip digits, `E+` exponents. */
function phpDouble(n: number): string {
  if (Number.isNaN(n)) return 'NAN';
  if (!Number.isFinite(n)) return n > 0 ? 'INF' : '-INF';
  const s = String(n);
  const m = /^(-?[\d.]+)e([+-])(\d+)$/.exec(s);
  if (!m) return s;
  return `${m[1].includes('.') ? m[1] : `${m[1]}.0`}E${m[2]}${m[3]}`;
}

function value(v: unknown): string {
  if (v === null || v === undefined) return 'N;';
  if (typeof v === 'boolean') return `b:${v ? 1 : 0};`;
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? `i:${v};` : `d:${phpDouble(v)};`;
  if (typeof v === 'string') return str(v);
  const entries: [string, unknown][] = Array.isArray(v) ? v.map((item, i) => [String(i), item]) : Object.entries(v as Record<string, unknown>);
  return `a:${entries.length}:{${entries.map(([k, item]) => key(k) + value(item)).join('')}}`;
}

/** serialize( $parsed_block ). */
export function serializeParsedBlock(block: SupportedBlock): string {
  const innerBlocks = block.inner.filter((p): p is SupportedBlock => typeof p !== 'string');
  const innerHtml = block.inner.filter((p): p is string => typeof p === 'string').join('');
  const innerContent = block.inner.map((p) => (typeof p === 'string' ? str(p) : 'N;'));
  return (
    `a:5:{${str('blockName')}${str(block.name)}${str('attrs')}${value(block.attrs)}` +
    `${str('innerBlocks')}a:${innerBlocks.length}:{${innerBlocks.map((b, i) => `i:${i};${serializeParsedBlock(b)}`).join('')}}` +
    `${str('innerHTML')}${str(innerHtml)}` +
    `${str('innerContent')}a:${innerContent.length}:{${innerContent.map((c, i) => `i:${i};${c}`).join('')}}}`
  );
}
