import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { namespaceIndexRoute, routesOf } from '../../helpers/route-index.ts';

/**
 * site-analytics/v1: its route index in both variants, the report's permission and arguments, and
 * counts after real page views of the rendered site (browsers counted by referrer class; crawlers,
 * HEAD requests, 404s and feeds not).
 */

type Obj = Record<string, any>;
const NS = 'site-analytics/v1';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const DAY = /^\d{4}-\d{2}-\d{2}$/.source;

const REPORT_ARGS = {
  start_date: { type: 'string', pattern: DAY, description: 'The first day of the range (YYYY-MM-DD); by default 27 days before end_date.', required: false },
  end_date: { type: 'string', pattern: DAY, description: "The last day of the range (YYYY-MM-DD); by default today, on the site's clock.", required: false },
  dimension: { type: 'string', enum: ['day', 'path', 'referrer_class'], default: 'day', description: 'What a row of the report is.', required: false },
  referrer_class: { type: 'string', enum: ['organic', 'social', 'direct', 'internal', 'other'], description: 'Only the views from this kind of referrer.', required: false },
  path: { type: 'string', description: 'Only the views of this path.', required: false },
  page: { type: 'integer', default: 1, minimum: 1, description: 'Current page of the rows.', required: false },
  per_page: { type: 'integer', default: 10, minimum: 1, maximum: 100, description: 'Maximum number of rows to be returned.', required: false },
};

async function json(res: Response): Promise<Obj> {
  return (await res.json()) as Obj;
}

for (const variant of ['A', 'B'] as const)
  describe(`site-analytics/v1 route index, variant ${variant}`, () => {
    const site = useServer({ variant });
    test('the namespace and its report route, exactly', async () => {
      assert.deepEqual(await routesOf(site, /^\/site-analytics\/v1/), {
        [`/${NS}`]: namespaceIndexRoute(NS),
        [`/${NS}/report`]: { methods: ['GET'], endpoints: [{ methods: ['GET'], args: REPORT_ARGS }] },
      });
      const root = await json(await site.call(''));
      assert.ok(root.namespaces.includes(NS));
      const own = await json(await site.call(NS));
      assert.deepEqual(Object.keys(own.routes), [`/${NS}`, `/${NS}/report`]);
    });
  });

