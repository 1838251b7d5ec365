import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, type Kysely } from 'kysely';
import { openTestStore, TEST_STORE } from '../helpers/store.ts';
import { sql } from '../../src/store/kysely.ts';
import { matchesText, slugOrCandidates } from '../../src/store/transact.ts';

type TestStore = Awaited<ReturnType<typeof openTestStore>>;

/** A bare store (no install) on a fresh test database: each test builds exactly the content it asserts on. */
async function freshStore(): Promise<TestStore> {
  const store = await openTestStore();
  await store.options.set('home', 'http://site.test');
  return store;
}

const user = (login: string, extra: Partial<{ display_name: string; role: string; email: string; registered: string }> = {}) => ({
  login,
  email: extra.email ?? `${login}@example.com`,
  display_name: extra.display_name ?? login,
  role: extra.role ?? 'author',
  password_hash: 'x',
  registered: extra.registered,
});

describe('posts repo', () => {
  let store: TestStore;
  before(async () => {
    store = await freshStore();
  });
  after(() => store.dropDatabase());

  test('creates at once never pick one slug twice: the same title, a title that is another one\'s -N, and a trashing rename among them', async () => {
    const trashed = await store.posts.insert({ title: 'Race' });
    const titles = ['Race', 'Race', 'Race-2', 'Race', 'Race-3', 'Race-2', 'Race', 'Unrelated', 'Unrelated'];
    const ids = await Promise.all([...titles.map((title) => store.posts.insert({ title })), store.posts.update(trashed, { status: 'trash' }).then(() => trashed)]);
    const slugs = (await store.posts.getMany(ids)).filter((p) => p.status !== 'trash').map((p) => p.slug);
    assert.equal(slugs.length, titles.length);
    assert.equal(new Set(slugs).size, slugs.length, slugs.join(' '));
    assert.equal((await store.posts.get(trashed))!.slug, 'race__trashed');
  });

  test('insert fills dates, guid and a slug from the title; slugs are unique per type', async () => {
    const a = await store.posts.insert({ title: 'Hello There!', content: 'x' });
    const b = await store.posts.insert({ title: 'Hello there', content: 'y' });
    const c = await store.posts.insert({ title: 'Hello there', type: 'page' });
    const pa = (await store.posts.get(a))!;
    assert.equal(pa.slug, 'hello-there');
    assert.equal((await store.posts.get(b))!.slug, 'hello-there-2');
    assert.equal((await store.posts.get(c))!.slug, 'hello-there', 'another type does not clash');
    assert.equal(pa.guid, `http://site.test/?p=${a}`);
    assert.equal((await store.posts.get(c))!.guid, `http://site.test/?page_id=${c}`);
    assert.match(pa.date, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(pa.date, pa.date_gmt, 'gmt_offset 0 by default');
  });

  test('pages are unique among siblings only; drafts keep no slug until published', async () => {
    const parent = await store.posts.insert({ title: 'Parent', type: 'page' });
    const child = await store.posts.insert({ title: 'About', type: 'page', parent });
    const top = await store.posts.insert({ title: 'About', type: 'page' });
    assert.equal((await store.posts.get(child))!.slug, 'about');
    assert.equal((await store.posts.get(top))!.slug, 'about');
    assert.deepEqual(await store.posts.ancestorSlugs((await store.posts.get(child))!), ['parent']);
    assert.equal((await store.posts.findByPath(['parent', 'about'], ['page']))!.id, child);
    assert.equal((await store.posts.findByPath(['about'], ['page']))!.id, top);

    const draft = await store.posts.insert({ title: 'Hello there', status: 'draft' });
    assert.equal((await store.posts.get(draft))!.slug, '');
    await store.posts.update(draft, { status: 'publish' });
    assert.match((await store.posts.get(draft))!.slug, /^hello-there-\d+$/);
  });

  test("ancestorSlugsOfMany: each post's ancestry, a loop of parents ending it", async () => {
    const grand = await store.posts.insert({ title: 'Grand', type: 'page' });
    const mid = await store.posts.insert({ title: 'Mid', type: 'page', parent: grand });
    const leaf = await store.posts.insert({ title: 'Leaf', type: 'page', parent: mid });
    const loopA = await store.posts.insert({ title: 'Loop A', type: 'page' });
    const loopB = await store.posts.insert({ title: 'Loop B', type: 'page', parent: loopA });
    await store.posts.update(loopA, { parent: loopB });
    const rows = await store.posts.getMany([leaf, mid, grand, loopA]);
    const paths = await store.posts.ancestorSlugsOfMany(rows);
    assert.deepEqual([...paths], [
      [leaf, ['grand', 'mid']],
      [mid, ['grand']],
      [grand, []],
      [loopA, ['loop-b']],
    ]);
  });

  test('a site timezone converts between local and GMT dates', async () => {
    await store.options.set('timezone_string', 'Europe/Paris');
    try {
      const summer = await store.posts.insert({ title: 'Summer', date: '2024-07-01 12:00:00' });
      const winter = await store.posts.insert({ title: 'Winter', date_gmt: '2024-01-01 12:00:00' });
      assert.equal((await store.posts.get(summer))!.date_gmt, '2024-07-01 10:00:00');
      assert.equal((await store.posts.get(winter))!.date, '2024-01-01 13:00:00');
    } finally {
      await store.options.set('timezone_string', '');
    }
  });

  test('update changes fields, moves modified, keeps the slug unique', async () => {
    const a = await store.posts.insert({ title: 'Twin', modified: '2000-01-01 00:00:00', modified_gmt: '2000-01-01 00:00:00' });
    const b = await store.posts.insert({ title: 'Other' });
    await store.posts.update(b, { slug: 'twin', title: 'Renamed' });
    const pb = (await store.posts.get(b))!;
    assert.equal(pb.slug, 'twin-2');
    assert.equal(pb.title, 'Renamed');
    await store.posts.update(a, { content: 'new' });
    assert.notEqual((await store.posts.get(a))!.modified, '2000-01-01 00:00:00');
  });

  test('meta: set replaces, get reads, delete removes, ofMany reads many', async () => {
    const id = await store.posts.insert({ title: 'Meta' });
    assert.equal(await store.posts.meta.get(id, 'k'), undefined);
    await store.posts.meta.set(id, 'k', 'one');
    await store.posts.meta.set(id, 'k', 'two');
    await store.posts.meta.set(id, 'other', '3');
    assert.equal(await store.posts.meta.get(id, 'k'), 'two');
    assert.deepEqual(await store.posts.meta.all(id), { k: 'two', other: '3' });
    assert.deepEqual((await store.posts.meta.ofMany([id], ['other'])).get(id), { other: '3' });
    await store.posts.meta.delete(id, 'k');
    assert.deepEqual(await store.posts.meta.all(id), { other: '3' });
    await store.posts.delete(id);
    assert.equal(await store.posts.get(id), undefined);
    assert.deepEqual(await store.posts.meta.all(id), {});
  });
  test('writes and reads of one shape asked in turn with other values store and answer each their own (their text is compiled once)', async () => {
    // two inserts of as many columns, other columns: each row holds what its own insert gave
    const a = await store.posts.insert({ title: 'Shape one', excerpt: 'First excerpt' });
    const b = await store.posts.insert({ title: 'Shape two', content: 'Second content' });
    const c = await store.posts.insert({ title: 'Shape three', excerpt: 'Third excerpt' });
    const [pa, pb, pc] = await store.posts.getMany([a, b, c]);
    assert.deepEqual([pa, pb, pc].map((p) => [p.title, p.excerpt, p.content]), [['Shape one', 'First excerpt', ''], ['Shape two', '', 'Second content'], ['Shape three', 'Third excerpt', '']]);
    // wp_unique_post_slug's scopes in turn: a post clashes with posts, a page with its siblings and their attachments, an attachment with everything
    const slugOf = async (p: Parameters<typeof store.posts.insert>[0]) => (await store.posts.get(await store.posts.insert(p)))!.slug;
    assert.equal(await slugOf({ title: 'Scoped' }), 'scoped');
    assert.equal(await slugOf({ title: 'Scoped', type: 'page' }), 'scoped');
    assert.equal(await slugOf({ title: 'Scoped', type: 'page', parent: a }), 'scoped');
    assert.equal(await slugOf({ title: 'Scoped', type: 'attachment', status: 'inherit' }), 'scoped-2');
    assert.equal(await slugOf({ title: 'Scoped' }), 'scoped-2');
    // a top-level page clashes with the page and the attachment (both of parent 0): WordPress's check for hierarchical types
    assert.equal(await slugOf({ title: 'Scoped', type: 'page' }), 'scoped-3');
    // meta of other owners and other keys in turn
    await store.posts.meta.set(a, 'colour', 'red');
    await store.posts.meta.set(a, 'size', 'large');
    await store.posts.meta.set(b, 'colour', 'blue');
    assert.deepEqual((await store.posts.meta.ofMany([a], ['colour'])).get(a), { colour: 'red' });
    assert.deepEqual((await store.posts.meta.ofMany([b], ['colour'])).get(b), { colour: 'blue' });
    assert.deepEqual((await store.posts.meta.ofMany([a], ['size'])).get(a), { size: 'large' });
    assert.deepEqual(Object.fromEntries(await store.posts.meta.ofMany([b, a], ['size'])), { [a]: { size: 'large' }, [b]: {} });
    // terms attached in the order each request asks, read per post
    const first = await store.terms.insert({ taxonomy: 'category', name: 'First' });
    const second = await store.terms.insert({ taxonomy: 'category', name: 'Second' });
    const tag = await store.terms.insert({ taxonomy: 'post_tag', name: 'Tag' });
    await store.terms.setPostTerms(a, 'category', [second, first]);
    await store.terms.setPostTerms(b, 'category', [first, second]);
    await store.terms.setPostTerms(c, 'post_tag', [tag]);
    const names = async (id: number, taxonomy?: string) => (await store.terms.termsOfPosts([id], taxonomy)).get(id)!.map((t) => t.name);
    assert.deepEqual(await names(a), ['Second', 'First']);
    assert.deepEqual(await names(b), ['First', 'Second']);
    assert.deepEqual(await names(c), ['Tag']);
    assert.deepEqual(await names(c, 'category'), []);
    assert.deepEqual(await names(c, 'post_tag'), ['Tag']);
  });
});

describe('posts query', () => {
  let store: TestStore;
  const ids: Record<string, number> = {};
  let cat: number;
  let tag: number;
  let alice: number;
  let bob: number;
  before(async () => {
    store = await freshStore();
    alice = await store.users.insert(user('alice'));
    bob = await store.users.insert(user('bob'));
    cat = await store.terms.insert({ taxonomy: 'category', name: 'News' });
    tag = await store.terms.insert({ taxonomy: 'post_tag', name: 'Green' });
    const rows = [
      { key: 'apple', title: 'Apple pie recipe', content: 'Bake the apples slowly.', date: '2024-01-05 10:00:00', author: alice, sticky: 1 },
      { key: 'banana', title: 'Banana bread', content: 'No apple here, only bananas.', date: '2024-02-05 10:00:00', author: bob },
      { key: 'cherry', title: 'Cherry jam', content: 'Cherries and sugar.', excerpt: 'Sweet apple-free jam', date: '2024-03-05 10:00:00', author: alice },
      { key: 'draft', title: 'Apple draft', content: '', date: '2024-04-05 10:00:00', author: alice, status: 'draft' },
      { key: 'percent', title: '100% juice', content: 'Pure.', date: '2024-05-05 10:00:00', author: bob },
    ];
    for (const { key, ...p } of rows) ids[key] = await store.posts.insert(p);
    await store.terms.setPostTerms(ids.apple, 'category', [cat]);
    await store.terms.setPostTerms(ids.cherry, 'category', [cat]);
    await store.terms.setPostTerms(ids.cherry, 'post_tag', [tag]);
    await store.posts.insert({ title: 'A page about apples', type: 'page', date: '2024-06-01 00:00:00' });
  });
  after(() => store.dropDatabase());

  const base = { types: ['post'], statuses: ['publish'], offset: 0, limit: 10 };
  const titles = async (q: Partial<Parameters<TestStore['posts']['query']>[0]>) => (await store.posts.query({ ...base, ...q })).rows.map((r) => r.title);

  test('default order is newest first; type and status filter', async () => {
    assert.deepEqual(await titles({}), ['100% juice', 'Cherry jam', 'Banana bread', 'Apple pie recipe']);
    assert.deepEqual(await titles({ order: 'asc' }), ['Apple pie recipe', 'Banana bread', 'Cherry jam', '100% juice']);
    assert.deepEqual(await titles({ statuses: ['draft'] }), ['Apple draft']);
  });

  test('paging returns the page and the total of all matches', async () => {
    const page2 = await store.posts.query({ ...base, offset: 2, limit: 2 });
    assert.equal(page2.total, 4);
    assert.deepEqual(page2.rows.map((r) => r.title), ['Banana bread', 'Apple pie recipe']);
    const beyond = await store.posts.query({ ...base, offset: 10, limit: 2 });
    assert.deepEqual(beyond, { rows: [], total: 4 });
  });

  test('queries of one shape asked in turn with other values answer each their own posts (their text is compiled once)', async () => {
    const titlesOf = (posts: { title: string }[]) => posts.map((p) => p.title);
    // the same filters, as many values, other values: one kept text, each query's values bound to it
    for (const [author, expected] of [[alice, ['Cherry jam', 'Apple pie recipe']], [bob, ['100% juice', 'Banana bread']], [alice, ['Cherry jam', 'Apple pie recipe']]] as const)
      assert.deepEqual(await titles({ authors: [author] }), expected);
    assert.deepEqual(await titles({ statuses: ['draft'] }), ['Apple draft']);
    assert.deepEqual(await titles({ slugs: ['cherry-jam'] }), ['Cherry jam']);
    assert.deepEqual(await titles({ slugs: ['banana-bread'] }), ['Banana bread']);
    assert.deepEqual(await titles({ include: [ids.apple, ids.cherry] }), ['Cherry jam', 'Apple pie recipe']);
    assert.deepEqual(await titles({ include: [ids.banana, ids.percent] }), ['100% juice', 'Banana bread']);
    assert.deepEqual(titlesOf((await store.posts.query({ ...base, offset: 1, limit: 2 })).rows), ['Cherry jam', 'Banana bread']);
    assert.deepEqual(titlesOf((await store.posts.query({ ...base, offset: 2, limit: 2 })).rows), ['Banana bread', 'Apple pie recipe']);
    assert.deepEqual(titlesOf(await store.posts.headsOf([ids.apple, ids.banana])), ['Apple pie recipe', 'Banana bread']);
    assert.deepEqual(titlesOf(await store.posts.headsOf([ids.percent, ids.cherry])), ['100% juice', 'Cherry jam']);
    assert.deepEqual((await store.posts.getMany([ids.cherry, ids.apple])).map((p) => p.content), ['Cherries and sugar.', 'Bake the apples slowly.']);
    // a NUL, which PostgreSQL's text cannot hold, is dropped from a kept shape's values as from a built query's
    assert.deepEqual(await titles({ slugs: ['banana-bread\u0000'] }), TEST_STORE === 'postgres' ? ['Banana bread'] : []);
  });

  test('on PostgreSQL, search is answered by the trigram indexes (same LIKE matches, no scan of every post)', { skip: TEST_STORE !== 'postgres' && 'PostgreSQL only' }, async () => {
    const db = store.db as Kysely<any>;
    // the condition the store's search puts on each term: the text in the title, excerpt or content
    const query = db
      .selectFrom('posts')
      .select('id')
      .where((eb) => eb.or(['title', 'excerpt', 'content'].map((column) => matchesText(db, eb.ref(column), 'jam_100%'))))
      .compile();
    const plan = await db.transaction().execute(async (trx) => {
      // a table this small is cheaper to scan: ask whether the indexes can answer at all
      await sql`set local enable_seqscan = off`.execute(trx);
      return (await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]))).rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    for (const column of ['title', 'excerpt', 'content']) assert.match(plan, new RegExp(`Bitmap Index Scan on posts_${column}_trigrams`), plan);
    assert.doesNotMatch(plan, /Seq Scan/, plan);
  });

  test('the unique-slug check finds a slug’s -N candidates through an index (on PostgreSQL too, where ILIKE read every post)', async () => {
    // a type of its own, so the other tests' posts stay as they are
    for (const slug of ['jam_1', 'jam_1-2']) await store.posts.insert({ title: slug, slug, type: 'preserve', status: 'publish' });
    assert.equal(await store.posts.sampleSlug('jam_1', { id: 0, type: 'preserve', parent: 0 }), 'jam_1-3');
    if (TEST_STORE !== 'postgres') return;
    const db = store.db as Kysely<any>;
    const plan = async (table: 'posts' | 'terms', scope?: [string, string]) => {
      let query = db
        .selectFrom(table)
        .select('slug')
        .where((eb) => slugOrCandidates(db, eb.ref('slug'), 'jam_1'));
      if (scope) query = query.where(scope[0], '=', scope[1]);
      const compiled = query.compile();
      return db.transaction().execute(async (trx) => {
        // a table this small is cheaper to scan: ask whether the indexes can answer at all
        await sql`set local enable_seqscan = off`.execute(trx);
        return (await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]))).rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    };
    // an attachment's check, among every type: only an index on the slug can serve it
    const everyType = await plan('posts');
    assert.match(everyType, /Bitmap Index Scan on posts_slug_prefix .*\n\s*Index Cond: \(\(\(slug\)::text ~>=~ 'jam_1-'::text\) AND \(\(slug\)::text ~<~ 'jam_1\.'::text\)\)/, everyType);
    for (const scoped of [await plan('posts', ['type', 'preserve']), await plan('terms', ['taxonomy', 'post_tag'])]) assert.doesNotMatch(scoped, /Seq Scan/, scoped);
  });

  test('search matches each term in title, excerpt or content, ranks title matches first', async () => {
    assert.deepEqual(await titles({ search: 'apple' }), ['Apple pie recipe', 'Cherry jam', 'Banana bread']);
    assert.deepEqual(await titles({ search: 'apple -bananas' }), ['Apple pie recipe', 'Cherry jam']);
    assert.deepEqual(await titles({ search: 'apple', orderby: 'date' }), ['Cherry jam', 'Banana bread', 'Apple pie recipe']);
    assert.deepEqual(await titles({ search: '100%' }), ['100% juice'], 'LIKE wildcards in the text match literally');
    assert.deepEqual(await titles({ search: 'the apples' }), ['Apple pie recipe'], 'stopwords are dropped from several terms');
  });

  test('filters: include/exclude, authors, slugs, terms, dates, sticky', async () => {
    assert.deepEqual(await titles({ include: [ids.banana, ids.apple], orderby: 'include', order: 'asc' }), ['Banana bread', 'Apple pie recipe']);
    assert.deepEqual(await titles({ exclude: [ids.percent, ids.cherry] }), ['Banana bread', 'Apple pie recipe']);
    assert.deepEqual(await titles({ authors: [bob] }), ['100% juice', 'Banana bread']);
    assert.deepEqual(await titles({ authorsExclude: [bob] }), ['Cherry jam', 'Apple pie recipe']);
    assert.deepEqual(await titles({ slugs: ['banana-bread'] }), ['Banana bread']);
    assert.deepEqual(await titles({ categories: [cat] }), ['Cherry jam', 'Apple pie recipe']);
    assert.deepEqual(await titles({ categoriesExclude: [cat] }), ['100% juice', 'Banana bread']);
    assert.deepEqual(await titles({ categories: [cat], tags: [tag] }), ['Cherry jam']);
    assert.deepEqual(await titles({ termIds: [{ taxonomy: 'post_tag', ids: [tag] }] }), ['Cherry jam']);
    assert.deepEqual(await titles({ after: '2024-02-05 10:00:00', before: '2024-05-01 00:00:00' }), ['Cherry jam']);
    assert.deepEqual(await titles({ sticky: true }), ['Apple pie recipe']);
    assert.deepEqual(await titles({ types: ['post', 'page'], search: 'apples' }), ['A page about apples', 'Apple pie recipe']);
  });

  test('orderby title, slug and author', async () => {
    assert.deepEqual(await titles({ orderby: 'title', order: 'asc' }), ['100% juice', 'Apple pie recipe', 'Banana bread', 'Cherry jam']);
    assert.deepEqual(await titles({ orderby: 'slug', order: 'desc' }), ['Cherry jam', 'Banana bread', 'Apple pie recipe', '100% juice']);
    assert.deepEqual((await store.posts.query({ ...base, orderby: 'author', order: 'asc' })).rows.map((r) => r.author), [alice, alice, bob, bob]);
  });

  test('sticky posts first: the sticky matches lead the first page, paging runs on across both parts', async () => {
    assert.deepEqual(await titles({ stickyFirst: true }), ['Apple pie recipe', '100% juice', 'Cherry jam', 'Banana bread']);
    assert.deepEqual(await titles({ stickyFirst: true, order: 'asc' }), ['Apple pie recipe', 'Banana bread', 'Cherry jam', '100% juice']);
    const second = await store.posts.query({ ...base, stickyFirst: true, offset: 1, limit: 2 });
    assert.deepEqual([second.total, second.rows.map((r) => r.title)], [4, ['100% juice', 'Cherry jam']]);
    assert.deepEqual(await titles({ stickyFirst: true, categoriesExclude: [cat] }), ['100% juice', 'Banana bread'], 'a sticky post the filters drop stays out');
  });

  test('orderby comment_count and rand', async () => {
    await store.posts.update(ids.banana, { comment_count: 5, modified: '2024-02-05 10:00:00', modified_gmt: '2024-02-05 10:00:00' });
    assert.deepEqual((await titles({ orderby: 'comment_count', order: 'desc' }))[0], 'Banana bread');
    const random = await titles({ orderby: 'rand' });
    assert.deepEqual([...random].sort(), ['100% juice', 'Apple pie recipe', 'Banana bread', 'Cherry jam'], 'every match, in some order');
  });

  test('counts by status', async () => {
    assert.deepEqual(await store.posts.countByStatus('post'), { publish: 4, draft: 1 });
  });
});

