import type { Ctx } from '../../core/context.ts';
import { escapeHtml } from '../../format/format.ts';
import { renderedTitle } from '../../core/rest.ts';
import { fieldGroups, type FieldDef } from './fields.ts';
import { metaKeyOf, relatedPost, sourcePost } from './content.ts';

/**
 * What the dynamic-content pickers list: the custom fields a source offers for a kind of content
 * (grouped select options), its repeaters, and the labels the editor shows for a link or input.
 * Declared fields are offered as a field-group plugin's are (`acf_meta|name`,
 * `acf_repeater|name`: the keys Kadence's editor reads); other meta keys as "Custom Fields".
 */

interface Option {
  value: string;
  label: string;
  options?: Option[];
  type?: string;
}

/** Field types each kind of content takes (get_custom_fields' lists). */
const TYPES_FOR: Readonly<Record<string, readonly string[]>> = {
  image: ['image', 'file'],
  background: ['image', 'file'],
  gallery: ['gallery', 'file'],
  list: ['select', 'checkbox', 'text_list'],
  relationship: ['relationship', 'post_object'],
  html: ['text', 'textarea', 'number', 'range', 'email', 'url', 'password', 'wysiwyg', 'oembed', 'select', 'date_picker', 'time_picker', 'date_time_picker'],
  url: ['text', 'email', 'image', 'file', 'page_link', 'url'],
  repeaters: ['repeater'],
  number: ['text', 'number', 'range'],
  text: ['text', 'textarea', 'number', 'range', 'email', 'url', 'password', 'wysiwyg', 'select', 'checkbox', 'radio', 'true_false', 'date_picker', 'time_picker', 'date_time_picker', 'color_picker', 'post_object'],
};

const subOptions = (f: FieldDef, types: readonly string[] | null): Option[] =>
  (f.subFields ?? []).filter((s) => !types || types.includes(s.type)).map((s) => ({ value: `acf_repeater|${s.name}`, label: s.label, type: s.type }));

/** Meta keys that pickers never offer (private ones start with `_`). */
const NOT_OFFERED = new Set(['kt_blocks_editor_width', 'total_sales', 'inline_featured_image']);

/** custom_fields: the fields a source offers for a content type, grouped, then "Manual". */
export async function customFieldOptions(ctx: Ctx): Promise<{ label: string; options: Option[] }[]> {
  const a = ctx.args;
  const type = typeof a.type === 'string' && a.type ? a.type : 'text';
  const types = TYPES_FOR[type] ?? TYPES_FOR.text;
  const field = typeof a.field === 'string' ? a.field : '';
  const group = field.split('|')[0] || 'post';
  const source = String(a.source ?? '');
  const repeaterContext = a.useRepeaterContext === true || type === 'repeaters';
  const out: { label: string; options: Option[] }[] = [];
  const [sourceId, repeaterGroup, repeaterName] = source.split('|');

  if (repeaterContext && type !== 'repeaters' && repeaterGroup === 'acf_repeater') {
    // the sub-fields of the repeater the source names
    const repeater = fieldGroups(ctx.site.spec).flatMap((g) => g.fields).find((f) => f.name === repeaterName && f.type === 'repeater');
    const options = repeater ? subOptions(repeater, types) : [];
    if (options.length) out.push({ label: 'Sub Fields', options });
    return out;
  }
  if (group !== 'post' && group !== 'relationship') {
    if (!repeaterContext) out.push({ label: 'Manual', options: [{ value: 'kb_custom_input', label: 'Custom Input' }] });
    return out;
  }
  const ignoreSource = a.ignore_source === true || source === 'options';
  const sourceRow = ignoreSource ? undefined : await sourcePost(ctx, sourceId ?? '', String(a.current ?? ''));
  // a relationship's fields are those of the post it points at, when there is one
  const related = sourceRow && group === 'relationship' && (a.relate || a.relcustom) ? await relatedPost(ctx, sourceRow, String(a.relate ?? ''), String(a.relcustom ?? '')) : undefined;
  const post = related ?? sourceRow;
  const prefix = repeaterContext ? 'acf_repeater' : 'acf_meta';
  const captured = new Set<string>();
  for (const g of fieldGroups(ctx.site.spec)) {
    if (post && !g.postTypes.includes(post.type)) continue;
    for (const f of g.fields) captured.add(f.name);
    const options = g.fields.filter((f) => types.includes(f.type)).map((f) => ({ value: `${prefix}|${f.name}`, label: f.label, options: f.type === 'repeater' ? subOptions(f, null) : [] }));
    if (options.length) out.push({ label: g.title, options });
  }
  if (post) {
    const keys = Object.keys(await ctx.store.posts.meta.all(post.id)).filter((k) => !k.startsWith('_') && !captured.has(k) && !NOT_OFFERED.has(k));
    if (keys.length) out.push({ label: 'Custom Fields', options: keys.sort().map((k) => ({ value: k, label: escapeHtml(k) })) });
  }
  if (!repeaterContext) out.push({ label: 'Manual', options: [{ value: 'kb_custom_input', label: 'Custom Input' }] });
  return out;
}

