import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { expandTemplates, loadSpec, type EndpointSpec, type RouteSpec, type Variant } from '../../src/engine/spec.ts';
import { Roles } from '../../src/auth/roles.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth, userAuth } from '../helpers/auth.ts';
import { fillPath, jsonBody, storedState, validValue, type ArgInfo, type PathValues } from './support.ts';

// Generated from the spec: every write endpoint (POST, PUT, PATCH, DELETE) that declares a
// permission other than `public` refuses anonymous callers (401) and subscribers (403) — with
// valid args, so that the refusal is the permission's — and nothing stored changes.

const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];
const spec = loadSpec(resolve(import.meta.dirname, '../../spec'));
const SUBSCRIBER_CAPS = new Roles().capabilitiesOf('subscriber');

/** The guarded write endpoints of these routes that a variant serves. */
const guardedOf = (routes: readonly RouteSpec[], variant: Variant) =>
  routes.flatMap((route) =>
    route.endpoints
      .filter((e) => e.variants.includes(variant) && e.permission && e.permission !== 'public')
      .flatMap((e) => e.methods.filter((m) => WRITE_METHODS.includes(m)).map((method) => ({ route, endpoint: e, method }))),
  );

for (const variant of ['A', 'B'] as Variant[]) {
  // route templates (each: post_type) are checked as served, once per plugin post type
  const guarded = guardedOf(spec.routes.filter((r) => r.each === undefined), variant);

  describe(`write routes with a permission, variant ${variant}`, () => {
    let server: TestServer;
    let admin: string;
    let subscriber: string;
    let paths: PathValues;
    /**
     * What is stored, as the last check read it back: the tests run one after another and each
     * leaves the store as it found it, so one check's reading is the next one's "before" (half the
     * reads of a few hundred store-wide reads); writes of the suite's own drop it.
     */
    let lastRead: Record<string, unknown> | undefined;

    before(async () => {
      server = await startTestServer({ variant });
      admin = await adminAuth(server);
      subscriber = (await userAuth(server, 'subscriber')).auth;
      const make = async (path: string, json: Record<string, unknown>) => String(((await (await server.call(path, { json, auth: admin })).json()) as { id: number }).id);
      const byCollection: Record<string, string> = {
        '/cms/v2/posts': await make('cms/v2/posts', { title: 'Guarded post', status: 'publish' }),
        '/cms/v2/pages': await make('cms/v2/pages', { title: 'Guarded page', status: 'publish' }),
        '/cms/v2/categories': await make('cms/v2/categories', { name: 'Guarded category' }),
        '/cms/v2/tags': await make('cms/v2/tags', { name: 'Guarded tag' }),
      };
      if (variant === 'A') byCollection['/code-snippets/v1/snippets'] = await make('code-snippets/v1/snippets', { name: 'Guarded', code: 'a { color: red }', scope: 'site-css' });
      paths = { byName: { type: 'post', taxonomy: 'category', user_id: '1' }, byCollection };
    });
    after(() => server.close());

    it(`covers every guarded write endpoint of the spec (${guarded.length})`, () => {
      assert.ok(guarded.length >= (variant === 'A' ? 15 : 10), String(guarded.length));
    });

    /** Anonymous callers get 401 and subscribers 403, with valid args so that the refusal is the permission's; nothing stored changes. */
    async function refused(route: RouteSpec, endpoint: EndpointSpec, method: string) {
      const path = fillPath(route.key, paths).replace(/^\//, '');
      const args = Object.fromEntries(
        Object.entries(endpoint.args as Record<string, ArgInfo>)
          // an arg whose default its own check refuses (block-renderer's context) is required in effect
          .filter(([name, a]) => a.required || (a as { refused_default?: boolean }).refused_default || name === 'force' || name === 'title' || name === 'name')
          .map(([name, a]) => [name, name === 'force' ? true : validValue(a)]),
      );
      const before = lastRead ?? (await storedState(server, admin, variant));
      lastRead = undefined;
      const callers: [string, string | undefined, number][] = [['anonymous', undefined, 401]];
      // a subscriber who has the capability is not refused; none of these routes asks for `read`
      if (!endpoint.permission!.split('|').some((c) => SUBSCRIBER_CAPS.has(c))) callers.push(['subscriber', subscriber, 403]);
      for (const [who, auth, status] of callers) {
        const res = await server.call(path, { method, body: jsonBody(args), headers: { 'content-type': 'application/json' }, auth });
        const body = (await res.json()) as { code: string; data: { status: number } };
        assert.equal(res.status, status, `${who}: ${JSON.stringify(body)}`);
        assert.equal(body.data.status, status);
      }
      const after = await storedState(server, admin, variant);
      assert.deepEqual(after, before);
      lastRead = after;
    }

    for (const { route, endpoint, method } of guarded) {
      it(`${method} ${route.key} (${endpoint.permission}): 401 anonymous, 403 subscriber, nothing stored changes`, () => refused(route, endpoint, method));
    }

    it('the routes every plugin post type gets from the templates, as served', async (t) => {
      const instances = server.app.site.routeInstances('post_type');
      const served = expandTemplates(spec.routes.filter((r) => r.each !== undefined), () => instances);
      const guardedPerType = guardedOf(served, variant);
      assert.ok(instances.length > 0 && guardedPerType.length >= instances.length * 4, `${instances.length} types, ${guardedPerType.length} endpoints`);
      for (const { rest_base } of instances) paths.byCollection[`/cms/v2/${rest_base}`] = await (async () => {
        const res = await server.call(`cms/v2/${rest_base}`, { json: { title: `Guarded ${rest_base}`, status: 'publish' }, auth: admin });
        assert.equal(res.status, 201, `${rest_base}: ${await res.clone().text()}`);
        return String(((await res.json()) as { id: number }).id);
      })();
      lastRead = undefined;
      for (const { route, endpoint, method } of guardedPerType) {
        await t.test(`${method} ${route.key} (${endpoint.permission})`, () => refused(route, endpoint, method));
      }
    });
  });
}

/** JSON-RPC messages an MCP client sends, the writing ones among them: each must be refused before it runs. */
const MCP_MESSAGES = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'cms_create-post', arguments: { title: 'Anonymous over MCP', status: 'publish' } } },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'code-snippets_deactivate-snippet', arguments: { id: 1 } } },
  [{ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'cms_update-post', arguments: { id: 1, title: 'Batched' } } }],
];

// the protocols plugins serve beside REST (their mounts: the MCP endpoint) are in no spec: they are taken as served
describe('the protocols the active plugins mount beside the REST routes', () => {
  let server: TestServer;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    admin = await adminAuth(server);
  });
  after(() => server.close());

  it('anonymous: every method and message at every API root is 401, and nothing stored changes', async () => {
    const paths = server.app.plugins.mounts.flatMap((m) => server.app.engine.roots.map((root) => `${root.prefix}${m.path}`));
    assert.deepEqual(paths, ['cms-json/mcp', 'wp-json/mcp']);
    const before = await storedState(server, admin, 'A');
    for (const path of paths)
      for (const method of ['GET', 'POST', 'DELETE'])
        for (const message of method === 'POST' ? MCP_MESSAGES : [undefined]) {
          const res = await fetch(`${server.home}/${path}`, {
            method,
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'guessed' },
            body: message && JSON.stringify(message),
          });
          const label = `${method} /${path} ${JSON.stringify(message)?.slice(0, 60)}`;
          assert.equal(res.status, 401, label);
          assert.deepEqual(await res.json(), { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } }, label);
        }
    assert.deepEqual(await storedState(server, admin, 'A'), before);
  });
});

