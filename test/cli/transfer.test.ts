import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/index.ts';
import { tableNames } from '../../src/store/portable.ts';
import { connectDatabase } from '../../src/store/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth } from '../helpers/auth.ts';
import { TEST_STORE, testDatabase } from '../helpers/store.ts';
import { missingService } from '../helpers/services.ts';
import { cms, fails, ok } from './run.ts';

type Query = { path: string; auth?: boolean };

/** What both sites are asked; `auth` requests are made as the admin (whose application password moved with the site). */
const QUERIES: Query[] = [
  { path: 'cms/v2/posts' },
  { path: 'cms/v2/posts?search=%F0%9F%8E%89' },
  { path: 'cms/v2/posts?orderby=title&order=asc&per_page=3&page=2' },
  { path: 'cms/v2/posts?orderby=title&order=desc&per_page=10' },
  { path: 'cms/v2/posts?status=draft&per_page=5', auth: true },
  { path: 'cms/v2/posts/1' },
  { path: 'cms/v2/posts/1?context=edit', auth: true },
  { path: 'cms/v2/pages/2' },
  { path: 'cms/v2/categories?per_page=100' },
  { path: 'cms/v2/tags?orderby=count&order=desc' },
  { path: 'cms/v2/users?per_page=100' },
  { path: 'cms/v2/users?context=edit', auth: true },
  { path: 'cms/v2/settings', auth: true },
  { path: 'cms/v2/search?search=river&per_page=5' },
  { path: 'code-snippets/v1/snippets', auth: true },
];

/** Further questions for a site of thousands of posts. */
const LARGE_SITE_QUERIES: Query[] = [
  { path: 'cms/v2/posts?per_page=7&page=300' },
  { path: 'cms/v2/posts?search=garden&per_page=20&page=2' },
  { path: 'cms/v2/posts?orderby=title&order=asc&per_page=25&page=40' },
  { path: 'cms/v2/posts/5000' },
  { path: 'cms/v2/posts?categories=2&per_page=50&page=3' },
  { path: 'cms/v2/tags?per_page=50&page=2&orderby=count&order=desc' },
  { path: 'cms/v2/tags?search=ga' },
];

/** Every query answered alike by both servers: status, paging headers and body. */
async function assertSameAnswers(a: TestServer, b: TestServer, auth: string, queries = QUERIES): Promise<void> {
  for (const q of queries) {
    const init = q.auth ? { auth } : {};
    const [ra, rb] = await Promise.all([a.call(q.path, init), b.call(q.path, init)]);
    const answer = async (r: Response) => ({ status: r.status, total: r.headers.get('x-wp-total'), pages: r.headers.get('x-wp-totalpages'), body: await r.json() });
    const [x, y] = await Promise.all([answer(ra), answer(rb)]);
    assert.equal(x.status, 200, `${q.path}: ${JSON.stringify(x.body).slice(0, 300)}`);
    assert.deepEqual(y, x, `${q.path} is answered alike`);
  }
}

/** A post both servers create: the same id on each, past every id that moved. */
async function assertSameNextPost(a: TestServer, b: TestServer, auth: string): Promise<void> {
  const create = async (s: TestServer) => {
    const r = await s.call('cms/v2/posts', { json: { title: 'After the move', status: 'publish' }, auth });
    assert.equal(r.status, 201, await r.clone().text());
    return ((await r.json()) as { id: number }).id;
  };
  assert.equal(await create(b), await create(a));
}

/** Content beyond what seed makes: a post with unicode, a snippet of the code-snippets plugin, a setting. */
async function addContent(server: TestServer, auth: string): Promise<void> {
  const post = await server.call('cms/v2/posts', { json: { title: 'Grüße 🎉 — 日本語', content: '<p>"JSON" {"a":[1]} ünïcödé</p>', status: 'publish', sticky: true }, auth });
  assert.equal(post.status, 201, await post.text());
  const snippet = await server.call('code-snippets/v1/snippets', { json: { name: 'Moved 🎉', code: 'body { color: red; }', scope: 'site-css', active: true, tags: ['a', 'b'] }, auth });
  assert.equal(snippet.status, 200, await snippet.text());
  const settings = await server.call('cms/v2/settings', { json: { title: 'Site that moved ✓', posts_per_page: 7 }, auth });
  assert.equal(settings.status, 200, await settings.text());
}

