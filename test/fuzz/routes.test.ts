import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth, userAuth } from '../helpers/auth.ts';
import type { Variant } from '../../src/engine/spec.ts';
import { indexedRoutes, storedState, type IndexedRoute, type PathValues } from './support.ts';
import { FULL, fuzzRoutes } from './plan.ts';

// Every route, method and arg of the live index (so a plugin's routes are covered as soon as its
// YAML exists) gets valid and hostile values and bodies (plan.ts), as anonymous, subscriber and
// administrator. Any 5xx, error body not in WordPress's shape, leaked internal text, hang, or
// change an unprivileged caller makes fails.

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
    /** Free strings the valid contexts take in turn: names and ids this site knows. */
    let words: string[];

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
      words = ['category', 'post', byCollection['/cms/v2/posts']];
      routes = await indexedRoutes(server);
      assert.ok(routes.length > 10);
    });
    after(() => server.close());

    it('anonymous callers and subscribers get no 5xx and only WordPress-shaped errors, and change nothing', async (t) => {
      const controlsBefore = await controls(server);
      // the subscriber may edit their own account (users/me), as WordPress lets anyone
      const storedBefore = await storedState(server, admin, variant, subscriberId);
      const { sent, problems } = await fuzzRoutes(server, routes, [{ name: 'anonymous' }, { name: 'subscriber', auth: subscriber }], paths, words);
      t.diagnostic(`${sent} requests as anonymous and subscriber${FULL ? ' (FUZZ_FULL)' : ''}`);
      assert.ok(sent > routes.length * 4, `only ${sent} requests`);
      assert.deepEqual(problems.slice(0, 25), [], `${problems.length} problems`);
      assert.deepEqual(await controls(server), controlsBefore, 'the index or the post list changed');
      assert.deepEqual(await storedState(server, admin, variant, subscriberId), storedBefore, 'stored content changed');
    });

    it('administrators get no 5xx and only WordPress-shaped errors; the route table and the lists still answer', async () => {
      const indexBefore = (await (await server.call('')).json()) as { routes: Record<string, unknown> };
      const { problems } = await fuzzRoutes(server, routes, [{ name: 'administrator', auth: admin }], paths, words);
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
