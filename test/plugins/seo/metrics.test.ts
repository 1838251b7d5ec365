import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { setEnv } from '../../helpers/env.ts';
import { SEARCH_CONSOLE_TOKEN, searchConsoleApi, type FakeService } from './fakes.ts';
import { assertError, createPost, indexAll, NS, type Obj } from './helpers.ts';

/**
 * time_based_seo_metrics: the organic sessions and top pages from real page views of the rendered
 * site (counted by the Site Analytics plugin, read in-process), a clear error while that plugin is
 * inactive, the queries and ranking comparison from a local stand-in of Search Console's
 * searchAnalytics API, and the analytics connector's consent and dismissal.
 */

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const DAY_MS = 86_400_000;
const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

describe('time_based_seo_metrics', () => {
  let searchConsole: FakeService;
  let restore: () => void;
  const site = useServer({}, async () => {
    searchConsole = await searchConsoleApi().start();
    restore = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' });
  });
  after(async () => {
    restore?.();
    await searchConsole?.close();
  });
  const metrics = (query: string) => site.call(`${NS}/time_based_seo_metrics?${query}`, { auth: site.admin });
  const ok = async (res: Response) => {
    const body = (await res.json()) as Obj[];
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  };
  /** The site's clock as gmt_offset, as an administrator sets it (the site reloads its options). */
  const setClock = async (gmtOffset: string) => {
    await site.app.store.options.set('gmt_offset', gmtOffset);
    await site.app.site.optionsChanged();
  };
  const visit = async (url: string, referrer?: string) => {
    const res = await fetch(url, { headers: { 'user-agent': BROWSER, ...(referrer ? { referer: referrer } : {}) } });
    await res.arrayBuffer();
    assert.equal(res.status, 200);
  };
  let post: Obj;
  let score: number | null;

  test('organic sessions daily and compared, and the top pages, from page views of the rendered site', async () => {
    post = await createPost(site, site.admin, { title: 'Brewing green tea', content: '<p>Green tea wants water at 80 degrees. Brew green tea for two minutes.</p>', meta: { _yoast_wpseo_focuskw: 'green tea' } });
    const { objects } = await indexAll(site, site.admin, 'indexing/posts');
    score = objects.find((o) => o.object_id === post.id)!.primary_focus_keyword_score;

    // views made on the clock 12 hours behind UTC fall one or two days before "today" 14 hours ahead:
    // inside the widgets' 28 days that end yesterday
    await setClock('-12');
    for (const referrer of ['https://www.google.com/', 'https://www.bing.com/', 'https://duckduckgo.com/']) await visit(post.link, referrer);
    await visit(`${site.home}/`, 'https://www.google.de/');
    await visit(post.link, 'https://www.facebook.com/');
    await visit(post.link);
    await setClock('14');
    const yesterday = shift(site.app.site.localDate(), -1);

    const daily = await ok(await metrics('options[widget]=organicSessionsDaily'));
    assert.equal(daily.length, 28);
    assert.equal(daily.at(-1)!.date, yesterday.replaceAll('-', ''));
    assert.equal(daily[0].date, shift(yesterday, -27).replaceAll('-', ''));
    assert.deepEqual(Object.keys(daily[0]), ['date', 'sessions']);
    assert.equal(daily.reduce((n, d) => n + d.sessions, 0), 4, 'the visits from search engines only');
    assert.equal(daily.filter((d) => d.sessions > 0).length, 1);

    assert.deepEqual(await ok(await metrics('options[widget]=organicSessionsCompare')), [{ current: { sessions: 4 }, previous: { sessions: 0 } }]);

    const pages = await ok(await metrics('options[widget]=page&limit=5'));
    // the post's keyphrase analysis scored 50: Yoast's "OK" band (41-70), which the widget names `ok`
    assert.equal(score, 50);
    assert.deepEqual(pages, [
      { subject: post.link, clicks: 3, impressions: null, ctr: null, position: null, seoScore: 'ok', links: { edit: `${site.api}cms/v2/posts/${post.id}` } },
      { subject: `${site.home}/`, clicks: 1, impressions: null, ctr: null, position: null, seoScore: 'notAnalyzed', links: {} },
    ]);
    assert.equal((await ok(await metrics('options[widget]=page&limit=1'))).length, 1);
  });

  test('with the Site Analytics plugin inactive the page-view widgets say so', async () => {
    const setStatus = async (status: string) => assert.equal((await site.call('cms/v2/plugins/site-analytics/site-analytics', { method: 'POST', json: { status }, auth: site.admin })).status, 200);
    await setStatus('inactive');
    try {
      for (const widget of ['organicSessionsDaily', 'organicSessionsCompare', 'page']) {
        const err = await assertError(await metrics(`options[widget]=${widget}`), 400, 'wpseo_site_analytics_inactive');
        assert.match(err.message, /Site Analytics plugin/);
      }
    } finally {
      await setStatus('active');
    }
    assert.equal((await ok(await metrics('options[widget]=organicSessionsCompare')))[0].current.sessions, 4, 'the counts were kept');
  });

  test('queries and the ranking comparison come from the search searchConsole once it is configured and has consent', async () => {
    const err = await assertError(await metrics('options[widget]=query'), 400, 'wpseo_integration_not_configured');
    assert.deepEqual(err.data.settings, ['seo_search_console_base_url', 'seo_search_console_token']);
    await site.app.store.options.set('seo_search_console_base_url', searchConsole.url);
    await site.app.store.options.set('seo_search_console_token', SEARCH_CONSOLE_TOKEN);
    await assertError(await metrics('options[widget]=searchRankingCompare'), 400, 'wpseo_search_metrics_no_consent');
    assert.equal(searchConsole.seen.length, 0);
    const consent = await site.call(`${NS}/analytics_connector_manage_consent`, { json: { consent: true }, auth: site.admin });
    assert.deepEqual(await consent.json(), { success: true });

    const yesterday = shift(site.app.site.localDate(), -1);
    const queries = await ok(await metrics('options[widget]=query&limit=3'));
    assert.deepEqual(queries, [
      { subject: 'green tea', clicks: 60, impressions: 600, ctr: 0.1, position: 1.5 },
      { subject: 'tea brewing', clicks: 50, impressions: 550, ctr: 0.1, position: 2.5 },
      { subject: 'oolong', clicks: 40, impressions: 500, ctr: 0.1, position: 3.5 },
    ]);
    const asked = searchConsole.seen.at(-1)!;
    assert.equal(asked.path, `/webmasters/v3/sites/${encodeURIComponent(`${site.home}/`)}/searchAnalytics/query`);
    assert.equal(asked.headers.authorization, `Bearer ${SEARCH_CONSOLE_TOKEN}`);
    assert.deepEqual(JSON.parse(asked.body), { startDate: shift(yesterday, -27), endDate: yesterday, dimensions: ['query'], rowLimit: 3 });

    const [compare] = await ok(await metrics('options[widget]=searchRankingCompare'));
    assert.deepEqual(compare, {
      current: { total_clicks: 56, total_impressions: 280, average_ctr: 0.2, average_position: 4 },
      previous: { total_clicks: 56, total_impressions: 280, average_ctr: 0.2, average_position: 4 },
    });
    assert.deepEqual(JSON.parse(searchConsole.seen.at(-1)!.body), { startDate: shift(yesterday, -55), endDate: yesterday, dimensions: ['date'], rowLimit: 56 });

    await site.app.store.options.set('seo_search_console_site_url', 'sc-domain:example.com');
    await ok(await metrics('options[widget]=query'));
    assert.equal(searchConsole.seen.at(-1)!.path, '/webmasters/v3/sites/sc-domain%3Aexample.com/searchAnalytics/query');
  });

  test('the search searchConsole’s refusals and failures are clear errors; the token is never repeated; a POST is not retried', async () => {
    const hits = searchConsole.seen.length;
    searchConsole.failNext(/searchAnalytics/, { status: 500, body: { error: { code: 500, message: 'Internal error encountered.' } } });
    await assertError(await metrics('options[widget]=query'), 502, 'wpseo_remote_error');
    assert.equal(searchConsole.seen.length, hits + 1);
    searchConsole.failNext(/searchAnalytics/, { status: 429, headers: { 'retry-after': '60' }, body: { error: { code: 429, message: 'Quota exceeded.' } } });
    const limited = await metrics('options[widget]=query');
    assert.equal(limited.headers.get('retry-after'), '60');
    await assertError(limited, 429, 'wpseo_remote_rate_limited');

    await site.app.store.options.set('seo_search_console_token', 'ya29.expired-token-000000');
    const refused = await metrics('options[widget]=query');
    const text = await refused.clone().text();
    const err = await assertError(refused, 400, 'wpseo_remote_unauthorized');
    assert.match(err.message, /Request had invalid authentication credentials/);
    assert.ok(!text.includes('ya29.'));

    await site.call(`${NS}/integrations/set_active`, { json: { integration: 'analytics_connector', active: false }, auth: site.admin });
    await assertError(await metrics('options[widget]=query'), 400, 'wpseo_integration_inactive');
    assert.equal((await ok(await metrics('options[widget]=organicSessionsCompare'))).length, 1, 'the site’s own page views need no connector');
  });

  test('arguments and the connector’s dismissal', async () => {
    await assertError(await metrics('options[widget]=visitors'), 400, 'rest_invalid_param');
    await assertError(await metrics('options[widget]=page&limit=0'), 400, 'rest_invalid_param');
    await assertError(await metrics('options[widget]=page&limit=101'), 400, 'rest_invalid_param');
    await assertError(await metrics('limit=3'), 400, 'rest_missing_callback_param');
    const res = await site.call(`${NS}/analytics_connector_configuration_permanent_dismissal`, { json: { is_dismissed: true }, auth: site.admin });
    assert.deepEqual(await res.json(), { success: true });
    assert.equal(await site.app.store.options.get('seo_analytics_connector_configuration_dismissed'), '1');
    await assertError(await site.call(`${NS}/analytics_connector_manage_consent`, { json: {}, auth: site.admin }), 400, 'rest_missing_callback_param');
  });
});
