import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The thread checkpoints a WAL once this many of its frames are not in the database yet (SQLite's own automatic checkpoint is at 1,000). */
export const CHECKPOINT_FRAMES = 1000;

/**
 * The thread's code, as a script of its own (CommonJS, as `new Worker(…, { eval: true })` runs it):
 * fdatasync of the file at a path as it is now, answered by the request's id; a file that is not
 * there has nothing to sync (a WAL the last connection checkpointed and removed).
 *
 * Given the database the WAL belongs to, after answering, it checkpoints the WAL once
 * CHECKPOINT_FRAMES of its frames are not copied into the database yet (PASSIVE: it copies what
 * no reader needs and never waits for the writer, which goes on appending meanwhile). How many
 * frames the WAL holds and how many are copied is read from the WAL index (the -shm file's header,
 * https://www.sqlite.org/walformat.html: mxFrame at byte 16, nBackfill at byte 96, in the host's
 * byte order). It connects for the checkpoint alone and closes after, so it never holds the
 * database open. SQLite's automatic checkpoint would run on the committing call, in the event
 * loop, with two syncs of the disk of its own.
 */
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, fdatasyncSync, readSync, closeSync } = require('node:fs');
const { endianness } = require('node:os');
const header = Buffer.alloc(100);
const read32 = endianness() === 'LE' ? (o) => header.readUInt32LE(o) : (o) => header.readUInt32BE(o);
function framesBehind(database) {
  let fd;
  try {
    fd = openSync(database + '-shm', 'r');
    return readSync(fd, header, 0, 100, 0) === 100 ? read32(16) - read32(96) : 0;
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
function checkpoint(database) {
  if (framesBehind(database) < workerData.checkpointFrames) return;
  let db;
  try {
    const Database = require(workerData.sqliteModule);
    db = new Database(database, { fileMustExist: true });
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy with another checkpoint, or gone: a later sync tries again
  } finally {
    db?.close();
  }
}
parentPort.on('message', ({ id, path, database, stop }) => {
  // after whatever it was asked before (a checkpoint under way included): never cut short
  if (stop) process.exit(0);
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
  if (database) checkpoint(database);
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

  /** fdatasync of the file at `path` as it is now; nothing when there is no such file. With `database`, the WAL's checkpoint follows when it has grown enough. */
  sync(path: string, database?: string): Promise<void> {
    const worker = this.worker ?? this.start();
    const id = this.next++;
    return new Promise<void>((resolve, reject) => {
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, path, database });
    });
  }

  /** Stops the thread once it has done what it was asked (a later sync starts another). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ stop: true });
    await exited;
  }

  private start(): Worker {
    const worker = new Worker(SCRIPT, { eval: true, workerData: { sqliteModule: createRequire(import.meta.url).resolve('better-sqlite3'), checkpointFrames: CHECKPOINT_FRAMES } });
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
