import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../../src/store/index.ts';
import { interval } from '../../src/cli/cron.ts';
import { fails, ok } from './run.ts';
import { testDatabase } from '../helpers/store.ts';

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('cms-spec cron list|run (wp cron event list|run)', () => {
  const database = testDatabase();
  let db: string[] = [];
  before(async () => {
    db = ['--db', (await database).location];
    ok(['seed', '--posts', '1', '--seed-random', '3', ...db]);
  });
  after(async () => (await database).drop());

  test('interval() speaks as wp-cli does: the two largest units, or now', () => {
    assert.equal(interval(86400), '1 day');
    assert.equal(interval(15 * 60), '15 minutes');
    assert.equal(interval(2 * 3600 + 30 * 60 + 5), '2 hours 30 minutes');
    assert.equal(interval(3 * 86400 + 59), '3 days');
    assert.equal(interval(1), '1 second');
    assert.equal(interval(0), 'now');
    assert.equal(interval(-5), 'now');
  });

  test('list shows the core’s and the active plugins’ recurring events, and a scheduled post’s single event', () => {
    const future = new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 19).replace('T', ' ');
    ok(['post', 'create', '--post_title', 'Later', '--post_status', 'publish', '--post_date', future, ...db]);
    const table = ok(['cron', 'list', ...db]);
    assert.match(table, /^hook\s+next_run_gmt\s+next_run_relative\s+recurrence\n/);
    const rows = JSON.parse(ok(['cron', 'list', '--format', 'json', ...db])) as Record<string, string>[];
    assert.deepEqual(Object.keys(rows[0]), ['hook', 'next_run_gmt', 'next_run_relative', 'recurrence']);
    const byHook = Object.fromEntries(rows.map((r) => [r.hook, r]));
    assert.equal(byHook.wp_scheduled_delete.recurrence, '1 day');
    assert.equal(byHook.wp_scheduled_auto_draft_delete.recurrence, '1 day');
    assert.equal(byHook.delete_orphaned_autosaves.recurrence, '1 day');
    assert.equal(byHook.wpseo_indexable_index_batch.recurrence, '15 minutes', 'the SEO plugin’s background indexing');
    assert.equal(byHook.design_library_purge_expired_cache.recurrence, '1 day');
    assert.equal(byHook.publish_future_post.recurrence, 'Non-repeating');
    assert.equal(byHook.publish_future_post.next_run_gmt, future, 'the site is on UTC: the post’s date is when it is published');
    assert.match(byHook.publish_future_post.next_run_relative, /^(2 days 23 hours|3 days)$/);
    assert.match(byHook.wpseo_indexable_index_batch.next_run_relative, /^1[45] minutes/);
    assert.deepEqual(
      rows.map((r) => r.next_run_gmt),
      rows.map((r) => r.next_run_gmt).sort(),
      'soonest first',
    );
    const csv = ok(['cron', 'list', '--fields', 'hook,recurrence', '--format', 'csv', ...db]);
    assert.match(csv, /^hook,recurrence\n/);
    assert.match(csv, /^wp_scheduled_delete,1 day$/m);
    fails(['cron', 'list', '--fields', 'hook,args', ...db], /unknown field "args"/);
  });

  test('run with no hook runs what is due (nothing yet); a named hook runs now and is rescheduled', async () => {
    assert.equal(ok(['cron', 'run', ...db]), 'Success: Executed a total of 0 cron events.\n');
    const out = ok(['cron', 'run', 'wp_scheduled_delete', 'wpseo_indexable_index_batch', ...db]);
    assert.match(out, /^Executed the cron event 'wp_scheduled_delete' in \d+\.\d{3}s\.\nExecuted the cron event 'wpseo_indexable_index_batch' in \d+\.\d{3}s\.\nSuccess: Executed a total of 2 cron events\.\n$/);
    const store = await Store.open((await database).location);
    try {
      const event = (await store.cron.events()).find((e) => e.hook === 'wp_scheduled_delete')!;
      assert.ok(Math.abs(Number(event.last_run) - nowSeconds()) <= 5);
      assert.ok(Math.abs(Number(event.next_run) - (Number(event.last_run) + 86400)) <= 1);
      // made due, as by time passing
      await store.db.updateTable('cron_events').set({ next_run: nowSeconds() - 1 }).where('hook', '=', 'delete_orphaned_autosaves').execute();
    } finally {
      await store.close();
    }
    assert.match(ok(['cron', 'run', ...db]), /^Executed the cron event 'delete_orphaned_autosaves' in [\d.]+s\.\nSuccess: Executed a total of 1 cron event\.\n$/);
    fails(['cron', 'run', 'wp_version_check', ...db], /^Error: Invalid cron event 'wp_version_check'/);
  });
});
