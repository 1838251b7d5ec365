import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, useServer, type TestServer } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { NS, type Obj } from './helpers.ts';

/**
 * The seo/v1 route index, exactly as the interface gives it for each variant (routes in its
 * order, methods, args with types as written, enums, defaults, `required`), and every route's
 * permission.
 */

type Args = Record<string, Obj> | [];
interface Route {
  path: string;
  endpoints: { methods: string[]; args: Args }[];
  /** Variant A only (the interface's "A"). */
  aOnly?: boolean;
}

const str = (extra: Obj = {}) => ({ type: 'string', ...extra, required: false });
const req = (extra: Obj = {}) => ({ ...extra, required: true });
const opt = (extra: Obj = {}) => ({ ...extra, required: false });
const post = (args: Args = []) => [{ methods: ['POST'], args }];
const get = (args: Args = []) => [{ methods: ['GET'], args }];
const TOKENS = {
  access_jwt: req({ type: 'string' }),
  refresh_jwt: req({ type: 'string' }),
  code_challenge: req({ type: 'string', description: 'The SHA-256 digest of the code verifier.' }),
  user_id: req({ type: 'integer' }),
};
const SCORES = { contentType: req({ type: 'string' }), taxonomy: opt({ type: 'string', default: '' }), term: opt({ type: 'integer', default: null }), troubleshooting: opt({ type: 'bool', default: null }) };
const STAGES = ['install', 'activate', 'setup', 'grantConsent', 'successfullyConnected'];

