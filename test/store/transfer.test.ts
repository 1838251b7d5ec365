import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../../src/store/index.ts';
import { tablePrefix } from '../../src/core/plugin.ts';
import { codeSnippets } from '../../src/plugins/code-snippets/plugin.ts';
import type { SnippetFields } from '../../src/plugins/code-snippets/repo.ts';
import { exportSite, filledTables, importSite, parseHeader, TransferError, type TransferHeader } from '../../src/store/transfer.ts';
import { testDatabase, type TestDatabase } from '../helpers/store.ts';
import { missingService } from '../helpers/services.ts';

/** A store on a fresh database of the kind named, with the code-snippets plugin's table, and its database. */
async function openSite(kind?: 'sqlite' | 'postgres'): Promise<{ store: Store; database: TestDatabase; close(): Promise<void> }> {
  const database = await testDatabase(kind);
  const store = await Store.open(database.location);
  await store.migratePlugin(codeSnippets.name, tablePrefix(codeSnippets.name), codeSnippets.migrations!);
  return {
    store,
    database,
    async close() {
      await store.close();
      await database.drop();
    },
  };
}

/** The export as its lines (without the trailing newline). */
async function exported(store: Store): Promise<string[]> {
  let text = '';
  await exportSite(store.db, async (chunk) => {
    text += chunk;
  });
  return text.replace(/\n$/, '').split('\n');
}

async function* linesOf(lines: readonly string[]): AsyncGenerator<string> {
  yield* lines;
}

/** Imports the lines of an export into the store's database. */
function load(store: Store, lines: readonly string[], replace = false): Promise<void> {
  return importSite(store.db, parseHeader(lines[0]), linesOf(lines.slice(1)), { replace });
}

/** Each table's rows, by table, as the export lists them. */
function rowsOf(lines: readonly string[]): Map<string, Record<string, unknown>[]> {
  const tables = new Map<string, Record<string, unknown>[]>();
  for (const line of lines.slice(1)) {
    const { table, row } = JSON.parse(line) as { table: string; row: Record<string, unknown> };
    tables.set(table, [...(tables.get(table) ?? []), row]);
  }
  return tables;
}

const snippet = (fields: Partial<SnippetFields>): SnippetFields => ({ name: '', desc: '', code: '', tags: [], scope: 'global', active: false, priority: 10, network: false, shared_network: false, modified: '2024-01-02T03:04:05Z', code_error: null, ...fields });

const BIG_ID = 3_000_000_000;
const TITLE = 'Grüße 🎉 — 日本語 "quoted" \\ back\u2028slash';
const JSON_TEXT = '{"a":[1,2,{"b":null}],"s":"ünï"}';

/** Rows whose values are easy to lose between the databases: ids past 32 bits, unicode, NUL, JSON and number-like text, 0/1, null. */
async function fillTricky(store: Store): Promise<void> {
  const author = await store.users.insert({ login: 'ädmin', email: 'a@example.com', display_name: 'Ädmin 👩‍💻', role: 'administrator', password_hash: 'x' });
  await store.db
    .insertInto('posts')
    .values({ id: BIG_ID, author, date: '2024-02-29 23:59:59', date_gmt: '2024-02-29 22:59:59', modified: '2024-03-01 00:00:00', modified_gmt: '2024-02-29 23:00:00', title: TITLE, content: 'before\u0000after', excerpt: JSON_TEXT, sticky: 1, slug: 'grusse' })
    .execute();
  await store.posts.insert({ author, title: 'numbered after it', content: '', excerpt: '', status: 'draft', type: 'post', sticky: 0, date_gmt: '2020-01-01 00:00:00' });
  await store.db.insertInto('post_meta').values({ post_id: BIG_ID, key: '_json', value: JSON_TEXT }).execute();
  await store.options.set('number_like', '0042');
  await store.options.set('json_option', JSON_TEXT);
  await store.db.insertInto('app_passwords').values({ uuid: '0b7a6c1e-0000-4000-8000-000000000001', user_id: author, app_id: '', name: 'ключ', password_hash: 'h', created: 1_700_000_000, last_used: null, last_ip: null }).execute();
  await store.db.insertInto('login_failures').values({ scope: 'login', ip: '::1', at: 1_700_000_000_123 }).execute();
  await store.plugin(codeSnippets).create(snippet({ name: 'émoji 🎉', code: "echo 'ü';", tags: ['a', 'b'], active: true, code_error: ['unexpected "ü"', 3] }));
}

