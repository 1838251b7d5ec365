/**
 * The p50 and p99 of every page-builder query route (kbp/v1, kbpp/v1, ktp/v1) over HTTP on a
 * 100,000-post site, against the 20 ms target. Seeds the database first (`cms-spec seed`) when it
 * holds fewer posts than asked for; the server runs on a copy's file as `serve` would.
 *
 *   node --import tsx scripts/bench-block-queries.ts [--db .cms/bench-100k.sqlite] [--posts 100000] [--runs 300]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startApp } from '../src/app.ts';
import { createAppPassword } from '../src/auth/app-passwords.ts';
import { Store } from '../src/store/index.ts';

const { values: o } = parseArgs({
  options: {
    db: { type: 'string', default: '.cms/bench-100k.sqlite' },
    posts: { type: 'string', default: '100000' },
    spec: { type: 'string', default: 'spec' },
    runs: { type: 'string', default: '300' },
  },
});
const ROOT = resolve(import.meta.dirname, '..');
const TARGET_MS = 20;
const runs = Number(o.runs);
const dbPath = resolve(o.db);

async function publishedPosts(): Promise<number> {
  if (!existsSync(dbPath)) return 0;
  const store = await Store.open(dbPath);
  try {
    return (await store.posts.countByStatus('post')).publish ?? 0;
  } finally {
    await store.close();
  }
}

if ((await publishedPosts()) < Number(o.posts) * 0.9) {
  console.log(`Seeding ${o.posts} posts into ${dbPath}...`);
  const r = spawnSync(process.execPath, ['bin/cms-spec.js', 'seed', '--posts', o.posts, '--db', dbPath, '--spec', o.spec, '--seed-random', '1'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const app = await startApp({ specDir: o.spec, dbPath, variant: 'A', host: '127.0.0.1', port: 0, bodyLimit: 1 << 20, log: { error: (m) => console.error(m), info: () => {} } });
try {
  const store = app.store;
  const admin = (await store.users.byLogin('admin'))!;
  const { password } = await createAppPassword(store, admin.id, { name: `bench ${Date.now()}` });
  const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  // the biggest category and tag, a post with terms, and a run of ids to pick
  const category = (await store.terms.query({ taxonomy: 'category', orderby: 'count', order: 'desc', offset: 0, limit: 1 })).rows[0];
  const tag = (await store.terms.query({ taxonomy: 'post_tag', orderby: 'count', order: 'desc', offset: 0, limit: 1 })).rows[0];
  const recent = (await store.posts.query({ types: ['post'], statuses: ['publish'], offset: 0, limit: 10 })).rows.map((r) => r.id);
  console.log(`${await publishedPosts()} published posts in ${dbPath}; ${runs} runs per route; biggest category ${category.id} (${category.count} posts), biggest tag ${tag.id} (${tag.count})\n`);

  const routes: [string, string][] = [
    ['kbp post-query (latest 25)', 'kbp/v1/post-query?query=category&type=post'],
    ['kbp post-query category', `kbp/v1/post-query?query=category&type=post&category=${category.id}`],
    ['kbp post-query category excluded', `kbp/v1/post-query?query=category&type=post&category=${category.id}&exclude=exclude`],
    ['kbp post-query tags', `kbp/v1/post-query?query=category&type=post&tags=${tag.id}`],
    ['kbp post-query custom taxonomy (tax_type=category)', `kbp/v1/post-query?query=category&type=post&custom_tax=true&tax_type=category&category=${category.id}`],
    ['kbp post-query allow_sticky', 'kbp/v1/post-query?query=category&type=post&allow_sticky=true'],
    ['kbp post-query order_by=title asc', 'kbp/v1/post-query?query=category&type=post&order_by=title&order=asc'],
    ['kbp post-query order_by=rand', 'kbp/v1/post-query?query=category&type=post&order_by=rand'],
    ['kbp post-query offset=5 page=200', 'kbp/v1/post-query?query=category&type=post&offset=5&page=200'],
    ['kbp post-query search', 'kbp/v1/post-query?query=category&type=post&search=lantern%20orchard'],
    ['kbp post-query individual (10 ids)', `kbp/v1/post-query?query=individual&type=post&include=${recent.join(',')}`],
    ['kbp post-query post_id excluded', `kbp/v1/post-query?query=category&type=post&post_id=${recent[0]}`],
    ['kbp taxonomies-select all', 'kbp/v1/taxonomies-select?source=all'],
    ['kbp term-select category (whole list)', 'kbp/v1/term-select?source=category'],
    ['kbp term-select post_tag (whole list)', 'kbp/v1/term-select?source=post_tag'],
    ['kbp term-select post_tag page 2 of 25', 'kbp/v1/term-select?source=post_tag&page=2&per_page=25'],
    ['kbpp post-select (post, page)', 'kbpp/v1/post-select'],
    ['kbpp post-select search', 'kbpp/v1/post-select?search=garden'],
    ['kbpp post-select categories', `kbpp/v1/post-select?type=post&categories=${category.id}`],
    ['kbpp post-select page 100', 'kbpp/v1/post-select?page=100'],
    ['kbpp post-query author=88888888', 'kbpp/v1/post-query?query=category&type=post&author=88888888'],
    ['kbpp post-query author + category', `kbpp/v1/post-query?query=category&type=post&author=${admin.id}&category=${category.id}`],
    ['kbpp tax-query post', 'kbpp/v1/tax-query?type=post'],
    ['kbpp term-query post_tag all', 'kbpp/v1/term-query?tax_type=post_tag&source=all'],
    ['kbpp term-query a post', `kbpp/v1/term-query?tax_type=post_tag&source=${recent[0]}`],
    ['ktp post-select (every type)', 'ktp/v1/post-select'],
  ];
  let over = 0;
  for (const [name, path] of routes) {
    const call = async () => {
      const res = await fetch(app.url + path, { headers: { authorization: auth } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    for (let i = 0; i < 20; i++) await call();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await call();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))];
    const p99 = at(0.99);
    if (p99 >= TARGET_MS) over++;
    console.log(`${name.padEnd(52)} p50 ${at(0.5).toFixed(2).padStart(7)} ms   p99 ${p99.toFixed(2).padStart(7)} ms   ${p99 < TARGET_MS ? 'ok' : `over the ${TARGET_MS} ms target`}`);
  }
  console.log(over ? `\n${over} route(s) over the ${TARGET_MS} ms p99 target` : `\nevery route under the ${TARGET_MS} ms p99 target`);
} finally {
  await app.close();
}
