import type { ArgDescriptor, EndpointSpec, RouteSpec } from './spec.ts';

/**
 * What one method of an endpoint answers on success, as far as the spec knows: the one decision
 * the OpenAPI document (its 200/201 schemas) and `cms-spec types` (`EndpointResults`,
 * `HandlerResults`) both take, so a client's type and the document never disagree.
 *
 * - `declared`: the endpoint's own `response:` (an ability's output schema, a plugin's answer).
 * - otherwise, on a route with a resource schema (`schema:`), WordPress's controller shapes:
 *   `list` for a GET of a collection, `map` for a GET of a collection keyed by name (types,
 *   taxonomies, statuses, menu locations), `deleted` for a DELETE of one item (`{deleted,
 *   previous}`; `orItem` when the endpoint takes `force`, since without it WordPress trashes the
 *   item and answers it; those that cannot trash refuse instead, which no shape tells apart),
 *   `item` for anything else (a GET of one item, a create, an update).
 * - `unknown`: the spec does not say (no resource, or a DELETE of a whole collection).
 */
export type Answer =
  | { kind: 'declared'; schema: ArgDescriptor }
  | { kind: 'item' | 'list' | 'map' }
  | { kind: 'deleted'; orItem: boolean }
  | { kind: 'unknown' };

/**
 * Whether a GET of the route answers many of its resource: its `collection:`, else whether its
 * path ends in a static segment (`/posts`, `/posts/{parent}/revisions`) rather than a variable (`/posts/{id}`).
 */
function collectionOf(route: RouteSpec): 'list' | 'map' | 'none' {
  return route.collection ?? (/\}$/.test(route.fullPath) ? 'none' : 'list');
}

export function answerOf(route: RouteSpec, endpoint: EndpointSpec, method: string): Answer {
  if (endpoint.response) return { kind: 'declared', schema: endpoint.response };
  if (!route.schema) return { kind: 'unknown' };
  const collection = collectionOf(route);
  if (method === 'DELETE') return collection === 'none' ? { kind: 'deleted', orItem: 'force' in endpoint.args } : { kind: 'unknown' };
  if (method === 'GET' && collection !== 'none') return { kind: collection };
  return { kind: 'item' };
}
