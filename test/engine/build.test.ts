import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, distIsFresh } from '../../scripts/build.js';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Starts `cms-spec serve` on a new database; resolves with the API root and the first-run app password. */
function serve(dbPath: string): { child: ChildProcess; ready: Promise<{ api: string; auth: string }> } {
  const child = spawn(process.execPath, [join(ROOT, 'bin/cms-spec.js'), 'serve', '--port', '0', '--db', dbPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = new Promise<{ api: string; auth: string }>((resolvePromise, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const api = /^cms-spec listening on (\S+)$/m.exec(out)?.[1];
      const password = /application password:\s+((?:\w{4} ){5}\w{4})/.exec(out)?.[1];
      if (api && password) resolvePromise({ api, auth: basicAuth('admin', password) });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
  return { child, ready };
}

describe('the built dist/', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-build-'));
  let source: TestServer;
  let built: ChildProcess;
  let api: string;
  let auth: string;
  before(async () => {
    if (!distIsFresh()) await build();
    source = await startTestServer();
    const s = serve(join(dir, 'site.sqlite'));
    built = s.child;
    ({ api, auth } = await s.ready);
  });
  after(async () => {
    built.kill();
    await source.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('is fresh after a build, and stale once a source file is changed, added or removed, so an edit is never shadowed by old code', async () => {
    // on a copy of the project, so the other test files' processes keep a steady dist/
    const copy = join(dir, 'project');
    cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true });
    assert.equal(distIsFresh(copy), false, 'never built');
    await build(copy);
    assert.equal(distIsFresh(copy), true);
    assert.ok(existsSync(join(copy, 'dist/handlers/cms-v2/posts.js')));

    const file = join(copy, 'src/config.ts');
    utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    assert.equal(distIsFresh(copy), false, 'changed');
    await build(copy);
    writeFileSync(join(copy, 'src/handlers/extra.ts'), 'export const extra = 1;\n');
    assert.equal(distIsFresh(copy), false, 'added');
    rmSync(join(copy, 'src/handlers/extra.ts'));
    assert.equal(distIsFresh(copy), true);
    rmSync(join(copy, 'src/plugins/oembed/handlers/oembed.ts'));
    assert.equal(distIsFresh(copy), false, 'removed');
  });

  test('serves the same routes as the sources', async () => {
    const routesOf = async (root: string) => Object.keys(((await (await fetch(root)).json()) as { routes: object }).routes);
    assert.deepEqual(await routesOf(api), await routesOf(source.api));
  });

  test('runs the handlers: a snippet is stored and listed, and their REST errors keep their status', async () => {
    const created = await fetch(`${api}code-snippets/v1/snippets`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Built', code: 'console.log(1);', scope: 'site-footer-js' }),
    });
    assert.ok(created.ok, await created.clone().text());
    const list = (await (await fetch(`${api}code-snippets/v1/snippets`, { headers: { authorization: auth } })).json()) as { name: string }[];
    assert.ok(list.some((s) => s.name === 'Built'));

    const missing = await fetch(`${api}cms/v2/posts/999999`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { code: string }).code, 'rest_post_invalid_id');
  });
});
