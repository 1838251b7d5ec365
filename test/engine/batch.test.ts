import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { useServer } from '../helpers/server.ts';
import { adminAuth } from '../helpers/auth.ts';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/basic');
const ALLOW = 'GET, POST, PUT, DELETE';

interface SubResponse {
  body: any;
  status: number;
  headers: Record<string, string> | [];
}

describe('POST /cms-json/batch/v1', () => {
  const server = useServer({ spec: FIXTURE });

  const batch = (json: unknown) => server.call('batch/v1', { method: 'POST', json });
  const stored = async (name: string) => {
    const res = await server.call(`fixture/v1/options/${name}`);
    return res.status === 200 ? ((await res.json()) as { value: string }).value : null;
  };
  const locationOf = (name: string) => `${server.api}fixture/v1/options/${name}`;

  test('25 writes: 207, one {body, status, headers} each, and every write stored', async () => {
    const requests = Array.from({ length: 25 }, (_, i) => ({ path: `/fixture/v1/options/k${i}`, body: { value: `v${i}` } }));
    const res = await batch({ requests });
    assert.equal(res.status, 207);
    const body = (await res.json()) as { responses: SubResponse[] };
    assert.deepEqual(Object.keys(body), ['responses']);
    assert.equal(body.responses.length, 25);
    body.responses.forEach((r, i) => {
      assert.deepEqual(Object.keys(r), ['body', 'status', 'headers']);
      assert.deepEqual(r, { body: { name: `k${i}`, value: `v${i}` }, status: 201, headers: { Location: locationOf(`k${i}`), Allow: ALLOW } });
    });
    const list = await server.call(`fixture/v1/options?names=${requests.map((_, i) => `k${i}`).join(',')}`);
    const items = (await list.json()) as { name: string; value: { raw: string } }[];
    assert.deepEqual(items.map((x) => x.value.raw), requests.map((_, i) => `v${i}`));
  });

  test('26 requests are refused whole, exactly as WordPress words it', async () => {
    const requests = Array.from({ length: 26 }, (_, i) => ({ path: `/fixture/v1/options/over${i}`, body: { value: 'x' } }));
    const res = await batch({ requests });
    assert.equal(res.status, 400);
    assert.equal(
      await res.text(),
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): requests","data":{"status":400,"params":{"requests":"requests must contain at most 25 items."},"details":{"requests":{"code":"rest_too_many_items","message":"requests must contain at most 25 items.","data":null}}}}',
    );
    assert.equal(await stored('over0'), null);
  });

  test('{} is a missing requests param', async () => {
    const res = await batch({});
    assert.equal(res.status, 400);
    assert.equal(await res.text(), '{"code":"rest_missing_callback_param","message":"Missing parameter(s): requests","data":{"status":400,"params":["requests"]}}');
  });

  test('a GET inside a batch rejects the whole batch', async () => {
    const res = await batch({ requests: [{ path: '/fixture/v1/options/g1', body: { value: 'x' } }, { method: 'GET', path: '/fixture/v1/echo' }] });
    assert.equal(res.status, 400);
    const body = (await res.json()) as any;
    assert.equal(body.code, 'rest_invalid_param');
    assert.deepEqual(body.data.params, { requests: 'requests[1][method] is not one of POST, PUT, PATCH, and DELETE.' });
    assert.equal(body.data.details.requests.code, 'rest_not_in_enum');
    assert.equal(await stored('g1'), null);
  });

  test('a route without allow_batch gives rest_batch_not_allowed; an unknown path rest_no_route with headers []', async () => {
    const res = await batch({
      requests: [
        { path: '/fixture/v1/unbatched/nb', body: { value: 'x' } },
        { path: '/no/such/route' },
        { method: 'DELETE', path: '/fixture/v1/echo' },
      ],
    });
    assert.equal(res.status, 207);
    const { responses } = (await res.json()) as { responses: SubResponse[] };
    assert.deepEqual(responses[0], {
      body: { code: 'rest_batch_not_allowed', message: 'The requested route does not support batch requests.', data: { status: 400 } },
      status: 400,
      headers: { Allow: 'POST' },
    });
    const noRoute = { body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }, status: 404, headers: [] };
    assert.deepEqual(responses[1], noRoute);
    assert.deepEqual(responses[2], noRoute, 'a known path with a method it lacks');
    assert.equal(await stored('nb'), null);
  });

  test('require-all-validate with one invalid request runs nothing', async () => {
    const res = await batch({
      validation: 'require-all-validate',
      requests: [
        { path: '/fixture/v1/options/rav1', body: { value: 'fine' } },
        { method: 'PUT', path: '/fixture/v1/options/rav2', body: { value: 'x'.repeat(21) } },
      ],
    });
    assert.equal(res.status, 207);
    const message = 'value must be at most 20 characters long.';
    assert.equal(
      await res.text(),
      JSON.stringify({
        failed: 'validation',
        responses: [
          null,
          {
            body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): value', data: { status: 400, params: { value: message }, details: { value: { code: 'rest_too_long', message, data: null } } } },
            status: 400,
            headers: [],
          },
        ],
      }),
    );
    assert.equal(await stored('rav1'), null);
    assert.equal(await stored('rav2'), null);
  });

  test('require-all-validate with every request valid runs them all', async () => {
    const res = await batch({ validation: 'require-all-validate', requests: [{ path: '/fixture/v1/options/ok1', body: { value: 'a' } }, { path: '/fixture/v1/options/ok2', body: { value: 'b' } }] });
    assert.equal(res.status, 207);
    const { responses } = (await res.json()) as { responses: SubResponse[] };
    assert.deepEqual(responses.map((r) => r.status), [201, 201]);
    assert.equal(await stored('ok1'), 'a');
    assert.equal(await stored('ok2'), 'b');
  });

  test('normal mode: mixed statuses, and the valid writes happen', async () => {
    await server.call('fixture/v1/options/mix-old', { method: 'PUT', json: { value: 'before' } });
    const res = await batch({
      requests: [
        { path: '/fixture/v1/options/mix-new', body: { value: 'created' } },
        { method: 'PUT', path: '/fixture/v1/options/mix-old', body: { value: 'updated' } },
        { path: '/fixture/v1/options/mix-bad', body: { value: 'x'.repeat(21) } },
        { method: 'DELETE', path: '/fixture/v1/options/mix-absent' },
        { method: 'PATCH', path: '/fixture/v1/options/mix-new' },
      ],
    });
    assert.equal(res.status, 207);
    const { responses } = (await res.json()) as { responses: SubResponse[] };
    assert.deepEqual(responses.map((r) => r.status), [201, 200, 400, 404, 404]);
    assert.deepEqual(responses[1], { body: { name: 'mix-old', value: 'updated' }, status: 200, headers: { Allow: ALLOW } });
    assert.equal(responses[2].body.code, 'rest_invalid_param');
    assert.deepEqual(responses[2].headers, { Allow: ALLOW }, 'a validation error in normal mode carries Allow');
    assert.deepEqual(responses[3], { body: { code: 'fixture_option_missing', message: 'No option named mix-absent.', data: { status: 404 } }, status: 404, headers: { Allow: ALLOW } });
    assert.equal(responses[4].body.code, 'rest_no_route');
    assert.equal(await stored('mix-new'), 'created');
    assert.equal(await stored('mix-old'), 'updated');
    assert.equal(await stored('mix-bad'), null);
  });

  test('sub-requests run in order and see earlier writes', async () => {
    const res = await batch({
      requests: [
        { path: '/fixture/v1/options/seq', body: { value: 'first' } },
        { method: 'DELETE', path: '/fixture/v1/options/seq' },
        { method: 'DELETE', path: '/fixture/v1/options/seq' },
      ],
    });
    const { responses } = (await res.json()) as { responses: SubResponse[] };
    assert.deepEqual(responses.map((r) => r.status), [201, 200, 404]);
    assert.deepEqual(responses[1].body, { deleted: true, previous: { name: 'seq', value: 'first' } });
    assert.equal(await stored('seq'), null);
  });

  test('a query string in a sub-path is a param source', async () => {
    const res = await batch({ requests: [{ path: '/fixture/v1/options/q1?value=from-query' }, { path: '/fixture/v1/options/q2?value=query', body: { value: 'body' } }] });
    const { responses } = (await res.json()) as { responses: SubResponse[] };
    assert.deepEqual(responses.map((r) => r.status), [201, 201]);
    assert.equal(await stored('q1'), 'from-query');
    assert.equal(await stored('q2'), 'body', 'the body beats the query string');
  });

  test('a scheme and host in a sub-path are dropped', async () => {
    const res = await batch({ requests: [{ path: 'http://example.com/fixture/v1/options/hosted', body: { value: 'here' } }] });
    const { responses } = (await res.json()) as { responses: SubResponse[] };
    assert.equal(responses[0].status, 201);
    assert.equal(await stored('hosted'), 'here');
  });

  test('an item whose path does not parse, or whose query breaks the parser limits, fails alone', async () => {
    const deep = `a${'[b]'.repeat(100)}=1`;
    const res = await batch({
      requests: [
        { path: 'http://[zz/fixture/v1/options/bad', body: { value: 'x' } },
        { path: `/fixture/v1/options/deep?${deep}`, body: { value: 'x' } },
        { path: '/fixture/v1/options/fine', body: { value: 'kept' } },
      ],
    });
    assert.equal(res.status, 207);
    const { responses } = (await res.json()) as { responses: SubResponse[] };
    assert.deepEqual(responses.map((r) => [r.status, r.body.code]), [[400, 'parse_path_failed'], [400, 'rest_params_too_deep'], [201, undefined]]);
    assert.equal(await stored('fine'), 'kept');
  });

  test('permissions are checked per sub-request: 401 anonymous, done for an admin', async () => {
    const requests = [{ path: '/fixture/v1/admin-only', body: { value: 'batched' } }];
    const anonymous = await batch({ requests });
    assert.equal(anonymous.status, 207);
    assert.deepEqual(((await anonymous.json()) as { responses: SubResponse[] }).responses[0], {
      body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } },
      status: 401,
      // no method of the route is allowed: no Allow, so PHP's empty array
      headers: [],
    });
    const auth = await adminAuth(server);
    const admin = await server.call('batch/v1', { method: 'POST', json: { requests }, auth });
    const { responses } = (await admin.json()) as { responses: SubResponse[] };
    assert.equal(responses[0].status, 201);
    assert.deepEqual(responses[0].headers, { Location: locationOf('admin_note'), Allow: 'GET, POST' });
    const read = await server.call('fixture/v1/admin-only', { auth });
    assert.deepEqual(await read.json(), { name: 'admin_note', value: 'batched' });
  });
});
