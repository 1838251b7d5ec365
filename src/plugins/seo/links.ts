import type { Site } from '../../core/site.ts';

/** Schemes a link to a page can have; anything else (mailto:, tel:, javascript:) is no link to a page. */
const WEB = new Set(['http:', 'https:']);

/**
 * Whether a link of content found at `base` points into this site or out of it (Yoast's
 * Link_Helper); null for what links to no page: an empty href, a fragment of the same page, or
 * another scheme.
 */
export function linkKind(href: string, base: string, site: Site): 'internal' | 'external' | null {
  const absolute = absoluteLink(href, base);
  if (!absolute) return null;
  return new URL(absolute).host.toLowerCase() === new URL(`${site.home}/`).host.toLowerCase() ? 'internal' : 'external';
}

/** The link as an absolute URL without its fragment; null when it names no other page. */
export function absoluteLink(href: string, base: string): string | null {
  if (!href || href.startsWith('#')) return null;
  let u: URL;
  try {
    u = new URL(href, base);
  } catch {
    return null;
  }
  if (!WEB.has(u.protocol)) return null;
  u.hash = '';
  return u.href;
}
