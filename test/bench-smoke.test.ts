import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { missingService } from './helpers/services.ts';

const root = resolve(import.meta.dirname, '..');
/** Why the PostgreSQL parts cannot run here, or false when a PostgreSQL answers (helpers/services.ts: a machine said to have one fails instead). */
const postgresMissing = await missingService('postgres');

interface Results {
  machine: { nproc: number; node: string };
  scenarios: { id: number; notes: string[]; contenders: { name: string; rounds: number[]; failures: number; problems: string[] }[]; ratios: { perRound: number[] }[]; figures: { value: number }[] }[];
}

/** Runs `bench.ts --quick` with these arguments; the results written, parsed. */
async function quickRun(args: string[]): Promise<{ stdout: string; results: Results }> {
  const out = mkdtempSync(join(tmpdir(), 'cms-spec-bench-smoke-'));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'scripts/bench.ts'), '--quick', '--out', out, ...args], { cwd: root, maxBuffer: 16 << 20 });
    const files = readdirSync(out).filter((f) => f.endsWith('.json'));
    assert.equal(files.length, 1);
    return { stdout, results: JSON.parse(readFileSync(join(out, files[0]), 'utf8')) as Results };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Every contender of every scenario answered, with 2xx only, and stored what it answered. */
function assertRan(results: Results): void {
  for (const s of results.scenarios) {
    // the workers scenario needs a PostgreSQL server; where none answers it says so instead
    if (s.id === 8 && !s.contenders.length) {
      assert.ok(postgresMissing, 'the workers scenario did not run, yet a PostgreSQL answers');
      assert.match(s.notes.join(' '), /^not run: no PostgreSQL answered/);
    }
    else assert.ok(s.contenders.length + s.figures.length > 0, `scenario ${s.id} has figures`);
    for (const c of s.contenders) {
      assert.equal(c.rounds.length, 1, `${c.name} ran one round`);
      assert.ok(c.rounds[0] > 0, `${c.name} answered requests`);
      assert.equal(c.failures, 0, `${c.name} answered every request with 2xx`);
      assert.deepEqual(c.problems, [], `${c.name} stored what it answered`);
    }
    for (const r of s.ratios) assert.ok(r.perRound.every(Number.isFinite));
  }
}

test('npm run bench --quick runs one short round of every scenario and writes the results', { timeout: 600_000 }, async () => {
  const { stdout, results } = await quickRun([]);
  assert.match(stdout, /\| # \| Scenario \|/, 'prints the Markdown table');
  assert.deepEqual(results.scenarios.map((s) => s.id), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
  assert.ok(results.machine.nproc > 0);
  assertRan(results);
});

test('--store postgres runs the content scenarios on PostgreSQL, S10 against a PostgreSQL writer', { timeout: 600_000, skip: postgresMissing }, async () => {
  const { results } = await quickRun(['--only', '9,10,11,12', '--store', 'postgres']);
  assert.deepEqual(results.scenarios.map((s) => s.id), [9, 10, 11, 12]);
  assert.deepEqual(results.scenarios.find((s) => s.id === 10)!.contenders.map((c) => c.name), ['raw, PostgreSQL', 'cms-spec']);
  assertRan(results);
});
