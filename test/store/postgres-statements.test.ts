import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { Store } from '../../src/store/index.ts';
import { sql } from '../../src/store/kysely.ts';
import { onTestServer, testDatabase, type TestDatabase } from '../helpers/store.ts';
import { missingService } from '../helpers/services.ts';

/**
 * How statements run on PostgreSQL (src/store/postgres-driver.ts, table-versions.ts): named
 * statements that outlive a change of their table's shape made by another process; a write
 * outside a transaction that moves its versions in the same statement, only when it changed a
 * row; a count that every create raises, held back for the commit yet seen by the transaction's
 * own later reads and never lost between concurrent creates; and a process's own writes, which do
 * not make it forget what it kept.
 */
const skip = await missingService('postgres');

describe('statements on PostgreSQL', { skip }, () => {
  let database: TestDatabase;
  let store: Store;
  let other: Store;
  const any = (s: Store) => s.db as unknown as Kysely<any>;

  before(async () => {
    database = await testDatabase('postgres');
    store = await Store.open(database.location);
    other = await Store.open(database.location);
  });
  after(async () => {
    await store?.close();
    await other?.close();
    await database?.drop();
  });

  test("a statement run before another process changed its table's shape runs after it, in a transaction or not", async () => {
    await sql`create table scratch (id integer primary key, a text not null)`.execute(any(store));
    await sql`insert into scratch (id, a) values (1, 'one')`.execute(any(store));
    const read = (db: Kysely<any>) => db.selectFrom('scratch').selectAll().where('id', '=', 1).execute();
    // parsed and kept on every connection of the pool that runs it
    for (let i = 0; i < 3; i++) assert.deepEqual(await read(any(store)), [{ id: 1, a: 'one' }]);
    await sql`alter table scratch add column b text not null default 'two'`.execute(any(other));
    assert.deepEqual(await read(any(store)), [{ id: 1, a: 'one', b: 'two' }]);
    await sql`alter table scratch add column c integer not null default 3`.execute(any(other));
    const inTransaction = await store.transaction((trx) => read(any(trx)));
    assert.deepEqual(inTransaction, [{ id: 1, a: 'one', b: 'two', c: 3 }]);
  });

  test("a transaction's begin goes with its first statement: one that runs nothing, one undone at its first statement or later, one kept", async () => {
    const names = async () => (await store.db.selectFrom('options').select('name').where('name', 'like', 'begin_%').orderBy('name').execute()).map((r) => r.name);
    assert.equal(await store.transaction(async () => 'nothing run'), 'nothing run');
    await assert.rejects(
      store.transaction(async (trx) => {
        await sql`select no_such_function()`.execute(any(trx));
      }),
      /no_such_function/,
    );
    await assert.rejects(
      store.transaction(async (trx) => {
        await trx.options.set('begin_undone', 'x');
        throw new Error('undone');
      }),
      /undone/,
    );
    await store.transaction(async (trx) => {
      await sql`select 1`.execute(any(trx));
      await trx.options.set('begin_kept', 'x');
    });
    assert.deepEqual(await names(), ['begin_kept']);
    // the pool's connections are all usable after: none was left inside a transaction
    assert.deepEqual(await Promise.all(Array.from({ length: 12 }, () => names())), Array.from({ length: 12 }, () => ['begin_kept']));
  });

  test('a write outside a transaction moves its table version only when it changed a row, and answers how many it changed', async () => {
    const version = async () => Number((await store.db.selectFrom('state_versions').select('version').where('topic', '=', 'table:options').executeTakeFirst())?.version ?? 0);
    await store.options.set('blogname', 'First');
    const before = await version();
    const none = await store.db.updateTable('options').set({ value: 'x' }).where('name', '=', 'no-such-option').executeTakeFirst();
    assert.equal(none.numUpdatedRows, 0n);
    const deleted = await store.db.deleteFrom('options').where('name', '=', 'no-such-option').executeTakeFirst();
    assert.equal(deleted.numDeletedRows, 0n);
    assert.equal(await version(), before, 'an update and a delete that matched nothing');
    const one = await store.db.updateTable('options').set({ value: 'Second' }).where('name', '=', 'blogname').executeTakeFirst();
    assert.equal(one.numUpdatedRows, 1n);
    assert.equal(await version(), before + 1);
    assert.equal(await store.options.get('blogname'), 'Second');
    const inserted = await store.db.insertInto('options').values([{ name: 'one_more', value: '1' }, { name: 'two_more', value: '2' }]).executeTakeFirst();
    assert.equal(inserted.numInsertedOrUpdatedRows, 2n);
    assert.equal(await version(), before + 2);
  });

  test("a new post's category count is raised at the commit, seen by the transaction's own reads, not lost between concurrent creates, undone with a batch step", async () => {
    const category = await store.terms.insert({ taxonomy: 'category', name: 'Counted' });
    const count = async (s: Store) => (await s.terms.get(category))!.count;
    const create = (status: string) =>
      store.transaction(async (trx) => {
        const id = await trx.posts.insert({ title: `Counted ${status}`, status });
        await trx.terms.setPostTerms(id, 'category', [category], { status });
        return count(trx);
      });
    assert.equal(await create('publish'), 1, 'read in the same transaction after the create');
    assert.equal(await create('draft'), 1, 'a draft is not counted');
    assert.equal(await count(store), 1);
    await Promise.all(Array.from({ length: 20 }, () => create('publish')));
    assert.equal(await count(store), 21);
    assert.equal(await count(other), 21);
    // a batch: each step creates a post in a category of its own; the middle one is undone, its raise with it
    const categories = await Promise.all(['Kept first', 'Undone', 'Kept last'].map((name) => store.terms.insert({ taxonomy: 'category', name })));
    await store.steps(3, async (s, i) => {
      const id = await s.posts.insert({ title: `Step ${i}`, status: 'publish' });
      await s.terms.setPostTerms(id, 'category', [categories[i]], { status: 'publish' });
      return { value: i, keep: i !== 1 };
    });
    assert.deepEqual(await Promise.all(categories.map(async (id) => (await store.terms.get(id))!.count)), [1, 0, 1]);
  });

  test("this process's own writes leave what it kept kept; another's make it read again", async () => {
    await store.options.set('blogdescription', 'Kept');
    await store.shared.versions();
    assert.equal(await store.options.get('blogdescription'), 'Kept');
    // changed behind every instance's back (no version moves): only a fresh read would see it
    await onTestServer(`update options set value = 'Behind' where name = 'blogdescription'`, database.location);
    await store.posts.insert({ title: 'A write of its own', status: 'publish' });
    await store.shared.versions();
    assert.equal(await store.options.get('blogdescription'), 'Kept', 'its own write to posts is no news');
    await other.posts.insert({ title: 'A write of another', status: 'publish' });
    await store.shared.versions();
    assert.equal(await store.options.get('blogdescription'), 'Behind', "another's write makes it read again");
  });
});