/** The interface's seo/v1 table, in its order. */
const ROUTES: Route[] = [
  { path: '/file_size', endpoints: get({ url: req({ type: 'string' }) }) },
  { path: '/statistics', endpoints: get() },
  { path: '/ai_generator/callback', endpoints: post(TOKENS), aOnly: true },
  { path: '/ai_generator/refresh_callback', endpoints: post(TOKENS), aOnly: true },
  { path: '/ai_generator/consent', endpoints: post({ consent: req({ type: 'boolean' }) }), aOnly: true },
  { path: '/ai/free_sparks', endpoints: post(), aOnly: true },
  { path: '/ai_generator/bust_subscription_cache', endpoints: post(), aOnly: true },
  {
    path: '/ai_generator/get_suggestions',
    endpoints: post({
      type: req({ type: 'string', enum: ['seo-title', 'meta-description', 'product-seo-title', 'product-meta-description', 'product-taxonomy-seo-title', 'product-taxonomy-meta-description', 'taxonomy-seo-title', 'taxonomy-meta-description'] }),
      prompt_content: req({ type: 'string' }),
      focus_keyphrase: req({ type: 'string' }),
      language: req({ type: 'string' }),
      platform: req({ type: 'string', enum: ['Google', 'Facebook', 'Twitter'] }),
      editor: req({ type: 'string', enum: ['classic', 'elementor', 'gutenberg'] }),
    }),
    aOnly: true,
  },
  { path: '/ai_generator/get_usage', endpoints: post({ is_store_product_entity: opt({ type: 'boolean', default: false }) }), aOnly: true },
  { path: '/new-content-type-visibility/dismiss-post-type', endpoints: post({ postTypeName: opt() }) },
  { path: '/new-content-type-visibility/dismiss-taxonomy', endpoints: post({ taxonomyName: opt() }) },
  { path: '/analytics_connector_configuration_permanent_dismissal', endpoints: post({ is_dismissed: req({ type: 'bool' }) }), aOnly: true },
  { path: '/analytics_connector_manage_consent', endpoints: post({ consent: req({ type: 'bool' }) }), aOnly: true },
  { path: '/readability_scores', endpoints: get(SCORES), aOnly: true },
  { path: '/seo_scores', endpoints: get(SCORES), aOnly: true },
  { path: '/time_based_seo_metrics', endpoints: get({ limit: opt({ type: 'int', default: 5 }), options: req({ type: 'object', properties: { widget: { type: 'string', required: true } } }) }), aOnly: true },
  {
    path: '/setup_steps_tracking',
    endpoints: post({
      setup_widget_loaded: str({ enum: ['yes', 'no'] }),
      first_interaction_stage: str({ enum: STAGES }),
      last_interaction_stage: str({ enum: STAGES }),
      setup_widget_temporarily_dismissed: str({ enum: ['yes', 'no'] }),
      setup_widget_permanently_dismissed: str({ enum: ['yes', 'no'] }),
    }),
    aOnly: true,
  },
  { path: '/introductions/(?P<introduction_id>[\\w-]+)/seen', endpoints: post({ introduction_id: req({ type: 'string' }), is_seen: opt({ type: 'bool', default: true }) }) },
  { path: '/video_embed_permission', endpoints: [...get(), ...post({ value: opt({ type: 'bool', default: true }) })] },
  { path: '/available_posts', endpoints: get({ search: str({ default: '' }), postType: str({ default: 'page' }) }), aOnly: true },
  { path: '/alerts/dismiss', endpoints: post({ key: req() }) },
  {
    path: '/configuration/site_representation',
    endpoints: post({
      company_or_person: req({ type: 'string', enum: ['company', 'person'] }),
      company_name: str(),
      company_logo: str(),
      company_logo_id: opt({ type: 'integer' }),
      person_logo: str(),
      person_logo_id: opt({ type: 'integer' }),
      company_or_person_user_id: opt({ type: 'integer' }),
      description: str(),
    }),
  },
  { path: '/configuration/social_profiles', endpoints: post({ social_site_a: str(), social_site_b: str(), other_social_urls: opt({ type: 'array' }) }) },
  { path: '/configuration/check_capability', endpoints: get({ user_id: req() }) },
  { path: '/configuration/enable_tracking', endpoints: post({ tracking: req({ type: 'boolean' }) }) },
  { path: '/configuration/save_configuration_state', endpoints: post({ finishedSteps: req({ type: 'array' }) }) },
  { path: '/configuration/get_configuration_state', endpoints: get() },
  { path: '/import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)', endpoints: post() },
  { path: '/get_head', endpoints: get({ url: req() }) },
  ...['posts', 'terms', 'post-type-archives', 'general', 'prepare', 'indexables-complete', 'complete'].map((r) => ({ path: `/indexing/${r}`, endpoints: post() })),
  ...['posts', 'terms'].map((r) => ({ path: `/link-indexing/${r}`, endpoints: post() })),
  { path: '/integrations/set_active', endpoints: post({ active: req({ type: 'boolean' }), integration: req({ type: 'string' }) }) },
  { path: '/meta/search', endpoints: get() },
  { path: '/keyword-tool/authenticate', endpoints: post({ code: req() }) },
  { path: '/keyword-tool/country_code', endpoints: post({ country_code: req() }) },
  { path: '/keyword-tool/related_keyphrases', endpoints: get({ keyphrase: req(), country_code: req() }) },
  { path: '/rank-tracker/authorization-url', endpoints: get() },
  { path: '/rank-tracker/authenticate', endpoints: post({ code: req(), websiteId: req() }) },
  { path: '/rank-tracker/keyphrases/track', endpoints: post({ keyphrases: req() }) },
  { path: '/rank-tracker/keyphrases', endpoints: post({ keyphrases: opt(), permalink: opt(), startAt: opt() }) },
  { path: '/rank-tracker/keyphrases/untrack', endpoints: [{ methods: ['DELETE'], args: [] }] },
  { path: '/rank-tracker/account/limit', endpoints: get() },
  { path: '/rank-tracker/account/upgrade-campaign', endpoints: get() },
  { path: '/workouts', endpoints: [...get(), ...post()] },
  { path: '/complete_task', endpoints: post({ options: req({ type: 'object', properties: { task: { type: 'string', required: true } } }) }), aOnly: true },
  { path: '/get_tasks', endpoints: get({ options: opt({ type: 'object', properties: { filter: { type: 'string' }, limit: { type: 'int' } } }) }), aOnly: true },
  { path: '/action_tracking', endpoints: post({ action: req({ type: 'string' }) }), aOnly: true },
];

async function assertIndex(server: TestServer, variant: 'A' | 'B') {
  const expected = ROUTES.filter((r) => variant === 'A' || !r.aOnly);
  const root = (await (await server.call('')).json()) as Obj;
  assert.ok(root.namespaces.includes(NS));
  const own = (await (await server.call(NS)).json()) as Obj;
  assert.equal(own.namespace, NS);
  for (const [where, routes] of [['root index', root.routes], ['namespace index', own.routes]] as const) {
    const keys = Object.keys(routes).filter((k) => k.startsWith(`/${NS}`));
    assert.deepEqual(keys, [`/${NS}`, ...expected.map((r) => `/${NS}${r.path}`)], `${where}, variant ${variant}: the routes in the interface's order`);
    for (const r of expected) {
      const d = routes[`/${NS}${r.path}`];
      assert.equal(d.namespace, NS);
      assert.deepEqual(d.methods, r.endpoints.flatMap((e) => e.methods), r.path);
      assert.deepEqual(d.endpoints.map((e: Obj) => ({ methods: e.methods, args: e.args })), r.endpoints, `${where}, variant ${variant}: ${r.path}`);
      assert.equal(d._links === undefined, r.path.includes('(?P<'), `${r.path}: a self link unless the path has a variable`);
    }
  }
}

