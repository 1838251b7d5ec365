import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { createPost, indexAll, indexSite, NS, post, type Obj } from './helpers.ts';

describe('indexing a seeded site through the next_url chain', () => {
  const SEEDED = 60;
  const site = useServer({}, async (s) => {
    const store = s.app.store;
    const cat = await store.terms.insert({ taxonomy: 'category', name: 'Seeded' });
    const ids = await store.posts.insertMany(
      Array.from({ length: SEEDED }, (_, i) => ({ title: `Seeded post ${i}`, content: `<p>Paragraph ${i} about tea and gardens.</p>`, status: i % 10 === 0 ? 'draft' : 'publish', type: 'post', author: 1 })),
    );
    await store.terms.attachMany(ids.map((postId) => ({ postId, termId: cat })));
    for (let i = 0; i < 30; i++) await store.terms.insert({ taxonomy: 'post_tag', name: `tag ${i}` });
  });

  test('posts: 25 a call, next_url the full route URL while a batch is full, false at the end; every post indexed once', async () => {
    const posts = await site.app.store.posts.query({ types: ['post', 'page'], statuses: ['publish', 'draft', 'future', 'pending', 'private'], offset: 0, limit: 1000 });
    const first = await post(site, 'indexing/posts', site.admin);
    assert.equal(first.objects.length, 25);
    assert.equal(first.next_url, `${site.api}${NS}/indexing/posts`);
    const rest = await indexAll(site, site.admin, 'indexing/posts');
    const all = [...first.objects, ...rest.objects];
    assert.equal(all.length, posts.total);
    assert.deepEqual(new Set(all.map((o) => o.object_id)), new Set(posts.rows.map((p) => p.id)));
    assert.equal(rest.calls, Math.floor((posts.total - 25) / 25) + 1);
    const one = all.find((o) => o.breadcrumb_title === 'Seeded post 1')!;
    assert.equal(one.object_type, 'post');
    assert.equal(one.object_sub_type, 'post');
    assert.equal(one.post_status, 'publish');
    assert.equal(one.permalink, posts.rows.find((p) => p.id === one.object_id) && (await (await site.call(`cms/v2/posts/${one.object_id}`)).json() as Obj).link);
    assert.equal(one.link_count, null, 'links are read by link indexing');
    assert.equal(one.primary_focus_keyword_score, null, 'no focus keyphrase, no SEO score');
    assert.equal(typeof one.readability_score, 'number');
    const again = await post(site, 'indexing/posts', site.admin);
    assert.deepEqual(again, { objects: [], next_url: false }, 'nothing left');
  });

  test('terms, post-type archives and general pages', async () => {
    const terms = await indexAll(site, site.admin, 'indexing/terms');
    const stored = (await site.app.store.terms.query({ taxonomy: 'category', offset: 0, limit: 100 })).total + (await site.app.store.terms.query({ taxonomy: 'post_tag', offset: 0, limit: 100 })).total;
    assert.equal(terms.objects.length, stored);
    assert.equal(terms.calls, 2);
    const seeded = terms.objects.find((o) => o.breadcrumb_title === 'Seeded')!;
    assert.equal(seeded.object_sub_type, 'category');
    assert.equal(seeded.permalink, `${site.home}/category/seeded/`);

    assert.deepEqual(await post(site, 'indexing/post-type-archives', site.admin), { objects: [], next_url: false }, 'no post type of this site has an archive');
    const general = await post(site, 'indexing/general', site.admin);
    assert.deepEqual(general.objects.map((o: Obj) => [o.object_type, o.object_sub_type]), [['system-page', '404'], ['system-page', 'search-result'], ['date-archive', null], ['home-page', null]]);
    assert.equal(general.next_url, false);
    assert.equal(general.objects[3].permalink, `${site.home}/`);
    assert.deepEqual(await post(site, 'indexing/general', site.admin), { objects: [], next_url: false });
  });

  test('prepare, indexables-complete and complete answer no objects and record the run', async () => {
    for (const route of ['prepare', 'indexables-complete', 'complete']) assert.deepEqual(await post(site, `indexing/${route}`, site.admin), { objects: [], next_url: false });
    const o = await site.app.store.options.getMany(['seo_indexables_indexing_completed', 'seo_indexing_completed', 'seo_indexing_started']);
    assert.equal(o.seo_indexables_indexing_completed, '1');
    assert.match(o.seo_indexing_completed, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(o.seo_indexing_started, '0');
  });

  test('link indexing: 5 a call through its chain; a contributor may run it', async () => {
    const contributor = await userAuth(site, 'contributor');
    const first = await post(site, 'link-indexing/posts', contributor.auth);
    assert.equal(first.objects.length, 5);
    assert.equal(first.next_url, `${site.api}${NS}/link-indexing/posts`);
    const rest = await indexAll(site, site.admin, 'link-indexing/posts');
    const all = [...first.objects, ...rest.objects];
    assert.equal(all.filter((o) => o.breadcrumb_title.startsWith('Seeded')).length, SEEDED);
    for (const o of all) assert.equal(typeof o.link_count, 'number', 'every post has its links read');
    for (const o of all.filter((x) => x.breadcrumb_title.startsWith('Seeded'))) assert.equal(o.link_count, 0, 'the seeded posts hold no links');
    assert.deepEqual(await post(site, 'link-indexing/posts', site.admin), { objects: [], next_url: false });
  });
});

describe('link counts and staleness on a small linked site', () => {
  const site = useServer();

  test('internal and external links are counted; incoming counts follow saves and deletions', async () => {
    const c = await createPost(site, site.admin, { title: 'Cee', content: '<p>Cee has no links yet.</p>' });
    const b = await createPost(site, site.admin, { title: 'Bee', content: `<p>See <a href="${c.link}">Cee</a>.</p>` });
    const a = await createPost(site, site.admin, {
      title: 'Aye',
      content: `<p><a href="${b.link}">Bee</a>, <a href="${c.link}#part">Cee</a>, <a href="/?p=${b.id}">Bee by id</a>, <a href="https://example.org/x">out</a>, <a href="https://example.net/" rel="nofollow">out too</a>, <a href="#top">top</a>, <a href="mailto:a@example.org">mail</a>.</p>`,
    });
    await createPost(site, site.admin, { title: 'Cee again', content: 'never linked' });
    await site.call(`cms/v2/posts/${c.id}`, { json: { content: `<p><a href="${a.link}">Aye</a> and <a href="${a.link}">Aye again</a></p>` }, auth: site.admin });
    await indexSite(site, site.admin);
    const byPost = async () => {
      const rows = await site.app.store.db.selectFrom('seo_indexables' as never).selectAll().where('object_type' as never, '=', 'post' as never).execute();
      return new Map<number, Obj>((rows as Obj[]).map((r) => [r.object_id, r]));
    };
    let rows = await byPost();
    assert.deepEqual([rows.get(a.id)!.link_count, rows.get(a.id)!.external_link_count, rows.get(a.id)!.incoming_link_count], [3, 2, 2]);
    assert.deepEqual([rows.get(b.id)!.link_count, rows.get(b.id)!.external_link_count, rows.get(b.id)!.incoming_link_count], [1, 0, 2]);
    assert.deepEqual([rows.get(c.id)!.link_count, rows.get(c.id)!.incoming_link_count], [2, 2]);

    // re-saving B makes its indexable stale: indexing and link indexing take it again
    await site.call(`cms/v2/posts/${b.id}`, { json: { content: '<p>Bee links nowhere now.</p>' }, auth: site.admin });
    rows = await byPost();
    assert.equal(rows.get(b.id)!.is_stale, 1);
    const reindexed = await post(site, 'indexing/posts', site.admin);
    assert.deepEqual(reindexed.objects.map((o: Obj) => o.object_id), [b.id]);
    const relinked = await post(site, 'link-indexing/posts', site.admin);
    assert.deepEqual(relinked.objects.map((o: Obj) => [o.object_id, o.link_count]), [[b.id, 0]]);
    rows = await byPost();
    assert.equal(rows.get(c.id)!.incoming_link_count, 1, 'C lost the link B had');

    // deleting A drops its links: B and C lose what A pointed at them
    await site.call(`cms/v2/posts/${a.id}?force=true`, { method: 'DELETE', auth: site.admin });
    rows = await byPost();
    assert.equal(rows.get(a.id), undefined);
    assert.equal(rows.get(b.id)!.incoming_link_count, 0);
    assert.equal(rows.get(c.id)!.incoming_link_count, 0);
    assert.equal(rows.get(c.id)!.link_count, 2, 'C still holds its links to the deleted A (now without a target)');
  });

  test('term descriptions are read for links too', async () => {
    const target = await createPost(site, site.admin, { title: 'Linked from a tag' });
    const tag = (await (await site.call('cms/v2/tags', { json: { name: 'Linking', description: `<a href="${target.link}">read this</a> and <a href="https://example.org/">that</a>` }, auth: site.admin })).json()) as Obj;
    await indexAll(site, site.admin, 'indexing/posts');
    await indexAll(site, site.admin, 'indexing/terms');
    const { objects } = await indexAll(site, site.admin, 'link-indexing/terms');
    const own = objects.find((o) => o.object_id === tag.id)!;
    assert.deepEqual([own.object_type, own.link_count, own.external_link_count], ['term', 1, 1]);
    const row = await site.app.store.db.selectFrom('seo_indexables' as never).select('incoming_link_count' as never).where('object_id' as never, '=', target.id as never).where('object_type' as never, '=', 'post' as never).executeTakeFirst();
    assert.deepEqual(row, { incoming_link_count: 1 });
  });

  test('a subscriber cannot index', async () => {
    const subscriber = await userAuth(site, 'subscriber');
    const indexables = async () => (await site.app.store.db.selectFrom('seo_indexables' as never).select('id' as never).execute()).length;
    const before = await indexables();
    // a post no indexing run has seen yet: refused, the run must not index it either
    await site.call('cms/v2/posts', { json: { title: 'Not indexed by a subscriber', status: 'publish' }, auth: site.admin });
    const res = await site.call(`${NS}/indexing/posts`, { method: 'POST', auth: subscriber.auth });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).code, 'rest_forbidden');
    assert.equal(await indexables(), before);
  });
});