/** repeaters: the repeater fields declared for the source post's type, with their sub-fields. */
export async function repeaterOptions(ctx: Ctx): Promise<{ label: string; options: Option[] }[]> {
  const post = await sourcePost(ctx, String(ctx.args.source ?? ''), String(ctx.args.current ?? ''));
  if (!post) return [];
  return fieldGroups(ctx.site.spec)
    .filter((g) => g.postTypes.includes(post.type))
    .map((g) => ({ label: g.title, options: g.fields.filter((f) => f.type === 'repeater').map((f) => ({ value: `acf_repeater|${f.name}`, label: f.label, options: subOptions(f, null) })) }))
    .filter((g) => g.options.length);
}

/** A post's title for a label, or "Current Post". */
async function postTitleLabel(ctx: Ctx, source: string, current: string): Promise<string> {
  if (current === 'current') return 'Current Post';
  const post = await sourcePost(ctx, source, '');
  return post ? renderedTitle(post) : '';
}

/** The custom-field part of a label: the custom key, or the key a `provider|key` names (a declared field's label). */
function customFieldLabel(ctx: Ctx, para: string, custom: string): string {
  if (!para) return '';
  const key = metaKeyOf(para, custom);
  if (para !== 'kb_custom_input' && para.includes('|')) {
    const def = fieldGroups(ctx.site.spec).flatMap((g) => g.fields).find((f) => f.name === key);
    if (def) return def.label;
  }
  return key;
}

/** get_field_link_label: what a dynamic link's setting shows, e.g. "Post URL | Hello world". */
export async function linkLabel(ctx: Ctx, group: string, field: string): Promise<string> {
  const a = ctx.args;
  const source = String(a.source || 'current');
  const current = String(a.current ?? '');
  const para = String(a.para ?? '');
  const custom = String(a.custom ?? '');
  if (group === 'post' || group === 'relationship') {
    const rest = ` | ${await postTitleLabel(ctx, source, current)}${group === 'relationship' ? ' | Relationship' : ''}`;
    if (field === 'post_url') return `Post URL${rest}`;
    if (field === 'post_featured_image_url') return `Featured Image URL${rest}`;
    if (field === 'post_custom_field') return `${customFieldLabel(ctx, para, custom)}${rest}`;
    return '';
  }
  if (group === 'archive') {
    const rest = ' | Current Archive';
    if (field === 'archive_url') return `Archive URL${rest}`;
    if (field === 'archive_custom_field') return `${customFieldLabel(ctx, para, custom)}${rest}`;
    return '';
  }
  if (group === 'site') {
    if (field === 'site_url') return 'Site URL';
    if (field === 'custom_setting') return customFieldLabel(ctx, para, custom);
    if (field === 'user_info') return `User Info${ctx.user && custom ? (custom === 'email' ? ctx.user.email : custom === 'meta' ? para : '') : ''}`;
    return '';
  }
  if (group === 'repeater') {
    const sub = metaKeyOf(field, '');
    const [, , repeater] = source.split('|');
    const def = fieldGroups(ctx.site.spec).flatMap((g) => g.fields).find((f) => f.name === repeater);
    return def?.subFields?.find((s) => s.name === sub)?.label ?? field;
  }
  return '';
}

const USER_LABELS: Readonly<Record<string, string>> = { id: 'ID', username: 'Username', first_name: 'First Name', last_name: 'Last Name', display_name: 'Display Name', bio: 'Description', email: 'Email', website: 'Website' };

/** get_field_input_label: what a dynamic input's setting shows, e.g. "Hello world | Rating". */
export async function inputLabel(ctx: Ctx, group: string, field: string): Promise<string> {
  const a = ctx.args;
  const source = String(a.source || 'current');
  const current = String(a.current ?? '');
  const para = String(a.para ?? '');
  const custom = String(a.custom ?? '');
  if (group === 'post' || group === 'relationship') {
    const title = await postTitleLabel(ctx, source, current);
    if (field === 'post_url') return 'Post URL';
    if (field === 'post_custom_field') return `${title} | ${customFieldLabel(ctx, para, custom)}`;
    if (field === 'post_featured_image_url') return `${title} | Featured Image URL`;
    return group === 'relationship' ? `${title} | Relationship` : title;
  }
  if (group === 'archive') {
    if (field === 'archive_url') return 'Archive URL';
    if (field === 'archive_custom_field') return `Current Archive | ${customFieldLabel(ctx, para, custom)}`;
    return 'Current Archive';
  }
  if (group === 'site') {
    if (field === 'site_url') return 'Site URL';
    if (field === 'custom_setting') return `Site | ${customFieldLabel(ctx, para, custom)}`;
    if (field === 'user_info') return ctx.user && custom ? `User Info | ${custom === 'email' ? 'Email' : custom === 'website' ? 'Website' : para}` : 'User Info';
    return '';
  }
  if (group === 'user') {
    if (!ctx.user) return 'User Info';
    return `User Info | ${field === 'user_custom_field' ? para : (USER_LABELS[field] ?? '')}`;
  }
  return '';
}
