import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from './run.ts';

const NOTICE = `No ./spec here: using the CMS spec of the cms-spec package (${join(ROOT, 'spec')}); pass --spec to use another.`;

describe('cms-spec run from a folder with no ./spec', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cms-spec-anywhere-')));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('lint and routes use the package’s CMS spec and say so once', () => {
    const lint = spawnSync(process.execPath, [CLI, 'lint'], { cwd: dir, encoding: 'utf8' });
    // its findings are the package spec's own (`npm run lint:spec` in the checkout): here it only matters that it ran on it
    assert.equal(lint.stderr, `${NOTICE}\n`);
    assert.match(lint.stdout, /^\d+ error\(s\), \d+ warning\(s\)$/m);
    const routes = spawnSync(process.execPath, [CLI, 'routes', '--namespace', 'oembed/1.0'], { cwd: dir, encoding: 'utf8' });
    assert.equal(routes.stderr, `${NOTICE}\n`);
    assert.equal(routes.stdout.split('\n')[2].replace(/ +/g, ' '), 'GET /oembed/1.0/embed oembed.embed public');
  });

  test('serve answers the CMS API, its database in the working folder; an explicit --spec is not replaced', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    try {
      const api = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const m = /^cms-spec listening on (\S+)$/m.exec(out);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}\n${err}`)));
      });
      const index = (await (await fetch(api)).json()) as { namespaces: string[] };
      assert.equal(index.namespaces.includes('cms/v2'), true);
      const posts = (await (await fetch(`${api}cms/v2/posts`)).json()) as { title: { rendered: string } }[];
      assert.equal(posts[0].title.rendered, 'Hello world!');
      assert.equal(err.split(NOTICE).length - 1, 1, err);
      assert.equal(existsSync(join(dir, '.cms/site.sqlite')), true, 'the database is made in the working folder');
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
    const scaffold = spawnSync(process.execPath, [CLI, 'new', 'plugin', 'notes'], { cwd: dir, encoding: 'utf8' });
    assert.equal(scaffold.status, 1);
    assert.match(scaffold.stderr, /^Error: There is no \.\/spec here: run `cms-spec new plugin` in the site's project, or name its spec folder with --spec\.$/m, 'a plugin is not written into the installed package');
    const missing = spawnSync(process.execPath, [CLI, 'lint', '--spec', 'spec'], { cwd: dir, encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.doesNotMatch(missing.stderr, /No \.\/spec here/);
  });
});
