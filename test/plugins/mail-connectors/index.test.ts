import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, type ServerFixture } from '../../helpers/server.ts';

/**
 * The interface's "Email-marketing connectors" table, as the index must show it in both variants:
 * every namespace has one route, GET `get`, whose args are WordPress's collection params
 * (context string; page integer default 1 min 1; per_page integer default 10 min 1 max 100;
 * search string), `endpoint` string, and the namespace's extras, all optional.
 */
const COLLECTION: Record<string, Record<string, unknown>> = {
  context: { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', required: false },
  page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1, required: false },
  per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100, required: false },
  search: { description: 'Limit results to those matching a string.', type: 'string', required: false },
};
const endpoint = { description: 'Actionable endpoint for api call.', type: 'string', required: false };
const queryargs = { description: 'Query Args for url.', type: 'array', required: false };
const apikey = (provider: string) => ({ description: `The API Key for ${provider} account.`, type: 'string', required: false });

/** Namespace → its args in the index's order (the real controllers register apikey before endpoint). */
const EXPECTED: Record<string, Record<string, unknown>> = {
  'kb-mail-a/v1': { ...COLLECTION, apikey: apikey('mailchimp'), endpoint, queryargs },
  'kb-mail-b/v1': { ...COLLECTION, endpoint },
  'kb-mail-c/v1': { ...COLLECTION, endpoint },
  'kb-mail-d/v1': { ...COLLECTION, apikey: apikey('Brevo (SendInBlue)'), endpoint, queryargs },
  'kb-mail-e/v1': { ...COLLECTION, endpoint, queryargs },
  'kb-mail-f/v1': { ...COLLECTION, apikey: apikey('Mailerlite'), endpoint, queryargs },
  'kb-mail-g/v1': { ...COLLECTION, endpoint },
};
const NAMESPACES = Object.keys(EXPECTED);

interface Route {
  namespace: string;
  methods: string[];
  endpoints: { methods: string[]; args: Record<string, unknown> }[];
  _links?: unknown;
}

async function index(server: ServerFixture): Promise<{ namespaces: string[]; routes: Record<string, Route> }> {
  const res = await server.call('');
  assert.equal(res.status, 200);
  return res.json();
}

function checkIndex(variant: 'A' | 'B') {
  describe(`Variant ${variant}`, () => {
    const server = useServer({ variant });

    test('lists the seven namespaces in order, each with its index route and GET get, args exact', async () => {
      const { namespaces, routes } = await index(server);
      assert.deepEqual(namespaces.filter((n) => n.startsWith('kb-mail-')), NAMESPACES);
      const start = namespaces.indexOf('kb-mail-a/v1');
      assert.deepEqual(namespaces.slice(start, start + 7), NAMESPACES, 'the mail groups are listed together, a to g');
      for (const ns of NAMESPACES) {
        assert.deepEqual(Object.keys(routes).filter((k) => k.startsWith(`/${ns}`)), [`/${ns}`, `/${ns}/get`], ns);
        const get = routes[`/${ns}/get`];
        assert.equal(get.namespace, ns);
        assert.deepEqual(get.methods, ['GET'], ns);
        assert.equal(get.endpoints.length, 1, ns);
        assert.deepEqual(get.endpoints[0].methods, ['GET'], ns);
        assert.deepEqual(Object.keys(get.endpoints[0].args), Object.keys(EXPECTED[ns]), `${ns}: arg names and order`);
        assert.deepEqual(get.endpoints[0].args, EXPECTED[ns], ns);
        assert.deepEqual(get._links, { self: [{ href: `${server.api}${ns}/get` }] });
      }
    });

    test('each namespace’s own index shows the same route', async () => {
      const { routes } = await index(server);
      for (const ns of NAMESPACES) {
        const res = await server.call(ns);
        assert.equal(res.status, 200, ns);
        const body = (await res.json()) as { namespace: string; routes: Record<string, Route> };
        assert.equal(body.namespace, ns);
        assert.deepEqual(Object.keys(body.routes), [`/${ns}`, `/${ns}/get`]);
        assert.deepEqual(body.routes[`/${ns}/get`], routes[`/${ns}/get`]);
      }
    });
  });
}

describe('kb-mail-a/v1 … kb-mail-g/v1 in the route index', () => {
  checkIndex('A');
  checkIndex('B');

  describe('while the plugin is inactive', () => {
    const server = useServer();
    test('the seven namespaces leave the index and answer 404; the stored settings stay for its return', async () => {
      await server.app.store.options.set('mail_connectors_convertkit_key', 'kept-while-inactive');
      const setStatus = (status: string) => server.call('cms/v2/plugins/mail-connectors', { method: 'POST', json: { status }, auth: server.admin });
      assert.equal((await setStatus('inactive')).status, 200);
      const { namespaces } = await index(server);
      assert.deepEqual(namespaces.filter((n) => n.startsWith('kb-mail-')), []);
      const gone = await server.call('kb-mail-b/v1/get?endpoint=forms', { auth: server.admin });
      assert.equal(gone.status, 404);
      assert.equal(((await gone.json()) as { code: string }).code, 'rest_no_route');
      assert.equal((await setStatus('active')).status, 200);
      assert.deepEqual((await index(server)).namespaces.filter((n) => n.startsWith('kb-mail-')), NAMESPACES);
      assert.equal(await server.app.store.options.get('mail_connectors_convertkit_key'), 'kept-while-inactive');
    });
  });
});
