import { guardedFetch } from '../../net/fetch.ts';
import { OutboundStatusError } from '../../net/errors.ts';

/** The link types WP_oEmbed::discover looks for, JSON first because it is what gets fetched. */
const LINK_TYPES: Record<string, 'json' | 'xml'> = {
  'application/json+oembed': 'json',
  'text/xml+oembed': 'xml',
  'application/xml+oembed': 'xml',
};

const HEAD_END = /<\/head>/i;
const LINK_TAG = /<link\b([^<>]*)>/gi;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g;
/** Pages write the `&` between query args as an entity inside href. */
const AMPERSAND_ENTITY = /&(?:amp|#0*38|#x0*26);/gi;
const WHITESPACE = /\s+/;

export interface DiscoveredEndpoint {
  url: string;
  format: 'json' | 'xml';
}

/** The oEmbed endpoints a page's `<head>` announces with `<link rel="alternate" type="…+oembed">`. */
export function findOEmbedLinks(html: string): DiscoveredEndpoint[] {
  const end = html.search(HEAD_END);
  const head = end < 0 ? html : html.slice(0, end);
  const found: DiscoveredEndpoint[] = [];
  for (const tag of head.matchAll(LINK_TAG)) {
    const attrs: Record<string, string> = {};
    for (const a of tag[1].matchAll(ATTRIBUTE)) attrs[a[1].toLowerCase()] = a[2] ?? a[3] ?? a[4];
    const format = LINK_TYPES[(attrs.type ?? '').toLowerCase()];
    if (!format || !attrs.href || !(attrs.rel ?? '').toLowerCase().split(WHITESPACE).includes('alternate')) continue;
    found.push({ url: attrs.href.replace(AMPERSAND_ENTITY, '&'), format });
  }
  return found.sort((a, b) => (a.format === b.format ? 0 : a.format === 'json' ? -1 : 1));
}

/**
 * WP_oEmbed::discover: fetches the page (only its first `maxBytes`, which holds the head) and
 * returns the endpoint it announces, JSON preferred, resolved against the page's address.
 */
export async function discoverEndpoint(pageUrl: string, maxBytes: number): Promise<DiscoveredEndpoint | null> {
  let page;
  try {
    page = await guardedFetch(pageUrl, { maxBytes, oversize: 'truncate', headers: { accept: 'text/html,application/xhtml+xml' } });
  } catch (e) {
    // a page that is missing or failing announces nothing; only the way there can be at fault
    if (e instanceof OutboundStatusError) return null;
    throw e;
  }
  const [first] = findOEmbedLinks(page.text());
  if (!first) return null;
  try {
    return { url: new URL(first.url, page.url).href, format: first.format };
  } catch {
    return null;
  }
}
