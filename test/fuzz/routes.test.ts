import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth, userAuth } from '../helpers/auth.ts';
import type { Variant } from '../../src/engine/spec.ts';
import {
  fillPath,
  HOSTILE_BODIES,
  HOSTILE_VALUES,
  indexedRoutes,
  jsonBody,
  pool,
  problemWith,
  queryString,
  storedState,
  validValue,
  type ArgInfo,
  type Caller,
  type FuzzRequest,
  type IndexedRoute,
  type PathValues,
} from './support.ts';

// Every route, method and arg of the live index (so a plugin's routes are covered as soon as its
// YAML exists) gets valid and hostile values and bodies, as anonymous, subscriber and administrator.
// Any 5xx, error body not in WordPress's shape, hang, or change an unprivileged caller makes fails.
// By default each arg gets a sample of the hostile values (a different one per caller) and each
// endpoint one of its methods; FUZZ_FULL=1 sends every value and body with every method.
const FULL = process.env.FUZZ_FULL === '1';
const SAMPLE_VALUES = 3;
const SAMPLE_BODIES = 3;
const CONCURRENCY = 6;
/** Longer query strings go as a JSON body with the method overridden: Node refuses long URLs itself. */
const MAX_QUERY = 6000;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A small stable hash, so each route, arg and caller samples its own values, the same ones on every run. */
const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

function sample<T>(items: T[], count: number, seed: string): T[] {
  if (FULL || items.length <= count) return items;
  const start = hash(seed) % items.length;
  return Array.from({ length: count }, (_, i) => items[(start + i * 7) % items.length]);
}

