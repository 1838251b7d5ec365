import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeSpec } from '../../scripts/spec-copy.ts';
import { CLI, ROOT } from './run.ts';
import { serveIn } from './serve-in.ts';

/** A site of its own: this spec, with a plugins folder of its own before the package's. */
function siteIn(dir: string): void {
  mkdirSync(join(dir, 'plugins'));
  composeSpec(join(ROOT, 'spec'), join(dir, 'spec'), { plugins: [join(dir, 'plugins'), join(ROOT, 'src/plugins')] });
  // its TypeScript is ES modules, as in any project made with `cms-spec init`
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
}

const cmsIn = (dir: string, args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8' });

describe('cms-spec new plugin', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cms-spec-new-plugin-')));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('scaffolds a plugin that lints, passes its own test, and is active at once on the site being served', async () => {
    siteIn(dir);
    // no --watch: the activation alone tells the running server (SQLite's data_version, then the plugins' version)
    const server = await serveIn(dir, ['--db', 'site.sqlite']);
    try {
      const before = await fetch(`${server.api}my-notes/v1/items`);
      assert.equal(before.status, 404);

      const made = cmsIn(dir, ['new', 'plugin', 'my-notes', '--db', 'site.sqlite']);
      assert.equal(made.status, 0, made.stderr);
      assert.equal(
        made.stdout,
        [
          'Plugin my-notes created:',
          '  plugins/my-notes/handlers/items.ts',
          '  plugins/my-notes/migrations.ts',
          '  plugins/my-notes/plugin.ts',
          '  plugins/my-notes/repo.ts',
          '  spec/namespaces/my-notes.yaml',
          '  test/plugins/my-notes/my-notes.test.ts',
          'Plugin my-notes activated on site.sqlite; a `cms-spec serve` running on it serves my-notes/v1 from its next request.',
          '',
        ].join('\n'),
      );

      // the running server finds the folder and the namespace file, and serves the plugin without a restart
      const res = await fetch(`${server.api}my-notes/v1/items`);
      assert.equal(res.status, 200, server.err());
      assert.deepEqual(await res.json(), []);
    } finally {
      await server.stop();
    }

    const list = cmsIn(dir, ['plugin', 'list', '--db', 'site.sqlite', '--format', 'json']);
    const mine = (JSON.parse(list.stdout) as { name: string; status: string }[]).find((p) => p.name === 'my-notes');
    assert.deepEqual(mine && { name: mine.name, status: mine.status }, { name: 'my-notes', status: 'active' });

    const lint = cmsIn(dir, ['lint', '--format', 'json']);
    const findings = (JSON.parse(lint.stdout) as { file: string }[]).filter((f) => f.file.includes('my-notes'));
    assert.deepEqual(findings, [], 'no lint finding in the new plugin’s files');

    // run as a person runs it, not as a child of this test run (NODE_TEST_CONTEXT would make it report to us)
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const own = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', join(dir, 'test/plugins/my-notes/my-notes.test.ts')], { cwd: ROOT, encoding: 'utf8', env });
    assert.equal(own.status, 0, own.stdout + own.stderr);
    assert.match(own.stdout, /^# pass 2$/m);
  });

  test('refuses a name that is taken or malformed, writing nothing', () => {
    const files = () => readdirSync(join(dir, 'plugins')).sort();
    const before = files();
    const again = cmsIn(dir, ['new', 'plugin', 'my-notes', '--db', 'site.sqlite']);
    assert.equal(again.status, 1);
    assert.equal(again.stderr, 'Error: The spec declares the namespace my-notes/v1 already.\n');
    const bad = cmsIn(dir, ['new', 'plugin', 'My_Notes']);
    assert.equal(bad.stderr, 'Error: A plugin\'s name is lower-case letters, digits and hyphens (my-plugin), not "My_Notes".\n');
    assert.deepEqual(files(), before);
    assert.equal(existsSync(join(dir, 'spec/namespaces/My_Notes.yaml')), false);
  });
});
