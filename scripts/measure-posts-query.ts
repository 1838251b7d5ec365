/**
 * Measures the filtered, paged posts query on a 100,000-post site: the store query alone, then the
 * real `cms/v2/posts` route over HTTP (when the spec serves it). Seeds the database first when it
 * holds fewer posts than asked for.
 *
 *   node --import tsx scripts/measure-posts-query.ts [--db .cms/bench-100k.sqlite] [--posts 100000] [--spec spec] [--runs 200]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Store } from '../src/store/index.ts';
import type { PostQuery } from '../src/store/posts.ts';
import { startApp } from '../src/app.ts';

const { values: o } = parseArgs({
  options: {
    db: { type: 'string', default: '.cms/bench-100k.sqlite' },
    posts: { type: 'string', default: '100000' },
    spec: { type: 'string', default: 'spec' },
    runs: { type: 'string', default: '200' },
  },
});
const ROOT = resolve(import.meta.dirname, '..');
const wantPosts = Number(o.posts);
const runs = Number(o.runs);
const TARGET_MS = 20;

async function storedPosts(path: string): Promise<number> {
  if (!existsSync(path)) return 0;
  const store = await Store.open(path);
  try {
    return (await store.posts.countByStatus('post')).publish ?? 0;
  } finally {
    await store.close();
  }
}

/** Median and 95th percentile of `runs` sequential calls, after a warm-up. */
async function measure(name: string, fn: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 10; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const p95 = times[Math.min(times.length - 1, Math.floor(times.length * 0.95))];
  const verdict = median < TARGET_MS ? 'ok' : `over the ${TARGET_MS} ms target`;
  console.log(`${name.padEnd(72)} median ${median.toFixed(2).padStart(8)} ms   p95 ${p95.toFixed(2).padStart(8)} ms   ${verdict}`);
}

const dbPath = resolve(o.db);
if ((await storedPosts(dbPath)) < wantPosts * 0.9) {
  console.log(`Seeding ${wantPosts} posts into ${dbPath}...`);
  const r = spawnSync(process.execPath, ['bin/cms-spec.js', 'seed', '--posts', String(wantPosts), '--db', dbPath, '--spec', o.spec, '--seed-random', '1'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
console.log(`${await storedPosts(dbPath)} published posts in ${dbPath}; ${runs} runs each\n`);

const store = await Store.open(dbPath);
const published = { types: ['post'], statuses: ['publish'] };
const storeQueries: [string, PostQuery][] = [
  ['store: categories=3, orderby=date, page 50 of 10', { ...published, categories: [3], orderby: 'date', offset: 490, limit: 10 }],
  ['store: all posts, page 50 of 10', { ...published, offset: 490, limit: 10 }],
  ['store: tags=300, page 1 of 10', { ...published, tags: [300], offset: 0, limit: 10 }],
  ['store: search=lantern orchard (relevance), page 1 of 10', { ...published, search: 'lantern orchard', offset: 0, limit: 10 }],
  ['store: search=lantern orchard, orderby=date, page 1 of 10', { ...published, search: 'lantern orchard', orderby: 'date', offset: 0, limit: 10 }],
];
for (const [name, q] of storeQueries) await measure(name, () => store.posts.query(q));
await store.close();

let app;
try {
  app = await startApp({ specDir: o.spec, dbPath, variant: 'A', host: '127.0.0.1', port: 0, bodyLimit: 1 << 20, log: { error: () => {}, info: () => {} } });
} catch (e) {
  console.log(`\nHTTP: the server does not start with spec ${o.spec} (${e instanceof Error ? e.message.split('\n')[0] : e}); store numbers only.`);
  process.exit(0);
}
try {
  const paths = ['cms/v2/posts?per_page=10&page=50&categories=3&orderby=date', 'cms/v2/posts?per_page=10&search=lantern%20orchard'];
  for (const path of paths) {
    const url = app.url + path;
    const first = await fetch(url);
    await first.arrayBuffer();
    if (first.status !== 200) {
      console.log(`HTTP: GET /${path} answers ${first.status}; not measured`);
      continue;
    }
    await measure(`HTTP GET ${path}`, async () => (await fetch(url)).arrayBuffer());
  }
} finally {
  await app.close();
}
