import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { useServer, type ServerFixture } from '../../helpers/server.ts';
import { userAuth, type TestUser } from '../../helpers/auth.ts';
import { setEnv } from '../../helpers/env.ts';
import { aiTokenService, CHAT_KEY, chatCompletionsApi, type FakeService } from './fakes.ts';
import { assertError, NS, type Obj } from './helpers.ts';

/**
 * AI suggestions (ai_generator/*, ai/free_sparks) against local stand-ins: an OpenAI-compatible
 * chat-completions API, and an AI service of Yoast's kind that hands tokens over through the
 * site's callbacks (the whole flow with a good and a bad challenge, an expired token refreshed, a
 * refused one renewed), consent, usage, the monthly limit, and the provider's failures as errors.
 */

const SUGGESTIONS = { type: 'seo-title', prompt_content: '<!-- wp:paragraph --><p>Green tea is <strong>brewed</strong> at 80 °C &amp; steeped briefly.</p><!-- /wp:paragraph -->', focus_keyphrase: 'green tea', language: 'en', platform: 'Google', editor: 'gutenberg' };

/** Every answer the site gave in this file, to be searched for secrets. */
const answered: string[] = [];

async function call(site: ServerFixture, route: string, auth: string, json?: unknown, method = 'POST'): Promise<Response> {
  const res = await site.call(`${NS}/${route}`, { method, ...(json === undefined ? {} : { json }), auth });
  answered.push(`${res.status} ${[...res.headers].join(' ')} ${await res.clone().text()}`);
  return res;
}

async function ok<T = Obj>(res: Response): Promise<T> {
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body as T;
}

