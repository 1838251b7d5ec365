import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { lintSpec } from '../../src/engine/lint.ts';
import { userAuth } from '../helpers/auth.ts';
import { useServer } from '../helpers/server.ts';

// The format's shorthands, on a spec of their own (test/fixtures/format): a file's `defaults:`,
// `$use: {set: ..., ...}` with adjusted args, and `index: false`.
const FIXTURE = resolve(import.meta.dirname, '../fixtures/format');
const FORBIDDEN = 'Sorry, you are not allowed to do that.';

describe('spec format', () => {
  const server = useServer({ spec: FIXTURE });

  describe('defaults:', () => {
    test("an endpoint without its own permission gets the file's: 401 anonymous, 403 a subscriber, 200 an editor", async () => {
      await server.error('format/v1/items', {}, 401, 'rest_forbidden', FORBIDDEN);
      const subscriber = await userAuth(server, 'subscriber');
      await server.error('format/v1/items', { auth: subscriber.auth }, 403, 'rest_forbidden', FORBIDDEN);
      const editor = await userAuth(server, 'editor');
      assert.deepEqual(await server.json('format/v1/items', { auth: editor.auth }), { args: { context: 'view', page: 1, per_page: 10 } });
    });

    test("an endpoint's own permission wins over the file's: an editor is refused what only manage_options may do", async () => {
      const editor = await userAuth(server, 'editor');
      await server.error('format/v1/items', { method: 'POST', json: {}, auth: editor.auth }, 403, 'rest_forbidden', FORBIDDEN);
      await server.json('format/v1/items', { method: 'POST', json: {} });
    });

    test("a part (extends:) with a permission default of its own uses it, and keeps the head's params default", async () => {
      assert.deepEqual(await server.json('format/v1/notes/12', { auth: undefined }), { args: { id: '12' } });
      await server.error('format/v1/notes/twelve', {}, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
    });

    test('the index shows the inherited params pattern and allow_batch, and not where an endpoint turns it off', async () => {
      const index = await server.json('format/v1');
      assert.deepEqual(Object.keys(index.routes), ['/format/v1', '/format/v1/items', '/format/v1/items/(?P<id>[\\d]+)', '/format/v1/notes/(?P<id>[\\d]+)']);
      const items = index.routes['/format/v1/items'].endpoints;
      assert.deepEqual(items[0].allow_batch, { v1: true });
      assert.equal('allow_batch' in items[1], false);
      assert.deepEqual(index.routes['/format/v1/notes/(?P<id>[\\d]+)'].endpoints[0].allow_batch, { v1: true });
    });
  });

  describe('$use with adjusted args', () => {
    test('the index shows each adjusted arg in its place: a keyword changed, added, removed, an arg left out', async () => {
      const index = await server.json('format/v1');
      const [list, create] = index.routes['/format/v1/items'].endpoints;
      assert.deepEqual(list.args, {
        context: { description: 'Scope under which the request is made.', type: 'string', enum: ['view', 'embed', 'edit'], default: 'view', required: false },
        page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1, required: false },
        per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 50, required: false },
      });
      assert.deepEqual(create.args, {
        context: { description: 'Scope under which the request is made.', type: 'string', enum: ['view', 'embed', 'edit'], default: 'edit', required: false },
      });
      assert.deepEqual(index.routes['/format/v1/items/(?P<id>[\\d]+)'].endpoints[0].args, {
        per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 5, maximum: 100, required: false },
      });
    });

    test('the adjusted bounds are the ones checked', async () => {
      await server.error('format/v1/items?per_page=60', { auth: server.admin }, 400, 'rest_invalid_param', 'Invalid parameter(s): per_page');
      assert.deepEqual(await server.json('format/v1/items/7?per_page=0'), { args: { per_page: 0, id: '7' } });
    });
  });

  describe('index: false', () => {
    test('the arg is validated and defaulted like any other', async () => {
      await server.error('format/v1/items', { method: 'POST', json: { secret: 0 }, auth: server.admin }, 400, 'rest_invalid_param', 'Invalid parameter(s): secret');
      assert.deepEqual(await server.json('format/v1/items', { method: 'POST', json: {} }), { args: { context: 'edit', secret: 3 } });
      assert.deepEqual(await server.json('format/v1/items', { method: 'POST', json: { secret: 9 } }), { args: { context: 'edit', secret: 9 } });
    });

    test('neither the index nor OPTIONS shows it, nor the `index` keyword anywhere', async () => {
      const index = await (await server.call('format/v1')).text();
      assert.equal(index.includes('secret'), false);
      assert.equal(index.includes('"index"'), false);
      const options = await server.json('format/v1/items', { method: 'OPTIONS' });
      assert.deepEqual(Object.keys(options.endpoints[1].args), ['context']);
      assert.equal(JSON.stringify(options).includes('secret'), false);
    });
  });
});

describe('lint positions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spec-format-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  /** A copy of the fixture with format.yaml edited. */
  const copyWith = (edit: (yaml: string) => string) => {
    cpSync(FIXTURE, dir, { recursive: true });
    const file = join(dir, 'namespaces/format.yaml');
    writeFileSync(file, edit(readFileSync(join(FIXTURE, 'namespaces/format.yaml'), 'utf8')));
    return dir;
  };

  test("adjusting an arg the set does not have is an error where the $use is, naming the set's args", async () => {
    const findings = await lintSpec(copyWith((yaml) => yaml.replace('per_page: { maximum: 50 }', 'perpage: { maximum: 50 }')));
    assert.deepEqual(
      findings.map((f) => `${f.file.replace(/^.*namespaces\//, '')}:${f.line}: ${f.rule}: ${f.message}`),
      ["format.yaml:20: spec-schema: $use of 'paging': the set has no arg 'perpage' (it has page, per_page)"],
    );
  });

  test('a bad permission or pattern in defaults: is reported at the defaults line, once for every endpoint and route (of any part) that inherits it', async () => {
    copyWith((yaml) => yaml.replace('permission: edit_posts', 'permission: edit posts').replace("'[\\d]+'", "'[\\d+'"));
    const findings = (await lintSpec(dir)).filter((f) => f.rule === 'permission-declared' || f.rule === 'path-args');
    const at = findings.map((f) => `${f.file.replace(/^.*namespaces\//, '')}:${f.line} ${f.rule}`);
    assert.deepEqual(at, [
      'format.yaml:6 permission-declared',
      'format.yaml:6 permission-declared',
      'format.yaml:7 path-args',
    ]);
    assert.deepEqual(findings.map((f) => f.message), [
      "permission 'edit posts' of GET /format/v1/items is not a capability, cap_a|cap_b, or public",
      "permission 'edit posts' of GET /format/v1/items/(?P<id>[\\d+) is not a capability, cap_a|cap_b, or public",
      'pattern of {id} does not compile: Invalid regular expression: /^(?:[\\d+)$/: Unterminated character class',
    ]);
  });
});
