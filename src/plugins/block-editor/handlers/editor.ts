import { createHash } from 'node:crypto';
import type { Ctx } from '../../../core/context.ts';
import { contentChanged } from '../../../core/events.ts';
import { nsUrl } from '../../../core/rest.ts';
import { RestError } from '../../../engine/errors.ts';
import { RestResponse } from '../../../engine/types.ts';
import { guardedFetch, type GuardedResponse } from '../../../net/fetch.ts';
import { OutboundError, OutboundForbiddenAddressError, OutboundStatusError, OutboundTimeoutError, OutboundUrlError } from '../../../net/errors.ts';
import { templatesZip } from '../export.ts';
import { headDetails } from '../head.ts';
import { fallbackNavigation, NAVIGATION_TYPE } from '../navigation.ts';
import { blockEditor, URL_DETAILS_MAX_BYTES } from '../plugin.ts';

/** How long a page's details stay cached: a day (WordPress keeps them an hour). */
const URL_DETAILS_TTL_S = 24 * 60 * 60;
/** The theme the export is named after, as WordPress names it after the active theme's folder. */
const THEME = 'default';

const noResponse = () => new RestError('no_response', 'URL not found. Response returned a non-200 status code for this URL.', 404);

/** The REST error an outbound failure becomes; anything else is left to the engine (a logged 500). */
function outboundFailure(e: unknown): unknown {
  if (!(e instanceof OutboundError)) return e;
  // wp_http_validate_url refuses it before anything is fetched
  if (e instanceof OutboundUrlError) return new RestError('rest_invalid_param', 'Invalid parameter(s): url', 400, { params: { url: 'Invalid parameter.' }, details: [] });
  if (e instanceof OutboundForbiddenAddressError) return new RestError('url_details_forbidden_address', `The URL points to a non-public address (${e.address}), which this site does not fetch.`, 400);
  if (e instanceof OutboundStatusError) return noResponse();
  if (e instanceof OutboundTimeoutError) return new RestError('url_details_timeout', `${e.host} did not answer within ${e.timeoutMs} ms.`, 504);
  return new RestError('url_details_unreachable', e.message, 502);
}

/** The page's text in the charset its Content-Type names (UTF-8 when it names none, or one this runtime cannot decode). */
function pageText(res: GuardedResponse): string {
  const charset = /charset=["']?([\w-]+)/i.exec(res.headers['content-type'] ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(res.body);
  } catch {
    return res.text();
  }
}

/**
 * GET url-details (WP_REST_URL_Details_Controller::parse_url_details): the page's title, icon,
 * description and Open Graph image, from the first 150 KB of it, through the guarded client (no
 * private addresses unless allowed); successful answers cached for a day.
 */
export async function urlDetails(ctx: Ctx) {
  const url = String(ctx.args.url ?? '').replace(/\/+$/, '');
  if (!url) throw new RestError('rest_invalid_url', 'Invalid URL', 404);
  const cache = ctx.store.plugin(blockEditor);
  const key = createHash('sha256').update(url).digest('hex');
  const cached = await cache.get(key);
  if (cached) return cached;
  let res: GuardedResponse;
  try {
    res = await guardedFetch(url, {
      maxBytes: URL_DETAILS_MAX_BYTES,
      oversize: 'truncate',
      headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': `cms-spec-URLDetails/${blockEditor.version} (+${ctx.site.home})` },
    });
  } catch (e) {
    throw outboundFailure(e);
  }
  if (res.status !== 200) throw noResponse();
  if (!res.body.length) throw new RestError('no_content', 'Unable to retrieve body from response at this URL.', 404);
  const details = headDetails(pageText(res), res.url);
  await cache.set(key, details, URL_DETAILS_TTL_S);
  return details;
}

/**
 * GET navigation-fallback (WP_REST_Navigation_Fallback_Controller): the id of the site's fallback
 * navigation menu, made from the published pages on the first call, and a link to it.
 */
export async function navigationFallback(ctx: Ctx) {
  // WordPress also requires edit_posts (the route's own permission is edit_theme_options)
  if (!ctx.can('edit_posts')) throw new RestError('rest_cannot_create', 'Sorry, you are not allowed to create Navigation Menus as this user.', 403);
  const { post, created } = await fallbackNavigation(ctx.store, ctx.site, ctx.user!.id);
  if (created) await contentChanged(ctx, { type: 'postSaved', postId: post.id, postType: NAVIGATION_TYPE });
  return { id: post.id, _links: { self: [{ embeddable: true, href: nsUrl(ctx, `navigation/${post.id}`) }] } };
}

/** GET export (WP_REST_Edit_Site_Export_Controller): the site's templates and template parts as a zip download. */
export async function exportTemplates(ctx: Ctx) {
  const zip = await templatesZip(ctx.store);
  if (!zip) throw new RestError('rest_no_templates', 'The site has no templates or template parts to export.', 404);
  return new RestResponse(null, 200, { 'Content-Disposition': `attachment; filename=${THEME}.zip` }, { body: zip, contentType: 'application/zip' });
}
