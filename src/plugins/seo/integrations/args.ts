import { invalidParam } from '../../../engine/index.ts';

/**
 * Checks of the integration routes' arguments that the interface declares without a type (`code`,
 * `keyphrases`, `websiteId`...), as the plugin's validate callbacks check them, answered as
 * WordPress's rest_invalid_param.
 */

/** A non-empty string of at most `max` characters, trimmed. */
export function text(value: unknown, param: string, max = 255): string {
  const s = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  if (!s) throw invalidParam(param, `${param} must be a non-empty string.`);
  if (s.length > max) throw invalidParam(param, `${param} must be at most ${max} characters long.`);
  return s;
}

/** One string or a list of them (the plugin takes both), each non-empty, duplicates dropped. */
export function textList(value: unknown, param: string, maxItems = 100): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (!list.length) throw invalidParam(param, `${param} must name at least one keyphrase.`);
  if (list.length > maxItems) throw invalidParam(param, `${param} holds at most ${maxItems} items.`);
  return [...new Set(list.map((v, i) => text(v, `${param}[${i}]`)))];
}

/** A positive whole number, given as one or as its digits. */
export function positiveInteger(value: unknown, param: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw invalidParam(param, `${param} must be a positive integer.`);
  return n;
}

/** A two-letter country code (the keyword database), lower-cased. */
export function countryCode(value: unknown, param = 'country_code'): string {
  const s = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!/^[a-z]{2}$/.test(s)) throw invalidParam(param, `${param} must be a two-letter country code, such as us or de.`);
  return s;
}
