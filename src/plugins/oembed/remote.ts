import { config } from '../../config.ts';
import { guardedFetch } from '../../net/fetch.ts';
import { OutboundStatusError } from '../../net/errors.ts';
import { discoverEndpoint } from './discover.ts';
import { providerEndpoint } from './providers.ts';
import { sanitizeEmbedHtml } from './sanitize.ts';
import { parseOEmbedXml } from './xml.ts';

export interface RemoteEmbedRequest {
  url: string;
  maxwidth: number;
  maxheight: number;
  discover: boolean;
}

export type OEmbedData = Record<string, unknown>;

const OEMBED_TYPES = new Set(['photo', 'video', 'link', 'rich']);
const ACCEPT: Record<'json' | 'xml', string> = { json: 'application/json', xml: 'text/xml, application/xml' };

/**
 * WP_oEmbed::get_data for another site's URL: a sanctioned provider, else (with `discover`) the
 * endpoint the page announces. Null when neither yields an oEmbed object; outbound failures
 * (timeout, size, refused address, provider 5xx) throw the errors of src/net.
 */
export async function fetchRemoteEmbed(req: RemoteEmbedRequest): Promise<OEmbedData | null> {
  const maxBytes = config().oembed.maxBytes;
  const sanctioned = providerEndpoint(req.url);
  const endpoint = sanctioned ? { url: sanctioned, format: 'json' as const } : req.discover ? await discoverEndpoint(req.url, maxBytes) : null;
  if (!endpoint) return null;
  let data = await fetchFormat(endpoint.url, endpoint.format, req, maxBytes);
  // WP_oEmbed::fetch: a provider without JSON says 501 Not Implemented, and is asked for XML
  if (data === 'not-implemented' && endpoint.format === 'json') data = await fetchFormat(endpoint.url, 'xml', req, maxBytes);
  if (!isOEmbed(data)) return null;
  // only sanctioned providers are trusted with arbitrary markup (wp_filter_oembed_result)
  if (!sanctioned && typeof data.html === 'string') data.html = sanitizeEmbedHtml(data.html);
  return data;
}

async function fetchFormat(endpoint: string, format: 'json' | 'xml', req: RemoteEmbedRequest, maxBytes: number): Promise<unknown> {
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
