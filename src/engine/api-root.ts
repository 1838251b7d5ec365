/** An alias as site.yaml declares it (`api_aliases`): a second path segment the API answers at, and the namespaces it shows under other names. */
export interface ApiAliasSpec {
  prefix: string;
  /** Served name → the name shown at this address (`cms/v2: wp/v2`). */
  namespaces: Record<string, string>;
}

/**
 * One address the API answers at: its own root (`/cms-json/`) or an alias (`/wp-json/`) serving the
 * same routes with some namespaces renamed. A request keeps the root it came in on, so everything
 * built for it (route keys, `_links`, `Link` and `Location` headers, batch and embedded
 * sub-requests) names what the caller addressed, while routes and handlers see only the served
 * names.
 *
 * A renaming is applied as a swap (`cms/v2` ↔ `wp/v2`), the same both ways: the alias's name
 * reaches the served namespace, and the served name, renamed away, reaches nothing at the alias.
 */
export class ApiRoot {
  /** `{home}/{prefix}/`, kept current by the engine as the host's address changes. */
  url = '';
  private readonly swap = new Map<string, string>();
  /** The names this root shows in place of served ones. */
  private readonly shown: string[];

  constructor(
    readonly prefix: string,
    renames: Readonly<Record<string, string>> = {},
  ) {
    for (const [served, shown] of Object.entries(renames)) {
      this.swap.set(served, shown);
      this.swap.set(shown, served);
    }
    this.shown = Object.values(renames);
  }

  /** Whether this root shows any namespace under another name. */
  get renames(): boolean {
    return this.swap.size > 0;
  }

  /** A namespace as this root names it (and, the swap being its own inverse, a name sent to this root as the namespace it serves). */
  namespace(name: string): string {
    return this.swap.get(name) ?? name;
  }

  /** A REST path (`/cms/v2/posts`, `cms/v2`, a route key) with its leading namespace renamed, either way. */
  path(path: string): string {
    for (const [from, to] of this.swap) {
      const end = leads(path, from);
      if (end > 0) return path.slice(0, end - from.length) + to + path.slice(end);
    }
    return path;
  }

  /** Whether a REST path starts with a namespace name only this root has (`/wp/v2/...`): `?rest_route=` on the site's home is answered as this root answers it. */
  owns(path: string): boolean {
    return this.shown.some((name) => leads(path, name) > 0);
  }

  /** rest_url() at this root: the absolute URL of a served REST path, as this root shows it. */
  restUrl(path: string): string {
    return this.url + this.path(path.replace(/^\/+/, ''));
  }
}

/**
 * Where namespace `name` ends when a path (with or without its leading `/`) starts with it as whole
 * segments, in any case as the router matches (`/WP/v2/posts` is `/wp/v2/posts`); 0 when it does not.
 */
function leads(path: string, name: string): number {
  const lead = path.startsWith('/') ? 1 : 0;
  const end = lead + name.length;
  if (path.length !== end && path[end] !== '/') return 0;
  return path.startsWith(name, lead) || path.slice(lead, end).toLowerCase() === name.toLowerCase() ? end : 0;
}
