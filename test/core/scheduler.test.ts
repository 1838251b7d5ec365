import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { Kysely } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth } from '../helpers/auth.ts';
import { testDatabase, type TestDatabase } from '../helpers/store.ts';
import { missingService } from '../helpers/services.ts';
import { Store } from '../../src/store/index.ts';
import { seo } from '../../src/plugins/seo/plugin.ts';
import { designLibrary } from '../../src/plugins/design-library/plugin.ts';
import { CLI, ROOT } from '../cli/run.ts';
import { until } from '../helpers/until.ts';

const DAY = 86400;
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** A REST date_gmt (no zone, no fraction) `ms` from now. */
const restGmt = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 19);
const sqlGmt = (ms: number) => restGmt(ms).replace('T', ' ');

async function json(res: Response): Promise<Record<string, any>> {
  return (await res.json()) as Record<string, any>;
}

/** Runs `cms-spec …` without waiting for it, so two can run at once. */
function cmsAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('the scheduler (WordPress cron duties)', () => {
  let server: TestServer;
  let admin = '';
  before(async () => {
    server = await startTestServer();
    admin = await adminAuth(server);
  });
  after(() => server.close());

  const post = async (json: Record<string, unknown>) => {
    const res = await server.call('cms/v2/posts', { json, auth: admin });
    assert.equal(res.status, 201);
    return (await res.json()) as Record<string, any>;
  };
  const statusOf = async (id: number) => {
    const res = await server.call(`cms/v2/posts/${id}?context=edit`, { auth: admin });
    return res.status === 200 ? ((await res.json()) as { status: string }).status : res.status;
  };

  test('a post published with a date 4 s ahead is scheduled, then published at its time without any other request', async () => {
    const created = await post({ title: 'Soon', content: '<p>Soon.</p>', status: 'publish', date_gmt: restGmt(4000) });
    assert.equal(created.status, 'future');
    const anonymous = await server.call(`cms/v2/posts/${created.id}`);
    assert.equal(anonymous.status, 401, 'a scheduled post is not public yet');
    // watched in the database, so that no request is what publishes it
    await until(async () => (await server.app.store.posts.get(created.id as number))?.status === 'publish', 'the timer publishing the post');
    const res = await server.call(`cms/v2/posts/${created.id}`);
    assert.equal(res.status, 200);
    const published = await json(res);
    assert.equal(published.status, 'publish');
    assert.equal(published.modified_gmt, created.modified_gmt, 'wp_publish_post leaves the modified date');
    const list = (await (await server.call('cms/v2/posts?per_page=100')).json()) as { id: number }[];
    assert.ok(list.some((p) => p.id === created.id), 'listed with the published posts');
    assert.deepEqual(server.errors, []);
  });

  test('a post scheduled behind the server’s back (another process on the database) is found by its look at the schedule', async () => {
    const id = await server.app.store.posts.insert({ type: 'post', status: 'future', title: 'Written elsewhere', date_gmt: sqlGmt(1000) });
    await until(async () => (await server.app.store.posts.get(id))?.status === 'publish', 'the timer finding the post');
    assert.equal(await statusOf(id), 'publish');
  });

  test('trash older than EMPTY_TRASH_DAYS (30) is emptied by wp_scheduled_delete; newer trash and restored posts stay', async () => {
    const store = server.app.store;
    const old = await post({ title: 'Old trash', status: 'publish' });
    const recent = await post({ title: 'Recent trash', status: 'publish' });
    const restored = await post({ title: 'Restored', status: 'publish' });
    for (const p of [old, recent, restored]) assert.equal((await server.call(`cms/v2/posts/${p.id}`, { method: 'DELETE', auth: admin })).status, 200);
    await store.posts.meta.set(old.id, '_wp_trash_meta_time', String(nowSeconds() - 31 * DAY));
    await store.posts.meta.set(recent.id, '_wp_trash_meta_time', String(nowSeconds() - 29 * DAY));
    await store.posts.meta.set(restored.id, '_wp_trash_meta_time', String(nowSeconds() - 40 * DAY));
    assert.equal((await server.call(`cms/v2/posts/${restored.id}`, { json: { status: 'draft' }, auth: admin })).status, 200);

    const runs = await server.app.scheduler.runNow('wp_scheduled_delete');
    assert.deepEqual(runs.map((r) => [r.hook, r.error]), [['wp_scheduled_delete', undefined]]);
    const gone = await server.call(`cms/v2/posts/${old.id}?context=edit`, { auth: admin });
    assert.equal(gone.status, 404);
    assert.equal((await json(gone)).code, 'rest_post_invalid_id');
    assert.equal(await statusOf(recent.id), 'trash');
    assert.equal(await statusOf(restored.id), 'draft');
    assert.deepEqual(await store.posts.meta.all(restored.id), {}, 'a restored post only loses its trash meta');
    assert.equal(await store.posts.meta.get(recent.id, '_wp_trash_meta_time') !== undefined, true);
    const event = (await store.cron.events()).find((e) => e.hook === 'wp_scheduled_delete')!;
    assert.ok(Math.abs(Number(event.next_run) - (nowSeconds() + DAY)) <= 2, 'run now, it is next due a day from now');
  });

  test('trashed comments older than 30 days are deleted too; spam (which keeps a trash time as well) only loses it', async () => {
    const store = server.app.store;
    const on = (await post({ title: 'Discussed', status: 'publish' })).id as number;
    const comment = (approved: string) => store.comments.insert({ post: on, author_name: 'Ann', author_email: 'ann@example.test', content: `In ${approved}`, approved, type: 'comment' });
    const [trashed, spam, recent] = [await comment('trash'), await comment('spam'), await comment('trash')];
    for (const [id, days] of [[trashed, 31], [spam, 31], [recent, 2]]) {
      await store.comments.meta.set(id, '_wp_trash_meta_status', '1');
      await store.comments.meta.set(id, '_wp_trash_meta_time', String(nowSeconds() - days * DAY));
    }
    await server.app.scheduler.runNow('wp_scheduled_delete');
    assert.equal(await store.comments.get(trashed), undefined);
    assert.equal((await store.comments.get(spam))?.approved, 'spam');
    assert.deepEqual(await store.comments.meta.all(spam), {});
    assert.equal((await store.comments.get(recent))?.approved, 'trash');
    assert.equal(await store.comments.meta.get(recent, '_wp_trash_meta_status'), '1');
  });

  test('auto-drafts older than 7 days and revisions whose post is gone are removed', async () => {
    const store = server.app.store;
    const abandoned = await store.posts.insert({ type: 'post', status: 'auto-draft', title: 'Auto Draft', date_gmt: sqlGmt(-8 * DAY * 1000) });
    const fresh = await store.posts.insert({ type: 'post', status: 'auto-draft', title: 'Auto Draft', date_gmt: sqlGmt(-DAY * 1000) });
    const parent = (await post({ title: 'Has an autosave', status: 'draft' })).id as number;
    const kept = await store.posts.insert({ type: 'revision', status: 'inherit', parent, slug: `${parent}-autosave-v1`, title: 'Has an autosave' });
    const orphan = await store.posts.insert({ type: 'revision', status: 'inherit', parent: 987654, slug: '987654-autosave-v1', title: 'Gone' });

    assert.equal((await server.app.scheduler.runNow('wp_scheduled_auto_draft_delete')).length, 1);
    assert.equal(await store.posts.get(abandoned), undefined);
    assert.equal((await store.posts.get(fresh))?.status, 'auto-draft');
    assert.equal((await server.app.scheduler.runNow('delete_orphaned_autosaves')).length, 1);
    assert.equal(await store.posts.get(orphan), undefined);
    assert.equal((await store.posts.get(kept))?.parent, parent);
  });

  test('the plugins’ jobs: SEO background indexing indexes what was saved; the design library drops answers expired for over a week', async () => {
    const store = server.app.store;
    const id = (await post({ title: 'To be indexed', content: '<p>Words.</p>', status: 'publish' })).id as number;
    const seoRepo = store.plugin(seo);
    await seoRepo.markStale('post', id);
    assert.equal((await seoRepo.byObject('post', id))?.is_stale ?? 1, 1);
    assert.equal((await server.app.scheduler.runNow('wpseo_indexable_index_batch'))[0]?.error, undefined);
    assert.equal((await seoRepo.byObject('post', id))?.is_stale, 0, 'indexed in the background');

    const { answers } = store.plugin(designLibrary);
    await answers.set('fresh', { a: 1 }, 3600, { kind: 'library-items' });
    await answers.set('expired', { b: 1 }, -3600, { kind: 'library-items' });
    // expired eight days ago: written as it is, since a write drops such an entry itself
    await (store.db as Kysely<any>).insertInto('design_library_cache').values({ cache_key: 'long-expired', kind: 'library-items', body: '{}', expires_at: nowSeconds() - 8 * DAY }).execute();
    assert.equal((await server.app.scheduler.runNow('design_library_purge_expired_cache')).length, 1);
    assert.deepEqual(await answers.get('fresh'), { a: 1 });
    assert.deepEqual(await answers.kept('expired'), { b: 1 }, 'an answer expired an hour ago is kept, to serve stale');
    assert.equal(await answers.clear(), 2, 'the one expired for over a week was dropped');
  });

  test('a recurring job that comes due is run by the timer and rescheduled one interval on', async () => {
    const store = server.app.store;
    const before = nowSeconds() - 5;
    await store.db.updateTable('cron_events').set({ next_run: before, last_run: before }).where('hook', '=', 'wp_scheduled_auto_draft_delete').execute();
    // another process changed the schedule: the timer looks at it at least once a second
    const event = await until(async () => {
      const found = (await store.cron.events()).find((e) => e.hook === 'wp_scheduled_auto_draft_delete')!;
      return Number(found.last_run) > before && found;
    }, 'the timer running the job');
    assert.ok(Number(event.next_run) >= nowSeconds() + DAY - 3);
    assert.deepEqual(server.errors, []);
  });
});

