import { createHash } from 'node:crypto';
import { RestError, RestResponse } from '../../../engine/index.ts';
import type { Ctx } from '../../../core/context.ts';
import { oembed } from '../plugin.ts';
import { config } from '../../../config.ts';
import { outboundRestError } from '../../../net/errors.ts';
import { keptAnswer } from '../../../net/kept.ts';
import { absint, localEmbedData, postForUrl } from '../../../core/oembed/own-posts.ts';
import { fetchOEmbed } from '../../../core/oembed/fetch.ts';
import { oembedHtml } from '../../../core/oembed/result.ts';
import { toOEmbedXml } from '../../../core/oembed/xml.ts';

const XML_CONTENT_TYPE = 'text/xml; charset=UTF-8';

/** wp_oembed_ensure_format: anything but xml is json. */
const formatOf = (v: unknown) => (v === 'xml' ? 'xml' : 'json');

/** The XML answer of `format=xml` (_oembed_rest_pre_serve_request), errors included. */
function asXml(data: Record<string, unknown>, status = 200): RestResponse {
  return new RestResponse(data, status, {}, { body: toOEmbedXml(data), contentType: XML_CONTENT_TYPE });
}

/** GET oembed/1.0/embed: WordPress's oEmbed data for a published post or page of this site. */
export async function embed(ctx: Ctx<'oembed:oembed.embed'>): Promise<unknown> {
  const xml = formatOf(ctx.args.format) === 'xml';
  try {
    const post = await postForUrl(ctx.store, ctx.site, String(ctx.args.url));
    if (!post) throw ctx.fail('oembed_invalid_url');
    const data = await localEmbedData(ctx.store, ctx.site, post, ctx.args.maxwidth);
    return xml ? asXml(data) : data;
  } catch (e) {
    if (xml && e instanceof RestError) return asXml(e.toBody() as unknown as Record<string, unknown>, e.status);
    throw e;
  }
}

/**
 * GET oembed/1.0/proxy: oEmbed data for any URL, for editors. This site's own URLs are answered
 * directly (uncached, as WordPress does); others through the provider list or discovery, with
 * successful answers cached for CMS_SPEC_OEMBED_CACHE_TTL seconds (and served stale while the provider is down).
 */
export async function proxy(ctx: Ctx<'oembed:oembed.proxy'>): Promise<unknown> {
  const url = String(ctx.args.url);
  const maxwidth = absint(ctx.args.maxwidth);
  const maxheight = absint(ctx.args.maxheight);
  const discover = ctx.args.discover !== false;
  const key = cacheKey({ url, format: ctx.args.format, maxwidth, maxheight, discover });
  const cache = ctx.store.plugin(oembed);
  const cached = await cache.get(key);
  if (cached !== undefined) return cached;

  const local = await postForUrl(ctx.store, ctx.site, url);
  if (local) return localEmbedData(ctx.store, ctx.site, local, maxwidth);
  if (isOwnSite(ctx, url)) throw ctx.fail('oembed_invalid_url');

  // `reload`: the fresh entry was looked for above, before this site's own posts
  return keptAnswer(ctx, cache, key, { seconds: config().oembed.cacheTtlSeconds, reload: true }, async () => {
    let answer;
    try {
      answer = await fetchOEmbed({ url, maxwidth, maxheight, discover, home: ctx.site.home });
    } catch (e) {
      throw outboundFailure(ctx, e);
    }
    if (!answer) throw ctx.fail('oembed_invalid_url');
    // get_proxy_item: the answer's html is what WP_oEmbed::data2html and its filters make of it
    return { ...answer.data, html: oembedHtml(answer.data, url, answer.trusted) };
  });
}

/** WordPress keys its transient on md5(serialize(params)); any stable digest of the normalised args does. */
function cacheKey(args: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(args)).digest('hex');
}

function isOwnSite(ctx: Ctx, url: string): boolean {
  try {
    return new URL(url).host.toLowerCase() === new URL(ctx.site.home).host.toLowerCase();
  } catch {
    return false;
  }
}

/** The REST error an outbound failure becomes; anything else is left to the engine (a logged 500). */
const outboundFailure = (ctx: Ctx, e: unknown): unknown =>
  outboundRestError(e, {
    url: () => ctx.fail('oembed_invalid_url'),
    forbidden_address: (e) => ({ code: 'oembed_forbidden_address', message: `The URL or its oEmbed provider points to a non-public address (${e.address}), which this site does not fetch.` }),
    timeout: (e) => ({ code: 'oembed_timeout', message: `The oEmbed provider at ${e.host} did not answer within ${e.timeoutMs} ms.` }),
    too_large: (e) => ({ code: 'oembed_response_too_large', message: `The answer from ${e.host} is larger than ${e.maxBytes} bytes.` }),
    status: (e) => ({ code: 'oembed_provider_error', message: `The oEmbed provider at ${e.host} answered with HTTP status ${e.status}.` }),
    unreachable: 'oembed_provider_unreachable',
  });
