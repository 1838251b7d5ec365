import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, type ServerFixture } from '../../helpers/server.ts';
import { userAuth, type TestUser } from '../../helpers/auth.ts';
import { setEnv } from '../../helpers/env.ts';
import { WINCHER, wincherApi } from './fakes.ts';
import { assertError, createPost, indexAll, NS, type Obj } from './helpers.ts';

/**
 * Rank tracking (rank-tracker/*) against a local stand-in of Wincher's OAuth server (with PKCE) and
 * API: connecting through the authorization URL, the account's limit, tracking, reading and
 * untracking keyphrases (the round trip), the site's focus keyphrases by default, the upgrade offer.
 */

const answered: string[] = [];
const WEBSITE = 4242;

async function call(site: ServerFixture, route: string, auth: string, json?: unknown, method = json === undefined ? 'GET' : 'POST'): Promise<Response> {
  const res = await site.call(`${NS}/${route}`, { method, ...(json === undefined ? {} : { json }), auth });
  answered.push(`${res.status} ${await res.clone().text()}`);
  return res;
}

async function ok(res: Response): Promise<Obj> {
  const body = (await res.json()) as Obj;
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

describe('rank-tracker/*', () => {
  let wincher: ReturnType<typeof wincherApi>;
  let restore: () => void;
  let author: TestUser;
  const site = useServer({}, async (s) => {
    wincher = await wincherApi().start();
    restore = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' });
    author = await userAuth(s, 'author');
  });
  after(async () => {
    restore?.();
    await wincher?.close();
  });
  /** What the user's browser does with the authorization URL: signs in and comes back with a code. */
  const signIn = async () => {
    const { url } = await ok(await call(site, 'rank-tracker/authorization-url', author.auth));
    const res = await fetch(url);
    return { url: new URL(url), code: ((await res.json()) as { code: string }).code };
  };

  test('not configured, not connected, no authorization under way: 400s that say what to do', async () => {
    const err = await assertError(await call(site, 'rank-tracker/account/limit', author.auth), 400, 'wpseo_integration_not_configured');
    assert.deepEqual(err.data.settings, ['seo_rank_tracker_base_url', 'seo_rank_tracker_client_id', 'seo_rank_tracker_client_secret']);
    await site.app.store.options.set('seo_rank_tracker_base_url', wincher.url);
    await site.app.store.options.set('seo_rank_tracker_client_id', WINCHER.clientId);
    await site.app.store.options.set('seo_rank_tracker_client_secret', WINCHER.clientSecret);
    const notConnected = await assertError(await call(site, 'rank-tracker/account/limit', author.auth), 400, 'wpseo_integration_not_connected');
    assert.match(notConnected.message, /rank-tracker\/authorization-url/);
    await assertError(await call(site, 'rank-tracker/keyphrases/track', author.auth, { keyphrases: ['tea'] }), 400, 'wpseo_integration_not_connected');
    await assertError(await call(site, 'rank-tracker/authenticate', author.auth, { code: 'c0de', websiteId: WEBSITE }), 400, 'wpseo_rank_tracker_no_authorization');
    assert.equal(wincher.seen.length, 0);
  });

  test('connecting: the authorization URL carries a PKCE challenge, the code is exchanged with its verifier only', async () => {
    const first = await signIn();
    assert.equal(`${first.url.origin}${first.url.pathname}`, `${wincher.url}/connect/authorize`);
    assert.equal(first.url.searchParams.get('client_id'), WINCHER.clientId);
    assert.equal(first.url.searchParams.get('response_type'), 'code');
    assert.equal(first.url.searchParams.get('code_challenge_method'), 'S256');
    assert.match(first.url.searchParams.get('code_challenge')!, /^[\w-]{43}$/);
    assert.match(first.url.searchParams.get('scope')!, /offline_access/);

    // a code of an earlier authorization URL does not go with the verifier of the latest one
    const second = await signIn();
    await assertError(await call(site, 'rank-tracker/authenticate', author.auth, { code: first.code, websiteId: WEBSITE }), 400, 'wpseo_oauth_authentication_failed');
    await assertError(await call(site, 'rank-tracker/authenticate', author.auth, { code: second.code, websiteId: 'main' }), 400, 'rest_invalid_param');
    await assertError(await call(site, 'rank-tracker/authenticate', author.auth, { code: second.code }), 400, 'rest_missing_callback_param');
    const done = await ok(await call(site, 'rank-tracker/authenticate', author.auth, { code: second.code, websiteId: WEBSITE }));
    assert.deepEqual(Object.keys(done.tokens), ['expires', 'has_expired', 'created_at']);
    const exchange = Object.fromEntries(new URLSearchParams(wincher.seen.at(-1)!.body));
    assert.equal(exchange.grant_type, 'authorization_code');
    assert.match(exchange.code_verifier, /^[\w-]{43}$/);
    assert.equal(await site.app.store.options.get('seo_rank_tracker_website_id'), String(WEBSITE));
    assert.match((await site.app.store.options.get('seo_rank_tracker_tokens'))!, /^sealed:v1:/);
    await assertError(await call(site, 'rank-tracker/authenticate', author.auth, { code: second.code, websiteId: WEBSITE }), 400, 'wpseo_rank_tracker_no_authorization');
  });

  test('the tracked keyphrases round trip: track, read with positions, untrack; the limit and the offer', async () => {
    assert.deepEqual(await ok(await call(site, 'rank-tracker/account/limit', author.auth)), { canTrack: true, limit: 3, usage: 0, historyDays: 31, status: 200 });

    const tracked = await ok(await call(site, 'rank-tracker/keyphrases/track', author.auth, { keyphrases: ['green tea', 'matcha'] }));
    const [greenTea, matcha] = wincher.state.keywords;
    assert.deepEqual(tracked, { results: { 'green tea': { id: greenTea.id, keyword: 'green tea' }, matcha: { id: matcha.id, keyword: 'matcha' } }, status: 200 });
    assert.deepEqual(JSON.parse(wincher.seen.at(-1)!.body), [{ keyword: 'green tea', groups: [] }, { keyword: 'matcha', groups: [] }]);
    assert.equal(wincher.seen.at(-1)!.path, `/beta/websites/${WEBSITE}/keywords/bulk`);

    const read = await ok(await call(site, 'rank-tracker/keyphrases', author.auth, { keyphrases: ['Green Tea', 'matcha', 'chai'], permalink: `${site.home}/tea/`, startAt: '2026-01-01' }));
    assert.deepEqual(Object.keys(read.results), ['green tea', 'matcha']);
    assert.deepEqual(read.results.matcha.position, { value: 4, change: -1 });
    assert.deepEqual(read.results['green tea'].request, { keywords: ['Green Tea', 'matcha', 'chai'], url: `${site.home}/tea/`, start_at: '2026-01-01' });

    assert.deepEqual(await ok(await call(site, 'rank-tracker/keyphrases/untrack', author.auth, { keyphraseID: greenTea.id }, 'DELETE')), { status: 200 });
    assert.equal(wincher.seen.at(-1)!.path, `/beta/websites/${WEBSITE}/keywords/${greenTea.id}`);
    assert.deepEqual(Object.keys((await ok(await call(site, 'rank-tracker/keyphrases', author.auth, { keyphrases: ['green tea', 'matcha'] }))).results), ['matcha']);
    assert.equal((await ok(await call(site, 'rank-tracker/account/limit', author.auth))).usage, 1);

    assert.deepEqual(await ok(await call(site, 'rank-tracker/account/upgrade-campaign', author.auth)), { discount: 0.3, months: 3, status: 200 });
  });

  test('past the account’s limit nothing is sent; by default the site’s focus keyphrases are read', async () => {
    const bulk = wincher.hits(/keywords\/bulk/);
    const err = await assertError(await call(site, 'rank-tracker/keyphrases/track', author.auth, { keyphrases: ['a', 'b', 'c'] }), 400, 'wpseo_rank_tracker_limit_exceeded');
    assert.deepEqual({ limit: err.data.limit, usage: err.data.usage, canTrack: err.data.canTrack }, { limit: 3, usage: 1, canTrack: true });
    assert.equal(wincher.hits(/keywords\/bulk/), bulk);
    await ok(await call(site, 'rank-tracker/keyphrases/track', author.auth, { keyphrases: 'oolong' }));

    await createPost(site, site.admin, { title: 'Green tea', content: '<p>About green tea.</p>', meta: { _yoast_wpseo_focuskw: 'Matcha' } });
    await createPost(site, site.admin, { title: 'Oolong', content: '<p>About oolong.</p>', meta: { _yoast_wpseo_focuskw: 'oolong' } });
    await createPost(site, site.admin, { title: 'Chai', content: '<p>About chai.</p>', meta: { _yoast_wpseo_focuskw: 'chai' } });
    await indexAll(site, site.admin, 'indexing/posts');
    const all = await ok(await call(site, 'rank-tracker/keyphrases', author.auth, {}));
    assert.deepEqual(JSON.parse(wincher.seen.at(-1)!.body), { keywords: ['chai', 'matcha', 'oolong'], url: null, start_at: null });
    assert.deepEqual(Object.keys(all.results), ['matcha', 'oolong']);
  });

  test('a token the API refuses is refreshed once; failures and bad arguments are clear errors', async () => {
    wincher.state.access.clear();
    assert.equal((await ok(await call(site, 'rank-tracker/account/limit', author.auth))).usage, 2);
    assert.equal(new URLSearchParams(wincher.seen.filter((x) => x.path === '/connect/token').at(-1)!.body).get('grant_type'), 'refresh_token');

    await assertError(await call(site, 'rank-tracker/keyphrases/untrack', author.auth, { keyphraseID: 99999 }, 'DELETE'), 404, 'wpseo_remote_not_found');
    await assertError(await call(site, 'rank-tracker/keyphrases/untrack', author.auth, undefined, 'DELETE'), 400, 'rest_invalid_param');
    await assertError(await call(site, 'rank-tracker/keyphrases/track', author.auth, { keyphrases: [] }), 400, 'rest_invalid_param');
    await assertError(await call(site, 'rank-tracker/keyphrases/track', author.auth, { keyphrases: [''] }), 400, 'rest_invalid_param');
    await assertError(await call(site, 'rank-tracker/keyphrases', author.auth, { startAt: 'the beginning' }), 400, 'rest_invalid_param');

    wincher.failNext(/beta\/account/, { status: 503, body: { message: 'down' } }, 2);
    await assertError(await call(site, 'rank-tracker/account/limit', author.auth), 502, 'wpseo_remote_error');
    wincher.failNext(/beta\/yoast/, { status: 429, headers: { 'retry-after': '5' }, body: { message: 'Slow down' } });
    const limited = await call(site, 'rank-tracker/keyphrases', author.auth, { keyphrases: ['matcha'] });
    assert.equal(limited.headers.get('retry-after'), '5');
    await assertError(limited, 429, 'wpseo_remote_rate_limited');
  });

  test('the OAuth server may live at its own base URL', async () => {
    await site.app.store.options.set('seo_rank_tracker_auth_base_url', 'https://auth.rank-tracker.example/');
    try {
      const { url } = await ok(await call(site, 'rank-tracker/authorization-url', author.auth));
      assert.match(url, /^https:\/\/auth\.rank-tracker\.example\/connect\/authorize\?/);
    } finally {
      await site.app.store.options.delete('seo_rank_tracker_auth_base_url');
    }
  });

  test('no answer holds the client secret or a token', () => {
    assert.ok(answered.length > 20);
    const secrets = [WINCHER.clientSecret, ...wincher.state.issued];
    assert.ok(wincher.state.issued.length >= 4);
    assert.ok(!answered.some((a) => secrets.some((s) => a.includes(s))));
  });
});
