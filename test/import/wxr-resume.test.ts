import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
