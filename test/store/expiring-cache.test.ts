import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { openTestStore } from '../helpers/store.ts';
import { ExpiringCache, type ExpiryClock } from '../../src/store/expiring-cache.ts';

const WEEK_MS = 7 * 24 * 3600 * 1000;

type TestStore = Awaited<ReturnType<typeof openTestStore>>;

/** 2024-05-01 12:00:00 UTC, a clock the test moves by hand. */
const START = Date.UTC(2024, 4, 1, 12, 0, 0);

describe('ExpiringCache', () => {
  let store: TestStore;
  let db: Kysely<any>;
  let now = START;
  before(async () => {
    store = await openTestStore();
    db = store.db as Kysely<any>;
  });
  after(async () => store.dropDatabase());

  const tables: [ExpiryClock, 'bigint' | 'varchar(19)'][] = [['epoch-ms', 'bigint'], ['epoch-s', 'bigint'], ['datetime', 'varchar(19)']];
  for (const [clock, type] of tables) {
    test(`${clock}: an entry is read until it expires, kept a week longer as the last answer, replaced by a new write, dropped after that week`, async () => {
      const table = `cache_test_${clock.replace('-', '_')}`;
      await db.schema.createTable(table).addColumn('k', 'varchar(64)', (c) => c.primaryKey()).addColumn('v', 'text', (c) => c.notNull()).addColumn('kind', 'varchar(16)').addColumn('expires_at', type, (c) => c.notNull()).execute();
      now = START;
      const cache = new ExpiringCache(db, { table, key: 'k', value: 'v', clock }, () => now);
      await cache.set('a', { title: 'Tea' }, 60, { kind: 'page' });
      await cache.set('b', ['x', 1], 3600);
      assert.deepEqual(await cache.get('a'), { title: 'Tea' });
      assert.deepEqual(await db.selectFrom(table).select(['v', 'kind']).where('k', '=', 'a').executeTakeFirst(), { v: '{"title":"Tea"}', kind: 'page' });
      const stored = (await db.selectFrom(table).select('expires_at').where('k', '=', 'a').executeTakeFirstOrThrow()).expires_at;
      const expected = { 'epoch-ms': START + 60_000, 'epoch-s': START / 1000 + 60, datetime: '2024-05-01 12:01:00' }[clock];
      assert.equal(typeof stored === 'string' && clock !== 'datetime' ? Number(stored) : stored, expected);

      now = START + 59_000;
      assert.deepEqual(await cache.get('a'), { title: 'Tea' });
      now = START + 60_000;
      assert.equal(await cache.get('a'), undefined, 'expired at its time');
      assert.deepEqual(await cache.kept('a'), { title: 'Tea' }, 'kept after it expired');
      assert.deepEqual(await cache.get('b'), ['x', 1]);

      await cache.set('b', 'new', 3600);
      assert.equal(await cache.get('b'), 'new');
      assert.deepEqual((await db.selectFrom(table).select('k').orderBy('k').execute()).map((r) => r.k), ['a', 'b'], 'an entry expired for less than a week stays');
      now = START + 60_000 + WEEK_MS;
      assert.equal(await cache.kept('a'), undefined, 'kept a week, not longer');
      await cache.set('b', 'newer', 3600);
      assert.deepEqual((await db.selectFrom(table).select('k').execute()).map((r) => r.k), ['b'], 'the write dropped the entry expired a week ago');
      now = START;

      await cache.set('user:1:x', 1, 60);
      await cache.set('user:2:x', 2, 60);
      assert.equal(await cache.clear('user:1:'), 1);
      assert.equal(await cache.get('user:2:x'), 2);
      now = START + 3_600_000 + 60_000;
      assert.equal(await cache.purgeExpired(), 0, 'expired, but kept for a week');
      now += 2 * WEEK_MS;
      assert.equal(await cache.purgeExpired(), 2, "user:2:x and b (written a week later), each a week after it expired");
      await cache.set('c', true, 60);
      assert.equal(await cache.clear(), 1);
      assert.equal(await cache.get('missing'), undefined);
    });
  }
});
