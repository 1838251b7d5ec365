import type { Ctx } from '../../../core/context.ts';
import { RestError } from '../../../engine/index.ts';
import { escapeHtml } from '../../../format/format.ts';
import { dynamicContent, sourcePost, type Content, type DynamicRequest, type Kind } from '../content.ts';
import { metaValueRows, splitField } from '../requests.ts';
import { customFieldOptions, inputLabel, linkLabel, repeaterOptions } from '../options.ts';

const NO_CONTENT = 'No Content';
const NO_LINK = 'No Link';
const SITE_SETTINGS_REFUSED = 'User does not have capability to view site settings.';

/** The request's params as get_content's args for a kind of content (the field's group from `group|field`, or the repeater). */
function requestOf(ctx: Ctx, kind: Kind): DynamicRequest {
  const a = ctx.args;
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
  const optional = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const { group, field } = splitField(str(a.field), a.useRepeaterContext === true || a.useRepeaterContext === 'true');
  return {
    kind, group, field,
    source: str(a.source) || 'current',
    para: str(a.para), custom: str(a.custom), current: str(a.current), relate: str(a.relate), relcustom: str(a.relcustom),
    before: optional(a.before), after: optional(a.after), fallback: optional(a.fallback),
    forceString: a.force_string === true || a.force_string === 'true',
    repeaterRow: str(a.repeaterRow),
  };
}

const hasField = (ctx: Ctx) => typeof ctx.args.field === 'string' && ctx.args.field !== '';
const refusesSiteSettings = (ctx: Ctx) => ctx.args.para === 'kb_custom_input' && ctx.args.field === 'site|custom_setting' && !ctx.can('manage_options');
const orEmpty = (c: Content) => (c === '' || (Array.isArray(c) && !c.length) ? '' : c);

/** render: the field as text; "No Content" when there is none. */
export async function render(ctx: Ctx<'dynamic-content:dynamic.render'>) {
  if (!hasField(ctx)) return NO_CONTENT;
  if (refusesSiteSettings(ctx)) return SITE_SETTINGS_REFUSED;
  const out = await dynamicContent(ctx, requestOf(ctx, 'text'));
  return out === '' ? NO_CONTENT : out;
}

/** image_render: a background image's URL (the first of several), '' when none. */
export async function imageRender(ctx: Ctx<'dynamic-content:dynamic.imageRender'>) {
  if (!hasField(ctx)) return '';
  const out = await dynamicContent(ctx, requestOf(ctx, 'background'));
  return Array.isArray(out) ? (out[0] ?? '') : orEmpty(out);
}

/** image_data: `[url, width, height, resized, alt, id]`, '' when none. */
export async function imageData(ctx: Ctx<'dynamic-content:dynamic.imageData'>) {
  return hasField(ctx) ? orEmpty(await dynamicContent(ctx, requestOf(ctx, 'image'))) : '';
}

/** gallery_data: a list of image data, '' when none. */
export async function galleryData(ctx: Ctx<'dynamic-content:dynamic.galleryData'>) {
  return hasField(ctx) ? orEmpty(await dynamicContent(ctx, requestOf(ctx, 'gallery'))) : '';
}

/** list_data: a list field's values, '' when none. */
export async function listData(ctx: Ctx<'dynamic-content:dynamic.listData'>) {
  return hasField(ctx) ? orEmpty(await dynamicContent(ctx, requestOf(ctx, 'list'))) : '';
}

/** html_data: sanitized HTML; for `post|post_content`, where the editor renders the post's content itself. */
export async function htmlData(ctx: Ctx<'dynamic-content:dynamic.htmlData'>) {
  if (!hasField(ctx)) return '';
  if (refusesSiteSettings(ctx)) return SITE_SETTINGS_REFUSED;
  if (ctx.args.field === 'post|post_content') {
    const r = requestOf(ctx, 'html');
    const post = await sourcePost(ctx, r.source, r.current);
    return { content: 'post_content', post_id: post?.id ?? '', post_type: post?.type ?? '' };
  }
  return dynamicContent(ctx, requestOf(ctx, 'html'));
}

