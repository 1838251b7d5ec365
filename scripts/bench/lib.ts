/** Process plumbing of the benchmark: servers in child processes, autocannon runs, medians, peak RSS. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');
const AUTOCANNON = join(ROOT, 'node_modules/.bin/autocannon');
const LISTENING = /listening on http:\/\/[^:\s]+:(\d+)/;
const READY_TIMEOUT_MS = 120_000;

export interface ServerProcess {
  name: string;
  port: number;
  pid: number;
  /** Milliseconds from spawn to the listening line. */
  readyMs: number;
  /** Everything the process wrote, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns a server that prints `listening on http://host:port...` once ready and resolves with the
 * port. A process that exits or stays silent fails with its output.
 */
export function startServer(name: string, args: string[], env: Record<string, string> = {}): Promise<ServerProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name}: ${why}\n${out}`));
    };
    const timer = setTimeout(() => fail('no listening line in time'), READY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = LISTENING.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      child.removeListener('exit', onEarlyExit);
      resolve({
        name,
        port: Number(m[1]),
        pid: child.pid!,
        readyMs: performance.now() - started,
        output: () => out,
        stop: () => stopChild(child, exited),
      });
    };
    const onEarlyExit = (code: number | null) => fail(`exited with ${code} before listening`);
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', onEarlyExit);
  });
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** The process's peak resident set (VmHWM), in MB; null where /proc is not there. */
export function peakRssMb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * How long a round lasts: so many seconds, or so many requests however long they take. The smoke
 * tests count requests: they prove a scenario runs and reports, and a second of full load per round
 * was most of their time.
 */
export type RoundLength = { seconds: number } | { requests: number };

/** The smoke tests' rounds (`--quick`): enough requests for every contender to answer and store some. */
export const QUICK_ROUND: RoundLength = { requests: 200 };

/** A round's length as the results table says it. */
export const describeRound = (length: RoundLength): string => ('seconds' in length ? `${length.seconds} s` : `${length.requests} requests`);

export interface LoadOptions {
  url: string;
  connections: number;
  length: RoundLength;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Each `[<id>]` in the body replaced by a random id per request (autocannon's -I): posts of distinct titles. */
  idReplacement?: boolean;
}

export interface LoadResult {
  requestsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  /** Answers outside 2xx plus socket errors and timeouts: a run with any is not a valid measurement. */
  failures: number;
}

/** One autocannon run in its own process (`-j`: JSON on stdout). */
export function runLoad(o: LoadOptions): Promise<LoadResult> {
  const args = ['-j', '-c', String(o.connections), ...('seconds' in o.length ? ['-d', String(o.length.seconds)] : ['-a', String(o.length.requests)]), '-m', o.method ?? 'GET'];
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (o.body !== undefined) args.push('-b', o.body);
  if (o.idReplacement) args.push('-I');
  args.push(o.url);
  return new Promise((resolve, reject) => {
    const child = spawn(AUTOCANNON, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}: ${err}`));
      const r = JSON.parse(out) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number; duration: number };
      resolve({
        requestsPerSec: r.requests.total / r.duration,
        latencyP50Ms: r.latency.p50,
        latencyP99Ms: r.latency.p99,
        requests: r.requests.total,
        failures: r.non2xx + r.errors + r.timeouts,
      });
    });
  });
}

export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Runs a CLI command of this project to completion, returning its stdout. */
export function runCli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/cms-spec.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`cms-spec ${args.join(' ')} exited with ${code}: ${err}${out}`))));
  });
}

/**
 * A call to a site's `/wp-json/wp/v2/` (this server's, or a WordPress's) as the user of the
 * Authorization value given: a JSON body is POSTed unless another method is named; an answer that
 * is not 2xx is an error that says what the site answered.
 */
export async function wpApi<T = any>(origin: string, authorization: string, path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const method = init.method ?? (init.json === undefined ? 'GET' : 'POST');
  const res = await fetch(`${origin}/wp-json/wp/v2/${path}`, {
    method,
    headers: { authorization, 'content-type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (!res.ok) throw new Error(`${origin} answered ${method} ${path} with ${res.status}: ${await res.text()}`);
  return res.json() as Promise<T>;
}

/** This server's plugins that stand for parts of WordPress 6.1 itself (the block editor's, oEmbed, site health). */
const WORDPRESS_PARTS = new Set(['block-editor', 'oembed', 'site-health']);

/**
 * Deactivates, over REST, this server's plugins that WordPress 6.1 does not have (the SEO fields,
 * the page builders' routes...), so that a comparison with a bare WordPress asks both for the same
 * interface.
 */
export async function deactivateNonWordPressPlugins(origin: string, authorization: string): Promise<void> {
  for (const p of await wpApi<{ plugin: string; status: string }[]>(origin, authorization, 'plugins')) {
    if (p.status !== 'active' || WORDPRESS_PARTS.has(p.plugin.split('/')[0]!)) continue;
    await wpApi(origin, authorization, `plugins/${p.plugin}`, { method: 'PUT', json: { status: 'inactive' } });
  }
}
