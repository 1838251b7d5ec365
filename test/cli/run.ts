import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'bin/cms-spec.js');

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cms-spec …` as a user would (no terminal), with the database given. */
export function cms(args: string[], input?: string): Ran {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', input });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A command that must succeed; its standard output. */
export function ok(args: string[], input?: string): string {
  const r = cms(args, input);
  assert.equal(r.status, 0, `cms-spec ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
}

/** A command that must fail the friendly way: exit 1 and exactly one `Error:` line, no stack trace. */
export function fails(args: string[], message: RegExp): Ran {
  const r = cms(args);
  assert.equal(r.status, 1, `cms-spec ${args.join(' ')} should fail:\n${r.stdout}\n${r.stderr}`);
  // warnings and the progress lines of long work (src/cli/progress.ts) may come before it
  const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('Warning:') && !/^\w+ \d+\/\d+ \w+ \([\d.]+s\)$/.test(l));
  assert.equal(lines.length, 1, `one line, not:\n${r.stderr}`);
  assert.match(lines[0], /^Error: /);
  assert.match(lines[0], message);
  assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
  return r;
}
