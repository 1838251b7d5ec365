import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
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

/**
 * `cms-spec …` in a child process without blocking this one: for a test whose server runs in this
 * process. A blocked server closes its idle keep-alive connections as it wakes, under a client that
 * reuses one for its next request (ECONNRESET on a loaded machine).
 */
export async function cmsBeside(args: string[], o: { env?: Record<string, string>; input?: string } = {}): Promise<Ran> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...o.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(o.input ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, stdout, stderr };
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

export interface Serving {
  child: ChildProcess;
  api: string;
  origin: string;
  /** Everything printed so far. */
  out(): string;
  err(): string;
  /** Sends SIGTERM and resolves with the exit code once the process is gone. */
  stop(): Promise<number | null>;
}

/** Starts `cms-spec serve` (no terminal, so the log is off unless asked for), with `env` added to this process's, and waits for its ready line. */
export async function serve(args: string[], env: Record<string, string> = {}): Promise<Serving> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const api = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /^cms-spec listening on (http:\/\/127\.0\.0\.1:\d+\/cms-json\/)(?: \(\d+ workers\))?$/m.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}\n${err}`)));
  });
  return {
    child,
    api,
    origin: new URL(api).origin,
    out: () => out,
    err: () => err,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      return (await exited)[0] as number | null;
    },
  };
}
