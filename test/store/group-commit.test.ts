import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pbkdf2 } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupCommit } from '../../src/store/group-commit.ts';
import { CHECKPOINT_FRAMES, SyncThread } from '../../src/store/sync-thread.ts';
import { Store } from '../../src/store/index.ts';
import { TEST_STORE, testDatabase } from '../helpers/store.ts';
import { until } from '../helpers/until.ts';

/** A WAL sync the test ends by hand: each call is recorded with the commits made when it began. */
function handSync() {
  const started: { commitsBefore: number; finish(): void; fail(e: Error): void }[] = [];
  let commits = 0;
  return {
    started,
    commit(group: GroupCommit) {
      commits++;
      group.committed();
    },
    sync: () => new Promise<void>((finish, fail) => started.push({ commitsBefore: commits, finish, fail })),
  };
}

/** Lets every promise that can settle settle. */
const settle = () => new Promise((r) => setImmediate(r));

test('a commit is durable only after a sync that began after it; commits made meanwhile share the next sync', async () => {
  const h = handSync();
  const group = new GroupCommit(h.sync);
  assert.equal(group.durable(), undefined, 'nothing committed: nothing to wait for');

  h.commit(group);
  const done: string[] = [];
  void group.durable()!.then(() => done.push('first'));
  await settle();
  assert.equal(h.started.length, 1);
  assert.equal(h.started[0].commitsBefore, 1);

  // two more commits while the first sync runs: it may have begun before their frames were written
  h.commit(group);
  void group.durable()!.then(() => done.push('second'));
  h.commit(group);
  void group.durable()!.then(() => done.push('third'));
  await settle();
  assert.equal(h.started.length, 1, 'one sync at a time');

  h.started[0].finish();
  await settle();
  assert.deepEqual(done, ['first'], 'the first sync covers the first commit only');
  assert.equal(h.started.length, 2, 'the next sync begins at once');
  assert.equal(h.started[1].commitsBefore, 3);

  h.started[1].finish();
  await settle();
  assert.deepEqual(done, ['first', 'second', 'third'], 'both later commits share the second sync');
  assert.equal(h.started.length, 2);
  assert.equal(group.durable(), undefined, 'everything durable: nothing to wait for');
});

test('a sync the disk refuses fails its waiters, and the next write syncs again', async () => {
  const h = handSync();
  const group = new GroupCommit(h.sync);
  h.commit(group);
  const waiting = group.durable()!;
  await settle();
  h.started[0].fail(new Error('EIO'));
  await assert.rejects(waiting, /EIO/);

  const again = group.durable()!;
  assert.notEqual(again, undefined, 'the commit is not taken for durable');
  await settle();
  assert.equal(h.started.length, 2);
  h.started[1].finish();
  await again;
  assert.equal(group.durable(), undefined);
});

test('a store with group commit waits for the commits of its writes, not for reads nor for a transaction still open', async () => {
  const database = await testDatabase();
  const store = await Store.open(database.location, { groupCommit: true });
  try {
    await store.durable();
    assert.equal(store.durable(), undefined, 'all synced');
    await store.posts.get(1);
    await store.options.get('home');
    assert.equal(store.durable(), undefined, 'reads commit nothing');

    await store.posts.insert({ title: 'One write' });
    // PostgreSQL's commit returns once its WAL is flushed: nothing is left to wait for there
    if (TEST_STORE === 'postgres') return assert.equal(store.durable(), undefined);
    const synced = store.durable();
    assert.ok(synced instanceof Promise, 'an autocommit write waits for a sync');
    await synced;

    await store.transaction(async (trx) => {
      await trx.posts.insert({ title: 'In a transaction' });
      assert.equal(store.durable(), undefined, 'nothing committed yet');
    });
    assert.ok(store.durable() instanceof Promise, 'the commit waits for a sync');
  } finally {
    await store.close();
    await database.drop();
  }
});

test("the WAL's sync runs on a thread of its own: it is not queued behind work that holds libuv's pool", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-sync-'));
  const file = join(dir, 'site.sqlite-wal');
  writeFileSync(file, 'frames');
  const syncs = new SyncThread();
  // every thread of the pool (four by default) held by a key derivation many times as long as a sync
  const pool = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  let poolDone = 0;
  const poolWork = Array.from({ length: pool }, () => new Promise<void>((resolve) => pbkdf2('secret', 'salt', 1_000_000, 64, 'sha512', () => resolve(void poolDone++))));
  try {
    await syncs.sync(file);
    assert.equal(poolDone, 0, 'the sync was done before any of the work holding the pool');
    await syncs.sync(join(dir, 'no-such-wal'));
  } finally {
    await syncs.close();
    await Promise.all(poolWork);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The WAL index's count of frames in the WAL and of those copied into the database (https://www.sqlite.org/walformat.html). */
function walFrames(file: string): { inWal: number; copied: number } {
  const header = readFileSync(`${file}-shm`).subarray(0, 100);
  const read = (offset: number) => (endianness() === 'LE' ? header.readUInt32LE(offset) : header.readUInt32BE(offset));
  return { inWal: read(16), copied: read(96) };
}

test('the WAL is checkpointed by the sync thread after a sync, not by a commit on the event loop', { skip: TEST_STORE === 'postgres' && 'a SQLite WAL' }, async () => {
  const database = await testDatabase();
  const store = await Store.open(database.location, { groupCommit: true });
  try {
    await store.durable();
    const content = 'x'.repeat(8000);
    // well past SQLite's own automatic checkpoint (1,000 frames), with no sync asked for: nothing is copied by the commits
    let frames = walFrames(database.location);
    while (frames.inWal < CHECKPOINT_FRAMES * 1.5 && frames.copied === 0) {
      await store.posts.insert({ title: 'Filling the WAL', content });
      frames = walFrames(database.location);
    }
    assert.equal(frames.copied, 0, 'no checkpoint ran on a committing call');
    await store.durable();
    await until(() => walFrames(database.location).copied >= CHECKPOINT_FRAMES, 'the checkpoint after the sync');
  } finally {
    await store.close();
    await database.drop();
  }
});
