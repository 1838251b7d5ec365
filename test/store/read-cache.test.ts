import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/index.ts';
import { readCacheOf } from '../../src/store/read-cache.ts';
import type { PostQuery } from '../../src/store/posts.ts';

// The post list's X-WP-Total count and the options are kept until a table they read is written
// (src/store/read-cache.ts): by this process (a statement that changed rows of it, in or out of a
// transaction) or by another one on the same SQLite file (anything, seen through data_version at the
// next catch-up, as serve does per request).
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

  test("a list's page of heads is kept until a post is written, by this process or, once the catch-up asked SQLite, by another one", async () => {
    const query: PostQuery = { types: ['post'], statuses: ['publish'], orderby: 'date', order: 'desc', offset: 0, limit: 10 };
    const first = async () => (await store.posts.queryHeads({ ...query })).rows[0]?.title;
    const id = await store.posts.insert({ title: 'Newest', status: 'publish', date: '2031-01-01 00:00:00' });
    assert.equal(await first(), 'Newest');
    await store.posts.update(id, { title: 'Renamed here' });
    assert.equal(await first(), 'Renamed here');
    await other.posts.update(id, { title: 'Renamed elsewhere' });
    assert.equal(await first(), 'Renamed here', 'kept: nothing has asked SQLite whether another process wrote');
    await store.shared.otherWriters();
    assert.equal(await first(), 'Renamed elsewhere');
    // the kept rows are the cache's own: a caller changing its copy changes no later answer
    (await store.posts.queryHeads({ ...query })).rows[0].title = 'Scribbled';
    assert.equal(await first(), 'Renamed elsewhere');
    await store.posts.delete(id);
    assert.notEqual(await first(), 'Renamed elsewhere');
  });

  test("a post's terms are kept until a term or a post's terms are written, by this process or, once the catch-up asked SQLite, by another one", async () => {
    const post = await store.posts.insert({ title: 'Filed', status: 'publish' });
    const [first, second] = [await store.terms.insert({ taxonomy: 'category', name: 'First' }), await store.terms.insert({ taxonomy: 'category', name: 'Second' })];
    const names = async () => (await store.terms.termsOfPosts([post])).get(post)!.map((t) => t.name);
    await store.terms.setPostTerms(post, 'category', [first]);
    assert.deepEqual(await names(), ['First']);
    await store.terms.update(first, { name: 'First renamed' });
    assert.deepEqual(await names(), ['First renamed']);
    await other.terms.setPostTerms(post, 'category', [second]);
    assert.deepEqual(await names(), ['First renamed'], 'kept: nothing has asked SQLite whether another process wrote');
    await store.shared.otherWriters();
    assert.deepEqual(await names(), ['Second']);
    // the kept rows are the cache's own: a caller changing its copy changes no later answer
    (await store.terms.termsOfPosts([post])).get(post)![0].name = 'Scribbled';
    assert.deepEqual(await names(), ['Second']);
  });

  test('an option kept while other tables are written is read again once it changes, however it was written', async () => {
    assert.equal(await store.options.get('blogname'), undefined);
    await store.options.set('blogname', 'First');
    assert.equal(await store.options.get('blogname'), 'First');
    assert.deepEqual(await store.options.getMany(['blogname', 'blogdescription']), { blogname: 'First' });
    await store.posts.insert({ title: 'Beside the options', status: 'publish' });
    assert.equal(await store.options.get('blogname'), 'First');
    // a statement of this process that names the table, not through the options' own methods
    await store.db.updateTable('options').set({ value: 'Second' }).where('name', '=', 'blogname').execute();
    assert.equal(await store.options.get('blogname'), 'Second');
    assert.deepEqual(await store.options.getMany(['blogname', 'blogdescription']), { blogname: 'Second' });
    await store.transaction(async (trx) => trx.options.set('blogname', 'Third'));
    assert.equal(await store.options.get('blogname'), 'Third');
    await other.options.set('blogname', 'From elsewhere');
    await store.shared.otherWriters();
    assert.equal(await store.options.get('blogname'), 'From elsewhere');
    // what a caller does to the object it got is its own
    const got = await store.options.getMany(['blogname']);
    got.blogname = 'changed by a caller';
    assert.deepEqual(await store.options.getMany(['blogname']), { blogname: 'From elsewhere' });
  });

  test('a write that changed no row moves no table version; one that changed a row does', async () => {
    const version = async () => Number((await store.db.selectFrom('state_versions').select('version').where('topic', '=', 'table:options').executeTakeFirst())?.version ?? 0);
    const before = await version();
    await store.db.updateTable('options').set({ value: 'x' }).where('name', '=', 'no-such-option').execute();
    await store.db.deleteFrom('options').where('name', '=', 'no-such-option').execute();
    await store.transaction(async (trx) => {
      await trx.db.updateTable('options').set({ value: 'x' }).where('name', '=', 'no-such-option').execute();
    });
    assert.equal(await version(), before, 'an update and a delete that matched nothing');
    await store.db.updateTable('options').set({ value: 'Fourth' }).where('name', '=', 'blogname').execute();
    assert.equal(await version(), before + 1);
    assert.equal(await store.options.get('blogname'), 'Fourth');
  });
});