describe('AI suggestions through an OpenAI-compatible chat-completions API', () => {
  let api: FakeService;
  let restore: () => void;
  let writer: TestUser;
  const site = useServer({}, async (s) => {
    api = await chatCompletionsApi().start();
    restore = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1', CMS_SPEC_OUTBOUND_TIMEOUT_MS: '1500' });
    writer = await userAuth(s, 'author');
  });
  after(async () => {
    restore?.();
    await api?.close();
  });
  const configure = async (values: Record<string, string>) => {
    for (const [k, v] of Object.entries(values)) await site.app.store.options.set(k, v);
  };

  test('not configured: a 400 naming the settings to set; consent is the user’s own and needs no service', async () => {
    const err = await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS), 400, 'wpseo_integration_not_configured');
    assert.deepEqual(err.data.settings, ['seo_ai_base_url', 'seo_ai_api_key']);
    assert.match(err.message, /seo_ai_base_url/);
    await assertError(await call(site, 'ai_generator/get_usage', writer.auth, {}), 400, 'wpseo_integration_not_configured');
    assert.equal(await ok(await call(site, 'ai_generator/consent', writer.auth, { consent: true })), 'Consent successfully given.');
    assert.equal(api.seen.length, 0);
  });

  test('suggestions: the prompt is built from the request, five titles come back, the usage is counted', async () => {
    await configure({ seo_ai_base_url: `${api.url}/v1`, seo_ai_api_key: CHAT_KEY, seo_ai_model: 'local-model-7b' });
    const list = await ok<string[]>(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS));
    assert.deepEqual(list, [1, 2, 3, 4, 5].map((i) => `Green tea guide, part ${i}`));

    const sent = api.seen.at(-1)!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.headers.authorization, `Bearer ${CHAT_KEY}`);
    const body = JSON.parse(sent.body);
    assert.equal(body.model, 'local-model-7b');
    const [system, user] = body.messages;
    assert.equal(system.role, 'system');
    assert.match(system.content, /5 different titles for a page of a website/);
    assert.match(system.content, /a Google search result/);
    assert.match(system.content, /at most 60 characters/);
    assert.match(system.content, /language with the code "en"/);
    assert.match(system.content, /focus keyphrase "green tea"/);
    assert.match(system.content, /JSON array of 5 strings/);
    assert.deepEqual(user, { role: 'user', content: 'Green tea is brewed at 80 °C & steeped briefly.' }, 'the text of the content, markup and block comments gone');

    const social = await ok<string[]>(await call(site, 'ai_generator/get_suggestions', writer.auth, { ...SUGGESTIONS, type: 'meta-description', platform: 'Facebook' }));
    assert.equal(social.length, 5);
    assert.match(JSON.parse(api.seen.at(-1)!.body).messages[0].content, /meta descriptions .* a Facebook link preview\. Each is at most 110 characters/);

    const usage = await ok(await call(site, 'ai_generator/get_usage', writer.auth, {}));
    assert.equal(usage.entity, 'content');
    assert.deepEqual(usage.totalUsed, { license: 2, limit: null });
    assert.deepEqual(usage.user, { requests: 2, tokens: 320 });
    assert.equal(usage.period, site.app.site.localDate().slice(0, 7));
    const products = await ok(await call(site, 'ai_generator/get_usage', writer.auth, { is_store_product_entity: true }));
    assert.deepEqual(products.totalUsed, { license: 0, limit: null });
  });

  test('the provider’s refusals and failures are clear errors: 401 (the key never repeated), 429 with Retry-After, 500, silence', async () => {
    const before = api.seen.length;
    api.failNext(/chat\/completions/, { status: 429, headers: { 'retry-after': '30' }, body: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } } });
    const limited = await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS);
    assert.equal(limited.headers.get('retry-after'), '30');
    const err429 = await assertError(limited, 429, 'wpseo_remote_rate_limited');
    assert.equal(err429.data.retry_after, 30);
    assert.match(err429.message, /AI suggestions service is limiting requests .*Rate limit reached for requests.*in 30 seconds/);

    api.failNext(/chat\/completions/, { status: 500, body: { error: { message: 'The server had an error while processing your request.' } } });
    const err500 = await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS), 502, 'wpseo_remote_error');
    assert.equal(err500.data.provider_status, 500);
    assert.equal(api.seen.length, before + 2, 'a POST is never sent twice');

    api.failNext(/chat\/completions/, { delayMs: 2500, body: {} });
    await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS), 504, 'wpseo_remote_timeout');

    api.failNext(/chat\/completions/, { body: { choices: [{ message: { content: '' } }] } });
    await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS), 502, 'wpseo_remote_invalid_response');

    await configure({ seo_ai_api_key: 'sk-wrong-key-0000000000' });
    const refused = await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS), 400, 'wpseo_remote_unauthorized');
    assert.match(refused.message, /Incorrect API key provided: \[redacted\]/, 'the provider repeated the key; the answer does not');
    await configure({ seo_ai_api_key: CHAT_KEY });
    const usage = await ok(await call(site, 'ai_generator/get_usage', writer.auth, {}));
    assert.equal(usage.totalUsed.license, 2, 'failed requests are not counted');
  });

  test('the monthly limit: a 429 once the site used it; store products are counted apart', async () => {
    await configure({ seo_ai_monthly_limit: '2' });
    const hits = api.seen.length;
    const err = await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS), 429, 'wpseo_ai_usage_limit_reached');
    assert.equal(err.data.limit, 2);
    assert.equal(api.seen.length, hits, 'the service is not asked');
    assert.equal((await ok<string[]>(await call(site, 'ai_generator/get_suggestions', writer.auth, { ...SUGGESTIONS, type: 'product-seo-title' }))).length, 5);
    const products = await ok(await call(site, 'ai_generator/get_usage', writer.auth, { is_store_product_entity: true }));
    assert.deepEqual(products.totalUsed, { license: 1, limit: 2 });
    assert.match(JSON.parse(api.seen.at(-1)!.body).messages[0].content, /a product page of an online store/);
    await configure({ seo_ai_monthly_limit: 'lots' });
    await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS), 400, 'wpseo_integration_misconfigured');
    await configure({ seo_ai_monthly_limit: '0' });
  });

  test('an answer in content parts, or in numbered lines instead of JSON, is read too', async () => {
    api.failNext(/chat\/completions/, { body: { choices: [{ message: { role: 'assistant', content: [{ type: 'text', text: '["Tea at home", ' }, { type: 'text', text: '"Tea, brewed"]' }] } }] } });
    assert.deepEqual(await ok(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS)), ['Tea at home', 'Tea, brewed']);
    api.failNext(/chat\/completions/, { body: { choices: [{ message: { role: 'assistant', content: '1. "Green tea, simply"\n2) Brew it well\n- Brew it well\n\n• Cooler water' } }] } });
    assert.deepEqual(await ok(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS)), ['Green tea, simply', 'Brew it well', 'Cooler water']);
  });

  test('free sparks start once, the subscription cache is busted, consent is per user and can be revoked', async () => {
    assert.equal(await ok(await call(site, 'ai/free_sparks', writer.auth)), 'Free sparks successfully started.');
    const started = (await ok(await call(site, 'ai_generator/get_usage', writer.auth, {}))).freeSparksStartedOn;
    assert.ok(Date.parse(started) > 0);
    await ok(await call(site, 'ai/free_sparks', writer.auth));
    assert.equal((await ok(await call(site, 'ai_generator/get_usage', writer.auth, {}))).freeSparksStartedOn, started, 'the first start counts');
    assert.equal(await ok(await call(site, 'ai_generator/bust_subscription_cache', writer.auth)), 'Subscription cache successfully busted.');

    const other = await userAuth(site, 'editor');
    await assertError(await call(site, 'ai_generator/get_suggestions', other.auth, SUGGESTIONS), 403, 'wpseo_ai_consent_required');
    assert.equal(await ok(await call(site, 'ai_generator/consent', writer.auth, { consent: false })), 'Consent successfully revoked.');
    await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, SUGGESTIONS), 403, 'wpseo_ai_consent_required');
  });

  test('arguments: as declared, and content with no text is refused before the service is asked', async () => {
    await ok(await call(site, 'ai_generator/consent', writer.auth, { consent: true }));
    const hits = api.seen.length;
    await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, { ...SUGGESTIONS, type: 'haiku' }), 400, 'rest_invalid_param');
    await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, { ...SUGGESTIONS, editor: 'notepad' }), 400, 'rest_invalid_param');
    await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, { type: 'seo-title' }), 400, 'rest_missing_callback_param');
    await assertError(await call(site, 'ai_generator/get_suggestions', writer.auth, { ...SUGGESTIONS, prompt_content: '<p> </p><!-- wp:spacer /-->' }), 400, 'rest_invalid_param');
    await assertError(await call(site, 'ai_generator/consent', writer.auth, {}), 400, 'rest_missing_callback_param');
    await assertError(await call(site, 'ai_generator/get_usage', writer.auth, { is_store_product_entity: 'maybe' }), 400, 'rest_invalid_param');
    assert.equal(api.seen.length, hits);
  });

  test('the API key is in no answer', () => {
    assert.ok(answered.length > 10);
    assert.ok(!answered.some((a) => a.includes(CHAT_KEY)));
  });
});

