import { Worker } from 'node:worker_threads';

/**
 * The thread's code, as a script of its own (CommonJS, as `new Worker(…, { eval: true })` runs it):
 * fdatasync of the file at a path as it is now, answered by the request's id; a file that is not
 * there has nothing to sync (a WAL the last connection checkpointed and removed).
 */
const SCRIPT = `
const { parentPort } = require('node:worker_threads');
const { openSync, fdatasyncSync, closeSync } = require('node:fs');
parentPort.on('message', ({ id, path }) => {
  let fd;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    parentPort.postMessage({ id, error: e.code === 'ENOENT' ? null : { message: e.message, code: e.code } });
    return;
  }
  try {
    fdatasyncSync(fd);
    parentPort.postMessage({ id, error: null });
  } catch (e) {
    parentPort.postMessage({ id, error: { message: e.message, code: e.code } });
  } finally {
    closeSync(fd);
  }
});
`;

interface Answer {
  id: number;
  error: { message: string; code?: string } | null;
}

/**
 * fdatasync on a thread of its own. Node's async fs calls run on libuv's pool of four threads,
 * shared with zlib, crypto's hashing and every file read; a sync queued behind their work holds
 * every write's answer (and the group commit's whole group) for as long as that work lasts (issue
 * 40: 21 s without a sync while the pool compressed kept answers). This thread does nothing else,
 * so a sync waits only for the disk. It holds the process open only while a sync is under way.
 */
export class SyncThread {
  private worker: Worker | null = null;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();

  /** fdatasync of the file at `path` as it is now; nothing when there is no such file. */
  sync(path: string): Promise<void> {
    const worker = this.worker ?? this.start();
    const id = this.next++;
    return new Promise<void>((resolve, reject) => {
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, path });
    });
  }

  /** Stops the thread (a later sync starts another). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(SCRIPT, { eval: true });
    worker.unref();
    worker.on('message', ({ id, error }: Answer) => {
      const waiter = this.waiting.get(id);
      if (!waiter) return;
      this.waiting.delete(id);
      if (this.waiting.size === 0) worker.unref();
      if (error) waiter.reject(Object.assign(new Error(error.message), { code: error.code }));
      else waiter.resolve();
    });
    // a thread that dies fails what it was asked; the next sync starts a new one
    const failAll = (why: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const [, waiter] of this.waiting) waiter.reject(why);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the sync thread stopped (exit code ${code}) before it answered`)));
    this.worker = worker;
    return worker;
  }
}
