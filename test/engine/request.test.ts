import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { useServer } from '../helpers/server.ts';
import { adminAuth, userAuth } from '../helpers/auth.ts';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/basic');

const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };

describe('request handling', () => {
  const server = useServer({ spec: FIXTURE });

  const store = async (name: string, value: string) => {
    const res = await server.call(`fixture/v1/options/${name}`, { method: 'PUT', json: { value } });
    assert.ok(res.status === 200 || res.status === 201, await res.text());
  };
  const stored = async (name: string) => {
    const res = await server.call(`fixture/v1/options/${name}`);
    return res.status === 200 ? ((await res.json()) as { value: string }).value : null;
  };

  test('an unknown path and a known path with a wrong method are both rest_no_route 404, without Allow', async () => {
    const unknown = await server.call('no/such/route');
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), NO_ROUTE);
    assert.equal(unknown.headers.get('allow'), null);
    const wrong = await server.call('fixture/v1/echo', { method: 'DELETE' });
    assert.equal(wrong.status, 404);
    assert.deepEqual(await wrong.json(), NO_ROUTE);
    assert.equal(wrong.headers.get('allow'), null);
    assert.equal((await server.call('', { method: 'DELETE' })).status, 404);
  });

  test('a trailing slash is ignored, and the prefix itself works without one', async () => {
    const res = await server.call('fixture/v1/echo/?count=2');
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as any).args.count, 2);
    const bare = await fetch(server.api.replace(/\/$/, ''));
    assert.equal(bare.status, 200);
    assert.equal(((await bare.json()) as any).name, 'Fixture Site');
  });

  test('?rest_route= on the site root reaches the API, and is not an arg', async () => {
    const res = await fetch(`${server.home}/?rest_route=/fixture/v1/echo&count=4`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as any;
    assert.equal(body.args.count, 4);
    assert.equal(body.args.rest_route, undefined);
    const missing = await fetch(`${server.home}/?rest_route=/no/such`);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), NO_ROUTE);
  });

  test('_method in the query and X-HTTP-Method-Override change the method', async () => {
    await store('override', 'one');
    const viaQuery = await server.call('fixture/v1/echo?_method=get', { method: 'POST', json: {} });
    const echoed = (await viaQuery.json()) as any;
    assert.equal(echoed.method, 'GET');
    assert.equal(echoed.args._method, undefined);
    const put = await server.call('fixture/v1/echo?_method=PUT', { method: 'POST', json: {} });
    assert.equal(put.status, 404, 'echo has no PUT endpoint, so the override took effect');
    assert.deepEqual(await put.json(), NO_ROUTE);
    const del = await server.call('fixture/v1/options/override', { method: 'POST', headers: { 'X-HTTP-Method-Override': 'DELETE' } });
    assert.equal(del.status, 200);
    assert.deepEqual(await del.json(), { deleted: true, previous: { name: 'override', value: 'one' } });
    assert.equal(await stored('override'), null);
    await store('override', 'two');
    const delQuery = await server.call('fixture/v1/options/override?_method=DELETE', { method: 'POST' });
    assert.equal(delQuery.status, 200);
    assert.equal(await stored('override'), null);
  });

  test('HEAD is answered by the GET handler: same status and headers, no body', async () => {
    const get = await server.call('');
    const head = await server.call('', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    for (const h of ['content-type', 'allow', 'link', 'x-robots-tag', 'x-content-type-options']) assert.equal(head.headers.get(h), get.headers.get(h), h);
    await store('headkey', 'v');
    assert.equal((await server.call('fixture/v1/options/headkey', { method: 'HEAD' })).status, 200);
    const absent = await server.call('fixture/v1/options/nothere', { method: 'HEAD' });
    assert.equal(absent.status, 404, 'the GET handler ran and found nothing');
    assert.equal(await absent.text(), '');
  });

  test('OPTIONS answers the route descriptor with an Allow header; [] for an unknown path', async () => {
    const index = (await (await server.call('')).json()) as any;
    const res = await server.call('fixture/v1/options/abc', { method: 'OPTIONS' });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), index.routes['/fixture/v1/options/(?P<name>[\\w-]+)']);
    assert.equal(res.headers.get('allow'), 'GET, POST, PUT, DELETE');
    const root = await server.call('', { method: 'OPTIONS' });
    assert.deepEqual(await root.json(), index.routes['/']);
    const unknown = await server.call('no/such', { method: 'OPTIONS' });
    assert.equal(unknown.status, 200);
    assert.equal(await unknown.text(), '[]');
  });

  test('Allow lists only the methods the caller may use', async () => {
    const anonymous = await server.call('fixture/v1/admin-only', { method: 'OPTIONS' });
    // rest_send_allow_header sends none when no method is allowed
    assert.equal(anonymous.headers.get('allow'), null);
    const admin = await server.call('fixture/v1/admin-only', { method: 'OPTIONS', auth: await adminAuth(server) });
    assert.equal(admin.headers.get('allow'), 'GET, POST');
    assert.equal((await server.call('fixture/v1/echo?count=x')).headers.get('allow'), 'GET, POST', 'errors on a matched route carry Allow too');
  });

  test('permission: 401 anonymous, 403 for a logged-in user without the capability, the handler for one with it', async () => {
    const anon = await server.call('fixture/v1/admin-only');
    assert.equal(anon.status, 401);
    assert.deepEqual(await anon.json(), { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    const subscriber = await userAuth(server, 'subscriber');
    const denied = await server.call('fixture/v1/admin-only', { method: 'POST', json: { value: 'x' }, auth: subscriber.auth });
    assert.equal(denied.status, 403);
    assert.deepEqual(await denied.json(), { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } });
    const auth = await adminAuth(server);
    const written = await server.call('fixture/v1/admin-only', { method: 'POST', json: { value: 'note' }, auth });
    assert.equal(written.status, 201);
    const read = await server.call('fixture/v1/admin-only', { auth });
    assert.deepEqual(await read.json(), { name: 'admin_note', value: 'note' });
  });

  test('_fields keeps the listed fields, nested dot paths, per item of a list', async () => {
    await store('fa', 'x');
    await store('fb', 'yy');
    const res = await server.call('fixture/v1/options?names=fa,fb,missing&_fields=name,value.length');
    assert.deepEqual(await res.json(), [
      { name: 'fa', value: { length: 1 } },
      { name: 'fb', value: { length: 2 } },
    ]);
    const parentWins = await server.call('fixture/v1/options?names=fa&_fields=value.raw,value');
    assert.deepEqual(await parentWins.json(), [{ value: { raw: 'x', length: 1 } }]);
    const index = await server.call('?_fields=name,url');
    assert.deepEqual(await index.json(), { name: 'Fixture Site', url: server.home, _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] } });
    const error = await server.call('fixture/v1/options/nothere?_fields=name');
    assert.deepEqual(await error.json(), { code: 'fixture_option_missing', message: 'No option named nothere.', data: { status: 404 } });
  });

  test('_envelope: HTTP 200 with {body, status, headers}', async () => {
    const res = await server.call('fixture/v1/options/env?_envelope', { method: 'POST', json: { value: 'e' } });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      body: { name: 'env', value: 'e' },
      status: 201,
      headers: { Location: `${server.api}fixture/v1/options/env`, Allow: 'GET, POST, PUT, DELETE' },
    });
    assert.equal(res.headers.get('location'), null, "the response's own headers go into the envelope");
    const missing = await server.call('no/such/route?_envelope');
    assert.equal(missing.status, 200);
    assert.equal(await missing.text(), JSON.stringify({ body: NO_ROUTE, status: 404, headers: [] }));
  });

  test('WordPress headers on every response; Vary: Origin on anonymous GET', async () => {
    const res = await server.call('');
    assert.equal(res.headers.get('content-type'), 'application/json; charset=UTF-8');
    assert.equal(res.headers.get('x-robots-tag'), 'noindex');
    assert.equal(res.headers.get('link'), `<${server.api}>; rel="https://api.w.org/"`);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('access-control-expose-headers'), 'X-WP-Total, X-WP-TotalPages, Link');
    assert.equal(res.headers.get('access-control-allow-headers'), 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type');
    assert.equal(res.headers.get('allow'), 'GET');
    // Accept-Encoding, which chose the answer's coding, is in Vary on every JSON answer (test/engine/compression.test.ts)
    assert.equal(res.headers.get('vary'), 'Origin, Accept-Encoding');
    assert.equal(res.headers.get('access-control-allow-origin'), null);
    const post = await server.call('fixture/v1/echo', { method: 'POST', json: {} });
    assert.equal(post.headers.get('vary'), 'Accept-Encoding');
    const error = await server.call('no/such');
    assert.equal(error.headers.get('link'), `<${server.api}>; rel="https://api.w.org/"`);
    assert.equal(error.headers.get('x-robots-tag'), 'noindex');
  });

  test('CORS headers echo the Origin when one is sent', async () => {
    const res = await server.call('fixture/v1/echo', { headers: { Origin: 'http://example.com' } });
    assert.equal(res.headers.get('access-control-allow-origin'), 'http://example.com');
    assert.equal(res.headers.get('access-control-allow-methods'), 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
    assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
    assert.equal(res.headers.get('vary'), 'Origin, Accept-Encoding');
    const preflight = await server.call('fixture/v1/echo', { method: 'OPTIONS', headers: { Origin: 'https://app.example' } });
    assert.equal(preflight.status, 200);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://app.example');
  });

  test('a malformed JSON body is rest_invalid_json 400, before any permission check, and writes nothing', async () => {
    const body = '{"value": "x",';
    for (const path of ['fixture/v1/admin-only', 'fixture/v1/options/badjson', 'batch/v1']) {
      const res = await server.call(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400, path);
      assert.deepEqual(await res.json(), {
        code: 'rest_invalid_json',
        message: 'Invalid JSON body passed.',
        data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
      });
    }
    assert.equal(await stored('badjson'), null);
  });

  // WordPress 6.1's answer to a fatal error: WP_Fatal_Error_Handler::display_default_error_template through
  // _json_wp_die_handler (REST) or _default_wp_die_handler (a page), with nocache_headers()
  const CRITICAL = '<p>There has been a critical error on this website.</p><p><a href="https://wordpress.org/support/article/faq-troubleshooting/">Learn more about troubleshooting WordPress.</a></p>';

  /** What the server logs while `run` runs. */
  const logging = async <T>(run: () => Promise<T>): Promise<{ result: T; logged: string[] }> => {
    const logged: string[] = [];
    const log = server.app.engine.log;
    const keep = log.error;
    log.error = (m) => logged.push(m);
    try {
      return { result: await run(), logged };
    } finally {
      log.error = keep;
    }
  };

  test('a handler that throws is WordPress’s critical-error 500, nothing of the failure in it; the log has the route and a request id', async () => {
    const { result: res, logged } = await logging(() => server.call('fixture/v1/boom', { headers: { 'x-request-id': 'req-42' } }));
    assert.equal(res.status, 500);
    assert.equal(res.headers.get('cache-control'), 'no-cache, must-revalidate, max-age=0');
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { code: 'internal_server_error', message: CRITICAL, data: { status: 500 }, additional_errors: [] });
    assert.equal(logged.length, 1);
    assert.match(logged[0], /^critical error in fixture\.boom \(GET \/fixture\/v1\/boom, \/fixture\/v1\/boom\) \[request req-42\]: Error: fixture handler failed on purpose/);
    const again = await logging(() => server.call('fixture/v1/boom', { headers: { 'x-request-id': 'not a token\u00e9' } }));
    assert.match(again.logged[0], /\[request [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\]/, 'a request id of its own when the given one is not a plain token');
    assert.equal((await server.call('fixture/v1/echo')).status, 200, 'the server keeps serving');
  });

  test('a page that fails is wp_die’s critical-error page, logged the same way', async () => {
    const posts = server.app.store.posts;
    const query = posts.query;
    posts.query = () => Promise.reject(new TypeError('planted failure of the post list'));
    const { result: res, logged } = await logging(() => fetch(`${server.home}/`)).finally(() => (posts.query = query));
    assert.equal(res.status, 500);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    const page = await res.text();
    assert.ok(page.includes(`<title>WordPress &rsaquo; Error</title>`), page);
    assert.ok(page.includes(`<div class="wp-die-message">${CRITICAL}</div>`), page);
    assert.ok(!page.includes('planted'), page);
    assert.equal(logged.length, 1);
    assert.match(logged[0], /^critical error in the page GET \/ \[request [\w-]+\]: TypeError: planted failure of the post list/);
    assert.equal((await fetch(`${server.home}/`)).status, 200);
  });
});

