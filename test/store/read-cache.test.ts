import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/index.ts';
import { readCacheOf } from '../../src/store/read-cache.ts';

// The post list's X-WP-Total count is kept per query until anything is written (src/store/read-cache.ts):
// by this process (any statement that may write, in or out of a transaction) or by another one on
// the same SQLite file (seen through data_version at the next catch-up, as serve does per request).
describe('kept counts on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-read-cache-'));
  const file = join(dir, 'site.sqlite');
  let store: Store;
  let other: Store;
  const total = async () => (await store.posts.query({ types: ['post'], statuses: ['publish'], orderby: 'date', order: 'desc', offset: 0, limit: 10 })).total;
  before(async () => {
    store = await Store.open(file);
    other = await Store.open(file);
    await store.shared.otherWriters();
  });
  after(async () => {
    await store.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a count is read once while nothing is written, and again after this process writes', async () => {
    assert.ok(readCacheOf(store.db), 'a SQLite database keeps counts');
    assert.equal(await total(), 0);
    await store.posts.insert({ title: 'One', status: 'publish' });
    assert.equal(await total(), 1);
    await store.transaction(async (trx) => {
      await trx.posts.insert({ title: 'Two', status: 'publish' });
    });
    assert.equal(await total(), 2, "a transaction's write counts");
    // the same count asked twice with nothing written between: the kept one, equal to a fresh read
    assert.equal(await total(), 2);
  });

  test("another process's write is seen once the catch-up asked SQLite, as serve does before each request", async () => {
    assert.equal(await total(), 2);
    await other.posts.insert({ title: 'From elsewhere', status: 'publish' });
    await store.shared.otherWriters();
    assert.equal(await total(), 3);
  });

  test('a failed write that changed nothing still lets nothing stale through', async () => {
    await assert.rejects(store.transaction(async (trx) => {
      await trx.posts.insert({ title: 'Rolled back', status: 'publish' });
      throw new Error('undone');
    }));
    assert.equal(await total(), 3);
  });
});