test('every value keeps its type and its meaning from SQLite to PostgreSQL and back', async (t) => {
  const missing = await missingService('postgres');
  if (missing) return t.skip(`${missing}: this test moves a site between SQLite and PostgreSQL`);
  const source = await openSite('sqlite');
  const onPg = await openSite('postgres');
  const back = await openSite('sqlite');
  try {
    await fillTricky(source.store);
    const fromSqlite = await exported(source.store);
    const header = parseHeader(fromSqlite[0]);
    assert.equal(header.dialect, 'sqlite');
    const tables = header.tables.map((x) => x.name);
    for (const bookkeeping of ['kysely_migration', 'kysely_migration_lock', 'plugin_migrations', 'state_versions']) assert.ok(!tables.includes(bookkeeping), `${bookkeeping} is the database's, not the site's`);
    assert.ok(tables.includes('code_snippets'), "a plugin's table is part of the site");
    for (const [first, then] of [['users', 'user_meta'], ['users', 'app_passwords'], ['posts', 'post_meta'], ['posts', 'term_relationships'], ['terms', 'term_relationships']]) {
      assert.ok(tables.indexOf(first) < tables.indexOf(then), `${first} before ${then}, which references it`);
    }
    assert.deepEqual(header.migrations.plugins, { 'code-snippets': ['001-snippets-table'] });
    assert.equal(header.tables.find((x) => x.name === 'posts')!.rows, 2);

    await load(onPg.store, fromSqlite);
    const fromPg = await exported(onPg.store);
    assert.equal(parseHeader(fromPg[0]).dialect, 'postgres');
    const expected = rowsOf(fromSqlite);
    // PostgreSQL's text cannot hold NUL: it is the one thing dropped
    expected.get('posts')!.find((p) => p.id === BIG_ID)!.content = 'beforeafter';
    assert.deepEqual(rowsOf(fromPg), expected);
    const big = await onPg.store.posts.get(BIG_ID);
    assert.equal(big?.title, TITLE);
    assert.equal(typeof big?.id, 'number');
    assert.equal(await onPg.store.options.get('number_like'), '0042', 'number-like text stays text');

    await load(back.store, fromPg);
    assert.deepEqual(rowsOf(await exported(back.store)), expected, 'PostgreSQL → SQLite gives the same rows');

    const next = Math.max(...expected.get('posts')!.map((p) => Number(p.id))) + 1;
    assert.equal(next, BIG_ID + 2, 'SQLite numbered the post after the big id past it');
    for (const store of [onPg.store, back.store]) {
      const id = await store.posts.insert({ author: 1, title: 'after the import', content: '', excerpt: '', status: 'publish', type: 'post', sticky: 0, date_gmt: '2025-01-01 00:00:00' });
      assert.equal(id, next, `a new post on ${store.dialect} gets the next id, not one imported`);
      const { id: snippetId } = await store.plugin(codeSnippets).create(snippet({ name: 'new' }));
      assert.equal(snippetId, 2, `and a new snippet on ${store.dialect} too`);
    }
  } finally {
    await Promise.all([source.close(), onPg.close(), back.close()]);
  }
});

