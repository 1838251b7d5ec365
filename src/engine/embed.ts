import type { Engine } from './engine.ts';
import type { User } from './types.ts';

interface Link {
  href: string;
  embeddable?: boolean;
}

/** rest_parse_embed_param: empty, '1' or 'true' embed every rel; otherwise a list of rels. */
function wantedRels(param: unknown): Set<string> | null {
  if (param === '' || param === '1' || param === 'true' || param === undefined || param === '0') return null;
  return new Set(String(param).split(/[\s,]+/).filter(Boolean));
}

/**
 * `_embed`: each `embeddable` link under `_links` is fetched in-process (GET, context=embed) and
 * the results put under `_embedded[rel]`, as WP_REST_Server::embed_links does. Results are cached
 * per href for the whole response, so a list of posts by one author fetches that author once.
 */
export async function embedLinks(engine: Engine, data: unknown, param: unknown, user: User | null): Promise<unknown> {
  const rels = wantedRels(param);
  const cache = new Map<string, Promise<unknown>>();
  const fetchLink = (href: string): Promise<unknown> => {
    let p = cache.get(href);
    if (!p) {
      const target = engine.restPathOf(href);
      p = target === null
        ? Promise.resolve({})
        : (async () => {
            const { path, root } = target;
            const withContext = /[?&]context=/.test(path) ? path : `${path}${path.includes('?') ? '&' : '?'}context=embed`;
            const res = await engine.subRequest('GET', withContext, {}, user, engine.store, undefined, root);
            return res.data;
          })();
      cache.set(href, p);
    }
    return p;
  };
  const embedOne = async (item: unknown): Promise<unknown> => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
    const links = (item as Record<string, unknown>)._links as Record<string, Link[]> | undefined;
    if (!links) return item;
    const embedded: Record<string, unknown[]> = {};
    for (const [rel, list] of Object.entries(links)) {
      if (rels && !rels.has(rel) && !rels.has(rel.replace('https://api.w.org/', 'wp:'))) continue;
      if (!Array.isArray(list) || !list.some((l) => l.embeddable)) continue;
      const results = await Promise.all(list.map((l) => (l.embeddable ? fetchLink(l.href) : Promise.resolve({}))));
      if (results.some((r) => r && (typeof r !== 'object' || Object.keys(r as object).length))) embedded[rel.replace('https://api.w.org/', 'wp:')] = results;
    }
    return Object.keys(embedded).length ? { ...(item as object), _embedded: embedded } : item;
  };
  return Array.isArray(data) ? Promise.all(data.map(embedOne)) : embedOne(data);
}
