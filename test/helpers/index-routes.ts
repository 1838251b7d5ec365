import type { ServerFixture } from './server.ts';

/** The routes of the index whose key matches, each as its methods and its endpoints' methods and args: what exactness tests compare. */
export async function routesOf(site: ServerFixture, key: RegExp): Promise<Record<string, unknown>> {
  const index = await (await site.call('')).json();
  const out: Record<string, unknown> = {};
  for (const [k, r] of Object.entries(index.routes as Record<string, { methods: string[]; endpoints: { methods: string[]; args: unknown }[] }>))
    if (key.test(k)) out[k] = { methods: r.methods, endpoints: r.endpoints.map((e) => ({ methods: e.methods, args: e.args })) };
  return out;
}

/** A namespace's own index route as the index shows it. */
export const namespaceIndexRoute = (ns: string) => ({ methods: ['GET'], endpoints: [{ methods: ['GET'], args: { namespace: { default: ns, required: false }, context: { default: 'view', required: false } } }] });