describe('AI suggestions through a service that calls back with tokens', () => {
  let ai: ReturnType<typeof aiTokenService>;
  let restore: () => void;
  const site = useServer({}, async (s) => {
    ai = await aiTokenService().start();
    restore = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1', CMS_SPEC_SECRET_KEY: 'a-server-secret-key-of-at-least-32-characters' });
    await s.app.store.options.set('seo_ai_protocol', 'token-callback');
    await s.app.store.options.set('seo_ai_base_url', ai.url);
  });
  after(async () => {
    restore?.();
    await ai?.close();
  });
  const writer = async () => {
    const user = await userAuth(site, 'author');
    await ok(await call(site, 'ai_generator/consent', user.auth, { consent: true }));
    return user;
  };
  const meta = (user: TestUser, key: string) => site.app.store.users.meta.get(user.userId, key);

  test('the whole flow: the site asks for tokens with the digest of its verifier, the service calls back, the tokens are kept sealed, suggestions come', async () => {
    const user = await writer();
    const list = await ok<string[]>(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS));
    assert.deepEqual(list, [1, 2, 3, 4, 5].map((i) => `seo-title about green tea #${i}`));

    const request = JSON.parse(ai.seen.find((x) => x.path === '/token/request')!.body);
    assert.equal(request.user_id, String(user.userId));
    assert.equal(request.callback_url, `${site.api}seo/v1/ai_generator/callback`);
    assert.equal(request.refresh_callback_url, `${site.api}seo/v1/ai_generator/refresh_callback`);
    assert.equal(request.license_site_url, site.home);
    assert.match(request.code_challenge, /^[0-9a-f]{64}$/);
    const [handedOver] = ai.state.callbacks;
    assert.equal(handedOver.status, 200);
    assert.equal(handedOver.body.message, 'Tokens successfully stored.');
    assert.equal(createHash('sha256').update(handedOver.body.code_verifier).digest('hex'), request.code_challenge);

    const suggestion = ai.seen.find((x) => x.path === '/openai/suggestions/seo-title')!;
    assert.equal(suggestion.headers['x-yst-cohort'], 'gutenberg');
    assert.deepEqual(JSON.parse(suggestion.body).subject, { content: SUGGESTIONS.prompt_content, focus_keyphrase: 'green tea', language: 'en', platform: 'Google' });
    const access = String(suggestion.headers.authorization).slice('Bearer '.length);
    const stored = (await meta(user, 'seo_ai_access_token'))!;
    assert.match(stored, /^sealed:v1:/);
    assert.ok(!stored.includes(access) && !stored.includes(access.split('.')[1]), 'the token is not stored in the clear');
    assert.equal(await meta(user, 'seo_ai_code_verifier'), undefined, 'the verifier is used up');

    // the tokens are reused, and the callback cannot be replayed
    await ok(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS));
    assert.equal(ai.hits(/^\/token\/request$/), 1);
    const replay = { access_jwt: 'a.b.c', refresh_jwt: 'd.e.f', code_challenge: createHash('sha256').update(handedOver.body.code_verifier).digest('hex'), user_id: user.userId };
    const replayed = await site.call(`${NS}/ai_generator/callback`, { json: replay });
    const body = await assertError(replayed, 401, 'wpseo_ai_unauthorized');
    assert.equal(body.message, 'Unauthorized.');
  });

  test('a bad challenge: the callback answers 401 "Unauthorized.", nothing is stored, the user gets a clear error', async () => {
    const user = await writer();
    ai.state.corruptChallenge = true;
    try {
      const err = await assertError(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS), 400, 'wpseo_remote_unauthorized');
      assert.match(err.message, /AI suggestions service .*HTTP 401.*The site could not be verified/);
    } finally {
      ai.state.corruptChallenge = false;
    }
    const refused = ai.state.callbacks.at(-1)!;
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, { code: 'wpseo_ai_unauthorized', message: 'Unauthorized.', data: { status: 401 } });
    assert.equal(await meta(user, 'seo_ai_access_token'), undefined);

    // the verifier still pending, a wrong challenge or another user changes nothing
    for (const attempt of [{ code_challenge: 'f'.repeat(64), user_id: user.userId }, { code_challenge: 'f'.repeat(64), user_id: 999_999 }]) {
      const res = await site.call(`${NS}/ai_generator/refresh_callback`, { json: { access_jwt: 'a.b.c', refresh_jwt: 'd.e.f', ...attempt } });
      await assertError(res, 401, 'wpseo_ai_unauthorized');
    }
    assert.equal(await meta(user, 'seo_ai_access_token'), undefined);
    await assertError(await site.call(`${NS}/ai_generator/callback`, { json: { access_jwt: 'a', refresh_jwt: 'r', code_challenge: 'c', user_id: 'me' } }), 400, 'rest_invalid_param');
  });

  test('an access token that expired is refreshed once, through refresh_callback', async () => {
    const user = await writer();
    ai.state.accessLifetime = -60;
    ai.state.acceptExpired = true;
    try {
      await ok(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS));
    } finally {
      ai.state.accessLifetime = 3600;
      ai.state.acceptExpired = false;
    }
    const requests = ai.hits(/^\/token\/request$/);
    const list = await ok<string[]>(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS));
    assert.equal(list.length, 5);
    assert.equal(ai.hits(/^\/token\/refresh$/), 1, 'refreshed once');
    assert.equal(ai.hits(/^\/token\/request$/), requests, 'not asked for anew');
    assert.equal(ai.state.callbacks.at(-1)!.status, 200);
    assert.equal(ai.state.callbacks.at(-1)!.body.message, 'Tokens successfully stored.');
  });

  test('a token the service refuses is renewed once; its revocation of consent is followed', async () => {
    const user = await writer();
    await ok(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS));
    const requests = ai.hits(/^\/token\/request$/);
    ai.state.valid.clear();
    await ok(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS));
    assert.equal(ai.hits(/^\/token\/request$/), requests + 1);

    ai.failNext(/^\/openai\/suggestions\//, { status: 403, body: { message: 'Forbidden', error_code: 'CONSENT_REVOKED' } });
    await assertError(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS), 403, 'wpseo_ai_consent_revoked');
    assert.equal(await meta(user, 'seo_ai_consent'), undefined);
    assert.equal(await meta(user, 'seo_ai_access_token'), undefined);
    await assertError(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS), 403, 'wpseo_ai_consent_required');
  });

  test('usage comes from the service and is kept until the subscription cache is busted; revoking consent invalidates the tokens there', async () => {
    const user = await writer();
    const month = site.app.site.localDate().slice(0, 7);
    assert.deepEqual(await ok(await call(site, 'ai_generator/get_usage', user.auth, {})), { period: month, totalUsed: { license: 12, limit: 100 } });
    await ok(await call(site, 'ai_generator/get_usage', user.auth, {}));
    assert.equal(ai.hits(/^\/usage\//), 1, 'kept');
    await ok(await call(site, 'ai_generator/bust_subscription_cache', user.auth));
    await ok(await call(site, 'ai_generator/get_usage', user.auth, {}));
    assert.equal(ai.hits(/^\/usage\//), 2);

    const access = String(ai.seen.filter((x) => x.path.startsWith('/usage/')).at(-1)!.headers.authorization).slice('Bearer '.length);
    assert.equal(await ok(await call(site, 'ai_generator/consent', user.auth, { consent: false })), 'Consent successfully revoked.');
    const invalidated = ai.seen.filter((x) => x.path === '/token/invalidate').at(-1)!;
    assert.equal(invalidated.headers.authorization, `Bearer ${access}`);
    assert.equal(await meta(user, 'seo_ai_access_token'), undefined);
  });

  test('tokens sealed under another server key do not open: the user is connected again', async () => {
    const user = await writer();
    await ok(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS));
    const requests = ai.hits(/^\/token\/request$/);
    const back = setEnv({ CMS_SPEC_SECRET_KEY: 'another-server-secret-key-of-32-or-more-chars' });
    try {
      await ok(await call(site, 'ai_generator/get_suggestions', user.auth, SUGGESTIONS));
    } finally {
      back();
    }
    assert.equal(ai.hits(/^\/token\/request$/), requests + 1);
  });
});
