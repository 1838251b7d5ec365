import { readFileSync } from 'node:fs';
import type { PageView } from '../../core/site.ts';

/** Where a visit came from, by its Referer header. */
export const REFERRER_CLASSES = ['organic', 'social', 'direct', 'internal', 'other'] as const;
export type ReferrerClass = (typeof REFERRER_CLASSES)[number];

interface TrafficData {
  searchEngines: string[];
  social: string[];
  crawlers: string[];
}

const DATA = JSON.parse(readFileSync(new URL('./traffic.json', import.meta.url), 'utf8')) as TrafficData;

/** `google.*` → any TLD after `google`; `t.co` → that host; both with any subdomain before them. */
function hostPattern(entries: string[]): RegExp {
  const alternatives = entries.map((e) => {
    const anyTld = e.endsWith('.*');
    const name = (anyTld ? e.slice(0, -2) : e).replace(/\./g, '\\.');
    return anyTld ? `${name}(?:\\.[a-z]{2,})+` : name;
  });
  return new RegExp(`(?:^|\\.)(?:${alternatives.join('|')})$`);
}

const SEARCH_ENGINES = hostPattern(DATA.searchEngines);
const SOCIAL = hostPattern(DATA.social);
const CRAWLERS = new RegExp(DATA.crawlers.join('|'), 'i');

/** Paths longer than this are not counted (no page of the site has one; the primary key stays small). */
const MAX_PATH = 1024;

/** The class of a visit's referrer: the site's own host is internal navigation, not a source. */
export function referrerClass(referrer: string, siteHost: string): ReferrerClass {
  if (!referrer) return 'direct';
  let host: string;
  try {
    host = new URL(referrer).hostname.toLowerCase();
  } catch {
    return 'other';
  }
  if (host === siteHost) return 'internal';
  if (SEARCH_ENGINES.test(host)) return 'organic';
  if (SOCIAL.test(host)) return 'social';
  return 'other';
}

/**
 * Whether an answered request is a person's page view: a GET of an HTML page answered 200 (not a
 * redirect, a 404, a feed, a sitemap or a HEAD), asked for by a browser rather than a crawler.
 */
export function isPageView(view: PageView): boolean {
  return (
    view.method === 'GET' &&
    view.status === 200 &&
    view.contentType.toLowerCase().startsWith('text/html') &&
    view.path.length <= MAX_PATH &&
    view.userAgent.trim() !== '' &&
    !CRAWLERS.test(view.userAgent)
  );
}
