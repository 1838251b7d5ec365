/**
 * What list and get commands print, in wp-cli's formats: an aligned table for people, JSON and
 * CSV for programs, and for lists `ids` (space-separated, for `$(…)`) and `count`.
 */

/** `1 post`, `2 posts`, `1,000 categories`: a count and its noun, as a sentence says it. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export const LIST_FORMATS = ['table', 'json', 'csv', 'ids', 'count'] as const;
export const ITEM_FORMATS = ['table', 'json', 'csv'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

type Row = Record<string, unknown>;

const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Columns padded to their widest cell, two spaces apart. */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const csv = (rows: string[][]) => rows.map((r) => r.map(csvField).join(',')).join('\n');

/** Keeps the named fields of each row, in that order. */
const pickFields = (rows: Row[], fields: string[]) => rows.map((r) => Object.fromEntries(fields.map((f) => [f, r[f]])));

/** Prints rows in a list format; `idField` names the field `ids` prints. */
export function printRows(rows: Row[], fields: string[], format: ListFormat, idField = 'ID'): void {
  if (format === 'count') return void console.log(rows.length);
  if (format === 'ids') return void console.log(rows.map((r) => text(r[idField])).join(' '));
  if (format === 'json') return void console.log(JSON.stringify(pickFields(rows, fields)));
  const cells = [fields, ...rows.map((r) => fields.map((f) => text(r[f])))];
  if (format === 'csv') return void console.log(csv(cells));
  if (rows.length) console.log(table(cells));
}

/** Prints one item: a Field/Value table, a JSON object, or CSV of field,value pairs. */
export function printItem(item: Row, fields: string[], format: Exclude<ListFormat, 'ids' | 'count'>): void {
  if (format === 'json') return void console.log(JSON.stringify(pickFields([item], fields)[0]));
  const cells = [['Field', 'Value'], ...fields.map((f) => [f, text(item[f])])];
  console.log(format === 'csv' ? csv(cells) : table(cells));
}

/** `--fields a,b` as a list, each checked against what exists. */
export function fieldsOption(given: string | undefined, defaults: string[], available: string[]): string[] {
  if (!given) return defaults;
  const fields = given.split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = fields.filter((f) => !available.includes(f));
  if (unknown.length) throw new Error(`unknown field ${unknown.map((f) => `"${f}"`).join(', ')}; the fields are ${available.join(', ')}`);
  return fields;
}
