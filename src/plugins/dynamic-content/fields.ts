import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { RegisteredMeta } from '../../core/content-types.ts';
import { cachedParse, type Spec } from '../../engine/index.ts';

/**
 * The custom fields dynamic content reads: field groups declared in `spec/fields/*.yaml`, as a
 * field-group plugin declares them (a title, the post types it applies to, typed fields, and
 * repeaters whose rows hold typed sub-fields). Each field is a post meta key, registered with a
 * JSON Schema of its type, so cms/v2 posts' `meta` shows, validates and writes it.
 */

/** Field types by what their value is; the names are ACF's. */
const STRING_TYPES = ['text', 'textarea', 'wysiwyg', 'email', 'url', 'password', 'select', 'radio', 'date_picker', 'time_picker', 'date_time_picker', 'color_picker', 'oembed', 'page_link'] as const;
const NUMBER_TYPES = ['number', 'range'] as const;
const ID_TYPES = ['image', 'file', 'post_object'] as const;
const ID_LIST_TYPES = ['gallery', 'relationship'] as const;
const STRING_LIST_TYPES = ['checkbox', 'text_list'] as const;
const FIELD_TYPES: readonly string[] = [...STRING_TYPES, ...NUMBER_TYPES, ...ID_TYPES, ...ID_LIST_TYPES, ...STRING_LIST_TYPES, 'true_false', 'repeater'];

export interface FieldDef {
  name: string;
  label: string;
  type: string;
  /** The values a select, radio or checkbox offers. */
  choices?: string[];
  /** A repeater's row fields. */
  subFields?: FieldDef[];
}

export interface FieldGroup {
  title: string;
  postTypes: string[];
  fields: FieldDef[];
  /** The file it was declared in, for messages. */
  file: string;
}

const NAME = /^[a-z][a-z0-9_]*$/;

function fail(file: string, message: string): never {
  throw new Error(`spec/fields/${file}: ${message}`);
}

function fieldOf(file: string, raw: unknown, where: string, nested: boolean): FieldDef {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(file, `${where} is not a field (a map with name, label and type)`);
  const f = raw as Record<string, unknown>;
  if (typeof f.name !== 'string' || !NAME.test(f.name)) fail(file, `${where} needs a name of lower-case letters, digits and underscores`);
  const at = `field ${f.name}`;
  if (typeof f.type !== 'string' || !FIELD_TYPES.includes(f.type)) fail(file, `${at} has type ${JSON.stringify(f.type)}; known types: ${FIELD_TYPES.join(', ')}`);
  if (f.type === 'repeater' && nested) fail(file, `${at}: a repeater's sub-field cannot be a repeater`);
  const def: FieldDef = { name: f.name, label: typeof f.label === 'string' && f.label ? f.label : f.name, type: f.type };
  if (f.choices !== undefined) {
    if (!Array.isArray(f.choices) || !f.choices.every((c) => typeof c === 'string')) fail(file, `${at}: choices must be a list of strings`);
    def.choices = f.choices as string[];
  }
  if (f.type === 'repeater') {
    if (!Array.isArray(f.sub_fields) || !f.sub_fields.length) fail(file, `${at}: a repeater needs sub_fields`);
    def.subFields = f.sub_fields.map((s, i) => fieldOf(file, s, `${at} sub-field ${i + 1}`, true));
  }
  return def;
}

function groupOf(file: string, raw: unknown): FieldGroup {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(file, 'a field group is a map with title, post_types and fields');
  const g = raw as Record<string, unknown>;
  if (typeof g.title !== 'string' || !g.title) fail(file, 'the group needs a title');
  if (!Array.isArray(g.post_types) || !g.post_types.length || !g.post_types.every((t) => typeof t === 'string')) fail(file, 'post_types must be a list of post type names');
  if (!Array.isArray(g.fields) || !g.fields.length) fail(file, 'the group needs fields');
  return { title: g.title, postTypes: g.post_types as string[], fields: g.fields.map((f, i) => fieldOf(file, f, `field ${i + 1}`, false)), file };
}

const loaded = new Map<string, readonly FieldGroup[]>();

/** The field groups of a spec folder (`fields/*.yaml`, by file name), read once; none when it has no such folder. */
export function fieldGroups(spec: Pick<Spec, 'dir'>): readonly FieldGroup[] {
  const known = loaded.get(spec.dir);
  if (known) return known;
  const dir = join(spec.dir, 'fields');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort() : [];
  // kept parsed between starts, as the spec is: the YAML parser need not load at all
  const groups: readonly FieldGroup[] = cachedParse({ kind: 'fields', loader: import.meta.filename, files: files.map((f) => join(dir, f)) }, () => {
    const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
    return files.map((f) => {
      let raw: unknown;
      try {
        raw = parse(readFileSync(join(dir, f), 'utf8'));
      } catch (e) {
        fail(f, e instanceof Error ? e.message.split('\n')[0] : String(e));
      }
      return groupOf(f, raw);
    });
  });
  const seen = new Map<string, string>();
  for (const g of groups) {
    for (const field of g.fields) {
      const other = seen.get(field.name);
      if (other) fail(g.file, `field ${field.name} is declared in ${other} too`);
      seen.set(field.name, g.file);
    }
  }
  loaded.set(spec.dir, groups);
  return groups;
}

/** The JSON Schema a field's stored value has. */
export function schemaOf(f: FieldDef): Record<string, unknown> {
  const t = f.type;
  if (t === 'repeater') return { type: 'array', items: { type: 'object', properties: Object.fromEntries(f.subFields!.map((s) => [s.name, schemaOf(s)])) } };
  if (t === 'true_false') return { type: 'boolean' };
  if ((NUMBER_TYPES as readonly string[]).includes(t)) return { type: 'number' };
  if ((ID_TYPES as readonly string[]).includes(t)) return { type: 'integer', minimum: 0 };
  if ((ID_LIST_TYPES as readonly string[]).includes(t)) return { type: 'array', items: { type: 'integer', minimum: 0 } };
  if ((STRING_LIST_TYPES as readonly string[]).includes(t)) return { type: 'array', items: f.choices ? { type: 'string', enum: f.choices } : { type: 'string' } };
  return f.choices ? { type: 'string', enum: ['', ...f.choices] } : { type: 'string' };
}

/** The post meta the field groups register: each field on its group's post types. */
export function fieldMeta(spec: Spec): RegisteredMeta[] {
  return fieldGroups(spec).flatMap((g) => g.fields.map((f) => ({ key: f.name, postTypes: g.postTypes, schema: schemaOf(f) })));
}

/** A field declared for a post type, by name. */
export function fieldFor(spec: Pick<Spec, 'dir'>, postType: string, name: string): FieldDef | undefined {
  for (const g of fieldGroups(spec)) if (g.postTypes.includes(postType)) for (const f of g.fields) if (f.name === name) return f;
  return undefined;
}

/** Whether a field's value is HTML an editor wrote (shown sanitized, not escaped, by html_data). */
export const isHtmlField = (f: FieldDef | undefined) => f?.type === 'wysiwyg';

/** Whether a field holds attachment ids. */
export const isImageField = (f: FieldDef | undefined) => f?.type === 'image' || f?.type === 'gallery' || f?.type === 'file';
