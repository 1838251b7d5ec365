import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// `npm test`'s runner and reporter (scripts/run-tests.js, scripts/test-reporter.js) on two tiny
// test files of their own, one passing and one failing: one line per file, a failed file's
// details, and in CI (CI=true) node's TAP of the failed file, not of the passing one.

const ROOT = resolve(import.meta.dirname, '../..');
const RUNNER = join(ROOT, 'scripts/run-tests.js');
// plain JavaScript, as the runner that imports it runs without tsx
const { storePassOf } = (await import(join(ROOT, 'scripts/test-groups.js'))) as { storePassOf(file: string): 'postgres' | 'sqlite' | undefined };

const PASSING = `import { test } from 'node:test';
test('adds', () => {});
`;
const FAILING = `import { test } from 'node:test';
import assert from 'node:assert/strict';
test('compares', () => {
  console.log('a line it printed');
  assert.equal(1 + 1, 3);
});
test('passes too', () => {});
`;

describe('the test runner and its reporter', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-runner-'));
  before(() => {
    writeFileSync(join(dir, 'passing.test.ts'), PASSING);
    writeFileSync(join(dir, 'failing.test.ts'), FAILING);
    // the runner loads tsx from the folder it runs in
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The runner on the files, in the folder, on SQLite alone, as a run outside any test would be (CI set or not). */
  function runTests(files: string[], ci: boolean) {
    const env: Record<string, string | undefined> = { ...process.env, CI: ci ? 'true' : undefined };
    // this file runs under node --test itself: its context, store and reporter are not the fixtures'
    for (const name of ['NODE_TEST_CONTEXT', 'CMS_SPEC_TEST_STORE', 'CMS_SPEC_TEST_PG', 'DATABASE_URL', 'CMS_SPEC_TEST_REPORTER']) delete env[name];
    const r = spawnSync(process.execPath, [RUNNER, ...files], { cwd: dir, encoding: 'utf8', env });
    return { status: r.status, out: r.stdout, err: r.stderr };
  }

  const PASSING_LINE = /^ok {3}passing\.test\.ts {2}\(1 passed, [\d.]+ s\)$/m;
  const FAILING_LINE = /^FAIL failing\.test\.ts {2}\(1 passed, 1 failed, [\d.]+ s\)$/m;

  test('one line per file, a failed file with its failed test, the error and what it printed; no TAP outside CI', () => {
    const r = runTests(['passing.test.ts', 'failing.test.ts'], false);
    assert.equal(r.status, 1, r.out + r.err);
    assert.match(r.out, PASSING_LINE);
    assert.match(r.out, FAILING_LINE);
    const details = r.out.slice(r.out.search(FAILING_LINE)).split('\n');
    assert.equal(details[1], '    ✗ compares');
    assert.ok(r.out.includes('      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n      \n      2 !== 3\n'), r.out);
    assert.ok(r.out.includes('    what it printed:\n      a line it printed\n'), r.out);
    assert.doesNotMatch(r.out, /TAP version 13/);
    assert.match(r.out, /^# pass 2\n# fail 1$/m);
    assert.match(r.out, /^Stores tested:\n {2}sqlite: 2 test files, FAILED$/m);
  });

  test("in CI a failed file's details end with node's TAP of that file, and a passing file's is not printed", () => {
    const r = runTests(['passing.test.ts', 'failing.test.ts'], true);
    assert.equal(r.status, 1, r.out + r.err);
    assert.match(r.out, PASSING_LINE);
    const failed = r.out.slice(r.out.search(FAILING_LINE));
    const tap = failed.slice(failed.indexOf("    node's TAP of the file:\n"));
    assert.ok(tap.length < failed.length, failed);
    assert.match(tap, /^ {6}TAP version 13\n {6}# a line it printed\n {6}# Subtest: compares\n {6}not ok 1 - compares\n/m);
    assert.match(tap, /^ {8}failureType: 'testCodeFailure'$/m);
    assert.match(tap, /^ {6}ok 2 - passes too$/m);
    assert.doesNotMatch(r.out, /# Subtest: adds/, "the passing file's TAP is not printed");
    assert.equal(r.out.match(/TAP version 13/g)!.length, 1);
  });

  test('in CI a passing run prints its lines and no TAP, and exits 0', () => {
    const r = runTests(['passing.test.ts'], true);
    assert.equal(r.status, 0, r.out + r.err);
    assert.match(r.out, PASSING_LINE);
    assert.doesNotMatch(r.out, /TAP version|node's TAP/);
    assert.match(r.out, /^Stores tested:\n {2}sqlite: 1 test files, passed$/m);
  });

  test('a file that starts a server and is in neither list of scripts/test-groups.js stops the run before anything runs', () => {
    writeFileSync(join(dir, 'serving.test.ts'), "import { useServer } from './helpers/server.ts';\n");
    const r = runTests(['passing.test.ts', 'serving.test.ts'], false);
    assert.equal(r.status, 1, r.out + r.err);
    assert.match(r.err, /^serving\.test\.ts starts a server or opens a database: list it in scripts\/test-groups\.js, in ON_POSTGRES if its behaviour depends on the store, else in SQLITE_ONLY$/m);
    assert.doesNotMatch(r.out, /passing\.test\.ts|Stores tested/);
  });
});

test('the PostgreSQL pass takes the most specific entry of scripts/test-groups.js', () => {
  assert.equal(storePassOf('test/cms-v2/posts.test.ts'), 'postgres', 'in a folder on PostgreSQL');
  assert.equal(storePassOf('test/cms-v2/index-parity.test.ts'), 'sqlite', 'a file of that folder on SQLite only');
  assert.equal(storePassOf('test/engine/batch.test.ts'), 'postgres', 'a file of a SQLite-only folder on PostgreSQL');
  assert.equal(storePassOf('test/engine/args.test.ts'), 'sqlite');
  assert.equal(storePassOf('test/elsewhere/new.test.ts'), undefined, 'a file no entry names');
});
