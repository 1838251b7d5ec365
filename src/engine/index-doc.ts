import type { RouteTable } from './compile.ts';
import type { Site } from './site.ts';
import type { Spec } from './spec.ts';

/**
 * The root index (`GET /{prefix}/`): the site description in WordPress's key order, the
 * namespaces, the authentication scheme and every route of the variant. Pure data from the spec
 * and the site options; the engine serialises it once per change.
 */
export function buildRootIndex(spec: Spec, table: RouteTable, site: Site): Record<string, unknown> {
  const routes: Record<string, unknown> = {};
  for (const r of table.routes) routes[r.key] = r.descriptor;
  return {
    ...site.info,
    namespaces: table.namespaces,
    authentication: { 'application-passwords': { endpoints: { authorization: site.url(spec.authPath) } } },
    routes,
    site_logo: 0,
    site_icon: 0,
    site_icon_url: '',
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}

/** `GET /{prefix}/{namespace}`: that namespace's routes and a link up to the root. */
export function buildNamespaceIndex(namespace: string, table: RouteTable, site: Site): Record<string, unknown> | null {
  if (!table.namespaces.includes(namespace)) return null;
  const routes: Record<string, unknown> = {};
  for (const r of table.routes) if (r.namespace === namespace) routes[r.key] = r.descriptor;
  return { namespace, routes, _links: { up: [{ href: site.apiRoot }] } };
}
