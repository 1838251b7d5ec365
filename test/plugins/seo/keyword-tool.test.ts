import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, type ServerFixture } from '../../helpers/server.ts';
import { userAuth, type TestUser } from '../../helpers/auth.ts';
import { setEnv } from '../../helpers/env.ts';
import { SEMRUSH, semrushApi } from './fakes.ts';
import { assertError, NS, type Obj } from './helpers.ts';

/**
 * Keyword research (keyword-tool/*) against a local stand-in of SEMrush's OAuth server and keyword
 * database: the code exchange, the country, related keyphrases cached per keyphrase and country
 * for a day (a second call does not reach the service), token refresh, and the service's failures.
 */

const answered: string[] = [];

async function call(site: ServerFixture, route: string, auth: string, json?: unknown): Promise<Response> {
  const res = await site.call(`${NS}/${route}`, { method: json === undefined ? 'GET' : 'POST', ...(json === undefined ? {} : { json }), auth });
  answered.push(`${res.status} ${await res.clone().text()}`);
  return res;
}

async function ok(res: Response): Promise<Obj> {
  const body = (await res.json()) as Obj;
  assert.equal(res.status, 200, JSON.stringify(body));
  return body;
}

describe('keyword-tool/*', () => {
  let semrush: ReturnType<typeof semrushApi>;
  let restore: () => void;
  let editor: TestUser;
  const site = useServer({}, async (s) => {
    semrush = await semrushApi().start();
    restore = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' });
    editor = await userAuth(s, 'contributor');
  });
  after(async () => {
    restore?.();
    await semrush?.close();
  });
  const related = (keyphrase: string, country = 'us') => call(site, `keyword-tool/related_keyphrases?keyphrase=${encodeURIComponent(keyphrase)}&country_code=${country}`, editor.auth);
  const configure = async () => {
    await site.app.store.options.set('seo_keyword_tool_base_url', semrush.url);
    await site.app.store.options.set('seo_keyword_tool_client_id', SEMRUSH.clientId);
    await site.app.store.options.set('seo_keyword_tool_client_secret', SEMRUSH.clientSecret);
  };

  test('not configured, then not connected: 400s that say what to do', async () => {
    const err = await assertError(await call(site, 'keyword-tool/authenticate', editor.auth, { code: SEMRUSH.code }), 400, 'wpseo_integration_not_configured');
    assert.deepEqual(err.data.settings, ['seo_keyword_tool_base_url', 'seo_keyword_tool_client_id', 'seo_keyword_tool_client_secret']);
    await assertError(await related('tea'), 400, 'wpseo_integration_not_configured');
    await configure();
    const notConnected = await assertError(await related('tea'), 400, 'wpseo_integration_not_connected');
    assert.match(notConnected.message, /keyword-tool\/authenticate/);
    assert.equal(semrush.seen.length, 0);
  });

  test('authenticate: a refused code is a 400 with the service’s reason; a good one stores tokens that are never shown', async () => {
    const refused = await assertError(await call(site, 'keyword-tool/authenticate', editor.auth, { code: 'stale-code-000' }), 400, 'wpseo_oauth_authentication_failed');
    assert.match(refused.message, /The authorization code is invalid or expired/);
    const done = await ok(await call(site, 'keyword-tool/authenticate', editor.auth, { code: SEMRUSH.code }));
    assert.equal(done.status, 200);
    assert.deepEqual(Object.keys(done.tokens), ['expires', 'has_expired', 'created_at']);
    assert.equal(done.tokens.has_expired, false);
    const exchange = new URLSearchParams(semrush.seen.at(-1)!.body);
    assert.deepEqual(Object.fromEntries(exchange), { grant_type: 'authorization_code', code: SEMRUSH.code, client_id: SEMRUSH.clientId, client_secret: SEMRUSH.clientSecret });
    const stored = (await site.app.store.options.get('seo_keyword_tool_tokens'))!;
    assert.match(stored, /^sealed:v1:/);
    for (const token of semrush.state.access) assert.ok(!stored.includes(token));
    await assertError(await call(site, 'keyword-tool/authenticate', editor.auth, { code: '' }), 400, 'rest_invalid_param');
    await assertError(await call(site, 'keyword-tool/authenticate', editor.auth, {}), 400, 'rest_missing_callback_param');
  });

  test('related keyphrases: the service’s data, kept per keyphrase and country for a day', async () => {
    const first = await ok(await related('Green  Tea'));
    assert.deepEqual(first, {
      results: {
        column_names: ['Ph', 'Nq', 'Td'],
        rows: [
          ['green tea recipe', '3000', '0.81,0.67,1.00'],
          ['green tea benefits', '2000', '0.81,0.67,1.00'],
          ['green tea types', '1000', '0.81,0.67,1.00'],
        ],
      },
      status: 200,
    });
    const asked = semrush.seen.at(-1)!;
    assert.equal(asked.path, '/api/v1/keywords/phrase_fullsearch');
    assert.deepEqual(Object.fromEntries([...asked.query].filter(([k]) => k !== 'access_token')), {
      phrase: 'green tea',
      database: 'us',
      export_columns: 'Ph,Nq,Td',
      display_limit: '10',
      display_offset: '0',
      display_sort: 'nq_desc',
      display_filter: '+|Nq|Lt|1000',
    });
    const hits = semrush.hits(/phrase_fullsearch/);
    assert.deepEqual(await ok(await related('green tea')), first, 'the same answer');
    assert.deepEqual(await ok(await related('GREEN TEA')), first);
    assert.equal(semrush.hits(/phrase_fullsearch/), hits, 'a second call does not reach the service');
    await ok(await related('green tea', 'de'));
    await ok(await related('black tea'));
    assert.equal(semrush.hits(/phrase_fullsearch/), hits + 2, 'another country or keyphrase is asked for');
  });

  test('an expired token is refreshed first; a refused one is refreshed and the request made once more', async () => {
    semrush.state.expiresIn = 0;
    await ok(await call(site, 'keyword-tool/authenticate', editor.auth, { code: SEMRUSH.code }));
    semrush.state.expiresIn = 3600;
    await ok(await related('oolong'));
    const grants = semrush.seen.filter((x) => x.path === '/oauth2/access_token').map((x) => new URLSearchParams(x.body).get('grant_type'));
    assert.equal(grants.at(-1), 'refresh_token');
    const refreshes = grants.filter((g) => g === 'refresh_token').length;

    semrush.state.access.clear();
    await ok(await related('matcha'));
    assert.equal(semrush.seen.filter((x) => x.path === '/oauth2/access_token').length, grants.length + 1);
    assert.equal(semrush.seen.filter((x) => new URLSearchParams(x.body).get('grant_type') === 'refresh_token').length, refreshes + 1);

    // a refresh token the service no longer takes ends the connection
    semrush.state.access.clear();
    semrush.state.refresh.clear();
    const gone = await assertError(await related('sencha'), 400, 'wpseo_integration_not_connected');
    assert.match(gone.message, /no longer accepts this site's authorization/);
    assert.equal(await site.app.store.options.get('seo_keyword_tool_tokens'), undefined);
    await ok(await call(site, 'keyword-tool/authenticate', editor.auth, { code: SEMRUSH.code }));
  });

  test('the service’s failures: 429 with Retry-After, a passing 500 retried once (a GET), a lasting one a 502', async () => {
    semrush.failNext(/phrase_fullsearch/, { status: 429, headers: { 'retry-after': '120' }, body: { error: 'too_many_requests', error_description: 'API units balance is zero' } });
    const limited = await related('rooibos');
    assert.equal(limited.headers.get('retry-after'), '120');
    const err = await assertError(limited, 429, 'wpseo_remote_rate_limited');
    assert.match(err.message, /API units balance is zero/);

    const before = semrush.hits(/phrase_fullsearch/);
    semrush.failNext(/phrase_fullsearch/, { status: 503, body: { error: 'unavailable' } });
    await ok(await related('rooibos'));
    assert.equal(semrush.hits(/phrase_fullsearch/), before + 2, 'asked again once');

    semrush.failNext(/phrase_fullsearch/, { status: 500, body: { error: 'server_error' } }, 2);
    const failed = await assertError(await related('chai'), 502, 'wpseo_remote_error');
    assert.equal(failed.data.provider_status, 500);
    assert.equal(semrush.hits(/phrase_fullsearch/), before + 4);

    semrush.failNext(/phrase_fullsearch/, { status: 403, body: { error: 'forbidden', error_description: 'Your plan does not include the keyword database' } });
    const forbidden = await assertError(await related('hojicha'), 400, 'wpseo_remote_forbidden');
    assert.match(forbidden.message, /keyword research service denied access .*Your plan does not include the keyword database/);

    semrush.failNext(/phrase_fullsearch/, { status: 200, body: '<html>maintenance</html>' });
    await assertError(await related('yerba'), 502, 'wpseo_remote_invalid_response');
  });

  test('country code: kept, checked; arguments checked before the service is asked', async () => {
    assert.deepEqual(await ok(await call(site, 'keyword-tool/country_code', editor.auth, { country_code: 'DE' })), { success: true, status: 200 });
    assert.equal(await site.app.store.options.get('seo_keyword_tool_country_code'), 'de');
    const hits = semrush.seen.length;
    await assertError(await call(site, 'keyword-tool/country_code', editor.auth, { country_code: 'germany' }), 400, 'rest_invalid_param');
    await assertError(await call(site, 'keyword-tool/country_code', editor.auth, {}), 400, 'rest_missing_callback_param');
    await assertError(await related('tea', 'zzz'), 400, 'rest_invalid_param');
    await assertError(await related(''), 400, 'rest_invalid_param');
    await assertError(await related('x'.repeat(300)), 400, 'rest_invalid_param');
    await assertError(await call(site, 'keyword-tool/related_keyphrases?keyphrase=tea', editor.auth), 400, 'rest_missing_callback_param');
    assert.equal(semrush.seen.length, hits);
  });

  test('switched off with integrations/set_active, its routes say so', async () => {
    await ok(await call(site, 'integrations/set_active', site.admin, { integration: 'keyword_tool', active: false }));
    await assertError(await related('tea'), 400, 'wpseo_integration_inactive');
    await assertError(await call(site, 'keyword-tool/country_code', editor.auth, { country_code: 'us' }), 400, 'wpseo_integration_inactive');
    await ok(await call(site, 'integrations/set_active', site.admin, { integration: 'keyword_tool', active: true }));
    await ok(await related('tea'));
  });

  test('no answer holds the client secret or a token', () => {
    assert.ok(answered.length > 20);
    const secrets = [SEMRUSH.clientSecret, ...semrush.state.issued];
    assert.ok(semrush.state.issued.length >= 8);
    assert.ok(!answered.some((a) => secrets.some((s) => a.includes(s))));
  });
});