describe('seo/v1 route index', () => {
  test('Variant A lists every route of the interface, exactly', async () => {
    const a = await startTestServer({ variant: 'A' });
    try {
      await assertIndex(a, 'A');
    } finally {
      await a.close();
    }
  });

  test('Variant B lists the routes marked B only; the others answer rest_no_route', async () => {
    const b = await startTestServer({ variant: 'B' });
    try {
      await assertIndex(b, 'B');
      const res = await b.call(`${NS}/seo_scores?contentType=post`);
      assert.equal(res.status, 404);
      assert.equal(((await res.json()) as Obj).code, 'rest_no_route');
    } finally {
      await b.close();
    }
  });
});

describe('seo/v1 permissions', () => {
  const site = useServer();
  const head = encodeURIComponent('http://example.com/');
  const TOKEN_BODY = { access_jwt: 'a', refresh_jwt: 'r', code_challenge: 'c', user_id: 1 };
  const SUGGESTIONS = { type: 'seo-title', prompt_content: 'text', focus_keyphrase: 'tea', language: 'en', platform: 'Google', editor: 'classic' };
  /** [method, route with a valid query, valid body, a role lacking the capability (null: only anonymous callers lack it), a role having it]. */
  const CASES: [string, string, Obj | undefined, string | null, string][] = [
    ['GET', `file_size?url=${head}`, undefined, 'editor', 'administrator'],
    ['GET', 'statistics', undefined, null, 'subscriber'],
    ['POST', 'ai_generator/consent', { consent: true }, 'subscriber', 'contributor'],
    ['POST', 'ai/free_sparks', {}, 'subscriber', 'contributor'],
    ['POST', 'ai_generator/bust_subscription_cache', {}, 'subscriber', 'contributor'],
    ['POST', 'ai_generator/get_suggestions', SUGGESTIONS, 'subscriber', 'contributor'],
    ['POST', 'ai_generator/get_usage', {}, 'subscriber', 'contributor'],
    ['POST', 'new-content-type-visibility/dismiss-post-type', {}, 'subscriber', 'contributor'],
    ['POST', 'new-content-type-visibility/dismiss-taxonomy', {}, 'subscriber', 'contributor'],
    ['POST', 'analytics_connector_configuration_permanent_dismissal', { is_dismissed: true }, 'editor', 'administrator'],
    ['POST', 'analytics_connector_manage_consent', { consent: true }, 'editor', 'administrator'],
    ['GET', 'readability_scores?contentType=post', undefined, 'editor', 'administrator'],
    ['GET', 'seo_scores?contentType=post', undefined, 'editor', 'administrator'],
    ['GET', 'time_based_seo_metrics?options[widget]=page', undefined, 'editor', 'administrator'],
    ['POST', 'setup_steps_tracking', { setup_widget_loaded: 'yes' }, 'editor', 'administrator'],
    ['POST', 'introductions/google-docs-addon/seen', {}, 'subscriber', 'contributor'],
    ['GET', 'video_embed_permission', undefined, 'subscriber', 'contributor'],
    ['POST', 'video_embed_permission', { value: true }, 'subscriber', 'contributor'],
    ['GET', 'available_posts', undefined, 'editor', 'administrator'],
    ['POST', 'alerts/dismiss', { key: 'indexing-notification' }, 'subscriber', 'contributor'],
    ['POST', 'configuration/site_representation', { company_or_person: 'company' }, 'editor', 'administrator'],
    ['POST', 'configuration/social_profiles', {}, 'editor', 'administrator'],
    ['GET', 'configuration/check_capability?user_id=1', undefined, 'editor', 'administrator'],
    ['POST', 'configuration/enable_tracking', { tracking: false }, 'editor', 'administrator'],
    ['POST', 'configuration/save_configuration_state', { finishedSteps: [] }, 'editor', 'administrator'],
    ['GET', 'configuration/get_configuration_state', undefined, 'editor', 'administrator'],
    ['POST', 'import/rank-math/posts', {}, 'editor', 'administrator'],
    ...['posts', 'terms', 'post-type-archives', 'general', 'prepare', 'indexables-complete', 'complete'].map((r): [string, string, Obj, string, string] => ['POST', `indexing/${r}`, {}, 'subscriber', 'contributor']),
    ...['posts', 'terms'].map((r): [string, string, Obj, string, string] => ['POST', `link-indexing/${r}`, {}, 'subscriber', 'contributor']),
    ['POST', 'integrations/set_active', { integration: 'keyword_tool', active: true }, 'editor', 'administrator'],
    ['GET', 'meta/search?post_id=1', undefined, 'subscriber', 'administrator'],
    ['POST', 'keyword-tool/authenticate', { code: 'c' }, 'subscriber', 'contributor'],
    ['POST', 'keyword-tool/country_code', { country_code: 'us' }, 'subscriber', 'contributor'],
    ['GET', 'keyword-tool/related_keyphrases?keyphrase=tea&country_code=us', undefined, 'subscriber', 'contributor'],
    ['GET', 'rank-tracker/authorization-url', undefined, 'contributor', 'author'],
    ['POST', 'rank-tracker/authenticate', { code: 'c', websiteId: 1 }, 'contributor', 'author'],
    ['POST', 'rank-tracker/keyphrases/track', { keyphrases: ['tea'] }, 'contributor', 'author'],
    ['POST', 'rank-tracker/keyphrases', {}, 'contributor', 'author'],
    ['DELETE', 'rank-tracker/keyphrases/untrack', undefined, 'contributor', 'author'],
    ['GET', 'rank-tracker/account/limit', undefined, 'contributor', 'author'],
    ['GET', 'rank-tracker/account/upgrade-campaign', undefined, 'contributor', 'author'],
    ['GET', 'workouts', undefined, 'author', 'editor'],
    ['POST', 'workouts', { configuration: { finishedSteps: [] } }, 'author', 'editor'],
    ['POST', 'complete_task', { options: { task: 'add-social-profiles' } }, 'editor', 'administrator'],
    ['GET', 'get_tasks', undefined, 'editor', 'administrator'],
    ['POST', 'action_tracking', { action: 'dashboard_visited' }, 'editor', 'administrator'],
  ];

  test('every route but the public ones answers 401 to anonymous callers, 403 (rest_forbidden) to a role without its capability, and serves one with it', async () => {
    const auth: Record<string, string> = { administrator: site.admin };
    for (const role of ['subscriber', 'contributor', 'author', 'editor']) auth[role] = (await userAuth(site, role)).auth;
    const call = (method: string, route: string, body: Obj | undefined, as?: string) => site.call(`${NS}/${route}`, { method, ...(body ? { json: body } : {}), ...(as ? { auth: auth[as] } : {}) });
    for (const [method, route, body, lacking, having] of CASES) {
      const anonymous = await call(method, route, body);
      assert.equal(anonymous.status, 401, `${method} ${route} anonymous`);
      assert.equal(((await anonymous.json()) as Obj).code, 'rest_forbidden');
      if (lacking) {
        const refused = await call(method, route, body, lacking);
        assert.equal(refused.status, 403, `${method} ${route} as ${lacking}`);
        assert.equal(((await refused.json()) as Obj).code, 'rest_forbidden');
      }
      const served = await call(method, route, body, having);
      assert.ok(![401, 403].includes(served.status), `${method} ${route} as ${having}: ${served.status} ${await served.text()}`);
    }
    assert.deepEqual(
      new Set(CASES.map(([m, r]) => `${m} ${r.split('?')[0].replace('google-docs-addon', '{id}').replace('rank-math/posts', '{plugin}/{type}')}`)).size,
      ROUTES.reduce((n, r) => n + r.endpoints.length, 0) - 3,
      'every endpoint but the three public ones (get_head, the two AI callbacks) is covered',
    );
  });

  test('get_head and the AI callbacks are public (a callback without a pending verification is the plugin’s own 401)', async () => {
    assert.equal((await site.call(`${NS}/get_head?url=${head}`)).status, 404, 'a URL of another host has the 404 head, for anyone');
    for (const route of ['ai_generator/callback', 'ai_generator/refresh_callback']) {
      const res = await site.call(`${NS}/${route}`, { method: 'POST', json: TOKEN_BODY });
      assert.equal(res.status, 401);
      assert.deepEqual(await res.json(), { code: 'wpseo_ai_unauthorized', message: 'Unauthorized.', data: { status: 401 } });
    }
  });
});
