import type { ApiRoot } from './api-root.ts';
import type { RouteTable } from './compile.ts';

/** `GET /{prefix}/{namespace}`: that namespace's routes and a link up to the root, as that root names them. */
export function buildNamespaceIndex(namespace: string, table: RouteTable, root: ApiRoot): Record<string, unknown> {
  const routes: Record<string, unknown> = {};
  for (const r of table.routes) if (r.namespace === namespace) routes[root.path(r.key)] = r.descriptors.get(root);
  return { namespace: root.namespace(namespace), routes, _links: { up: [{ href: root.url }] } };
}
