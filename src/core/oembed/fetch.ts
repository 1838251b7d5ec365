import { config } from '../../config.ts';
import { guardedFetch } from '../../net/fetch.ts';
import { OutboundStatusError } from '../../net/errors.ts';
import { discoverEndpoint } from './discover.ts';
import { providerEndpoint } from './providers.ts';
import { parseOEmbedXml } from './xml.ts';

export interface OEmbedRequest {
  url: string;
  maxwidth: number;
  /** 0 leaves `maxheight` out of the provider's request. */
  maxheight: number;
  discover: boolean;
  /** The site's address, which a provider may ask to be told (`{home}` in its endpoint). */
  home: string;
}

export type OEmbedData = Record<string, unknown>;

/** A provider's answer and whether the provider is a sanctioned one (wp_filter_oembed_result trusts its markup). */
export interface OEmbedAnswer {
  data: OEmbedData;
  trusted: boolean;
}

const OEMBED_TYPES = new Set(['photo', 'video', 'link', 'rich']);
const ACCEPT: Record<'json' | 'xml', string> = { json: 'application/json', xml: 'text/xml, application/xml' };

/**
 * WP_oEmbed::get_data for another site's URL: a sanctioned provider, else (with `discover`) the
 * endpoint the page announces, through the guarded client (its timeouts, CMS_SPEC_OEMBED_MAX_BYTES
 * as the size cap). Null when neither yields an oEmbed object; outbound failures (timeout, size,
 * refused address, provider 5xx) throw the errors of src/net, for a caller to tell apart or not.
 */
export async function fetchOEmbed(req: OEmbedRequest): Promise<OEmbedAnswer | null> {
  const maxBytes = config().oembed.maxBytes;
  const sanctioned = providerEndpoint(req.url);
  const endpoint = sanctioned ? { url: sanctioned.replace('{home}', encodeURIComponent(req.home)), format: 'json' as const } : req.discover ? await discoverEndpoint(req.url, maxBytes) : null;
  if (!endpoint) return null;
  let data = await fetchFormat(endpoint.url, endpoint.format, req, maxBytes);
  // WP_oEmbed::fetch: a provider without JSON says 501 Not Implemented, and is asked for XML
  if (data === 'not-implemented' && endpoint.format === 'json') data = await fetchFormat(endpoint.url, 'xml', req, maxBytes);
  return isOEmbed(data) ? { data, trusted: sanctioned !== null } : null;
}

async function fetchFormat(endpoint: string, format: 'json' | 'xml', req: OEmbedRequest, maxBytes: number): Promise<unknown> {
  let target: URL;
  try {
    target = new URL(endpoint);
  } catch {
    return null;
  }
  target.searchParams.set('maxwidth', String(req.maxwidth));
  if (req.maxheight) target.searchParams.set('maxheight', String(req.maxheight));
  target.searchParams.set('url', req.url);
  target.searchParams.set('dnt', '1');
  target.searchParams.set('format', format);
  let text: string;
  try {
    text = (await guardedFetch(target.href, { maxBytes, headers: { accept: ACCEPT[format] } })).text();
  } catch (e) {
    if (e instanceof OutboundStatusError && e.status === 501) return 'not-implemented';
    // a provider that does not know the URL is "no embed", not a failure of this server
    if (e instanceof OutboundStatusError && e.status < 500) return null;
    throw e;
  }
  if (format === 'xml') return parseOEmbedXml(text);
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isOEmbed(data: unknown): data is OEmbedData {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const { type, version } = data as OEmbedData;
  return typeof type === 'string' && OEMBED_TYPES.has(type) && (typeof version === 'string' || typeof version === 'number');
}
