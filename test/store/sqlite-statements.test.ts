import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Store } from '../../src/store/index.ts';
import { sql } from '../../src/store/kysely.ts';

// How the store runs its statements on SQLite (src/store/db.ts): without the sampled statistics
// that make SQLite prepare a statement again at every run, and with rows made as objects in
// JavaScript from their values. What a query answers must not change for either. And how an
// instance learns that another process committed (shared-state.ts, wal-index.ts).
describe('SQLite statements', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-sqlite-statements-'));
  const file = join(dir, 'site.sqlite');
  let store: Store;
  const rowsOf = (db: Database.Database, table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  before(async () => {
    store = await Store.open(file);
    for (let i = 0; i < 30; i++) await store.posts.insert({ title: `Post ${i}`, status: i % 3 ? 'publish' : 'draft' });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('ANALYZE keeps the per-index statistics and leaves out the samples, also of a database analyzed before', async () => {
    await store.analyze();
    const db = new Database(file, { readonly: true });
    try {
      assert.ok(rowsOf(db, 'sqlite_stat1') > 0, 'the averages are kept');
      assert.equal(rowsOf(db, 'sqlite_stat4'), 0, 'no samples');
    } finally {
      db.close();
    }
    // a database analyzed by another tool (or by an older cms-spec) has samples until it is opened
    await store.close();
    const other = new Database(file);
    other.exec('analyze');
    assert.ok(rowsOf(other, 'sqlite_stat4') > 0, 'sqlite3 writes samples');
    other.close();
    store = await Store.open(file);
    const reopened = new Database(file, { readonly: true });
    try {
      assert.equal(rowsOf(reopened, 'sqlite_stat4'), 0);
      assert.ok(rowsOf(reopened, 'sqlite_stat1') > 0);
    } finally {
      reopened.close();
    }
    // the planner's choices still answer the same lists
    const page = await store.posts.query({ types: ['post'], statuses: ['publish'], orderby: 'date', order: 'desc', offset: 3, limit: 5 });
    assert.equal(page.total, 20);
    assert.deepEqual(
      page.rows.map((p) => p.title),
      ['Post 25', 'Post 23', 'Post 22', 'Post 20', 'Post 19'],
    );
  });

  test('rows are the objects better-sqlite3 makes: every column, in order, the last of a repeated name, and any name', async () => {
    const raw = new Database(file, { readonly: true });
    try {
      for (const text of [
        'select * from posts order by id limit 3',
        `select 1 as a, 'two' as b, null as c, 2.5 as d, x'00ff' as e`,
        'select 1 as a, 2 as a',
        `select 1 as "__proto__", 2 as "constructor", 3 as "a b", 4 as "\u00e9", 5 as """quoted"""`,
        `select json('{}') as "__proto__", 1 as a`,
        'select id from posts where 0',
      ]) {
        const ours = (await sql.raw<Record<string, unknown>>(text).execute(store.db)).rows;
        const theirs = raw.prepare(text).all() as Record<string, unknown>[];
        assert.deepEqual(ours, theirs, text);
        for (const [i, row] of ours.entries()) assert.deepEqual(Object.keys(row), Object.keys(theirs[i]!), `${text}: the columns' order`);
      }
    } finally {
      raw.close();
    }
  });

  test("another connection's commit is known without asking SQLite only until it happens; reads change nothing", async () => {
    const shared = store.shared;
    const asked = await shared.otherWriters();
    assert.equal(shared.knownOtherWriters(), asked, 'nothing committed since SQLite was asked: known without asking');
    const other = new Database(file);
    try {
      other.prepare('select count(*) from posts').get();
      assert.equal(shared.knownOtherWriters(), asked, "another connection's read commits nothing");
      other.prepare("insert into options (name, value, autoload) values ('other_writer', '1', 0)").run();
      assert.equal(shared.knownOtherWriters(), undefined, "after another connection's commit SQLite must be asked");
      const after = await shared.otherWriters();
      assert.ok(after !== null && asked !== null && after > asked, `SQLite counts the other commit (${asked} → ${after})`);
      assert.equal(shared.knownOtherWriters(), after, 'known again once asked');
      other.exec("begin immediate; update options set value = '2' where name = 'other_writer'; commit");
      assert.equal(shared.knownOtherWriters(), undefined, 'a commit in an explicit transaction too');
    } finally {
      other.close();
    }
  });

  test('a page size written into the statement answers as a bound one, whatever the size', async () => {
    for (const limit of [1, 2, 7, 100]) {
      const page = await store.posts.query({ types: ['post'], statuses: ['publish', 'draft'], orderby: 'title', order: 'asc', offset: 0, limit });
      assert.equal(page.rows.length, Math.min(limit, 30), `limit ${limit}`);
      assert.equal(page.rows[0]!.title, 'Post 0');
    }
  });
});
