import cluster, { type Worker } from 'node:cluster';
import { plural } from './output.ts';

/** What a worker tells the primary. */
export type WorkerMessage = { type: 'listening'; url: string } | { type: 'failed'; message: string } | { type: 'warning'; message: string };


/**
 * `serve --workers N`: the primary prepares the database once (migrations, plugins' migrations),
 * then forks N workers, which share the listening socket (node:cluster) and the database. It says
 * once where the site listens, replaces a worker that dies, and on SIGINT/SIGTERM stops every
 * worker gracefully (each lets its requests finish until its deadline) before it exits.
 */
export async function runPrimary(workers: number, prepare: () => Promise<void>): Promise<void> {
  await prepare();
  let stopping = false;
  let listening = 0;
  let announced = false;
  // every worker finds the same thing to warn about (the site's address): said once
  const warned = new Set<string>();
  const fork = () => {
    const worker = cluster.fork();
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'failed') {
        console.error(`Error: ${m.message}`);
        stopping = true;
        for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
        process.exitCode = 1;
      } else if (m.type === 'warning' && !warned.has(m.message)) {
        warned.add(m.message);
        console.warn(m.message);
      } else if (m.type === 'listening' && !announced && ++listening === workers) {
        announced = true;
        console.log(`cms-spec listening on ${m.url} (${plural(workers, 'worker')})`);
      }
    });
    return worker;
  };
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) {
      if (!Object.keys(cluster.workers ?? {}).length) {
        if (!process.exitCode) console.log(`Stopped: all ${plural(workers, 'worker')} finished their requests and closed.`);
        process.exit();
      }
      return;
    }
    console.error(`worker ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another`);
    fork();
  });
  for (let i = 0; i < workers; i++) fork();
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping ${plural(workers, 'worker')}; each lets its requests in flight finish.`);
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** In a worker: tells the primary. */
export function tellPrimary(m: WorkerMessage): void {
  process.send?.(m);
}

export const isWorker = () => cluster.isWorker;
export const isPrimary = () => cluster.isPrimary;
