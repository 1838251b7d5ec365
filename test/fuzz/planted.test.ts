import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth } from '../helpers/auth.ts';
import { indexedRoutes } from './support.ts';
import { fuzzRoutes } from './plan.ts';

// The fuzz can fail: run over a spec whose routes fail on some inputs only (test/fixtures/fuzz-planted),
// it finds each failure: a 500 that needs another arg's enum value (`mode=deep`) beside a hostile
// number, a 500 from a malformed URL inside markup, and a 400 that carries an internal error's text.
const FIXTURE = resolve(import.meta.dirname, '../fixtures/fuzz-planted');

describe('the fuzz on routes with planted failures', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ spec: FIXTURE });
  });
  after(() => server.close());

  it('reports each planted failure, and nothing on the route that has none', async () => {
    const routes = (await indexedRoutes(server)).filter((r) => r.key.startsWith('/planted/v1/'));
    assert.equal(routes.length, 4);
    const { problems } = await fuzzRoutes(server, routes, [{ name: 'anonymous' }, { name: 'administrator', auth: await adminAuth(server) }], { byName: {}, byCollection: {} }, ['a', 'b']);
    const found = (pattern: RegExp) => problems.filter((p) => pattern.test(p));
    assert.ok(found(/^\w+ GET \/planted\/v1\/items page=.* \(context \d\): 500 /).length > 0, problems.join('\n'));
    assert.ok(found(/^\w+ POST \/planted\/v1\/render content=.*: 500 /).length > 0, problems.join('\n'));
    assert.ok(found(/^\w+ GET \/planted\/v1\/leaky filter=.*: 400 leaks internal text \(.*SyntaxError: /).length > 0, problems.join('\n'));
    assert.deepEqual(found(/\/planted\/v1\/clean/), []);
    assert.ok(problems.every((p) => /\/planted\/v1\/(items|render|leaky)/.test(p)), problems.join('\n'));
  });
});
