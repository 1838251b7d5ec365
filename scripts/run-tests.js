// Runs the test files under test/ (or the ones named) with node:test (Node 20 does not expand **
// globs itself): every file on SQLite, then, when CMS_SPEC_TEST_PG (or DATABASE_URL) names a
// PostgreSQL database, the files whose behaviour depends on the store again on PostgreSQL (each
// test database a schema of it, see test/helpers/store.ts): scripts/test-groups.js lists them, and
// every file that starts a server or opens a database must be in that list or in its SQLite-only
// one. `--quick` runs test-groups.js's quick files (no server, no browser, no database).
// CMS_SPEC_TEST_STORE=postgres runs the files on PostgreSQL only. Prints one line per file
// (CMS_SPEC_TEST_REPORTER=tap for node's TAP; in CI, a failed file's TAP after its details, see
// test-reporter.js) and which stores ran; fails if any pass failed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { longestFirst, QUICK, storePassOf, unmatchedPaths } from './test-groups.js';
import { build, distIsFresh } from './build.js';
import { builtTestOf, builtTestsAreFresh, buildTests } from './build-tests.js';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'fixtures' || name === 'node_modules') return [];
    return statSync(p).isDirectory() ? find(p) : name.endsWith('.test.ts') ? [p] : [];
  });
}

/** What a test reaches the store through: a server, a test database, the store itself, or the CLI on a database (a file that does must be classified in test-groups.js). */
const STORE_USE = /helpers\/(server|store)\.ts|src\/store\/|src\/app\.ts|\/run\.ts'/;
const RELATIVE_IMPORT = /from '(\.{1,2}\/[^']+\.ts)'/g;

/** Whether a test file, or a test module it imports, may use the store. */
function touchesStore(file, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (STORE_USE.test(text)) return true;
  for (const [, spec] of text.matchAll(RELATIVE_IMPORT)) {
    const target = resolve(dirname(file), spec);
    if (target.includes(`${join('/', 'test', '')}`) && touchesStore(target, seen)) return true;
  }
  return false;
}

// one line per test file, the failures in full (scripts/test-reporter.js); CMS_SPEC_TEST_REPORTER=tap or spec for node's own
const REPORTER = process.env.CMS_SPEC_TEST_REPORTER ?? fileURLToPath(new URL('./test-reporter.js', import.meta.url));

// one file more than the machine has cores: most of a file's time is its server's work, but files
// also wait (on a command they ran, a browser, a timer, PostgreSQL), and with one file per core
// the cores were idle 12 % of the SQLite pass; with one more, 5 %, and the pass took 473 s, not 500
const CONCURRENCY = Math.max(2, availableParallelism()) + 1;

// node:test's async tracking without its per-promise cost, in each file's process
const PROMISE_TRACKING = ['--import', new URL('./test-promise-tracking.js', import.meta.url).href];
// a test file outside test/ (the runner's own test writes some): TypeScript through tsx, src/ from
// its dist/ twins (test-built-sources.js)
const SOURCE_LOADERS = ['--import', 'tsx', '--import', new URL('./test-built-sources.js', import.meta.url).href];

/**
 * Runs the files in node:test, each in a process of its own: the files of test/ as built
 * (build-tests.js: no module loader in their processes), or, when any file is from elsewhere,
 * every file from its TypeScript through the loaders.
 */
function run(files, env) {
  const built = files.map((f) => builtTestOf(resolve(f)));
  const args = built.every(Boolean) ? [...PROMISE_TRACKING, ...built] : [...SOURCE_LOADERS, ...PROMISE_TRACKING, ...files];
  const r = spawnSync(process.execPath, ['--test', `--test-concurrency=${CONCURRENCY}`, `--test-reporter=${REPORTER}`, ...args], { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

const rel = (f) => relative(process.cwd(), resolve(f)).split('\\').join('/');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.filter((a) => a !== '--quick');
const everything = !quick && !only.length;
// the longest files start first (test-groups.js), so that no worker is left alone with one at the end
const files = quick ? QUICK : longestFirst(only.length ? only.map(rel) : find('test'));
const postgres = process.env.CMS_SPEC_TEST_PG ?? process.env.DATABASE_URL;

// the lists are reviewed by hand: a file that may use the store and is in neither, or a listed path
// that names no file, stops the run rather than being guessed
const unclassified = files.filter((f) => storePassOf(rel(f)) === undefined && touchesStore(resolve(f)));
const stale = everything ? unmatchedPaths(files.map(rel)) : [];
if (unclassified.length || stale.length) {
  for (const f of unclassified) console.error(`${rel(f)} starts a server or opens a database: list it in scripts/test-groups.js, in ON_POSTGRES if its behaviour depends on the store, else in SQLITE_ONLY`);
  for (const p of stale) console.error(`scripts/test-groups.js names ${p}, which is no test file or folder`);
  process.exit(1);
}

// the files run src/ as built (dist/), and themselves as built (.built-tests/): each built now if
// its sources changed since, once for every file
if (!distIsFresh()) {
  console.log('building dist/ from src/ (the tests run the built sources)...');
  await build();
}
if (!builtTestsAreFresh()) await buildTests();

const passes = [];
if (process.env.CMS_SPEC_TEST_STORE === 'postgres') {
  // asked for PostgreSQL alone (while working on the store): the files as given, on it only
  passes.push({ store: 'postgres', files, status: run(files, {}) });
} else {
  passes.push({ store: 'sqlite', files, status: run(files, { CMS_SPEC_TEST_STORE: 'sqlite' }) });
  if (postgres && !quick) {
    const onPostgres = files.filter((f) => storePassOf(rel(f)) === 'postgres');
    passes.push({ store: 'postgres', files: onPostgres, status: onPostgres.length ? run(onPostgres, { CMS_SPEC_TEST_STORE: 'postgres', CMS_SPEC_TEST_PG: postgres }) : 0 });
  }
}

console.log('\nStores tested:');
for (const p of passes) console.log(`  ${p.store}: ${p.files.length} test files, ${p.status === 0 ? 'passed' : 'FAILED'}`);
if (!passes.some((p) => p.store === 'postgres')) console.log('  postgres: not run (set CMS_SPEC_TEST_PG=postgres://user@host:port/db to run the store tests on PostgreSQL too)');
process.exit(passes.every((p) => p.status === 0) ? 0 : 1);