test('import refuses a broken file or a site already there, and writes nothing', async () => {
  const source = await openSite();
  const target = await openSite();
  try {
    await fillTricky(source.store);
    await source.store.posts.insert({ author: 1, title: 'three', content: '', excerpt: '', status: 'publish', type: 'post', sticky: 0, date_gmt: '2021-01-01 00:00:00' });
    const lines = await exported(source.store);
    const postsAt = lines.findIndex((l) => l.startsWith('{"table":"posts"'));
    const refused = async (file: string[], message: RegExp) => {
      await assert.rejects(load(target.store, file), (e: Error) => e instanceof TransferError && message.test(e.message) && /nothing was imported/.test(e.message));
      assert.deepEqual(await filledTables(target.store.db), [], 'nothing written');
    };

    const garbled = [...lines];
    garbled[postsAt + 1] = '{"table":"posts","row":{"id":';
    await refused(garbled, new RegExp(`^Line ${postsAt + 2} of the file is not JSON`));
    await refused(lines.slice(0, -1), /The file has \d+ rows of \w+ where its header counts \d+: it is incomplete/);
    const wrongColumns = [...lines];
    wrongColumns[postsAt] = wrongColumns[postsAt].replace('"title":', '"headline":');
    await refused(wrongColumns, /a row of posts with columns .*headline/);
    const objectValue = [...lines];
    objectValue[postsAt] = objectValue[postsAt].replace(/"menu_order":0/, '"menu_order":{"n":0}');
    await refused(objectValue, /posts\.menu_order is \{"n":0\}, but a value is a string, a number or null/);
    await refused([...lines.slice(0, postsAt + 1), lines[1], ...lines.slice(postsAt + 1)], /Line \d+: a row of users comes after the rows of posts, out of the header's order/);
    await refused([...lines.slice(0, 1), ...lines.slice(2)], /The file has 0 rows of users where its header counts 1/);
    // the second post again, as a third: its id collides when the statement runs, after the users and options are written
    const header = parseHeader(lines[0]);
    const counted = { ...header, tables: header.tables.map((x) => (x.name === 'posts' ? { ...x, rows: x.rows + 1 } : x)) } satisfies TransferHeader;
    const duplicate = [JSON.stringify(counted), ...lines.slice(1, postsAt + 2), lines[postsAt + 1], ...lines.slice(postsAt + 2)];
    await refused(duplicate, /The rows of posts on lines \d+–\d+ could not be written: .*(UNIQUE|duplicate key)/);

    await load(target.store, lines);
    const posts = (await exported(target.store)).filter((l) => l.startsWith('{"table":"posts"')).length;
    assert.equal(posts, 3);
    await assert.rejects(load(target.store, lines), /The database already holds a site \(rows in .*posts.*\); import into a new database, or pass --replace/);
    await load(target.store, lines, true);
    assert.deepEqual(rowsOf(await exported(target.store)), rowsOf(lines), '--replace leaves exactly the file’s site');
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
});

test('a header that is not an export, or from a newer format, is refused', () => {
  assert.throws(() => parseHeader(undefined), /The file is empty/);
  assert.throws(() => parseHeader('<html>'), /first line is not JSON/);
  assert.throws(() => parseHeader('{"format":"something-else","version":1}'), /no export header/);
  const good = { format: 'cms-spec-site', version: 1, dialect: 'sqlite', exportedAt: '2025-01-01T00:00:00Z', migrations: { core: ['001-options'], plugins: {} }, tables: [{ name: 'options', columns: ['name'], rows: 1 }] };
  assert.equal(parseHeader(JSON.stringify(good)).tables[0].name, 'options');
  assert.throws(() => parseHeader(JSON.stringify({ ...good, version: 2 })), /written by a newer cms-spec \(export format 2; this version reads format 1/);
  assert.throws(() => parseHeader(JSON.stringify({ ...good, tables: [{ name: 'options', columns: [], rows: 1 }] })), /header is malformed \(at \/tables\/0\/columns/);
  assert.throws(() => parseHeader(JSON.stringify({ ...good, tables: [good.tables[0], good.tables[0]] })), /lists table options twice/);
});