/** link_label: what a dynamic link's setting shows; "No Link" without a field. */
export async function linkLabelOf(ctx: Ctx<'dynamic-content:dynamic.linkLabelOf'>) {
  if (!hasField(ctx)) return NO_LINK;
  const r = requestOf(ctx, 'text');
  if (r.group !== 'repeater' && !String(ctx.args.field).includes('|')) return NO_LINK;
  return escapeHtml(await linkLabel(ctx, r.group, r.field));
}

/** input_label: what a dynamic input's setting shows; "No Content" without a `group|field`. */
export async function inputLabelOf(ctx: Ctx<'dynamic-content:dynamic.inputLabelOf'>) {
  if (!hasField(ctx) || !String(ctx.args.field).includes('|')) return NO_CONTENT;
  const { group, field } = splitField(String(ctx.args.field), false);
  return escapeHtml(await inputLabel(ctx, group, field));
}

/** custom_fields: the fields a source offers for a type of content. */
export const customFields = (ctx: Ctx<'dynamic-content:dynamic.customFields'>) => customFieldOptions(ctx);

/** repeaters: the source's repeater fields and their sub-fields. */
export const repeaters = (ctx: Ctx<'dynamic-content:dynamic.repeaters'>) => repeaterOptions(ctx);

/** repeater_data: a repeater's rows on the source, '' when it has none. */
export async function repeaterData(ctx: Ctx<'dynamic-content:dynamic.repeaterData'>) {
  if (!hasField(ctx)) return '';
  const rows = await metaValueRows(ctx);
  return rows ?? '';
}

/**
 * The route each batch item's `type` asks, as get_batch_content dispatches it (`term_query` is
 * kbpp/v1's). Each item is a request of its own, run in-process: validated, defaulted and checked
 * as if it came alone, so an item answers what its route would.
 */
const BATCH_ROUTES: Readonly<Record<string, string>> = {
  text: 'kbp-dynamic/v1/render', image: 'kbp-dynamic/v1/image_data', background: 'kbp-dynamic/v1/image_render',
  gallery: 'kbp-dynamic/v1/gallery_data', list: 'kbp-dynamic/v1/list_data', html: 'kbp-dynamic/v1/html_data',
  link_label: 'kbp-dynamic/v1/link_label', input_label: 'kbp-dynamic/v1/input_label', repeaters: 'kbp-dynamic/v1/repeaters',
  repeater_data: 'kbp-dynamic/v1/repeater_data', custom_fields: 'kbp-dynamic/v1/custom_fields', term_query: 'kbpp/v1/term-query',
};

/** The most items one batch may hold. */
const MAX_BATCH = 100;

/**
 * batch: many dynamic-content requests in one call. The body is a map (or list) of param objects;
 * each item's `type` picks the route (text by default; `term_query` asks kbpp/v1/term-query), and
 * the answer holds each result under the item's key, or `{error: true, message}`.
 */
export async function batch(ctx: Ctx) {
  const entries = Object.entries(ctx.args).filter(([k]) => !k.startsWith('_'));
  if (!entries.length) throw ctx.fail('invalid_request');
  // invalid_request's other wording: this server's bound on a batch
  if (entries.length > MAX_BATCH) throw new RestError('invalid_request', `A batch holds at most ${MAX_BATCH} requests.`, 400);
  const out: Record<string, unknown> = {};
  for (const [key, params] of entries) {
    if (!params || typeof params !== 'object' || Array.isArray(params)) {
      out[key] = { error: true, message: 'Invalid request item: an object of params is expected.' };
      continue;
    }
    // the item is the query its route would get alone: numbers and booleans as a query string gives them
    const p = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'number' || typeof v === 'boolean' ? String(v) : v]));
    const res = await ctx.dispatch('GET', `/${BATCH_ROUTES[String(p.type ?? 'text')] ?? BATCH_ROUTES.text}`, p);
    out[key] = res.status >= 400 ? { error: true, message: String((res.data as { message?: unknown })?.message ?? 'Request failed.') } : res.data;
  }
  const keys = Object.keys(out);
  // PHP answers a list for keys 0..n-1, as a JSON list body gives them
  return keys.every((k, i) => k === String(i)) ? Object.values(out) : out;
}
