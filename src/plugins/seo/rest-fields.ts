import type { RestFieldGroup } from '../../core/site.ts';
import { HeadReads, headHtml, headJson, present } from './head.ts';
import { PLUGIN_VERSION } from './settings.ts';
import { objectTarget } from './targets.ts';

/**
 * Yoast's `yoast_head` (the head's HTML) and `yoast_head_json` (the same as an object) on posts of
 * viewable types, terms of viewable taxonomies, users and post types (Yoast_Head_REST_Field):
 * one head made for both, only for the fields asked for, the HTML only when it is. Null where the
 * object has no head of its own; no fields at all while the headless endpoints setting is off.
 */
export const YOAST_HEAD = 'yoast_head';
export const YOAST_HEAD_JSON = 'yoast_head_json';

/** Per request (its handler context), what its heads read, read once. */
const readsOfRequest = new WeakMap<object, HeadReads>();

function readsOf(ctx: Parameters<RestFieldGroup['get']>[0]): HeadReads {
  let reads = readsOfRequest.get(ctx);
  if (!reads) readsOfRequest.set(ctx, (reads = new HeadReads(ctx.store, ctx.site)));
  return reads;
}

export const headFields: RestFieldGroup = {
  names: [YOAST_HEAD, YOAST_HEAD_JSON],
  registeredFor(object) {
    if (object.kind === 'post') return object.type.viewable && object.type.slug !== 'attachment';
    if (object.kind === 'term') return object.taxonomy.viewable;
    return true;
  },
  prepare(ctx, objects) {
    readsOf(ctx).preload(objects.flatMap((o) => (o.kind === 'post' ? [o.post] : [])));
  },
  async get(ctx, object, wanted) {
    const reads = readsOf(ctx);
    if ((await reads.headlessRest()) === '0') return {};
    const target = await objectTarget(ctx.store, ctx.site, object);
    const p = target && (await present(ctx.store, ctx.site, target, reads));
    const shown = p && p.status === 200 ? p : null;
    const out: Record<string, unknown> = {};
    if (wanted.includes(YOAST_HEAD)) out[YOAST_HEAD] = shown && headHtml(shown, { version: PLUGIN_VERSION, withThemeTags: true, seoManager: ctx.can('wpseo_manage_options') });
    if (wanted.includes(YOAST_HEAD_JSON)) out[YOAST_HEAD_JSON] = shown && headJson(shown);
    return out;
  },
};
