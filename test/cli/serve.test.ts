import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fails, ok, serve } from './run.ts';

/** Waits until `text()` matches, for output that arrives after a request finished. */
async function eventually(text: () => string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 200 && !pattern.test(text()); i++) await new Promise((r) => setTimeout(r, 10));
  assert.match(text(), pattern);
  return text();
}

describe('cms-spec serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-serve-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('friendly errors: port in use, bad port, bad body limit, unreadable database, no spec', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    try {
      fails(['serve', '--port', String(port), '--db', join(dir, 'a.sqlite')], new RegExp(`^Error: Port ${port} on 127\\.0\\.0\\.1 is already in use\\. Stop the program using it, or pick another port with --port`));
    } finally {
      taken.close();
    }
    fails(['serve', '--port', 'eighty', '--db', join(dir, 'a.sqlite')], /^Error: --port takes a whole number from 0 to 65535 \(0 picks a free port\), not "eighty"\.$/);
    fails(['serve', '--port', '70000', '--db', join(dir, 'a.sqlite')], /not "70000"/);
    fails(['serve', '--port', '0', '--body-limit', 'lots', '--db', join(dir, 'a.sqlite')], /^Error: --body-limit takes a number of bytes/);
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    fails(['serve', '--port', '0', '--db', folder], /^Error: Cannot open the database ".*a-folder": .+\. Check that --db names a cms-spec SQLite file/);
    const text = join(dir, 'text.sqlite');
    writeFileSync(text, 'plain text, not SQLite '.repeat(100));
    fails(['serve', '--port', '0', '--db', text], /file is not a database/);
    fails(['serve', '--port', '0', '--spec', join(dir, 'nowhere'), '--db', join(dir, 'a.sqlite')], /^Error: There is no spec in ".*nowhere" \(no site\.yaml there\)\. Pass --spec with the folder that holds site\.yaml/);
  });

  test('--log-format json: a line per request with method, path, status and time; no credential in it', async () => {
    const s = await serve(['--db', join(dir, 'json.sqlite'), '--log-format', 'json']);
    try {
      await (await fetch(`${s.origin}/?s=tea&api_key=SECRET1&x=1`, { headers: { authorization: 'Basic U0VDUkVUMjpwdw==' } })).text();
      await (await fetch(`${s.api}cms/v2/posts?access_jwt=SECRET3&Password=SECRET4&code=SECRET5`)).text();
      await (await fetch(`${s.origin}/no-such-page/`)).text();
      const out = await eventually(s.out, /no-such-page/);
      const lines = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
      const access = lines.filter((l) => l.method);
      assert.deepEqual(access.map((l) => [l.method, l.path, l.status]), [
        ['GET', '/?s=tea&api_key=[redacted]&x=1', 200],
        ['GET', '/cms-json/cms/v2/posts?access_jwt=[redacted]&Password=[redacted]&code=[redacted]', 200],
        ['GET', '/no-such-page/', 404],
      ]);
      for (const l of access) assert.equal(typeof l.ms, 'number');
      assert.equal(typeof access[0].time, 'string', 'pino’s timestamp');
      assert.doesNotMatch(out + s.err(), /SECRET|U0VDUkVUMjpwdw/, 'no credential is logged');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('--log-format pretty prints readable lines; with no terminal the log is off by default', async () => {
    const pretty = await serve(['--db', join(dir, 'pretty.sqlite'), '--log-format', 'pretty']);
    try {
      await (await fetch(`${pretty.origin}/feed/`)).text();
      await eventually(pretty.out, /INFO.*GET \/feed\/ 200 \d+\.\d ms/);
    } finally {
      await pretty.stop();
    }
    const quiet = await serve(['--db', join(dir, 'pretty.sqlite')]);
    try {
      await (await fetch(`${quiet.origin}/feed/`)).text();
      await quiet.stop();
      assert.doesNotMatch(quiet.out(), /GET \/feed\//);
    } finally {
      await quiet.stop();
    }
  });

  /** Serves a database whose address is unset: the server takes its listen address for links and the stylesheet, warns of nothing, and stores it. */
  async function firstServeTakesItsAddress(db: string): Promise<void> {
    assert.equal(ok(['option', 'get', 'home', '--db', db]).trim(), '');
    const served = await serve(['--db', db]);
    try {
      const page = await (await fetch(`${served.origin}/`)).text();
      assert.ok(page.includes(`<link rel="stylesheet" id="theme-style" href="${served.origin}/cms-content/themes/default/style.css?ver=`), page.slice(0, 2000));
      assert.equal(((await (await fetch(served.api)).json()) as { home: string }).home, served.origin);
      assert.doesNotMatch(served.out(), /New site installed/, 'it was installed before: no second admin password');
    } finally {
      await served.stop();
    }
    assert.doesNotMatch(served.err(), /Warning:/);
    assert.equal(ok(['option', 'get', 'siteurl', '--db', db]).trim(), served.origin);
  }

  test('seed on a new file leaves the address to the first serve, which takes its listen address', async () => {
    const db = join(dir, 'seeded.sqlite');
    assert.match(ok(['seed', '--posts', '3', '--seed-random', '4', '--db', db]), /^New site installed \(its address is set by the first `cms-spec serve`\)\. The admin account password, shown only this once: \S+$/m);
    await firstServeTakesItsAddress(db);
  });

  test('import into a new file of a site that has no address yet leaves it to the first serve too', async () => {
    const source = join(dir, 'to-export.sqlite');
    ok(['seed', '--posts', '2', '--db', source]);
    const file = join(dir, 'site.jsonl');
    ok(['export', '--db', source, '--out', file]);
    const db = join(dir, 'imported.sqlite');
    assert.match(ok(['import', '--db', db, file]), /^Imported [\d,]+ rows of \d+ tables into /m);
    await firstServeTakesItsAddress(db);
  });

  test('a database made for another address: a one-line warning with the fix; after the fix, none', async () => {
    const db = join(dir, 'moved.sqlite');
    assert.match(ok(['seed', '--posts', '1', '--db', db, '--url', 'http://127.0.0.1:1']), /^New site installed at http:\/\/127\.0\.0\.1:1\. .*\nSeeded 1 post, \d+ categories, \d+ tags and \d+ authors in [\d.]+ s\.$/m);
    const first = await serve(['--db', db]);
    let origin: string;
    try {
      origin = first.origin;
      const warning = (await eventually(first.err, /^Warning:.*\n/m)).split('\n').filter((l) => l.startsWith('Warning:'));
      assert.equal(warning.length, 1, first.err());
      assert.ok(warning[0].includes(`the site's address (option home) is http://127.0.0.1:1 but the server listens on ${origin}`), warning[0]);
      assert.ok(warning[0].includes(`cms-spec option update home ${origin} --db ${db} && cms-spec option update siteurl ${origin} --db ${db}`), warning[0]);
    } finally {
      await first.stop();
    }
    ok(['option', 'update', 'home', origin, '--db', db]);
    ok(['option', 'update', 'siteurl', origin, '--db', db]);
    // the later --port wins over serve()'s --port 0
    const second = await serve(['--db', db, '--port', new URL(origin).port]);
    try {
      const index = (await (await fetch(second.api)).json()) as { home: string };
      assert.equal(index.home, origin);
    } finally {
      await second.stop();
    }
    assert.doesNotMatch(second.err(), /Warning:/, 'everything it printed, once it has stopped');
  });

  test('--workers 2: one port and database for both, a dead worker replaced, the warning said once, all stopped on SIGTERM', async () => {
    const db = join(dir, 'workers.sqlite');
    ok(['seed', '--posts', '3', '--db', db, '--url', 'http://127.0.0.1:1']);
    const s = await serve(['--db', db, '--workers', '2']);
    try {
      assert.match(s.out(), /listening on .* \(2 workers\)$/m);
      // the primary's children that are workers (tsx also runs an esbuild service beside them)
      const workers = () =>
        execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(s.child.pid)])
          .toString()
          .trim()
          .split('\n')
          .filter((l) => !/esbuild/.test(l))
          .map((l) => Number(l.trim().split(/\s+/)[0]));
      assert.equal(workers().length, 2);
      // many connections at once: both workers answer, from the same database
      const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${s.api}cms/v2/posts`, { headers: { connection: 'close' } })));
      const totals = new Set<string | null>();
      for (const res of answers) {
        assert.equal(res.status, 200);
        totals.add(res.headers.get('x-wp-total'));
        await res.text();
      }
      assert.equal(totals.size, 1, 'every answer counts the same posts');
      assert.ok(Number([...totals][0]) >= 3, 'the seeded posts');
      const [victim] = workers();
      process.kill(victim, 'SIGKILL');
      await eventually(s.err, new RegExp(`worker ${victim} stopped \\(SIGKILL\\); starting another`));
      for (let i = 0; i < 200 && !(workers().length === 2 && !workers().includes(victim)); i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(workers().length, 2, 'the dead worker was replaced');
      assert.equal((await fetch(`${s.api}cms/v2/posts`)).status, 200);
      const warnings = s.err().split('\n').filter((l) => l.startsWith('Warning:'));
      assert.equal(warnings.length, 1, `the address warning, once for all workers: ${s.err()}`);
    } finally {
      assert.equal(await s.stop(), 0);
    }
    assert.match(s.out(), /^SIGTERM: stopping 2 workers; each lets its requests in flight finish\.$/m);
    assert.match(s.out(), /^Stopped: all 2 workers finished their requests and closed\.$/m);
  });

  test('SIGTERM: says what it waits for and that it stopped', async () => {
    const s = await serve(['--db', join(dir, 'stop.sqlite')]);
    const keepAlive = await fetch(s.api);
    await keepAlive.text();
    assert.equal(await s.stop(), 0);
    assert.match(s.out(), /^SIGTERM: shutting down; waiting up to 10\.0 s for 0 requests in flight, closing \d+ idle connections? \(SIGTERM again stops at once\)\.$/m);
    assert.match(s.out(), /^Stopped after \d+\.\d s: 0 requests finished while waiting; the database is closed\.$/m);
  });
});
