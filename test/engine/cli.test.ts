import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'bin/cms-spec.js');
const FIXTURE = 'test/fixtures/basic';

/** Resolves with the API root once the process prints its ready line. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^cms-spec listening on (http:\/\/127\.0\.0\.1:\d+\/cms-json\/)$/m.exec(out);
      if (m) resolvePromise(m[1]);
    });
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code} before listening:\n${out}\n${err}`)));
  });
}

describe('cms-spec CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-cli-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('serve prints its address, answers, and on SIGTERM lets an in-flight request finish, then exits 0', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--spec', FIXTURE, '--port', '0', '--db', join(dir, 'site.sqlite')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const api = await listening(child);
      const index = (await (await fetch(api)).json()) as { name: string; routes: Record<string, unknown> };
      assert.equal(index.name, 'Fixture Site');
      assert.ok(index.routes['/fixture/v1/echo']);

      const inFlight = fetch(`${api}fixture/v1/slow?ms=1500&token=t1`);
      // wait until the handler has started (it records that first), so the signal lands mid-request
      for (;;) {
        const res = await fetch(`${api}fixture/v1/options/slow_started`);
        if (res.status === 200 && ((await res.json()) as { value: string }).value === 't1') break;
        await sleep(20);
      }
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const res = await inFlight;
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { waited: 1500 });
      const [code] = await exited;
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  test('routes prints a table of method, route, handler and permission', () => {
    const r = spawnSync(process.execPath, [CLI, 'routes', '--spec', FIXTURE], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^METHODS\s+ROUTE\s+HANDLER\s+PERMISSION$/);
    const rows = lines.slice(1).map((l) => l.split(/\s{2,}/));
    assert.deepEqual(rows[0], ['GET', '/', '@index', 'public']);
    assert.deepEqual(rows[1], ['POST', '/batch/v1', '@batch', 'public']);
    assert.ok(rows.some((c) => c.join('|') === 'GET,POST|/fixture/v1/echo|fixture.echo|public'));
    assert.ok(rows.some((c) => c.join('|') === 'DELETE|/fixture/v1/options/(?P<name>[\\w-]+)|fixture.deleteOption|public'));
    assert.ok(rows.some((c) => c.join('|') === 'POST|/fixture/v1/admin-only|fixture.writeOption|manage_options'));
    assert.ok(!rows.some((c) => c[1] === '/fixture-b/v1/only-b'), 'variant A by default');
    const b = spawnSync(process.execPath, [CLI, 'routes', '--spec', FIXTURE, '--variant', 'b'], { cwd: ROOT, encoding: 'utf8' });
    assert.ok(b.stdout.includes('/fixture-b/v1/only-b'));
    assert.ok(!b.stdout.includes('/fixture/v1/only-a'));
  });
});