describe('terms repo', () => {
  let store: TestStore;
  before(async () => {
    store = await freshStore();
  });
  after(() => store.dropDatabase());

  test('unique slugs within a taxonomy, lookups by slug and name', async () => {
    const a = await store.terms.insert({ taxonomy: 'category', name: 'Café Life' });
    const b = await store.terms.insert({ taxonomy: 'category', name: 'Cafe life' });
    const t = await store.terms.insert({ taxonomy: 'post_tag', name: 'Cafe life' });
    assert.equal((await store.terms.get(a))!.slug, 'cafe-life');
    assert.equal((await store.terms.get(b))!.slug, 'cafe-life-2');
    assert.equal((await store.terms.get(t))!.slug, 'cafe-life');
    assert.equal((await store.terms.bySlug('post_tag', 'cafe-life'))!.id, t);
    assert.equal((await store.terms.byName('category', 'Café Life'))!.id, a);
    await store.terms.update(b, { slug: 'cafe-life' });
    assert.equal((await store.terms.get(b))!.slug, 'cafe-life-2', 'an update cannot take a used slug');
    await store.terms.update(b, { name: 'Renamed', slug: 'renamed' });
    assert.equal((await store.terms.get(b))!.slug, 'renamed');
  });

  test('count follows published posts through setPostTerms, status changes and deletes', async () => {
    const cat = await store.terms.insert({ taxonomy: 'category', name: 'Counted' });
    const other = await store.terms.insert({ taxonomy: 'category', name: 'Other' });
    const p1 = await store.posts.insert({ title: 'One' });
    const p2 = await store.posts.insert({ title: 'Two' });
    const draft = await store.posts.insert({ title: 'Three', status: 'draft' });
    const count = async (id: number) => (await store.terms.get(id))!.count;
    await store.terms.setPostTerms(p1, 'category', [cat]);
    await store.terms.setPostTerms(p2, 'category', [cat, other]);
    await store.terms.setPostTerms(draft, 'category', [cat]);
    assert.equal(await count(cat), 2, 'the draft is not counted');
    await store.posts.update(draft, { status: 'publish' });
    assert.equal(await count(cat), 3);
    await store.terms.setPostTerms(p2, 'category', [other]);
    assert.equal(await count(cat), 2);
    await store.posts.delete(p1);
    assert.equal(await count(cat), 1);
    await store.posts.update(draft, { status: 'trash' });
    assert.equal(await count(cat), 0);
    await store.terms.attachMany([{ postId: p2, termId: cat }, { postId: p2, termId: cat }, { postId: p2, termId: other }]);
    assert.equal(await count(cat), 1);
    assert.equal(await count(other), 1, 'an existing pair is not counted twice');
  });

  test('setPostTerms ignores ids of other taxonomies; termsOfPosts reads many posts in one call', async () => {
    const c = await store.terms.insert({ taxonomy: 'category', name: 'C' });
    const t1 = await store.terms.insert({ taxonomy: 'post_tag', name: 'T1' });
    const t2 = await store.terms.insert({ taxonomy: 'post_tag', name: 'T2' });
    const p = await store.posts.insert({ title: 'Tagged' });
    const q = await store.posts.insert({ title: 'Plain' });
    await store.terms.setPostTerms(p, 'post_tag', [t2, t1, c]);
    await store.terms.setPostTerms(p, 'category', [c]);
    assert.deepEqual(await store.terms.termIdsOfPost(p, 'post_tag'), [t2, t1]);
    const map = await store.terms.termsOfPosts([p, q]);
    assert.deepEqual(map.get(p)!.map((t) => t.name).sort(), ['C', 'T1', 'T2']);
    assert.deepEqual(map.get(q), []);
    assert.deepEqual((await store.terms.termsOfPosts([p], 'category')).get(p)!.map((t) => t.id), [c]);
    // a post created in the same transaction (as POST posts does): ids of no term skipped, the order asked kept, counts raised
    const counts = async () => Promise.all([t1, t2].map(async (id) => (await store.terms.get(id))!.count));
    const [t1Before, t2Before] = await counts();
    const created = await store.transaction(async (trx) => {
      const id = await trx.posts.insert({ title: 'Tagged at once', status: 'publish' });
      await trx.terms.setPostTerms(id, 'post_tag', [t2, 999_999, c, t1], { status: 'publish' });
      return id;
    });
    assert.deepEqual(await store.terms.termIdsOfPost(created, 'post_tag'), [t2, t1]);
    assert.deepEqual(await counts(), [t1Before + 1, t2Before + 1]);
  });

  test('query filters, orders and pages; delete lifts children to the parent', async () => {
    const s = await freshStore();
    try {
      const top = await s.terms.insert({ taxonomy: 'category', name: 'Top' });
      const mid = await s.terms.insert({ taxonomy: 'category', name: 'Mid', parent: top });
      const leaf = await s.terms.insert({ taxonomy: 'category', name: 'Leaf', parent: mid, description: 'zzz' });
      await s.terms.insert({ taxonomy: 'post_tag', name: 'Top tag' });
      const post = await s.posts.insert({ title: 'P' });
      await s.terms.setPostTerms(post, 'category', [leaf]);
      const names = async (q: Partial<Parameters<TestStore['terms']['query']>[0]>) =>
        (await s.terms.query({ taxonomy: 'category', offset: 0, limit: 10, ...q })).rows.map((r) => r.name);
      assert.deepEqual(await names({}), ['Leaf', 'Mid', 'Top']);
      assert.deepEqual(await names({ order: 'desc', orderby: 'id' }), ['Leaf', 'Mid', 'Top']);
      assert.deepEqual(await names({ search: 'to' }), ['Top']);
      assert.deepEqual(await names({ parent: top }), ['Mid']);
      assert.deepEqual(await names({ hideEmpty: true }), ['Leaf']);
      assert.deepEqual(await names({ post }), ['Leaf']);
      assert.deepEqual(await names({ include: [top, leaf], orderby: 'include' }), ['Top', 'Leaf']);
      assert.deepEqual(await names({ exclude: [mid], slugs: ['top', 'mid', 'leaf'] }), ['Leaf', 'Top']);
      const page = await s.terms.query({ taxonomy: 'category', offset: 1, limit: 1 });
      assert.deepEqual([page.total, page.rows.map((r) => r.name)], [3, ['Mid']]);
      await s.terms.delete(mid);
      assert.equal((await s.terms.get(leaf))!.parent, top);
      await s.terms.delete(leaf);
      assert.deepEqual((await s.terms.termsOfPosts([post])).get(post), []);
    } finally {
      await s.dropDatabase();
    }
  });
});