const workDir = () => mkdtempSync(join(tmpdir(), 'cms-spec-transfer-'));

test('a site of 10,000 seeded posts moves from SQLite to PostgreSQL and answers alike', { timeout: 120_000 }, async (t) => {
  if (TEST_STORE === 'postgres') return t.skip('the SQLite pass runs it: it uses both stores whichever one the run tests');
  const missing = await missingService('postgres');
  if (missing) return t.skip(`${missing}: this test moves a site to it`);
  const dir = workDir();
  const source = await testDatabase('sqlite');
  const target = await testDatabase('postgres');
  const servers: TestServer[] = [];
  try {
    ok(['seed', '--posts', '10000', '--seed-random', '12', '--db', source.location]);
    const a = await startTestServer({ dbPath: source.location });
    servers.push(a);
    const auth = await adminAuth(a);
    await addContent(a, auth);

    const file = join(dir, 'site.jsonl');
    const exported = cms(['export', '--db', source.location, '--out', file]);
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(exported.stdout, /^Exported [\d,]+ rows of \d+ tables from .* to .*site\.jsonl in [\d.]+ s\.\n$/);
    assert.match(exported.stderr, /exported [\d]+\/[\d]+ rows/, 'progress on stderr');
    const header = JSON.parse(readFileSync(file, 'utf8').slice(0, 100_000).split('\n')[0]) as { dialect: string; tables: { name: string; rows: number }[] };
    assert.equal(header.dialect, 'sqlite');
    assert.equal(header.tables.find((x) => x.name === 'posts')!.rows, 10_003, '10,000 seeded, Hello world, the sample page, one added');

    const imported = cms(['import', '--db', target.location, file]);
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /^Imported [\d,]+ rows of \d+ tables into postgres:\/\/.* \(a sqlite site exported .*\)/);
    const b = await startTestServer({ dbPath: target.location });
    servers.push(b);
    assert.equal(b.app.store.dialect, 'postgres');
    await assertSameAnswers(a, b, auth, [...QUERIES, ...LARGE_SITE_QUERIES]);
    await assertSameNextPost(a, b, auth);
    assert.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    for (const s of servers) await s.close();
    await Promise.all([source.drop(), target.drop()]);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a small site moves from PostgreSQL to SQLite through a pipe and answers alike', { timeout: 60_000 }, async (t) => {
  const missing = await missingService('postgres');
  if (missing) return t.skip(`${missing}: this test moves a site from it`);
  const source = await testDatabase('postgres');
  const target = await testDatabase('sqlite');
  const servers: TestServer[] = [];
  try {
    const a = await startTestServer({ dbPath: source.location });
    servers.push(a);
    const auth = await adminAuth(a);
    await addContent(a, auth);
    for (const title of ['Zebra', 'apple', 'Äpfel', 'banana']) assert.equal((await a.call('cms/v2/posts', { json: { title, status: 'publish', tags: [] }, auth })).status, 201);
    await a.close();
    servers.pop();

    const exported = cms(['export', '--db', source.location]);
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(exported.stderr, /^Exported [\d,]+ rows of \d+ tables from postgres:/m, 'the summary stays off the data');
    assert.match(exported.stdout.split('\n')[0], /"dialect":"postgres"/);
    const imported = cms(['import', '--db', target.location, '-'], exported.stdout);
    assert.equal(imported.status, 0, imported.stderr);

    const [again, b] = await Promise.all([startTestServer({ dbPath: source.location }), startTestServer({ dbPath: target.location })]);
    servers.push(again, b);
    await assertSameAnswers(again, b, auth, [...QUERIES, { path: 'cms/v2/posts?orderby=title&order=asc&per_page=100' }]);
    await assertSameNextPost(again, b, auth);
  } finally {
    for (const s of servers) await s.close();
    await Promise.all([source.drop(), target.drop()]);
  }
});

/** The database's tables, its migrations' records and whether it holds a site. */
async function inspect(location: string): Promise<{ tables: string[]; migrations: unknown[]; posts: number }> {
  const store = await Store.open(location);
  try {
    const tables = (await tableNames(store.db)).sort();
    const migrations = await store.db.selectFrom('plugin_migrations').selectAll().orderBy('plugin').execute();
    const { total } = await store.posts.query({ types: ['post', 'page'], statuses: ['publish', 'draft'], offset: 0, limit: 1 });
    return { tables, migrations, posts: total };
  } finally {
    await store.close();
  }
}

