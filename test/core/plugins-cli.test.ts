import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeSpec } from '../../scripts/spec-copy.ts';
import { adminAuth } from '../helpers/auth.ts';
import { ROOT, SPEC, startTestServer } from '../helpers/server.ts';

const EXAMPLES = join(ROOT, 'examples/plugins');

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/cms-spec.js'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('cms-spec plugin list|activate|deactivate and the plugins’ own commands', () => {
  let dir: string;
  let db: string;
  let spec: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-spec-plugin-cli-'));
    db = join(dir, 'site.sqlite');
    spec = composeSpec(SPEC, join(dir, 'spec'), {
      plugins: [join(ROOT, 'src/plugins'), EXAMPLES],
      extraNamespaces: [{ file: join(EXAMPLES, 'hello/hello.yaml'), handlers: join(EXAMPLES, 'hello/handlers') }],
    });
    // a site installs on its first start; the commands work on an installed site
    const server = await startTestServer({ spec, dbPath: db });
    assert.equal((await server.call('hello/v1/notes', { json: { text: 'from the API' }, auth: await adminAuth(server) })).status, 201);
    await server.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const statuses = () => {
    const r = cli('plugin', 'list', '--format', 'json', '--db', db, '--spec', spec);
    assert.equal(r.code, 0, r.err);
    return Object.fromEntries((JSON.parse(r.out) as { name: string; status: string }[]).map((p) => [p.name, p.status]));
  };

  test('list shows every installed plugin with its status, as a table or JSON', () => {
    assert.deepEqual(statuses(), { 'code-snippets': 'active', hello: 'active', oembed: 'active', seo: 'active' });
    const table = cli('plugin', 'list', '--db', db, '--spec', spec);
    assert.match(table.out, /^name\s+status\s+version\s+title$/m);
    assert.match(table.out, /^hello\s+active\s+1\.0\.0\s+Hello Notes$/m);
  });

  test('deactivate and activate change the stored state; a plugin’s commands run only while it is active', () => {
    assert.equal(cli('hello', '--db', db, '--spec', spec).out.trim(), 'from the API');
    const off = cli('plugin', 'deactivate', 'hello', '--db', db, '--spec', spec);
    assert.equal(off.code, 0, off.err);
    assert.equal(off.out.trim(), 'Plugin Hello Notes (hello/hello) deactivated.');
    assert.equal(statuses().hello, 'inactive');
    const refused = cli('hello', '--db', db, '--spec', spec);
    assert.equal(refused.code, 1);
    assert.equal(refused.err.trim(), 'Error: The plugin hello is not active. Run `cms-spec plugin activate hello` first.');
    assert.equal(cli('plugin', 'deactivate', 'hello', '--db', db, '--spec', spec).out.trim(), 'Plugin Hello Notes (hello/hello) is already inactive.');
    assert.equal(cli('plugin', 'activate', 'hello/hello', '--db', db, '--spec', spec).code, 0);
    assert.equal(statuses().hello, 'active');
    assert.equal(cli('hello', '--db', db, '--spec', spec).out.trim(), 'from the API', 'its data stayed');
  });

  test('friendly errors: an unknown plugin, a database that holds no site', () => {
    const unknown = cli('plugin', 'activate', 'nope', '--db', db, '--spec', spec);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.err.trim(), 'Error: There is no plugin "nope". `cms-spec plugin list` shows the installed ones.');
    const missing = join(dir, 'missing.sqlite');
    const noSite = cli('plugin', 'list', '--db', missing);
    assert.equal(noSite.code, 1);
    assert.equal(noSite.err.trim(), `Error: The database ${missing} holds no site yet. Run \`cms-spec serve --db ${missing}\` once to install it.`);
  });
});