describe('users repo', () => {
  let store: TestStore;
  before(async () => {
    store = await freshStore();
  });
  after(() => store.dropDatabase());

  test('insert, lookups, list filters and order', async () => {
    const a = await store.users.insert(user('anna', { display_name: 'Zoe Anna', role: 'editor', registered: '2020-01-01 00:00:00' }));
    const b = await store.users.insert(user('Bert.S', { display_name: 'Bert', email: 'Bert@Example.com', registered: '2021-01-01 00:00:00' }));
    const c = await store.users.insert(user('carl', { display_name: 'Carl', registered: '2019-01-01 00:00:00' }));
    assert.equal((await store.users.get(b))!.nicename, 'bert-s');
    assert.equal((await store.users.byLogin('anna'))!.id, a);
    assert.equal((await store.users.byEmail('bert@example.com'))!.id, b, 'emails match without case');
    assert.equal((await store.users.byLoginOrEmail('Bert@example.com'))!.id, b);
    assert.equal(await store.users.byLoginOrEmail('nobody'), undefined);
    const logins = async (q: Partial<Parameters<TestStore['users']['list']>[0]>) => (await store.users.list({ offset: 0, limit: 10, ...q })).rows.map((u) => u.login);
    assert.deepEqual(await logins({}), ['Bert.S', 'carl', 'anna'], 'by display name');
    assert.deepEqual(await logins({ orderby: 'registered', order: 'desc' }), ['Bert.S', 'anna', 'carl']);
    assert.deepEqual(await logins({ roles: ['editor'] }), ['anna']);
    assert.deepEqual(await logins({ slugs: ['carl', 'bert-s'], orderby: 'id' }), ['Bert.S', 'carl']);
    assert.deepEqual(await logins({ search: '*ar*' }), ['carl']);
    assert.deepEqual(await logins({ search: 'ar' }), [], 'without wildcards the match is exact');
    assert.deepEqual(await logins({ exclude: [a], include: [a, c] }), ['carl']);
    await store.posts.insert({ title: 'By carl', author: c });
    assert.deepEqual(await logins({ hasPublishedPosts: ['post'] }), ['carl']);
    const page = await store.users.list({ offset: 1, limit: 1, orderby: 'id' });
    assert.deepEqual([page.total, page.rows[0].id], [3, b]);
  });

  test('search: WP_User_Query columns by the shape of the text, or the ones asked for; wildcards at either end', async () => {
    const s = await freshStore();
    try {
      const long = `${'x'.repeat(60_000)}Middle${'y'.repeat(60_000)}`;
      const a = await s.users.insert(user('ann', { display_name: long, email: 'ann@corp.test' }));
      const b = await s.users.insert(user('bob42', { display_name: 'Bob' }));
      const ids = async (search: string, searchColumns?: ('id' | 'login' | 'email' | 'url' | 'nicename' | 'display_name')[]) =>
        (await s.users.list({ search, searchColumns, offset: 0, limit: 10, orderby: 'id' })).rows.map((u) => u.id);
      assert.deepEqual(await ids('**corp.test*'), [a], 'email is searched by default');
      assert.deepEqual(await ids('*corp.test*', ['id', 'login', 'nicename', 'display_name']), [], 'not when the columns leave it out');
      assert.deepEqual(await ids('ann@corp.test'), [a], 'an address searches email only');
      assert.deepEqual(await ids(String(b)), [b], 'a number searches login and ID');
      assert.deepEqual(await ids('*42'), [b]);
      // text too long for a LIKE pattern: each kind of wildcard still matches as LIKE would
      assert.deepEqual(await ids(`*${'X'.repeat(60_000)}middle*`), [a]);
      assert.deepEqual(await ids(`${'x'.repeat(60_000)}MIDDLE*`), [a]);
      assert.deepEqual(await ids(`*middle${'y'.repeat(60_000)}`), [a]);
      assert.deepEqual(await ids(long.toUpperCase()), [a]);
      assert.deepEqual(await ids(`${'y'.repeat(60_000)}*`), []);
    } finally {
      await s.dropDatabase();
    }
  });

  test('update, meta and delete with or without reassigning posts', async () => {
    const d = await store.users.insert(user('dora'));
    const e = await store.users.insert(user('emil'));
    await store.users.update(d, { display_name: 'Dora D', url: 'https://dora.example' });
    assert.equal((await store.users.get(d))!.display_name, 'Dora D');
    await store.users.meta.set(d, 'nickname', 'dd');
    await store.users.meta.set(d, 'nickname', 'dora');
    assert.equal(await store.users.meta.get(d, 'nickname'), 'dora');
    await store.users.meta.delete(d, 'nickname');
    assert.equal(await store.users.meta.get(d, 'nickname'), undefined);

    const kept = await store.posts.insert({ title: 'Kept', author: d });
    await store.users.delete(d, e);
    assert.equal(await store.users.get(d), undefined);
    assert.equal((await store.posts.get(kept))!.author, e);
    await store.users.delete(e);
    assert.equal(await store.posts.get(kept), undefined, 'without reassigning, the posts go too');
  });
});