test('migrate brings a new database up to date, and serve then finds nothing to run', { timeout: 60_000 }, async () => {
  const database = await testDatabase();
  try {
    const first = ok(['migrate', '--db', database.location]);
    assert.match(first, /^applied core 001-options$/m);
    assert.match(first, /^applied core 008-shared-state$/m);
    assert.match(first, /^applied plugin code-snippets 001-snippets-table$/m);
    assert.match(first, /^Migrated .*: \d+ migrations applied \(\d+ core migrations; plugins: .*code-snippets 1/m);
    assert.match(ok(['migrate', '--db', database.location]), /^Nothing to migrate: .* is up to date/);

    const before = await inspect(database.location);
    assert.ok(before.tables.includes('code_snippets'));
    const server = await startTestServer({ dbPath: database.location });
    await server.close();
    const after = await inspect(database.location);
    assert.deepEqual(after.migrations, before.migrations, 'serve ran no plugin migration (each record as migrate left it)');
    assert.deepEqual(after.tables, before.tables);
    assert.ok(after.posts > 0, 'and it installed the site');
    assert.match(ok(['migrate', '--db', database.location]), /^Nothing to migrate/);
  } finally {
    await database.drop();
  }
});

test('a database that cannot be reached is one line naming it without its password', () => {
  const url = 'postgres://site:s3cret-pw@127.0.0.1:1/site';
  for (const args of [['migrate', '--db', url], ['export', '--db', url], ['import', '--db', url, join(import.meta.dirname, 'no-such-file.jsonl')]]) {
    const r = fails(args, args[0] === 'import' ? /Cannot read .*no-such-file\.jsonl: there is no such file/ : /Cannot reach the database postgres:\/\/site:\*\*\*@127\.0\.0\.1:1\/site: nothing accepts connections there/);
    assert.doesNotMatch(r.stderr, /s3cret-pw/);
  }
});

test('import refuses a malformed file, a newer one and a site already there, writing nothing', { timeout: 60_000 }, async () => {
  const dir = workDir();
  const source = await testDatabase();
  const target = await testDatabase();
  try {
    ok(['seed', '--posts', '5', '--seed-random', '3', '--db', source.location]);
    const file = join(dir, 'site.jsonl');
    ok(['export', '--db', source.location, '--out', file]);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]) as { migrations: { core: string[]; plugins: Record<string, string[]> } };
    const variant = (name: string, content: string[]) => {
      const path = join(dir, name);
      writeFileSync(path, `${content.join('\n')}\n`);
      return path;
    };
    const withHeader = (h: object) => [JSON.stringify(h), ...lines.slice(1)];
    const untouched = async () => {
      if (TEST_STORE === 'sqlite') return assert.ok(!existsSync(target.location), 'the database was not even created');
      const db = await connectDatabase(target.location);
      try {
        assert.deepEqual(await tableNames(db), [], 'not a table was made');
      } finally {
        await db.destroy();
      }
    };

    fails(['import', '--db', target.location, variant('core.jsonl', withHeader({ ...header, migrations: { ...header.migrations, core: [...header.migrations.core, '999-future'] } }))], /newer cms-spec: its site ran core migration 999-future/);
    fails(['import', '--db', target.location, variant('plugin.jsonl', withHeader({ ...header, migrations: { ...header.migrations, plugins: { 'no-such-plugin': ['001-x'] } } }))], /plugin no-such-plugin, which is not installed/);
    await untouched();

    const garbled = [...lines];
    garbled[lines.length - 2] = garbled[lines.length - 2].slice(0, 20);
    fails(['import', '--db', target.location, variant('garbled.jsonl', garbled)], new RegExp(`Line ${lines.length - 1} of the file is not JSON; nothing was imported`));
    assert.equal((await inspect(target.location)).posts, 0, 'nothing imported');

    ok(['import', '--db', target.location, file]);
    assert.equal((await inspect(target.location)).posts, (await inspect(source.location)).posts);
    fails(['import', '--db', target.location, file], /already holds a site \(rows in .*posts.*\); import into a new database, or pass --replace/);
    ok(['import', '--replace', '--db', target.location, file]);
    assert.equal((await inspect(target.location)).posts, (await inspect(source.location)).posts, '--replace does not add to what was there');
  } finally {
    await Promise.all([source.drop(), target.drop()]);
    rmSync(dir, { recursive: true, force: true });
  }
});