const preview = (v: unknown) => {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…(${s.length})` : s;
};

/** The requests one caller sends to one route. */
function requestsFor(route: IndexedRoute, caller: Caller, paths: PathValues): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  const path = fillPath(route.key, paths).replace(/^\//, '');
  const hasVariables = path !== route.key.replace(/^\//, '');
  for (const endpoint of route.endpoints) {
    const methods = sample(endpoint.methods, 1, `${route.key}|${caller.name}|${endpoint.methods}`);
    for (const method of methods) {
      const required = Object.fromEntries(Object.entries(endpoint.args).filter(([, a]) => a.required).map(([n, a]) => [n, validValue(a)]));
      const label = (what: string) => `${caller.name} ${method} /${path} ${what}`;
      const send = (what: string, params: Record<string, unknown>, at = path) => out.push(withParams({ label: label(what), method, path: at, auth: caller.auth }, params));
      send('(required args only)', required);
      for (const [name, arg] of Object.entries(endpoint.args) as [string, ArgInfo][]) {
        const values = [validValue(arg), ...sample(HOSTILE_VALUES, SAMPLE_VALUES, `${route.key}|${method}|${name}|${caller.name}`)];
        for (const value of values) send(`${name}=${preview(value)}`, { ...required, [name]: value });
      }
      if (hasVariables) {
        for (const variable of sample(['0', '99999999999999999999', '9'.repeat(400)], 1, `${route.key}|path|${caller.name}`)) {
          const at = fillPath(route.key, paths, variable).replace(/^\//, '');
          send(`(path variables ${preview(variable)})`, required, at);
        }
      }
      if (BODY_METHODS.has(method) || method === 'DELETE') {
        for (const b of sample(HOSTILE_BODIES, SAMPLE_BODIES, `${route.key}|${method}|body|${caller.name}`))
          out.push({ label: label(`body: ${b.name}`), method, path, body: b.body, type: b.type, auth: caller.auth });
      }
    }
  }
  return out;
}

/** GET and DELETE carry params in the query (long ones as a JSON body under an override); the others in a JSON body. */
function withParams(r: FuzzRequest, params: Record<string, unknown>): FuzzRequest {
  if (BODY_METHODS.has(r.method)) return { ...r, body: jsonBody(params), type: 'application/json' };
  const qs = queryString(params);
  if (qs.length <= MAX_QUERY) return { ...r, path: qs ? `${r.path}?${qs}` : r.path };
  return { ...r, method: 'POST', headers: { 'x-http-method-override': r.method }, body: jsonBody(params), type: 'application/json' };
}

async function fuzz(server: TestServer, routes: IndexedRoute[], callers: Caller[], paths: PathValues): Promise<{ sent: number; problems: string[] }> {
  const requests = callers.flatMap((c) => routes.flatMap((r) => requestsFor(r, c, paths)));
  const problems: string[] = [];
  await pool(requests, CONCURRENCY, async (r) => {
    const problem = await problemWith(server, r);
    if (problem) problems.push(problem);
  });
  return { sent: requests.length, problems };
}

/** Answers a change would show: the index, and the post list a visitor sees. */
async function controls(server: TestServer): Promise<string[]> {
  return Promise.all(['', 'cms/v2/posts'].map(async (p) => (await server.call(p)).text()));
}

/**
 * Points every remote service a plugin's settings name (an option holding an http(s) URL, other
 * than the site's own addresses) at a loopback address the outbound guard refuses, so that routes
 * that call a service answer the guard's 400 instead of reaching for the internet (the fuzz stays
 * off the network, and a DNS failure there is not the route's fault).
 */
async function offTheNetwork(server: TestServer): Promise<void> {
  for (const { name, value } of await server.app.store.options.all())
    if (/^https?:\/\//.test(value) && name !== 'home' && name !== 'siteurl') await server.app.store.options.set(name, 'http://127.0.0.1:9/fuzz/');
}

for (const variant of ['A', 'B'] as Variant[]) {
  describe(`fuzz of every route in the index, variant ${variant}`, () => {
    let server: TestServer;
    let admin: string;
    let subscriber: string;
    let subscriberId: number;
    let paths: PathValues;
    let routes: IndexedRoute[];

    before(async () => {
      server = await startTestServer({ variant });
      await offTheNetwork(server);
      admin = await adminAuth(server);
      ({ auth: subscriber, userId: subscriberId } = await userAuth(server, 'subscriber'));
      const make = async (path: string, json: Record<string, unknown>) => {
        const res = await server.call(path, { json, auth: admin });
        assert.ok(res.status < 300, `${path}: ${await res.clone().text()}`);
        return (await res.json()) as Record<string, unknown>;
      };
      const byCollection: Record<string, string> = {
        '/cms/v2/posts': String((await make('cms/v2/posts', { title: 'Fuzz post', content: '<p>x</p>', status: 'publish' })).id),
        '/cms/v2/pages': String((await make('cms/v2/pages', { title: 'Fuzz page', content: 'x', status: 'publish' })).id),
        '/cms/v2/categories': String((await make('cms/v2/categories', { name: 'Fuzz category' })).id),
        '/cms/v2/tags': String((await make('cms/v2/tags', { name: 'Fuzz tag' })).id),
        '/cms/v2/users': '1',
      };
      // a menu with an item, so that the menu routes are fuzzed on stored ones
      const menu = String((await make('cms/v2/menus', { name: 'Fuzz menu', locations: ['primary'] })).id);
      Object.assign(byCollection, {
        '/cms/v2/menus': menu,
        '/cms/v2/menu-items': String((await make('cms/v2/menu-items', { title: 'Fuzz item', url: 'https://example.com/', menus: Number(menu) })).id),
      });
      if (variant === 'A') byCollection['/code-snippets/v1/snippets'] = String((await make('code-snippets/v1/snippets', { name: 'Fuzz snippet', code: 'a { color: red }', scope: 'site-css' })).id);
      // application-password routes act on a bystander, so that no caller revokes the passwords the fuzz signs in with
      const bystander = await userAuth(server, 'subscriber');
      const uuid = String((await make(`cms/v2/users/${bystander.userId}/application-passwords`, { name: 'fuzz' })).uuid);
      paths = { byName: { type: 'post', taxonomy: 'category', user_id: String(bystander.userId), uuid }, byCollection };
      routes = await indexedRoutes(server);
      assert.ok(routes.length > 10);
    });
    after(() => server.close());

    it('anonymous callers and subscribers get no 5xx and only WordPress-shaped errors, and change nothing', async (t) => {
      const controlsBefore = await controls(server);
      // the subscriber may edit their own account (users/me), as WordPress lets anyone
      const storedBefore = await storedState(server, admin, variant, subscriberId);
      const { sent, problems } = await fuzz(server, routes, [{ name: 'anonymous' }, { name: 'subscriber', auth: subscriber }], paths);
      t.diagnostic(`${sent} requests as anonymous and subscriber${FULL ? ' (FUZZ_FULL)' : ''}`);
      assert.ok(sent > routes.length * 4, `only ${sent} requests`);
      assert.deepEqual(problems.slice(0, 25), [], `${problems.length} problems`);
      assert.deepEqual(await controls(server), controlsBefore, 'the index or the post list changed');
      assert.deepEqual(await storedState(server, admin, variant, subscriberId), storedBefore, 'stored content changed');
    });

    it('administrators get no 5xx and only WordPress-shaped errors; the route table and the lists still answer', async () => {
      const indexBefore = (await (await server.call('')).json()) as { routes: Record<string, unknown> };
      const { problems } = await fuzz(server, routes, [{ name: 'administrator', auth: admin }], paths);
      assert.deepEqual(problems.slice(0, 25), [], `${problems.length} problems`);
      const index = await server.call('');
      assert.equal(index.status, 200);
      assert.deepEqual(Object.keys(((await index.json()) as typeof indexBefore).routes), Object.keys(indexBefore.routes));
      const posts = await server.call('cms/v2/posts');
      assert.equal(posts.status, 200);
      assert.ok(Array.isArray(await posts.json()));
    });
  });
}