describe('shared-state versions move with the writes that change them', () => {
  let store: TestStore;
  before(async () => {
    store = await freshStore();
  });
  after(() => store.dropDatabase());

  const version = async (topic: string) => (await store.shared.versions())[topic] ?? 0;
  const told: [string, number][] = [];
  const tell = (topic: string) => (v: number) => told.push([topic, v]);

  test('outside a transaction the version moves at once', async () => {
    await store.topicChanged('t-now', tell('t-now'));
    assert.equal(await version('t-now'), 1);
    assert.deepEqual(told.splice(0), [['t-now', 1]]);
  });

  test('a transaction moves each topic once, as it commits; a rolled-back one moves nothing', async () => {
    await store.transaction(async (trx) => {
      for (let i = 0; i < 5; i++) await trx.topicChanged('t-trx', tell('t-trx'));
      assert.equal(told.length, 0, 'not before the commit');
    });
    assert.equal(await version('t-trx'), 1);
    assert.deepEqual(told.splice(0), [['t-trx', 1]]);
    await assert.rejects(
      store.transaction(async (trx) => {
        await trx.topicChanged('t-trx', tell('t-trx'));
        throw new Error('undone');
      }),
      /undone/,
    );
    assert.equal(await version('t-trx'), 1);
    assert.equal(told.length, 0);
  });

  test('batch steps: the kept steps move their topics once; a step undone moves none of its own', async () => {
    await store.steps(4, async (step, i) => {
      await step.topicChanged('t-kept', tell('t-kept'));
      if (i === 2) await step.topicChanged('t-undone', tell('t-undone'));
      return { value: i, keep: i !== 2 };
    });
    assert.equal(await version('t-kept'), 1);
    assert.equal(await version('t-undone'), 0);
    assert.deepEqual(told.splice(0), [['t-kept', 1]]);
  });
});
