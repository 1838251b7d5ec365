import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { Store } from '../../src/store/index.ts';
import { testDatabase } from '../helpers/store.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE_SPEC = resolve(ROOT, 'test/fixtures/basic');

function seed(dbPath: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/cms-spec.js', 'seed', '--db', dbPath, '--spec', FIXTURE_SPEC, ...args], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r;
}

test('seed --posts 200 fills a new site with posts, terms and authors', { timeout: 60_000 }, async () => {
  const database = await testDatabase();
  try {
    const dbPath = database.location;
    const r = seed(dbPath, '--posts', '200');
    assert.match(r.stdout, /New site installed/, 'a new database is installed first');
    assert.match(r.stdout, /Seeded 200 posts/);
    assert.match(r.stderr, /seeded 200\/200 posts/, 'plain progress lines when not on a terminal');

    const store = await Store.open(dbPath);
    try {
      const posts = await store.posts.query({ types: ['post'], offset: 0, limit: 1000 });
      assert.equal(posts.total, 201, '200 seeded besides Hello world!');
      const seeded = posts.rows.filter((p) => p.id !== 1);
      assert.ok(seeded.every((p) => p.title && p.slug !== undefined && /<h2>/.test(p.content) && /<p>/.test(p.content)));
      assert.ok(seeded.some((p) => /<a href="https:\/\//.test(p.content)), 'links');
      assert.ok(seeded.every((p) => !/<img\b|\bsrc=/i.test(p.content)), 'no images: nothing on a demo page loads from another host');
      assert.ok(seeded.some((p) => p.excerpt), 'excerpts');
      assert.equal(new Set(seeded.map((p) => p.slug).filter(Boolean)).size, seeded.filter((p) => p.slug).length, 'unique slugs');
      const years = new Set(seeded.map((p) => p.date.slice(0, 4)));
      assert.ok(years.size >= 3, `dates spread over years (${[...years]})`);
      assert.ok(new Set(seeded.map((p) => p.author)).size >= 4, 'several authors');

      const users = await store.users.list({ offset: 0, limit: 100 });
      assert.ok(users.total >= 6, 'admin plus the demo authors');

      const cats = await store.terms.query({ taxonomy: 'category', offset: 0, limit: 100 });
      const tags = await store.terms.query({ taxonomy: 'post_tag', offset: 0, limit: 100 });
      assert.ok(cats.total >= 2 && tags.total >= 10, `categories ${cats.total}, tags ${tags.total}`);
      const terms = await store.terms.termsOfPosts(seeded.map((p) => p.id));
      assert.ok([...terms.values()].every((list) => list.some((t) => t.taxonomy === 'category')), 'every post has a category');

      // stored counts agree with what the posts carry
      const published = seeded.filter((p) => p.status === 'publish').map((p) => p.id);
      const carried = new Map<number, number>();
      for (const id of [1, ...published]) for (const t of (await store.terms.termsOfPosts([id])).get(id)!) carried.set(t.id, (carried.get(t.id) ?? 0) + 1);
      for (const t of [...cats.rows, ...tags.rows]) assert.equal(t.count, carried.get(t.id) ?? 0, `count of ${t.name}`);
    } finally {
      await store.close();
    }
  } finally {
    await database.drop();
  }
});

test('seed adds to an existing site, is repeatable with --seed-random, and rejects bad counts', { timeout: 60_000 }, async () => {
  const [first, second] = [await testDatabase(), await testDatabase()];
  try {
    const titles = async (dbPath: string) => {
      const store = await Store.open(dbPath);
      try {
        return (await store.posts.query({ types: ['post'], statuses: ['publish', 'draft'], orderby: 'id', order: 'asc', offset: 0, limit: 100 })).rows.map((p) => p.title);
      } finally {
        await store.close();
      }
    };
    const [a, b] = [first.location, second.location];
    seed(a, '--posts', '20', '--seed-random', '42');
    seed(b, '--posts', '20', '--seed-random', '42');
    assert.deepEqual(await titles(a), await titles(b));

    const again = seed(a, '--posts', '5', '--terms', '3', '--seed-random', '43');
    assert.doesNotMatch(again.stdout, /New site installed/);
    assert.equal((await titles(a)).length, 26);

    // too few terms for any tag (a tenth are categories, at least two): the posts get categories only
    const fewTerms = seed(a, '--posts', '3', '--terms', '2', '--seed-random', '44');
    assert.match(fewTerms.stdout, /^Seeded 3 posts, 2 categories, 0 tags and \d+ authors in /m);
    assert.match(seed(a, '--posts', '1', '--terms', '1').stdout, /^Seeded 1 post, 1 category, 0 tags and /m);
    assert.equal((await titles(a)).length, 30);

    const bad = spawnSync(process.execPath, ['bin/cms-spec.js', 'seed', '--db', a, '--posts', 'lots'], { cwd: ROOT, encoding: 'utf8' });
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /--posts takes a whole number/);
  } finally {
    await first.drop();
    await second.drop();
  }
});
