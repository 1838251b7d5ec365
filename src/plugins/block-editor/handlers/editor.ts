import { createHash } from 'node:crypto';
import type { Ctx } from '../../../core/context.ts';
import { contentChanged } from '../../../core/events.ts';
import { nsUrl } from '../../../core/rest.ts';
import { invalidParam, RestError, RestResponse } from '../../../engine/index.ts';
import { guardedFetch, type GuardedResponse } from '../../../net/fetch.ts';
import { outboundRestError } from '../../../net/errors.ts';
import { keptAnswer } from '../../../net/kept.ts';
import { templatesZip } from '../export.ts';
import { headDetails } from '../head.ts';
import { fallbackNavigation, NAVIGATION_TYPE } from '../navigation.ts';
import { blockEditor, URL_DETAILS_MAX_BYTES } from '../plugin.ts';

/** How long a page's details stay cached: a day (WordPress keeps them an hour). */
const URL_DETAILS_TTL_S = 24 * 60 * 60;
/** The theme the export is named after, as WordPress names it after the active theme's folder. */
const THEME = 'default';

/** The REST error an outbound failure becomes; anything else is left to the engine (a logged 500). */
const outboundFailure = (ctx: Ctx, e: unknown): unknown =>
  outboundRestError(e, {
    // the url arg's validate_callback (wp_http_validate_url) refuses it before anything is fetched
    url: () => invalidParam('url'),
    forbidden_address: (e) => ({ code: 'url_details_forbidden_address', message: `The URL points to a non-public address (${e.address}), which this site does not fetch.` }),
    status: () => ctx.fail('no_response'),
    timeout: 'url_details_timeout',
    too_large: 'url_details_unreachable',
    unreachable: 'url_details_unreachable',
  });

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
 * private addresses unless allowed); successful answers cached for a day, and served stale when the page cannot be had.
 */
export async function urlDetails(ctx: Ctx<'block-editor:editor.urlDetails'>) {
  const url = String(ctx.args.url ?? '').replace(/\/+$/, '');
  if (!url) throw ctx.fail('rest_invalid_url');
  const key = createHash('sha256').update(url).digest('hex');
  return keptAnswer(ctx, ctx.store.plugin(blockEditor), key, { seconds: URL_DETAILS_TTL_S }, async () => {
    let res: GuardedResponse;
    try {
      res = await guardedFetch(url, {
        maxBytes: URL_DETAILS_MAX_BYTES,
        oversize: 'truncate',
        headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': `cms-spec-URLDetails/${blockEditor.version} (+${ctx.site.home})` },
      });
    } catch (e) {
      throw outboundFailure(ctx, e);
    }
    if (res.status !== 200) throw ctx.fail('no_response');
    if (!res.body.length) throw ctx.fail('no_content');
    return headDetails(pageText(res), res.url);
  });
}

/**
 * GET navigation-fallback (WP_REST_Navigation_Fallback_Controller): the id of the site's fallback
 * navigation menu, made from the published pages on the first call, and a link to it.
 */
export async function navigationFallback(ctx: Ctx<'block-editor:editor.navigationFallback'>) {
  // WordPress also requires edit_posts (the route's own permission is edit_theme_options)
  if (!ctx.can('edit_posts')) throw ctx.fail('rest_cannot_create');
  const { post, created } = await fallbackNavigation(ctx.store, ctx.site, ctx.user!.id);
  if (created) await contentChanged(ctx, { type: 'postSaved', postId: post.id, postType: NAVIGATION_TYPE });
  return { id: post.id, _links: { self: [{ embeddable: true, href: nsUrl(ctx, `navigation/${post.id}`) }] } };
}

/** GET export (WP_REST_Edit_Site_Export_Controller): the site's templates and template parts as a zip download. */
export async function exportTemplates(ctx: Ctx<'block-editor:editor.exportTemplates'>) {
  const zip = await templatesZip(ctx.store);
  if (!zip) throw ctx.fail('rest_no_templates');
  return new RestResponse(null, 200, { 'Content-Disposition': `attachment; filename=${THEME}.zip` }, { body: zip, contentType: 'application/zip' });
}
