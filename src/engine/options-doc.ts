import type { CompiledRoute } from './compile.ts';
import { PrebuiltJson } from './types.ts';

/** The OPTIONS documents built so far, by the descriptor they extend: a new descriptor (the address changed) builds a new one. */
const built = new WeakMap<Record<string, unknown>, PrebuiltJson>();

/**
 * What OPTIONS answers for a route (WordPress's get_data_for_route in the 'help' context): the
 * index descriptor with the route's resource `schema` (its `schema:` in the spec) after the
 * endpoints, serialised once per descriptor (per address the API answers at), never per request.
 * A schema link's `href` written as a REST path is served as its URL at that address.
 */
export function optionsDocument(route: CompiledRoute, descriptor: Record<string, unknown>, restUrl: (path: string) => string): PrebuiltJson {
  let doc = built.get(descriptor);
  if (!doc) {
    const { _links, ...head } = descriptor;
    const schema = route.spec.schema;
    const data = schema ? { ...head, schema: linked(schema, restUrl), ...(_links ? { _links } : {}) } : descriptor;
    built.set(descriptor, (doc = PrebuiltJson.document(data)));
  }
  return doc;
}

/** The schema with its `links` (WordPress's targetSchema links) pointing at this address. */
function linked(schema: Record<string, unknown>, restUrl: (path: string) => string): Record<string, unknown> {
  if (!Array.isArray(schema.links)) return schema;
  const links = schema.links.map((l: Record<string, unknown>) => (typeof l.href === 'string' && l.href.startsWith('/') ? { ...l, href: restUrl(l.href) } : l));
  return { ...schema, links };
}
