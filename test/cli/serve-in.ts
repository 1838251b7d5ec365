import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { CLI } from './run.ts';

export interface ServingIn {
  api: string;
  /** Everything printed so far. */
  out(): string;
  err(): string;
  /** SIGTERM, resolved once the process is gone. */
  stop(): Promise<void>;
  /** SIGKILL (no shutdown at all: a crash), resolved once the process is gone. */
  kill(): Promise<void>;
}

/** `cms-spec serve --port 0 …` run in a folder (a project, a site of its own), once it says where it listens. */
export async function serveIn(cwd: string, args: string[], env: Record<string, string> = {}): Promise<ServingIn> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c));
  child.stderr.on('data', (c: Buffer) => (err += c));
  const api = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /^cms-spec listening on (\S+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}\n${err}`)));
  });
  const ended = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  return {
    api,
    out: () => out,
    err: () => err,
    stop: () => ended('SIGTERM'),
    kill: () => ended('SIGKILL'),
  };
}
