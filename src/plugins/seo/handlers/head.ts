import type { Ctx } from '../../../core/context.ts';
import { invalidParam, RestResponse, sanitizeUrl } from '../../../engine/index.ts';
import { headHtml, headJson, present } from '../head.ts';
import { OPTION, PLUGIN_VERSION } from '../settings.ts';
import { resolveUrl } from '../targets.ts';

/**
 * GET get_head?url= (Yoast's Indexables_Head_Route): the head of any URL of the site as
 * `{html, json, status}`, with the HTTP status equal to `status`: 200 for a page the site shows,
 * else the 404 page's head with 404. Public, as the plugin has it, while the headless endpoints
 * setting is on.
 */
export async function getHead(ctx: Ctx<'seo:head.getHead'>) {
  if ((await ctx.store.options.get(OPTION.headlessRest)) === '0') throw ctx.fail('rest_no_route');
  const raw = ctx.args.url;
  const url = typeof raw === 'string' ? sanitizeUrl(raw) : '';
  if (!url || !/^https?:/i.test(url)) throw invalidParam('url', 'url is not a valid URL.');
  const p = await present(ctx.store, ctx.site, await resolveUrl(ctx.store, ctx.site, url));
  const html = headHtml(p, { version: PLUGIN_VERSION, withThemeTags: true, seoManager: ctx.can('wpseo_manage_options') });
  return new RestResponse({ html, json: headJson(p), status: p.status }, p.status);
}