describe('site-analytics/v1 report', () => {
  const site = useServer();
  const report = async (query: string, auth = site.admin) => {
    const res = await site.call(`${NS}/report${query ? `?${query}` : ''}`, { auth });
    const body = await json(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    return { body, headers: res.headers };
  };
  /** A page of the site as a visitor's browser asks for it. */
  const visit = async (url: string, o: { referrer?: string; agent?: string; method?: string } = {}) => {
    const headers: Record<string, string> = { 'user-agent': o.agent ?? BROWSER };
    if (o.referrer) headers.referer = o.referrer;
    const res = await fetch(url, { method: o.method ?? 'GET', headers, redirect: 'manual' });
    await res.arrayBuffer();
    return res.status;
  };

  test('only view_site_analytics (administrators, editors) reads the report', async () => {
    const anonymous = await site.call(`${NS}/report`);
    assert.equal(anonymous.status, 401);
    assert.equal((await json(anonymous)).code, 'rest_forbidden');
    for (const role of ['subscriber', 'contributor', 'author']) {
      const res = await site.call(`${NS}/report`, { auth: (await userAuth(site, role)).auth });
      assert.equal(res.status, 403, role);
      assert.equal((await json(res)).code, 'rest_forbidden');
    }
    await report('', (await userAuth(site, 'editor')).auth);
  });

  test('page views of the rendered site are counted per path and referrer class; crawlers, HEAD, 404s and feeds are not', async () => {
    const created = await site.call('cms/v2/posts', { json: { title: 'Counted', content: 'A post people read.', status: 'publish' }, auth: site.admin });
    const post = await json(created);
    assert.equal(created.status, 201);
    const postPath = new URL(post.link).pathname;
    assert.notEqual(postPath, '/', 'the post has a path of its own');
    const home = `${site.home}/`;

    assert.equal(await visit(home, { referrer: 'https://www.google.com/' }), 200);
    assert.equal(await visit(home, { referrer: 'https://www.google.co.uk/search?q=tea' }), 200);
    assert.equal(await visit(home, { referrer: 'https://duckduckgo.com/' }), 200);
    assert.equal(await visit(post.link, { referrer: 'https://l.facebook.com/l.php?u=x' }), 200);
    assert.equal(await visit(post.link, { referrer: 'https://t.co/abc' }), 200);
    assert.equal(await visit(post.link), 200);
    assert.equal(await visit(post.link, { referrer: home }), 200);
    assert.equal(await visit(post.link, { referrer: 'https://blog.example.org/links' }), 200);
    // not people, or not pages
    assert.equal(await visit(home, { agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', referrer: 'https://www.google.com/' }), 200);
    assert.equal(await visit(home, { agent: 'curl/8.5.0' }), 200);
    assert.equal(await visit(home, { agent: '' }), 200);
    assert.equal(await visit(home, { method: 'HEAD', referrer: 'https://www.google.com/' }), 200);
    assert.equal(await visit(`${site.home}/no-such-page-here/`, { referrer: 'https://www.google.com/' }), 404);
    assert.equal(await visit(`${site.home}/feed/`, { referrer: 'https://www.google.com/' }), 200);

    const byClass = await report('dimension=referrer_class');
    assert.equal(byClass.body.total_views, 8);
    assert.deepEqual(byClass.body.rows, [
      { referrer_class: 'organic', views: 3 },
      { referrer_class: 'social', views: 2 },
      { referrer_class: 'direct', views: 1 },
      { referrer_class: 'internal', views: 1 },
      { referrer_class: 'other', views: 1 },
    ]);

    const byPath = await report('dimension=path');
    assert.deepEqual(byPath.body.rows, [
      { path: postPath, url: `${site.home}${postPath}`, views: 5 },
      { path: '/', url: `${site.home}/`, views: 3 },
    ]);
    assert.equal(byPath.headers.get('x-wp-total'), '2');

    const organicPaths = await report('dimension=path&referrer_class=organic');
    assert.deepEqual(organicPaths.body.rows, [{ path: '/', url: `${site.home}/`, views: 3 }]);
    assert.equal(organicPaths.body.total_views, 3);
    assert.equal(organicPaths.body.referrer_class, 'organic');

    const onePath = await report(`dimension=referrer_class&path=${encodeURIComponent(postPath)}`);
    assert.equal(onePath.body.total_views, 5);
    assert.equal(onePath.body.rows.find((r: Obj) => r.referrer_class === 'organic').views, 0);

    // the default range: the 28 days ending today, every day a row, today's holding the views
    const daily = await report('per_page=100');
    assert.equal(daily.body.rows.length, 28);
    assert.equal(daily.headers.get('x-wp-total'), '28');
    const today = daily.body.end_date;
    assert.equal(site.app.site.localDate(), today);
    assert.deepEqual(daily.body.rows.at(-1), { day: today, views: 8 });
    assert.equal(daily.body.rows.reduce((n: number, r: Obj) => n + r.views, 0), 8);
    assert.ok(daily.body.rows.slice(0, -1).every((r: Obj) => r.views === 0));

    // paging of the day rows, and a range that ends before today
    const paged = await report('per_page=10&page=3');
    assert.equal(paged.body.rows.length, 8);
    assert.equal(paged.headers.get('x-wp-totalpages'), '3');
    const before = await report(`end_date=2020-01-31&start_date=2020-01-01`);
    assert.equal(before.body.total_views, 0);
    assert.equal(before.headers.get('x-wp-total'), '31');
    assert.deepEqual(before.body.rows[0], { day: '2020-01-01', views: 0 });
  });

  test('bad arguments are 400s naming the argument', async () => {
    const bad = async (query: string, param: string, code = 'rest_invalid_param') => {
      const res = await site.call(`${NS}/report?${query}`, { auth: site.admin });
      const body = await json(res);
      assert.equal(res.status, 400, query);
      assert.equal(body.code, code, query);
      assert.ok(param in body.data.params, `${query}: ${JSON.stringify(body)}`);
    };
    await bad('end_date=2024-02-30', 'end_date');
    await bad('start_date=yesterday', 'start_date');
    await bad('start_date=2024-03-02&end_date=2024-03-01', 'start_date');
    await bad('start_date=2020-01-01&end_date=2024-01-01', 'start_date');
    await bad('dimension=browser', 'dimension');
    await bad('referrer_class=email', 'referrer_class');
    await bad('per_page=101', 'per_page');
  });
});