describe('a post that came due while the server was stopped', () => {
  let database: TestDatabase;
  before(async () => {
    database = await testDatabase();
  });
  after(() => database.drop());

  test('is published as the server starts', async () => {
    let server = await startTestServer({ dbPath: database.location });
    const admin = await adminAuth(server);
    const res = await server.call('cms/v2/posts', { json: { title: 'While away', status: 'publish', date_gmt: restGmt(3600_000) }, auth: admin });
    const { id, status } = await json(res);
    assert.equal(status, 'future');
    await server.close();

    // the hour passes while no server runs
    const store = await Store.open(database.location);
    await store.db.updateTable('posts').set({ date: sqlGmt(-60_000), date_gmt: sqlGmt(-60_000) }).where('id', '=', id).execute();
    await store.close();

    server = await startTestServer({ dbPath: database.location });
    try {
      const after = await server.call(`cms/v2/posts/${id}`);
      assert.equal(after.status, 200, 'public as soon as the server answers');
      assert.equal((await json(after)).status, 'publish');
    } finally {
      await server.close();
    }
  });
});

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`once across processes on ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, () => {
    let database: TestDatabase | undefined;
    let reason = '';
    before(async () => {
      const missing = kind === 'postgres' && (await missingService('postgres'));
      if (missing) reason = missing;
      else database = await testDatabase(kind);
    });
    after(() => database?.drop());

    test('two `cms-spec cron run` at once run a due job once and publish each due post once', async (t) => {
      if (!database) return t.skip(reason);
      const server = await startTestServer({ dbPath: database.location });
      const admin = await adminAuth(server);
      const ids: number[] = [];
      for (const title of ['Due one', 'Due two']) ids.push((await json(await server.call('cms/v2/posts', { json: { title, status: 'publish', date_gmt: restGmt(3600_000) }, auth: admin }))).id);
      await server.close();
      const store = await Store.open(database.location);
      try {
        await store.db.updateTable('posts').set({ date: sqlGmt(-60_000), date_gmt: sqlGmt(-60_000) }).where('id', 'in', ids).execute();
        await store.db.updateTable('cron_events').set({ next_run: nowSeconds() - 5 }).where('hook', '=', 'wp_scheduled_delete').execute();
        const both = await Promise.all([cmsAsync(['cron', 'run', '--db', database.location]), cmsAsync(['cron', 'run', '--db', database.location])]);
        for (const r of both) assert.equal(r.status, 0, r.stderr);
        const out = both.map((r) => r.stdout).join('');
        assert.equal(out.match(/Executed the cron event 'wp_scheduled_delete'/g)?.length, 1, out);
        assert.equal(out.match(/Executed the cron event 'publish_future_post'/g)?.length, 2, out);
        assert.deepEqual(both.map((r) => /Success: Executed a total of (\d+) cron events?\./.exec(r.stdout)?.[1]).map(Number).reduce((x, y) => x + y), 3);
        for (const id of ids) assert.equal((await store.posts.get(id))?.status, 'publish');
      } finally {
        await store.close();
      }
    });
  });
}
