import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from './run.ts';

// the project's own test runs as a person runs it, not as a child of this test run
const { NODE_TEST_CONTEXT: _, ...env } = process.env;
const run = (cwd: string, command: string, args: string[]) => spawnSync(command, args, { cwd, encoding: 'utf8', env });
const checkoutState = () => createHash('sha256').update(readFileSync(join(ROOT, 'package.json'))).update(readFileSync(join(ROOT, 'package-lock.json'))).digest('hex');

describe('cms-spec init', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cms-spec-init-')));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('makes a project that installs this package from its folder, lints, and passes its own test', () => {
    const made = run(dir, process.execPath, [CLI, 'init', 'my-api']);
    assert.equal(made.status, 0, made.stderr);
    const project = join(dir, 'my-api');
    assert.deepEqual(readdirSync(project, { recursive: true }).map(String).sort(), [
      '.gitignore',
      'README.md',
      'handlers',
      'handlers/greetings.ts',
      'package.json',
      'spec',
      'spec/namespaces',
      'spec/namespaces/greetings.yaml',
      'spec/site.yaml',
      'test',
      'test/greetings.test.js',
    ]);
    // the project's code reaches cms-spec through the engine's one entry, never into its files
    const sources = readdirSync(project, { recursive: true }).map(String).filter((f) => /\.(ts|js)$/.test(f));
    const imported = sources.flatMap((f) => [...readFileSync(join(project, f), 'utf8').matchAll(/(?:\bfrom\s+|\bimport\(\s*)'(cms-spec(?:\/[^']*)?)'/g)].map((m) => `${f}: ${m[1]}`));
    assert.deepEqual(imported, ['handlers/greetings.ts: cms-spec/src/engine/index.ts']);

    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    assert.match(manifest.dependencies['cms-spec'], /^file:(\.\.\/)+/);

    // a folder dependency is a link to this checkout: no registry, no download, and the checkout is left as it was
    const before = checkoutState();
    const install = run(project, 'npm', ['install', '--offline', '--install-links=false', '--no-audit', '--no-fund']);
    assert.equal(install.status, 0, install.stderr);
    assert.equal(realpathSync(join(project, 'node_modules/cms-spec')), ROOT);
    assert.equal(checkoutState(), before);

    const tested = run(project, 'npm', ['test']);
    assert.equal(tested.status, 0, tested.stdout + tested.stderr);
    assert.match(tested.stdout, /^0 error\(s\), 0 warning\(s\)$/m, 'npx cms-spec lint ran on the project’s spec');
    assert.match(tested.stdout, /^# pass 3$/m);
    assert.match(tested.stdout, /^# fail 0$/m);
  });

  test('refuses a folder that is not empty', () => {
    const again = run(dir, process.execPath, [CLI, 'init', 'my-api']);
    assert.equal(again.status, 1);
    assert.equal(again.stderr, 'Error: my-api exists and is not empty; init makes a new project in a new or empty folder.\n');
  });
});
