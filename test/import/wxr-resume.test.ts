import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeWxr } from '../../scripts/bench/wxr.ts';
import { startTestServer } from '../helpers/server.ts';
import { testDatabase } from '../helpers/store.ts';
import { CLI, ROOT, cms } from '../cli/run.ts';

/**
 * An import killed part way (as Ctrl-C or a crash would end it) and run again: the second run
 * skips what the first stored and adds the rest, so the site ends with every post, comment and
 * term once, each post with all of its meta, terms and comments.
 */
test('an import killed part way and run again ends with everything once', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-wxr-resume-'));
  const db = await testDatabase();
  try {
    const file = join(dir, 'site.xml');
    const posts = 900;
    await writeWxr(file, posts);
    const fresh = await startTestServer({ dbPath: db.location });
    await fresh.close();

    // killed once the progress says a third of the items are in (a batch or more committed)
    const child = spawn(process.execPath, [CLI, 'import', file, '--db', db.location, '--no-attachments'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    const ended = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      const done = [...err.matchAll(/imported (\d+)\/(\d+) items/g)].at(-1);
      if (done && Number(done[1]) >= Number(done[2]) / 3) child.kill('SIGKILL');
    });
    assert.equal(await ended, null, `the first run was killed, not finished:\n${err.slice(-500)}`);
    const second = cms(['import', file, '--db', db.location, '--no-attachments']);
    assert.equal(second.status, 0, second.stderr);
    const kept = Number(/; (\d+) already there,/.exec(second.stdout)?.[1]);
    assert.ok(kept > 0 && kept < posts, `the second run found the first run's posts and added the rest: ${second.stdout}`);

    const site = await startTestServer({ dbPath: db.location });
    try {
      const { store } = site.app;
      const imported = await store.db.selectFrom('posts').select('title').where('title', 'like', 'Post %').execute();
      assert.equal(imported.length, posts, 'every post');
      assert.equal(new Set(imported.map((p) => p.title)).size, posts, 'each once');
      const comments = await store.db.selectFrom('comments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(comments.n), (posts / 3) * 2, 'two comments on every third post');
      // _edit_last is dropped (no such user was mapped); reading_time and layout stay
      assert.equal(Number((await store.db.selectFrom('post_meta').select((eb) => eb.fn.countAll<number>().as('n')).where('key', 'in', ['reading_time', 'layout']).executeTakeFirstOrThrow()).n), posts * 2);
      const relations = await store.db
        .selectFrom('term_relationships as tr')
        .innerJoin('posts as p', 'p.id', 'tr.post_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('p.title', 'like', 'Post %')
        .executeTakeFirstOrThrow();
      assert.equal(Number(relations.n), posts * 5, 'two categories and three tags each');
      // counted at the end of the second run, the first run's posts included
      const topic1 = await store.db.selectFrom('terms').select('count').where('taxonomy', '=', 'category').where('slug', '=', 'topic-1').executeTakeFirstOrThrow();
      const carrying = await store.db.selectFrom('term_relationships as tr').innerJoin('terms as t', 't.id', 'tr.term_id').select((eb) => eb.fn.countAll<number>().as('n')).where('t.slug', '=', 'topic-1').where('t.taxonomy', '=', 'category').executeTakeFirstOrThrow();
      assert.equal(topic1.count, Number(carrying.n));
    } finally {
      await site.close();
    }
  } finally {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * An item that cannot be stored (a date no clock reads) among good ones: the batch written
 * together fails, is written again item by item, and that item alone is reported; the others of
 * its batch are stored with their meta, terms and comments.
 */
test('an item that cannot be stored is the only one reported; the rest of its batch is imported', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-wxr-bad-item-'));
  const db = await testDatabase();
  try {
    const file = join(dir, 'site.xml');
    const posts = 30;
    await writeWxr(file, posts);
    // post 10 (no comments) gets a local date that is no date, and no GMT date to fall back on
    const text = readFileSync(file, 'utf8');
    const broken = text
      .replace('<wp:post_date><![CDATA[2015-01-01 10:00:00]]></wp:post_date>', '<wp:post_date><![CDATA[the tenth]]></wp:post_date>')
      .replace('<wp:post_date_gmt><![CDATA[2015-01-01 10:00:00]]></wp:post_date_gmt>', '<wp:post_date_gmt></wp:post_date_gmt>');
    assert.notEqual(broken, text);
    writeFileSync(file, broken);
    const fresh = await startTestServer({ dbPath: db.location });
    await fresh.close();

    const run = cms(['import', file, '--db', db.location, '--no-attachments']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Imported 3 users, 240 terms, 29 post, 0 menu items, 0 attachments, 20 comments; 0 already there, 1 failed\./);
    const reported = run.stderr.split('\n').filter((l) => /could not be imported/.test(l));
    assert.equal(reported.length, 1, run.stderr);
    assert.match(reported[0], /site\.xml:\d+: post “Post 10: [^”]*” \(id 1010\) could not be imported: /);

    const site = await startTestServer({ dbPath: db.location });
    try {
      const { store } = site.app;
      const imported = await store.db.selectFrom('posts').select(['id', 'title']).where('title', 'like', 'Post %').orderBy('id').execute();
      assert.deepEqual(
        imported.map((p) => p.id),
        Array.from({ length: posts }, (_, i) => 1001 + i).filter((id) => id !== 1010),
        'every other post, with its old id',
      );
      const count = async (q: Promise<{ n: number | string } | undefined>) => Number((await q)?.n);
      assert.equal(await count(store.db.selectFrom('comments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()), 20, 'two comments on every third post');
      assert.equal(await count(store.db.selectFrom('post_meta').select((eb) => eb.fn.countAll<number>().as('n')).where('key', 'in', ['reading_time', 'layout']).executeTakeFirst()), (posts - 1) * 2);
      assert.equal(await count(store.db.selectFrom('term_relationships').select((eb) => eb.fn.countAll<number>().as('n')).where('post_id', '>', 1000).executeTakeFirst()), (posts - 1) * 5);
      // a reply keeps its parent: the second comment of each commented post answers the first
      const replies = await store.db.selectFrom('comments as c').innerJoin('comments as p', 'p.id', 'c.parent').select((eb) => eb.fn.countAll<number>().as('n')).whereRef('p.post', '=', 'c.post').executeTakeFirst();
      assert.equal(Number(replies?.n), 10);
    } finally {
      await site.close();
    }
  } finally {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});
