import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, useServer } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { createPost, indexAll, type Obj } from './helpers.ts';
import { body, READABILITY_CASES, SEO_CASES, type Case } from './texts.ts';

const THRESHOLDS = JSON.parse(readFileSync(join(ROOT, 'src/plugins/seo/assessments.json'), 'utf8')) as Obj;

describe('SEO and readability analysis of real texts', () => {
  const site = useServer();
  const created = new Map<Case, number>();
  let indexed: Map<number, Obj>;

  test('the post meta of the analysis is edited through cms/v2 posts, typed and checked', async () => {
    const p = await createPost(site, site.admin, { title: 'Meta round trip', meta: { _yoast_wpseo_focuskw: 'tea', _yoast_wpseo_title: '%%title%% | Tea', '_yoast_wpseo_meta-robots-noindex': 1, _yoast_wpseo_is_cornerstone: true } });
    assert.equal(p.meta._yoast_wpseo_focuskw, 'tea');
    assert.equal(p.meta._yoast_wpseo_title, '%%title%% | Tea');
    assert.equal(p.meta['_yoast_wpseo_meta-robots-noindex'], 1);
    assert.equal(p.meta._yoast_wpseo_is_cornerstone, true);
    assert.equal(p.meta._yoast_wpseo_metadesc, '', 'unset keys show their default');
    const bad = await site.call(`cms/v2/posts/${p.id}`, { json: { meta: { '_yoast_wpseo_meta-robots-noindex': 7 } }, auth: site.admin });
    assert.equal(bad.status, 400);
    const author = await userAuth(site, 'author');
    const own = await createPost(site, author.auth, { title: 'Mine', meta: { _yoast_wpseo_focuskw: 'mine' } });
    assert.equal(own.meta._yoast_wpseo_focuskw, 'mine', 'an author sets the keyphrase of their post');
    const advanced = await site.call(`cms/v2/posts/${own.id}`, { json: { meta: { _yoast_wpseo_canonical: 'https://example.org/' } }, auth: author.auth });
    assert.equal(advanced.status, 403, 'the canonical URL needs wpseo_edit_advanced_metadata');
    await site.call(`cms/v2/posts/${p.id}?force=true`, { method: 'DELETE', auth: site.admin });
    await site.call(`cms/v2/posts/${own.id}?force=true`, { method: 'DELETE', auth: site.admin });
  });

  test('indexing analyses every text', async () => {
    for (const c of [...SEO_CASES, ...READABILITY_CASES]) {
      const meta: Obj = {};
      if (c.keyphrase) meta._yoast_wpseo_focuskw = c.keyphrase;
      if (c.metaDescription) meta._yoast_wpseo_metadesc = c.metaDescription;
      const p = await createPost(site, site.admin, { title: c.title, content: c.content, ...(c.slug ? { slug: c.slug } : {}), meta: meta });
      created.set(c, p.id);
    }
    const { objects } = await indexAll(site, site.admin, 'indexing/posts');
    indexed = new Map(objects.map((o) => [o.object_id, o]));
    assert.equal(indexed.size, objects.length);
    for (const id of created.values()) assert.ok(indexed.has(id));
  });

  const ratingOf = (c: Case, kind: 'seo_assessments' | 'readability_assessments') => (indexed.get(created.get(c)!)![kind] as Obj[] | null)?.find((r) => r.id === c.assessment);

  for (const c of SEO_CASES) {
    test(`SEO: ${c.assessment} is ${c.rank} for "${c.title}"`, () => {
      const r = ratingOf(c, 'seo_assessments');
      assert.ok(r, `${c.assessment} was assessed`);
      assert.equal(r.rating, c.rank, JSON.stringify(r));
      assert.equal(r.score, THRESHOLDS.ratingScores[c.rank]);
    });
  }
  for (const c of READABILITY_CASES) {
    test(`readability: ${c.assessment} is ${c.rank} for "${c.title}"`, () => {
      const r = ratingOf(c, 'readability_assessments');
      assert.ok(r, `${c.assessment} was assessed`);
      assert.equal(r.rating, c.rank, JSON.stringify(r));
    });
  }

  test('each assessment is named in assessments.json and every one was tried good, ok and bad', () => {
    for (const [group, cases] of [['seo', SEO_CASES], ['readability', READABILITY_CASES]] as const) {
      assert.deepEqual(new Set(cases.map((c) => c.assessment)), new Set(Object.keys(THRESHOLDS[group])));
      for (const name of Object.keys(THRESHOLDS[group])) assert.deepEqual(cases.filter((c) => c.assessment === name).map((c) => c.rank).sort(), ['bad', 'good', 'ok']);
    }
  });

  test('scores: 0-100 from the ratings, null without a keyphrase or without words', async () => {
    for (const o of indexed.values()) {
      for (const key of ['primary_focus_keyword_score', 'readability_score']) {
        const v = o[key];
        if (v !== null) assert.ok(Number.isInteger(v) && v >= 1 && v <= 100, `${key} ${v}`);
      }
      if (!o.primary_focus_keyword) assert.equal(o.primary_focus_keyword_score, null);
    }
    // a text that does everything right, and one that does nearly nothing
    const good = await createPost(site, site.admin, {
      title: 'Green tea at home',
      slug: 'green-tea-at-home',
      meta: { _yoast_wpseo_focuskw: 'green tea', _yoast_wpseo_metadesc: 'We walk to the park and see a big oak by the lake, with my dog on warm days, and we take green tea in a flask to share there.' },
      content: `<p>Green tea is what we take along. However we walk to the park.</p>\n<h2>Green tea in a flask</h2>\n${body(150)}\n<p><a href="/">Home</a> and <a href="https://example.org/">more</a>. <img src="/t.png" alt="green tea"></p>\n<h2>Why green tea</h2>\n${body(150)}\n<p>Green tea again. Green tea once more.</p>`,
    });
    const bad = await createPost(site, site.admin, { title: 'Short', meta: { _yoast_wpseo_focuskw: 'green tea' }, content: '<p>Short.</p>' });
    const empty = await createPost(site, site.admin, { title: 'Empty', content: '' });
    const { objects } = await indexAll(site, site.admin, 'indexing/posts');
    const score = (id: number) => objects.find((o) => o.object_id === id)!;
    assert.ok(score(good.id).primary_focus_keyword_score >= THRESHOLDS.ranks.good.min, JSON.stringify(score(good.id).seo_assessments));
    assert.ok(score(bad.id).primary_focus_keyword_score <= THRESHOLDS.ranks.bad.max, JSON.stringify(score(bad.id).seo_assessments));
    assert.equal(score(empty.id).readability_score, null);
    assert.equal(score(good.id).estimated_reading_time_minutes, 2);
  });
});
