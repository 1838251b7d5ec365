import { RestError } from '../../../engine/index.ts';
import type { Ctx } from '../../../core/context.ts';
import { guardedFetch } from '../../../net/fetch.ts';
import { type OutboundError, outboundRestError } from '../../../net/errors.ts';
import vectors, { CUSTOM_SVG_TYPE, LICENSE_KEY_OPTION, SEARCH_URL_OPTION } from '../plugin.ts';
import { sanitizeSvg } from '../sanitize.ts';
import { storeSvgPost, titleOf } from '../store.ts';
import { svgTree } from '../tree.ts';

/** An outbound failure as the error this route answers: never a 500, never the URL (it may hold the license key). */
function remoteFailure(e: unknown, what: string): unknown {
  const notAllowed = (e: OutboundError) => ({ code: 'invalid_url', message: `The ${what} URL is not allowed: ${e.message}` });
  return outboundRestError(e, {
    url: notAllowed,
    forbidden_address: notAllowed,
    too_large: (e) => ({ code: 'response_too_large', message: `The ${what} is larger than ${e.maxBytes} bytes.` }),
    timeout: 'remote_timeout',
    status: (e) => ({ code: 'remote_error', message: `The ${what} answered with HTTP status ${e.status}.` }),
    unreachable: 'remote_unreachable',
  });
}

/** Sanitises, converts to the JSON tree and stores; what `manage` and `search/add` answer. */
async function storeCustomSvg(ctx: Ctx, markup: string, title: unknown) {
  const root = await sanitizeSvg(markup);
  if (!root) throw ctx.fail('invalid_svg');
  const tree = svgTree(root);
  if (!tree.cD.length) throw ctx.fail('invalid_svg_json');
  const label = titleOf(title, 'SVG');
  const id = await storeSvgPost(ctx, CUSTOM_SVG_TYPE, label, JSON.stringify(tree), 'application/json');
  return { success: true, value: id, label };
}

/** POST manage: `{file: svgString, title?}` → a designkit_custom_svg post holding the JSON tree. */
export async function manage(ctx: Ctx<'vectors:custom-svg.manage'>) {
  const file = ctx.args.file;
  if (typeof file !== 'string' || !file.trim()) throw ctx.fail('missing_file');
  return storeCustomSvg(ctx, file, ctx.args.title);
}

/** GET search: the icon cloud's answer for `search` (and `page`), asked with the site's license key. */
export async function search(ctx: Ctx<'vectors:custom-svg.search'>) {
  const text = ctx.args.search?.trim() ?? '';
  if (!text) throw ctx.fail('missing_search');
  const o = await ctx.store.options.getMany([SEARCH_URL_OPTION, LICENSE_KEY_OPTION]);
  let url: URL;
  try {
    url = new URL(o[SEARCH_URL_OPTION] ?? '');
  } catch {
    throw ctx.fail('search_not_configured', { option: SEARCH_URL_OPTION });
  }
  url.searchParams.set('search', text);
  url.searchParams.set('page', String(ctx.args.page));
  url.searchParams.set('site', ctx.site.home);
  if (o[LICENSE_KEY_OPTION]) url.searchParams.set('key', o[LICENSE_KEY_OPTION]);
  let body: string;
  try {
    body = (await guardedFetch(url.href, { maxBytes: vectors.outbound?.maxBytes, headers: { accept: 'application/json' } })).text();
  } catch (e) {
    throw remoteFailure(e, 'icon search service');
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw ctx.fail('remote_error');
  }
}

/** POST search/add: `{svgUrl, title}`: the SVG downloaded through the outbound guard, then stored as `manage` stores it. */
export async function add(ctx: Ctx<'vectors:custom-svg.add'>) {
  const url = ctx.args.svgUrl;
  if (typeof url !== 'string' || !url.trim()) throw ctx.fail('missing_url');
  let markup: string;
  try {
    markup = (await guardedFetch(url.trim(), { maxBytes: vectors.outbound?.maxBytes, headers: { accept: 'image/svg+xml' } })).text();
  } catch (e) {
    throw remoteFailure(e, 'SVG');
  }
  return storeCustomSvg(ctx, markup, ctx.args.title);
}
