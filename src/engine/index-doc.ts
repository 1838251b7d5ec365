import type { RouteTable } from './compile.ts';

/** `GET /{prefix}/{namespace}`: that namespace's routes and a link up to the root. */
export function buildNamespaceIndex(namespace: string, table: RouteTable, apiRoot: string): Record<string, unknown> {
  const routes: Record<string, unknown> = {};
  for (const r of table.routes) if (r.namespace === namespace) routes[r.key] = r.descriptor;
  return { namespace, routes, _links: { up: [{ href: apiRoot }] } };
}
