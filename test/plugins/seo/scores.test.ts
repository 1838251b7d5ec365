import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { assertError, createPost, getJson, indexAll, NS, type Obj } from './helpers.ts';
import { body } from './texts.ts';

describe('statistics and the score dashboards', () => {
  const posts: Record<string, Obj> = {};
  const site = useServer({}, async (s) => {
    const cat = (await (await s.call('cms/v2/categories', { json: { name: 'Dash' }, auth: s.admin })).json()) as Obj;
    const good = { _yoast_wpseo_focuskw: 'green tea', _yoast_wpseo_metadesc: 'We walk to the park and see a big oak by the lake, with my dog on warm days, and we take green tea in a flask to share there.' };
    const goodText = `<p>Green tea is what we take. However we walk on.</p>\n<h2>Green tea in a flask</h2>\n${body(150)}\n<p><a href="/">Home</a> and <a href="https://example.org/">more</a>. <img src="/t.png" alt="green tea"></p>\n<h2>Why green tea</h2>\n${body(150)}\n<p>Green tea again. Green tea once more.</p>`;
    posts.good = await createPost(s, s.admin, { title: 'Green tea at home', slug: 'green-tea-at-home', content: goodText, meta: good, categories: [cat.id] });
    posts.bad = await createPost(s, s.admin, { title: 'Short', content: '<p>Short.</p>', meta: { _yoast_wpseo_focuskw: 'green tea' } });
    posts.none = await createPost(s, s.admin, { title: 'No keyphrase', content: goodText, categories: [cat.id] });
    posts.hidden = await createPost(s, s.admin, { title: 'Hidden', content: '<p>Hidden.</p>', meta: { _yoast_wpseo_focuskw: 'tea', '_yoast_wpseo_meta-robots-noindex': 1 } });
    const author = await userAuth(s, 'author');
    posts.authors = await createPost(s, author.auth, { title: 'By an author', content: '<p>Mine.</p>', meta: { _yoast_wpseo_focuskw: 'mine' } });
    posts.authorAuth = { auth: author.auth };
    posts.category = cat;
    await indexAll(s, s.admin, 'indexing/posts');
  });

  const scores = (route: string, query: string, auth = site.admin) => getJson(site, `${NS}/${route}?${query}`, { auth });

  test('statistics: published posts per SEO rank, empty ranks left out; an author sees their own', async () => {
    const { status, body: stats } = await getJson(site, `${NS}/statistics`, { auth: site.admin });
    assert.equal(status, 200);
    assert.match(stats.header, /SEO scores/);
    const counts = Object.fromEntries((stats.seo_scores as Obj[]).map((s) => [s.seo_rank, s.count]));
    const published = (await site.app.store.posts.query({ types: ['post'], statuses: ['publish'], offset: 0, limit: 1 })).total;
    assert.equal(counts.good, 1);
    assert.equal(counts.noindex, 1);
    assert.ok(counts.bad >= 2, JSON.stringify(counts));
    assert.equal(Object.values(counts).reduce((a: number, b) => a + (b as number), 0), published);
    for (const s of stats.seo_scores as Obj[]) {
      assert.deepEqual(Object.keys(s), ['seo_rank', 'label', 'count', 'link']);
      assert.ok(s.count > 0);
    }
    const own = (await getJson(site, `${NS}/statistics`, { auth: posts.authorAuth.auth })).body;
    assert.deepEqual((own.seo_scores as Obj[]).map((s) => [s.seo_rank, s.count]), [['bad', 1]]);
    const subscriber = await userAuth(site, 'subscriber');
    const none = (await getJson(site, `${NS}/statistics`, { auth: subscriber.auth })).body;
    assert.deepEqual(none.seo_scores, []);
    assert.match(none.header, /any published posts/);
  });

  test('seo_scores: good, ok, bad and not analysed, noindex left out, ids when troubleshooting; cached until the indexables change', async () => {
    const first = (await scores('seo_scores', 'contentType=post&troubleshooting=true')).body;
    assert.deepEqual(first.scores.map((s: Obj) => s.name), ['good', 'ok', 'bad', 'notAnalyzed']);
    const group = (name: string) => first.scores.find((s: Obj) => s.name === name);
    assert.equal(group('good').ids, String(posts.good.id));
    assert.ok(group('bad').ids.split(',').includes(String(posts.bad.id)));
    assert.ok(group('notAnalyzed').ids.split(',').includes(String(posts.none.id)));
    assert.ok(!Object.values(first.scores).some((s: any) => s.ids.split(',').includes(String(posts.hidden.id))));
    assert.equal(first.cacheUsed, false);
    assert.equal(typeof first.queryTime, 'number');
    const second = (await scores('seo_scores', 'contentType=post&troubleshooting=true')).body;
    assert.equal(second.cacheUsed, true);
    assert.deepEqual(second.scores, first.scores);
    const plain = (await scores('seo_scores', 'contentType=post')).body;
    assert.equal(plain.scores[0].ids, undefined, 'ids only when troubleshooting');

    await site.call(`cms/v2/posts/${posts.bad.id}`, { json: { content: '<p>Changed.</p>' }, auth: site.admin });
    assert.equal((await scores('seo_scores', 'contentType=post&troubleshooting=true')).body.cacheUsed, false, 'a saved post empties the cache');
  });

  test('readability_scores and the term filter', async () => {
    const r = (await scores('readability_scores', `contentType=post&taxonomy=category&term=${posts.category.id}&troubleshooting=1`)).body;
    const ids = r.scores.flatMap((s: Obj) => (s.ids ? s.ids.split(',') : []));
    assert.deepEqual(ids.sort(), [String(posts.good.id), String(posts.none.id)].sort());
    assert.equal(r.scores.reduce((n: number, s: Obj) => n + s.amount, 0), 2);
    const pages = (await scores('readability_scores', 'contentType=page')).body;
    assert.ok(pages.scores.every((s: Obj) => typeof s.amount === 'number'));
  });

  test('bad arguments: content type, taxonomy, term', async () => {
    await assertError(await site.call(`${NS}/seo_scores?contentType=unicorn`, { auth: site.admin }), 400, 'rest_invalid_param');
    await assertError(await site.call(`${NS}/seo_scores?contentType=post&taxonomy=unicorn`, { auth: site.admin }), 400, 'rest_invalid_param');
    await assertError(await site.call(`${NS}/seo_scores?contentType=page&taxonomy=category`, { auth: site.admin }), 400, 'rest_invalid_param');
    const noTax = await assertError(await site.call(`${NS}/seo_scores?contentType=post&term=1`, { auth: site.admin }), 400, 'rest_invalid_param');
    assert.equal(noTax.message, 'Term needs a provided taxonomy.');
    const wrong = await assertError(await site.call(`${NS}/readability_scores?contentType=post&taxonomy=post_tag&term=${posts.category.id}`, { auth: site.admin }), 400, 'rest_invalid_param');
    assert.equal(wrong.message, 'Invalid term.');
    await assertError(await site.call(`${NS}/seo_scores?contentType=post&term=x`, { auth: site.admin }), 400, 'rest_invalid_param');
    await assertError(await site.call(`${NS}/seo_scores?contentType=post&troubleshooting=maybe`, { auth: site.admin }), 400, 'rest_invalid_param');
    await assertError(await site.call(`${NS}/seo_scores`, { auth: site.admin }), 400, 'rest_missing_callback_param');
  });
});