describe('body size limit', () => {
  const server = useServer({ spec: FIXTURE, bodyLimit: 1024 });

  const tooLarge = async (res: Response) => {
    assert.equal(res.status, 413);
    const body = (await res.json()) as { code: string; message: string; data: { status: number } };
    assert.equal(typeof body.code, 'string');
    assert.equal(typeof body.message, 'string');
    assert.deepEqual(body.data, { status: 413 });
  };

  test('a body over the limit is refused with 413 and stores nothing', async () => {
    await tooLarge(await server.call('fixture/v1/options/big', { method: 'PUT', json: { value: 'v', pad: 'x'.repeat(2000) } }));
    assert.equal((await server.call('fixture/v1/options/big')).status, 404);
  });

  test('a chunked body without Content-Length is cut off at the limit too', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(600));
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(chunk);
        c.enqueue(chunk);
        c.close();
      },
    });
    const res = await fetch(`${server.api}fixture/v1/options/chunked`, {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      duplex: 'half',
    } as RequestInit);
    await tooLarge(res);
    assert.equal((await server.call('fixture/v1/options/chunked')).status, 404);
  });

  test('a body under the limit is accepted', async () => {
    const res = await server.call('fixture/v1/options/small', { method: 'PUT', json: { value: 'ok', pad: 'x'.repeat(500) } });
    assert.equal(res.status, 201);
  });
});
