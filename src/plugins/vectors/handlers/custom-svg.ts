import { RestError } from '../../../engine/errors.ts';
import type { Ctx } from '../../../core/context.ts';
import { guardedFetch } from '../../../net/fetch.ts';
import { OutboundError, OutboundForbiddenAddressError, OutboundStatusError, OutboundTimeoutError, OutboundTooLargeError, OutboundUrlError } from '../../../net/errors.ts';
import vectors, { CUSTOM_SVG_TYPE, LICENSE_KEY_OPTION, SEARCH_URL_OPTION } from '../plugin.ts';
import { sanitizeSvg } from '../sanitize.ts';
import { storeSvgPost, titleOf } from '../store.ts';
import { svgTree } from '../tree.ts';

/** An outbound failure as the error this route answers: never a 500, never the URL (it may hold the license key). */
function remoteFailure(e: unknown, what: string): RestError {
  if (e instanceof OutboundForbiddenAddressError || e instanceof OutboundUrlError) return new RestError('invalid_url', `The ${what} URL is not allowed: ${e.message}`, 400);
  if (e instanceof OutboundTooLargeError) return new RestError('response_too_large', `The ${what} is larger than ${e.maxBytes} bytes.`, 502);
  if (e instanceof OutboundTimeoutError) return new RestError('remote_timeout', e.message, 504);
  if (e instanceof OutboundStatusError) return new RestError('remote_error', `The ${what} answered with HTTP status ${e.status}.`, 502);
  if (e instanceof OutboundError) return new RestError('remote_unreachable', e.message, 502);
  throw e;
}

/** Sanitises, converts to the JSON tree and stores; what `manage` and `search/add` answer. */
async function storeCustomSvg(ctx: Ctx, markup: string, title: unknown) {
  const root = await sanitizeSvg(markup);
  if (!root) throw new RestError('invalid_svg', 'The file is not an SVG image, or nothing of it is left once made safe.', 400);
  const tree = svgTree(root);
  if (!tree.cD.length) throw new RestError('invalid_svg_json', 'The SVG has no drawing left to store.', 400);
  const label = titleOf(title, 'SVG');
  const id = await storeSvgPost(ctx, CUSTOM_SVG_TYPE, label, JSON.stringify(tree), 'application/json');
  return { success: true, value: id, label };
}

/** POST manage: `{file: svgString, title?}` → a designkit_custom_svg post holding the JSON tree. */
export async function manage(ctx: Ctx) {
  const file = ctx.args.file;
  if (typeof file !== 'string' || !file.trim()) throw new RestError('missing_file', 'No SVG file was sent (file).', 400);
  return storeCustomSvg(ctx, file, ctx.args.title);
}

/** GET search: the icon cloud's answer for `search` (and `page`), asked with the site's license key. */
export async function search(ctx: Ctx) {
  const text = typeof ctx.args.search === 'string' ? ctx.args.search.trim() : '';
  if (!text) throw new RestError('missing_search', 'A search term is required.', 400);
  const o = await ctx.store.options.getMany([SEARCH_URL_OPTION, LICENSE_KEY_OPTION]);
  let url: URL;
  try {
    url = new URL(o[SEARCH_URL_OPTION] ?? '');
  } catch {
    throw new RestError('search_not_configured', `The icon search service is not set (option ${SEARCH_URL_OPTION}).`, 503);
  }
  const page = Number.parseInt(String(ctx.args.page ?? '1'), 10);
  url.searchParams.set('search', text);
  url.searchParams.set('page', String(Number.isSafeInteger(page) && page > 0 ? page : 1));
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
    throw new RestError('remote_error', 'The icon search service did not answer with JSON.', 502);
  }
}

/** POST search/add: `{svgUrl, title}`: the SVG downloaded through the outbound guard, then stored as `manage` stores it. */
export async function add(ctx: Ctx) {
  const url = ctx.args.svgUrl;
  if (typeof url !== 'string' || !url.trim()) throw new RestError('missing_url', 'No SVG URL was sent (svgUrl).', 400);
  let markup: string;
  try {
    markup = (await guardedFetch(url.trim(), { maxBytes: vectors.outbound?.maxBytes, headers: { accept: 'image/svg+xml' } })).text();
  } catch (e) {
    throw remoteFailure(e, 'SVG');
  }
  return storeCustomSvg(ctx, markup, ctx.args.title);
}
