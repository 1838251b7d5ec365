import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cms, ok } from '../../cli/run.ts';
import { Store } from '../../../src/store/index.ts';
import type { Obj } from './helpers.ts';

test('cms-spec seo index indexes a seeded site with a progress bar; a second run has nothing to do; --reindex does it all again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-seo-cli-'));
  const db = join(dir, 'site.sqlite');
  try {
    ok(['seed', '--posts', '40', '--terms', '20', '--db', db, '--seed-random', '7']);
    const run = cms(['seo', 'index', '--db', db]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /^indexed \d+\/\d+ objects \(\d+\.\d+s\)$/m, 'progress lines on a non-terminal');
    const done = /Indexed (\d+) objects/.exec(run.stdout);
    assert.ok(done, run.stdout);
    const store = await Store.open(db);
    try {
      const rows = (await store.db.selectFrom('seo_indexables' as never).select(['object_type', 'link_count', 'is_stale'] as never).execute()) as Obj[];
      const posts = (await store.posts.query({ types: ['post', 'page'], statuses: ['publish', 'draft', 'private', 'pending', 'future'], offset: 0, limit: 1 })).total;
      assert.equal(rows.filter((r) => r.object_type === 'post').length, posts);
      assert.equal(rows.filter((r) => r.object_type === 'term').length, (await store.terms.query({ taxonomy: 'category', offset: 0, limit: 1 })).total + (await store.terms.query({ taxonomy: 'post_tag', offset: 0, limit: 1 })).total);
      assert.equal(rows.filter((r) => r.object_type === 'home-page').length, 1);
      assert.ok(rows.filter((r) => r.object_type === 'post').every((r) => r.link_count !== null && r.is_stale === 0), 'every post had its links read');
      assert.ok(Number(done[1]) >= posts * 2, 'posts are counted once indexed and once link-indexed');
    } finally {
      await store.close();
    }
    assert.match(ok(['seo', 'index', '--db', db]), /Nothing to index/);
    assert.match(ok(['seo', 'index', '--reindex', '--db', db]), new RegExp(`Indexed ${done[1]} objects`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
