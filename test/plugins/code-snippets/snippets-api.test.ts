import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, useServer } from '../../helpers/server.ts';
import { adminAuth, userAuth } from '../../helpers/auth.ts';
import { createSnippet, getJson, NS, SCOPES, SNIPPET_KEYS, type ErrorBody, type SnippetBody } from './helpers.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const INPUT_FIELDS = ['name', 'desc', 'code', 'tags', 'scope', 'active', 'priority', 'network', 'shared_network', 'modified'];

interface RouteDescriptor {
  namespace: string;
  methods: string[];
  endpoints: { methods: string[]; allow_batch?: { v1: boolean }; args: Record<string, Record<string, unknown>> | [] }[];
  _links?: unknown;
}

describe('code-snippets/v1 over HTTP', () => {
  const server = useServer();


  describe('route index', () => {
    test('lists the namespace with every route of the interface, in the plugin order, Variant A', async () => {
      const { body } = await getJson<{ namespaces: string[]; routes: Record<string, RouteDescriptor> }>(server, '');
      assert.ok(body.namespaces.includes(NS));
      const keys = Object.keys(body.routes).filter((k) => k.startsWith(`/${NS}`));
      assert.deepEqual(keys, [
        '/code-snippets/v1',
        '/code-snippets/v1/snippets',
        '/code-snippets/v1/snippets/(?P<id>[\\d]+)',
        '/code-snippets/v1/snippets/schema',
        '/code-snippets/v1/snippets/(?P<id>[\\d]+)/activate',
        '/code-snippets/v1/snippets/(?P<id>[\\d]+)/deactivate',
        '/code-snippets/v1/snippets/(?P<id>[\\d]+)/export',
        '/code-snippets/v1/snippets/(?P<id>[\\d]+)/export-code',
      ]);
      const route = (k: string) => body.routes[`/${NS}${k}`];
      assert.deepEqual(route('/snippets').methods, ['GET', 'POST']);
      assert.deepEqual(route('/snippets/(?P<id>[\\d]+)').methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      assert.deepEqual(route('/snippets/schema').methods, ['GET']);
      for (const action of ['activate', 'deactivate']) assert.deepEqual(route(`/snippets/(?P<id>[\\d]+)/${action}`).methods, ['POST', 'PUT', 'PATCH']);
      for (const action of ['export', 'export-code']) assert.deepEqual(route(`/snippets/(?P<id>[\\d]+)/${action}`).methods, ['GET']);

      // reads take no args; the two write endpoints take the snippet input fields, all optional
      assert.deepEqual(route('/snippets').endpoints[0].args, []);
      for (const write of [route('/snippets').endpoints[1], route('/snippets/(?P<id>[\\d]+)').endpoints[1]]) {
        const args = write.args as Record<string, Record<string, unknown>>;
        assert.deepEqual(Object.keys(args), INPUT_FIELDS);
        for (const name of INPUT_FIELDS) assert.equal(args[name].required, false, name);
        assert.equal(args.tags.type, 'array');
        assert.equal(args.active.type, 'boolean');
        assert.equal(args.priority.type, 'integer');
        assert.deepEqual(args.scope.enum, SCOPES);
      }
      // every write allows batching, no read does
      for (const [key, r] of Object.entries(body.routes).filter(([k]) => k.startsWith(`/${NS}/`))) {
        for (const e of r.endpoints) assert.equal(Boolean(e.allow_batch?.v1), !e.methods.includes('GET'), `${key} ${e.methods}`);
      }
      // routes with a variable part carry no self link
      assert.equal(route('/snippets/(?P<id>[\\d]+)')._links, undefined);
      assert.ok(route('/snippets/schema')._links);
    });

    test('is absent from variant B', async () => {
      const b = await startTestServer({ variant: 'B' });
      try {
        const { body } = await getJson<{ namespaces: string[]; routes: Record<string, unknown> }>(b, '');
        assert.ok(!body.namespaces.includes(NS));
        assert.ok(!Object.keys(body.routes).some((k) => k.startsWith(`/${NS}`)));
        const res = await getJson<ErrorBody>(b, `${NS}/snippets`);
        assert.equal(res.status, 404);
        assert.equal(res.body.code, 'rest_no_route');
      } finally {
        await b.close();
      }
    });
  });

  describe('permissions', () => {
    test('every route but the schema answers 401 to anonymous callers and 403 to a non-admin', async () => {
      const target = await createSnippet(server, server.admin, { name: 'guarded' });
      const editor = await userAuth(server, 'editor');
      const calls: [string, string][] = [
        ['GET', 'snippets'],
        ['POST', 'snippets'],
        ['GET', `snippets/${target.id}`],
        ['PUT', `snippets/${target.id}`],
        ['DELETE', `snippets/${target.id}`],
        ['POST', `snippets/${target.id}/activate`],
        ['POST', `snippets/${target.id}/deactivate`],
        ['GET', `snippets/${target.id}/export`],
        ['GET', `snippets/${target.id}/export-code`],
      ];
      for (const [method, path] of calls) {
        const anon = await getJson<ErrorBody>(server, `${NS}/${path}`, { method });
        assert.equal(anon.status, 401, `${method} ${path}`);
        assert.equal(anon.body.code, 'rest_forbidden');
        const denied = await getJson<ErrorBody>(server, `${NS}/${path}`, { method, auth: editor.auth });
        assert.equal(denied.status, 403, `${method} ${path}`);
      }
      // nothing above changed the snippet
      const still = await getJson<SnippetBody>(server, `${NS}/snippets/${target.id}`, { auth: server.admin });
      assert.deepEqual(still.body, target);
    });

    test('the schema is public', async () => {
      const { status, body } = await getJson<Record<string, unknown>>(server, `${NS}/snippets/schema`);
      assert.equal(status, 200);
      assert.equal(body.title, 'snippet');
    });
  });

  describe('schema', () => {
    test('is a JSON Schema of the read shape, and every snippet has exactly its keys in its order', async () => {
      const { body } = await getJson<{ $schema: string; title: string; type: string; properties: Record<string, Record<string, unknown>> }>(server, `${NS}/snippets/schema`);
      assert.equal(body.$schema, 'http://json-schema.org/draft-04/schema#');
      assert.equal(body.type, 'object');
      assert.deepEqual(Object.keys(body.properties), SNIPPET_KEYS);
      for (const [name, p] of Object.entries(body.properties)) {
        assert.equal(typeof p.description, 'string', name);
        assert.deepEqual(p.context, ['view', 'edit'], name);
      }
      assert.equal(body.properties.id.readonly, true);
      assert.equal(body.properties.modified.readonly, true);
      assert.equal(body.properties.modified.format, 'date-time');
      assert.deepEqual(body.properties.scope.enum, SCOPES);
      const snippet = await createSnippet(server, server.admin, { name: 'shape' });
      assert.deepEqual(Object.keys(snippet), SNIPPET_KEYS);
      const listed = await getJson<SnippetBody[]>(server, `${NS}/snippets?per_page=100`, { auth: server.admin });
      for (const s of listed.body) assert.deepEqual(Object.keys(s), SNIPPET_KEYS);
    });
  });

  describe('create', () => {
    test('an empty snippet takes the defaults', async () => {
      const s = await createSnippet(server, server.admin, {});
      assert.ok(Number.isInteger(s.id) && s.id > 0);
      assert.deepEqual({ ...s, id: 0, modified: '' }, {
        id: 0,
        name: '',
        desc: '',
        code: '',
        tags: [],
        scope: 'global',
        active: false,
        priority: 10,
        network: false,
        shared_network: false,
        modified: '',
        code_error: null,
      });
      assert.match(s.modified, ISO_UTC);
      const stored = await getJson<SnippetBody>(server, `${NS}/snippets/${s.id}`, { auth: server.admin });
      assert.deepEqual(stored.body, s);
    });

    test('every input field is stored and returned with its type', async () => {
      const s = await createSnippet(server, server.admin, {
        name: 'Footer note',
        desc: 'Adds a note',
        code: '<p>note</p>',
        tags: ['layout', 'footer'],
        scope: 'footer-content',
        active: true,
        priority: '5',
        network: false,
        modified: '1999-01-01T00:00:00Z',
      });
      assert.equal(s.name, 'Footer note');
      assert.equal(s.desc, 'Adds a note');
      assert.equal(s.code, '<p>note</p>');
      assert.deepEqual(s.tags, ['layout', 'footer']);
      assert.equal(s.scope, 'footer-content');
      assert.equal(s.active, true);
      assert.equal(s.priority, 5);
      // the server sets modified, whatever the client sends
      assert.notEqual(s.modified, '1999-01-01T00:00:00Z');
      assert.match(s.modified, ISO_UTC);
    });

    test('tags may be a comma-separated string, and desc may be sent as description', async () => {
      const s = await createSnippet(server, server.admin, { tags: 'alpha,beta, gamma', description: 'via alias' });
      assert.deepEqual(s.tags, ['alpha', 'beta', 'gamma']);
      assert.equal(s.desc, 'via alias');
      const form = await server.call(`${NS}/snippets`, { method: 'POST', body: 'tags=one,two&active=0&priority=3', headers: { 'content-type': 'application/x-www-form-urlencoded' }, auth: server.admin });
      const body = (await form.json()) as SnippetBody;
      assert.deepEqual([body.tags, body.active, body.priority], [['one', 'two'], false, 3]);
    });

    test('PHP snippets lose their open and close tags on save', async () => {
      const s = await createSnippet(server, server.admin, { code: "<?php\nadd_filter( 'x', '__return_true' );\n?>\n", scope: 'front-end' });
      assert.equal(s.code, "add_filter( 'x', '__return_true' );");
      const html = await createSnippet(server, server.admin, { code: '<?php echo 1; ?>', scope: 'head-content' });
      assert.equal(html.code, '<?php echo 1; ?>', 'non-PHP scopes keep their code as written');
    });

    test('bad input is a 400 rest_invalid_param and stores nothing', async () => {
      const before = (await server.call(`${NS}/snippets`, { auth: server.admin })).headers.get('x-wp-total');
      const cases: [Record<string, unknown>, string][] = [
        [{ scope: 'everywhere' }, 'scope'],
        [{ priority: 'soon' }, 'priority'],
        [{ active: 'maybe' }, 'active'],
        [{ name: ['x'] }, 'name'],
        [{ description: 42 }, 'description'],
        [{ modified: 'yesterday' }, 'modified'],
      ];
      for (const [json, param] of cases) {
        const { status, body } = await getJson<ErrorBody>(server, `${NS}/snippets`, { method: 'POST', json, auth: server.admin });
        assert.equal(status, 400, JSON.stringify(json));
        assert.equal(body.code, 'rest_invalid_param');
        assert.ok(body.data.params?.[param], `${param} is named: ${JSON.stringify(body)}`);
      }
      const scope = await getJson<ErrorBody>(server, `${NS}/snippets`, { method: 'POST', json: { scope: 'everywhere' }, auth: server.admin });
      assert.equal(scope.body.data.params?.scope, `scope is not one of ${SCOPES.slice(0, -1).join(', ')}, and ${SCOPES.at(-1)}.`);
      assert.equal((await server.call(`${NS}/snippets`, { auth: server.admin })).headers.get('x-wp-total'), before);
    });

    test('a malformed JSON body is a 400', async () => {
      const { status, body } = await getJson<ErrorBody>(server, `${NS}/snippets`, { method: 'POST', body: '{"name":', headers: { 'content-type': 'application/json' }, auth: server.admin });
      assert.equal(status, 400);
      assert.equal(body.code, 'rest_invalid_json');
    });
  });

  describe('read', () => {
    test('an unknown id is a 404 rest_cannot_get; a non-numeric id matches no route', async () => {
      for (const id of ['999999', '0']) {
        const { status, body } = await getJson<ErrorBody>(server, `${NS}/snippets/${id}`, { auth: server.admin });
        assert.equal(status, 404);
        assert.deepEqual(body, { code: 'rest_cannot_get', message: 'The snippet could not be found.', data: { status: 404 } });
      }
      const word = await getJson<ErrorBody>(server, `${NS}/snippets/abc`, { auth: server.admin });
      assert.equal(word.status, 404);
      assert.equal(word.body.code, 'rest_no_route');
    });
  });

  describe('list', () => {
    test('pages with page and per_page and tells the totals in headers', async () => {
      const own = await startTestServer();
      try {
        const ownAuth = await adminAuth(own);
        const empty = await own.call(`${NS}/snippets`, { auth: ownAuth });
        assert.deepEqual(await empty.json(), []);
        assert.equal(empty.headers.get('x-wp-total'), '0');
        assert.equal(empty.headers.get('x-wp-totalpages'), '0');
        const created: SnippetBody[] = [];
        for (let i = 1; i <= 12; i++) created.push(await createSnippet(own, ownAuth, { name: `s${i}` }));

        const first = await getJson<SnippetBody[]>(own, `${NS}/snippets`, { auth: ownAuth });
        assert.deepEqual(first.body.map((s) => s.name), created.slice(0, 10).map((s) => s.name), 'ten per page by default, in id order');
        assert.equal(first.headers.get('x-wp-total'), '12');
        assert.equal(first.headers.get('x-wp-totalpages'), '2');

        const third = await getJson<SnippetBody[]>(own, `${NS}/snippets?per_page=5&page=3`, { auth: ownAuth });
        assert.deepEqual(third.body, created.slice(10));
        assert.equal(third.headers.get('x-wp-totalpages'), '3');

        const beyond = await getJson<SnippetBody[]>(own, `${NS}/snippets?per_page=5&page=9`, { auth: ownAuth });
        assert.deepEqual(beyond.body, []);

        for (const [query, param, message] of [
          ['per_page=101', 'per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)'],
          ['per_page=0', 'per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)'],
          ['page=0', 'page', 'page must be greater than or equal to 1'],
          ['page=two', 'page', 'page is not of type integer.'],
        ]) {
          const bad = await getJson<ErrorBody>(own, `${NS}/snippets?${query}`, { auth: ownAuth });
          assert.equal(bad.status, 400, query);
          assert.equal(bad.body.code, 'rest_invalid_param');
          assert.equal(bad.body.data.params?.[param], message, query);
        }
      } finally {
        await own.close();
      }
    });
  });

  describe('update', () => {
    test('changes only the fields sent, on every editable method, and sets modified', async () => {
      const s = await createSnippet(server, server.admin, { name: 'before', desc: 'kept', tags: ['t'], priority: 4 });
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const { status, body } = await getJson<SnippetBody>(server, `${NS}/snippets/${s.id}`, { method, json: { name: `after ${method}` }, auth: server.admin });
        assert.equal(status, 200);
        assert.deepEqual({ ...body, modified: '' }, { ...s, name: `after ${method}`, modified: '' });
        assert.match(body.modified, ISO_UTC);
        assert.ok(body.modified >= s.modified);
      }
      const stored = await getJson<SnippetBody>(server, `${NS}/snippets/${s.id}`, { auth: server.admin });
      assert.equal(stored.body.name, 'after PATCH');
      assert.equal(stored.body.desc, 'kept');
    });

    test('the URL names the snippet, whatever id the body carries', async () => {
      const a = await createSnippet(server, server.admin, { name: 'a' });
      const b = await createSnippet(server, server.admin, { name: 'b' });
      const res = await getJson<SnippetBody>(server, `${NS}/snippets/${a.id}`, { method: 'PUT', json: { id: b.id, name: 'renamed' }, auth: server.admin });
      assert.equal(res.body.id, a.id);
      assert.equal((await getJson<SnippetBody>(server, `${NS}/snippets/${b.id}`, { auth: server.admin })).body.name, 'b');
    });

    test('an unknown id is a 404 and creates nothing', async () => {
      const before = (await server.call(`${NS}/snippets`, { auth: server.admin })).headers.get('x-wp-total');
      const { status, body } = await getJson<ErrorBody>(server, `${NS}/snippets/999999`, { method: 'PUT', json: { name: 'ghost' }, auth: server.admin });
      assert.equal(status, 404);
      assert.equal(body.code, 'rest_cannot_update');
      assert.equal((await server.call(`${NS}/snippets`, { auth: server.admin })).headers.get('x-wp-total'), before);
    });

    test('an invalid field leaves the stored snippet as it was', async () => {
      const s = await createSnippet(server, server.admin, { name: 'safe', scope: 'site-css', code: 'a{}' });
      const bad = await getJson<ErrorBody>(server, `${NS}/snippets/${s.id}`, { method: 'PATCH', json: { name: 'lost', scope: 'nowhere' }, auth: server.admin });
      assert.equal(bad.status, 400);
      assert.deepEqual((await getJson<SnippetBody>(server, `${NS}/snippets/${s.id}`, { auth: server.admin })).body, s);
    });
  });

  describe('delete', () => {
    test('removes the snippet and answers what it was', async () => {
      const s = await createSnippet(server, server.admin, { name: 'doomed', tags: 'x' });
      const { status, body } = await getJson<{ deleted: boolean; previous: SnippetBody }>(server, `${NS}/snippets/${s.id}`, { method: 'DELETE', auth: server.admin });
      assert.equal(status, 200);
      assert.deepEqual(body, { deleted: true, previous: s });
      assert.equal((await server.call(`${NS}/snippets/${s.id}`, { auth: server.admin })).status, 404);
      const again = await getJson<ErrorBody>(server, `${NS}/snippets/${s.id}`, { method: 'DELETE', auth: server.admin });
      assert.equal(again.status, 404);
      assert.equal(again.body.code, 'rest_cannot_delete');
    });
  });

  describe('activate and deactivate', () => {
    test('answer the full snippet with the new state', async () => {
      const s = await createSnippet(server, server.admin, { name: 'toggle', scope: 'site-css', code: 'body{color:red}' });
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const on = await getJson<SnippetBody>(server, `${NS}/snippets/${s.id}/activate`, { method, auth: server.admin });
        assert.equal(on.status, 200);
        assert.deepEqual({ ...on.body, modified: '' }, { ...s, active: true, modified: '' });
        const off = await getJson<SnippetBody>(server, `${NS}/snippets/${s.id}/deactivate`, { method, auth: server.admin });
        assert.deepEqual({ ...off.body, modified: '' }, { ...s, active: false, modified: '' });
      }
      await server.call(`${NS}/snippets/${s.id}/activate`, { method: 'POST', auth: server.admin });
      assert.equal((await getJson<SnippetBody>(server, `${NS}/snippets/${s.id}`, { auth: server.admin })).body.active, true);
    });

    test('an unknown id is a 404', async () => {
      for (const action of ['activate', 'deactivate']) {
        const { status, body } = await getJson<ErrorBody>(server, `${NS}/snippets/999999/${action}`, { method: 'POST', auth: server.admin });
        assert.equal(status, 404);
        assert.deepEqual(body, { code: 'rest_cannot_activate', message: 'The snippet could not be found.', data: { status: 404 } });
      }
    });
  });

  describe('batch', () => {
    test('creates several snippets in one request; a bad one fails alone', async () => {
      const before = Number((await server.call(`${NS}/snippets`, { auth: server.admin })).headers.get('x-wp-total'));
      const path = `/${NS}/snippets`;
      const res = await getJson<{ responses: { status: number; body: SnippetBody & ErrorBody }[] }>(server, 'batch/v1', {
        method: 'POST',
        json: {
          requests: [
            { path, body: { name: 'batch one', scope: 'site-css', code: 'a{}' } },
            { path, body: { name: 'batch two', scope: 'nowhere' } },
            { path, body: { name: 'batch three', tags: 'a,b' } },
          ],
        },
        auth: server.admin,
      });
      assert.equal(res.status, 207);
      assert.deepEqual(res.body.responses.map((r) => r.status), [200, 400, 200]);
      assert.equal(res.body.responses[1].body.code, 'rest_invalid_param');
      const [one, , three] = res.body.responses.map((r) => r.body);
      assert.equal((await getJson<SnippetBody>(server, `${NS}/snippets/${one.id}`, { auth: server.admin })).body.name, 'batch one');
      assert.deepEqual((await getJson<SnippetBody>(server, `${NS}/snippets/${three.id}`, { auth: server.admin })).body.tags, ['a', 'b']);
      assert.equal(Number((await server.call(`${NS}/snippets`, { auth: server.admin })).headers.get('x-wp-total')), before + 2);

      // updates, activation and deletion batch too
      const more = await getJson<{ responses: { status: number; body: ErrorBody }[] }>(server, 'batch/v1', {
        method: 'POST',
        json: {
          requests: [
            { method: 'PATCH', path: `${path}/${one.id}`, body: { priority: 2 } },
            { method: 'POST', path: `${path}/${one.id}/activate` },
            { method: 'DELETE', path: `${path}/${three.id}` },
          ],
        },
        auth: server.admin,
      });
      assert.deepEqual(more.body.responses.map((r) => r.status), [200, 200, 200]);
      const after = (await getJson<SnippetBody>(server, `${NS}/snippets/${one.id}`, { auth: server.admin })).body;
      assert.deepEqual([after.priority, after.active], [2, true]);
      assert.equal((await server.call(`${NS}/snippets/${three.id}`, { auth: server.admin })).status, 404);
    });
  });
});
