import assert from 'node:assert/strict';
import type { ServerFixture } from './server.ts';

type Obj = Record<string, any>;

/** An arg as the interface gives it: [name, type, default?, extra bounds?]. */
export type Arg = [string, string, unknown?, Obj?];

/** Compares a namespace's routes in the index with the interface: routes, methods, and each arg's name, order, type, default, bounds and `required: false`. */
export async function assertNamespace(site: ServerFixture, ns: string, routes: Record<string, Arg[]>, methods: Record<string, string> = {}): Promise<void> {
  const index = (await (await site.call('')).json()) as Obj;
  assert.ok(index.namespaces.includes(ns), ns);
  const own = Object.keys(index.routes).filter((k) => k.startsWith(`/${ns}/`));
  assert.deepEqual(own, Object.keys(routes).map((r) => `/${ns}${r}`));
  const nsIndex = (await (await site.call(ns)).json()) as Obj;
  for (const [path, args] of Object.entries(routes)) {
    const route = index.routes[`/${ns}${path}`];
    assert.deepEqual(nsIndex.routes[`/${ns}${path}`], route, `the namespace index shows ${path} as the root does`);
    assert.deepEqual(route.methods, [methods[path] ?? 'GET'], path);
    assert.equal(route.endpoints.length, 1);
    const got = route.endpoints[0].args as Obj;
    if (!args.length) {
      assert.deepEqual(got, [], path);
      continue;
    }
    assert.deepEqual(Object.keys(got), args.map(([n]) => n), `${path}: arg names in order`);
    for (const [name, type, def, bounds] of args) {
      const a = got[name];
      assert.equal(a.type, type, `${path} ${name}: type`);
      assert.deepEqual(a.default, def, `${path} ${name}: default`);
      assert.equal(a.minimum, bounds?.minimum, `${path} ${name}: minimum`);
      assert.equal(a.maximum, bounds?.maximum, `${path} ${name}: maximum`);
      assert.equal(a.required, false, `${path} ${name}: optional`);
      assert.equal(Object.keys(a).at(-1), 'required', 'required comes last');
    }
  }
}

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
