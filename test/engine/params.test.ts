import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PARAM_DEPTH, MAX_PARAMS, parseQueryString } from '../../src/engine/params.ts';
import { RestError } from '../../src/engine/errors.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** `a[b][b]…=1` with `depth` bracket pairs. */
const nested = (depth: number) => `a${'[b]'.repeat(depth)}=1`;

describe('parseQueryString limits', () => {
  test('32,000 `a[]=1` make a list of 32,000 items (the next index is tracked, not rescanned)', () => {
    const parsed = parseQueryString(Array(32_000).fill('a[]=1').join('&'));
    assert.ok(Array.isArray(parsed.a));
    assert.equal((parsed.a as unknown[]).length, 32_000);
  });

  test('an explicit index moves the next `[]` index past it, as in PHP', () => {
    assert.deepEqual(parseQueryString('a[]=x&a[5]=y&a[]=z'), { a: { 0: 'x', 5: 'y', 6: 'z' } });
    assert.deepEqual(parseQueryString('a[]=x&a[]=y'), { a: ['x', 'y'] });
  });

  test(`nesting up to ${MAX_PARAM_DEPTH} levels is parsed; one more is a 400 rest_params_too_deep`, () => {
    let node = parseQueryString(nested(MAX_PARAM_DEPTH)).a as Record<string, unknown>;
    for (let i = 1; i < MAX_PARAM_DEPTH; i++) node = node.b as Record<string, unknown>;
    assert.equal(node.b, '1');
    for (const depth of [MAX_PARAM_DEPTH + 1, 20_000]) {
      assert.throws(() => parseQueryString(nested(depth)), (e: unknown) => {
        assert.ok(e instanceof RestError);
        assert.equal(e.status, 400);
        assert.equal(e.code, 'rest_params_too_deep');
        assert.match(e.message, new RegExp(String(MAX_PARAM_DEPTH)));
        return true;
      });
    }
  });

  test(`${MAX_PARAMS} params are parsed; one more is a 400 rest_too_many_params`, () => {
    const at = parseQueryString(Array(MAX_PARAMS).fill('a[]=1').join('&'));
    assert.equal((at.a as unknown[]).length, MAX_PARAMS);
    assert.throws(() => parseQueryString(Array(MAX_PARAMS + 1).fill('a[]=1').join('&')), (e: unknown) => {
      assert.ok(e instanceof RestError);
      assert.equal(e.status, 400);
      assert.equal(e.code, 'rest_too_many_params');
      assert.match(e.message, new RegExp(String(MAX_PARAMS)));
      return true;
    });
  });
});

describe('form bodies over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  // A hang guard, not a speed assertion: the old quadratic parser took about half a minute on this body.
  const HANG = 20_000;
  const form = (body: string) => server.call('cms/v2/posts', { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  test('an anonymous 192 KB form of 32,000 `a[]=1` is refused for want of rights, and the index answers meanwhile', async () => {
    const signal = AbortSignal.timeout(HANG);
    const body = Array(32_000).fill('a[]=1').join('&');
    const posting = fetch(`${server.api}cms/v2/posts`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' }, signal });
    const index = await fetch(server.api, { signal });
    assert.equal(index.status, 200);
    const res = await posting;
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { code: string }).code, 'rest_cannot_create');
  });

  test(`a form nested ${MAX_PARAM_DEPTH} levels deep is parsed and the request answered`, async () => {
    const res = await form(nested(MAX_PARAM_DEPTH));
    assert.equal(res.status, 401);
  });

  test('a form nested 20,000 levels deep is a 400 rest_params_too_deep, not a stack overflow', async () => {
    const res = await form(nested(20_000));
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { code: 'rest_params_too_deep', message: `Parameters may be nested at most ${MAX_PARAM_DEPTH} levels deep.`, data: { status: 400 } });
  });

  test(`a form of more than ${MAX_PARAMS} params is a 400 rest_too_many_params`, async () => {
    const res = await form(Array(MAX_PARAMS + 1).fill('a[]=1').join('&'));
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { code: 'rest_too_many_params', message: `A request may carry at most ${MAX_PARAMS} parameters.`, data: { status: 400 } });
  });
});
