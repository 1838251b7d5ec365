import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, type ServerFixture } from '../../helpers/server.ts';
import { userAuth, type TestUser } from '../../helpers/auth.ts';
import { assertNamespace, type Arg } from '../../helpers/route-index.ts';
import { setEnv } from '../../helpers/env.ts';
import { until } from '../../helpers/until.ts';
import { KadenceServices } from './fakes.ts';
import { designLibrary } from '../../../src/plugins/design-library/plugin.ts';

const LICENSE = 'LICENSE-KEY-123';
const PROFILE = { companyName: 'Acme Dental', industry: 'Dentist', location: 'Lisbon', missionStatement: 'Healthy smiles', tone: 'friendly', keywords: 'dentist, teeth', lang: 'en' };

/** Set DL as the interface gives it. */
const SET_DL: Arg[] = [
  ['context', 'string'],
  ['page', 'integer', 1, { minimum: 1 }],
  ['per_page', 'integer', 10, { minimum: 1, maximum: 100 }],
  ['search', 'string'],
  ['library', 'string'],
  ['library_url', 'string'],
  ['force_reload', 'boolean', false],
  ['key', 'string'],
  ['api_key', 'string'],
  ['api_email', 'string'],
  ['product_id', 'string'],
  ['pattern_type', 'string'],
  ['pattern_style', 'string'],
  ['pattern_id', 'string'],
  ['industry', 'string'],
  ['image_type', 'string'],
  ['industries', 'array'],
  ['image_sizes', 'array'],
  ['meta', 'string'],
];

/** The routes of both variants, in registration order, with their methods; then Variant A's own. */
const BOTH: [string, string][] = [
  ['get', 'GET'],
  ['get_all_items', 'GET'],
  ['get-all-ai', 'GET'],
  ['get_remaining_jobs', 'GET'],
  ['get_library', 'GET'],
  ['get_library_categories', 'GET'],
  ['get_connection', 'GET'],
  ['get_local_contexts', 'GET'],
  ['get_verticals', 'GET'],
  ['get_keywords', 'POST'],
  ['get_initial_jobs', 'GET'],
  ['get_search_query', 'POST'],
  ['get_images', 'GET'],
  ['get_image_collections', 'GET'],
];
const A_ONLY: [string, string][] = [
  ['get_pattern_content', 'GET'],
  ['process_pattern', 'POST'],
  ['process_images', 'POST'],
  ['get_remaining_credits', 'GET'],
  ['reset', 'GET'],
  ['handle_event', 'POST'],
];

/** Compares the namespace in the index with the interface's routes (each taking set DL; handle_event its own two args). */
function assertIndex(site: ServerFixture, routes: [string, string][]) {
  const args = Object.fromEntries(routes.map(([path]) => [`/${path}`, path === 'handle_event' ? ([['event_label', 'string'], ['event_data', 'object']] as Arg[]) : SET_DL]));
  return assertNamespace(site, 'kb-design-library/v1', args, Object.fromEntries(routes.map(([path, method]) => [`/${path}`, method])));
}

async function configure(s: ServerFixture, services: KadenceServices) {
  const o = s.app.store.options;
  await o.set('design_library_patterns_url', `${services.base}/patterns/`);
  await o.set('design_library_ai_url', `${services.base}/ai/`);
  await o.set('design_library_credits_url', `${services.base}/credits/`);
  await o.set('design_library_license_key', LICENSE);
  await o.set('design_library_license_email', 'owner@example.com');
  await o.set('design_library_profile', JSON.stringify(PROFILE));
}

/** Lets the server call the local stand-ins (loopback is refused by default) for the suite's lifetime. */
function useOutboundAllow() {
  let restore = () => {};
  before(() => (restore = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' })));
  after(() => restore());
}

describe('kb-design-library/v1 (Variant A)', () => {
  const services = new KadenceServices();
  useOutboundAllow();
  const site = useServer({}, async (s) => {
    await services.start();
    await configure(s, services);
  });
  after(() => services.close());
  let editor: TestUser;
  let author: TestUser;
  let contributor: TestUser;
  let subscriber: TestUser;
  before(async () => {
    editor = await userAuth(site, 'editor');
    author = await userAuth(site, 'author');
    contributor = await userAuth(site, 'contributor');
    subscriber = await userAuth(site, 'subscriber');
  });
  const get = async (path: string, who: TestUser = editor) => {
    const res = await site.call(`kb-design-library/v1/${path}`, { auth: who.auth });
    return { status: res.status, body: await res.json() };
  };
  const post = async (path: string, json: unknown, who: TestUser = editor) => {
    const res = await site.call(`kb-design-library/v1/${path}`, { method: 'POST', json, auth: who.auth });
    return { status: res.status, body: await res.json() };
  };

  it('is in the index exactly as the interface lists it', async () => {
    await assertIndex(site, [...BOTH, ...A_ONLY]);
  });

  it('needs edit_posts: anonymous 401, a subscriber 403; importing needs upload_files', async () => {
    const anonymous = await site.call('kb-design-library/v1/get_library');
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).code, 'rest_forbidden');
    assert.equal((await get('get_library', subscriber)).status, 403);
    const refused = await post('process_pattern', { content: '<p>x</p>' }, contributor);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'rest_forbidden');
    assert.equal((await get('get_verticals', contributor)).status, 200, 'a contributor can edit posts, so may browse');
  });

  it('fetches the pattern catalogue with the license, keeps it, and asks again with force_reload', async () => {
    const first = await get('get_library?library=section&key=section');
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body), ['hero-1']);
    const asked = services.last('/patterns/get/')!;
    assert.equal(asked.query.get('api_key'), LICENSE);
    assert.equal(asked.query.get('api_email'), 'owner@example.com');
    assert.equal(asked.query.get('site'), new URL(site.home).host);
    const again = await get('get_library?library=section&key=section');
    assert.deepEqual(again.body, first.body);
    assert.equal(services.hits('/patterns/get/'), 1, 'the second answer came from the store');
    await get('get_library?library=section&key=section&force_reload=true');
    assert.equal(services.hits('/patterns/get/'), 2);
    // the pages catalogue is its own question, with Kadence's key for it
    const pages = await get('get_library?library=pages');
    assert.deepEqual(Object.keys(pages.body), ['home-1']);
    assert.equal(services.last('/patterns/pages/')!.query.get('key'), 'new-pages');
    const categories = await get('get_library_categories?library=section');
    assert.deepEqual(categories.body, { hero: 'Hero', team: 'Team' });
    assert.deepEqual((await get('get_library_categories?library=pages')).body, { home: 'Home' });
  });

  it('answers a library that fails or answers garbage with a WordPress error naming it, never a 500', async () => {
    await site.app.store.options.set('design_library_patterns_url', `${services.base}/patterns/broken/`);
    try {
      const broken = await get('get_library?library=section&force_reload=true');
      assert.equal(broken.status, 502);
      assert.equal(broken.body.code, 'kb_design_library_invalid_response');
      assert.equal(broken.body.data.service, 'library');
      await site.app.store.options.set('design_library_patterns_url', `${services.base}/nowhere/`);
      const missing = await get('get_library?library=other&force_reload=true');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'kb_design_library_not_found');
    } finally {
      await site.app.store.options.set('design_library_patterns_url', `${services.base}/patterns/`);
    }
  });

  it('connects a custom Kadence Cloud library and serves its catalogue and patterns', async () => {
    const url = `${services.base}/custom`;
    const refused = await get(`get_connection?library_url=${encodeURIComponent(url)}&key=WRONG`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'kb_design_library_connection_refused');
    const missing = await get(`get_connection?library_url=${encodeURIComponent(url)}`);
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body.data.params, ['key']);
    const connected = await get(`get_connection?library_url=${encodeURIComponent(url)}&key=CLOUD-KEY`);
    assert.equal(connected.status, 200);
    assert.deepEqual(connected.body, { name: 'Acme Cloud', slug: 'acme-cloud', refresh: 'day', expires: '2027-01-01 00:00:00', pages: 'true' });
    const items = await get(`get_library?library=acme-cloud&library_url=${encodeURIComponent(url)}&key=CLOUD-KEY`);
    assert.deepEqual(Object.keys(items.body), ['acme-cta']);
    const asked = services.last('/custom/wp-json/kadence-cloud/v1/get/')!;
    assert.equal(asked.query.get('api_key'), null, 'a custom library is not sent the Kadence license');
    const pages = await get(`get_library?library=acme-cloud&library_url=${encodeURIComponent(url)}&key=CLOUD-KEY&meta=pages`);
    assert.deepEqual(Object.keys(pages.body), ['acme-home']);
    const page = await get(`get_pattern_content?library=acme-cloud&library_url=${encodeURIComponent(url)}&key=CLOUD-KEY&pattern_type=page&pattern_id=acme-home`);
    assert.deepEqual(page.body, { id: 'acme-home', content: '<p>Acme page</p>' });
  });

  it('refuses a library URL on a private address, and one that is not a URL', async () => {
    for (const url of ['http://10.1.2.3', 'http://192.168.0.10:8080/cloud', 'http://[::1]/']) {
      const res = await get(`get_connection?library_url=${encodeURIComponent(url)}&key=CLOUD-KEY`);
      assert.equal(res.status, 400, url);
      assert.equal(res.body.code, 'kb_design_library_forbidden_address', url);
      const items = await get(`get_library?library=x&library_url=${encodeURIComponent(url)}&key=k`);
      assert.equal(items.body.code, 'kb_design_library_forbidden_address', url);
    }
    const bad = await get('get_library?library_url=not%20a%20url');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'kb_design_library_invalid_library_url');
  });

  it('gets one pattern with its style, and says what is missing', async () => {
    const one = await get('get_pattern_content?library=section&pattern_id=hero-1&pattern_style=dark');
    assert.equal(one.status, 200);
    assert.match(one.body.content, /Pattern hero-1 \(dark\)/);
    assert.equal(services.last('/patterns/single/')!.query.get('data'), 'true');
    const missing = await get('get_pattern_content?library=section');
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body.data.params, ['pattern_id']);
    const gone = await get('get_pattern_content?library=section&pattern_id=missing');
    assert.equal(gone.status, 404);
  });

  it('imports an image whose URL has malformed percent-encoding (a 500 once), its name as written', async () => {
    const photo = `${services.base}/img/%E0%A4%A.jpg`;
    const res = await post('process_pattern', { content: `<!-- wp:image --><figure class="wp-block-image"><img src="${photo}" alt=""/></figure><!-- /wp:image -->` }, author);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.images.length, 1);
    const [image] = res.body.images;
    assert.ok(image.id > 0, JSON.stringify(image));
    assert.ok(res.body.content.includes(`src="${image.to}"`), res.body.content);
    assert.ok(!res.body.content.includes('%E0%A4%A'), 'no reference to the remote photo is left');
  });

  it('imports a pattern’s images into the media library and rewrites the markup to them, once per image', async () => {
    const photo = `${services.base}/img/team-photo.jpg`;
    const escaped = photo.replace(/\//g, '\\/');
    const content =
      `<!-- wp:kadence/image {"id":991,"uniqueID":"abc","globalAlt":true} --><figure class="wp-block-kadence-image"><img src="${photo}" alt="" class="kb-img wp-image-991"/></figure><!-- /wp:kadence/image -->` +
      `<!-- wp:kadence/rowlayout {"bgImg":"${escaped}"} --><div style="background-image:url(${photo})"></div><!-- /wp:kadence/rowlayout -->`;
    const before = services.hits('/img/team-photo.jpg');
    const res = await post('process_pattern', { content, image_library: [] }, author);
    assert.equal(res.status, 200);
    assert.equal(res.body.images.length, 1);
    const [image] = res.body.images;
    assert.ok(image.id > 0);
    assert.doesNotMatch(res.body.content, /\/img\/team-photo\.jpg/, 'no reference to the remote photo is left');
    assert.ok(res.body.content.includes(`src="${image.to}"`));
    assert.ok(res.body.content.includes(image.to.replace(/\//g, '\\/')), 'the escaped reference in block JSON is rewritten');
    assert.match(res.body.content, new RegExp(`"id":${image.id},`));
    assert.match(res.body.content, new RegExp(`wp-image-${image.id}"`));
    const media = await (await site.call(`cms/v2/media/${image.id}`, { auth: author.auth })).json();
    assert.equal(media.source_url, image.to);
    assert.equal(media.mime_type, 'image/jpeg');
    // the same pattern again: the image is the one imported before
    const again = await post('process_pattern', { content, image_library: [] }, author);
    assert.equal(again.body.images[0].id, image.id);
    assert.equal(services.hits('/img/team-photo.jpg') - before, 1, 'downloaded once');
    const empty = await post('process_pattern', { content: '' }, author);
    assert.equal(empty.status, 400);
    assert.equal(empty.body.code, 'kb_design_library_no_content');
  });

  it('imports chosen stock photos (process_images) as the image picker does', async () => {
    const res = await post('process_images', { images: [{ id: 77, alt: 'Dentist chair', url: `${services.base}/img/77.jpg`, photographer: 'Jo', sizes: [{ name: 'large', src: `${services.base}/img/77.jpg` }] }] }, author);
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 1);
    assert.ok(res.body[0].id > 0);
    const bad = await post('process_images', { images: 'no' }, author);
    assert.equal(bad.status, 400);
  });

  it('refuses AI content without a license key or a business profile, clearly', async () => {
    const o = site.app.store.options;
    await o.set('design_library_license_key', '');
    try {
      const res = await get('get?context=about');
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'kb_design_library_not_licensed');
      assert.equal((await get('get_remaining_credits')).body.code, 'kb_design_library_not_licensed');
    } finally {
      await o.set('design_library_license_key', LICENSE);
    }
    await o.set('design_library_profile', '');
    try {
      const res = await get('get_initial_jobs');
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'kb_design_library_no_profile');
    } finally {
      await o.set('design_library_profile', JSON.stringify(PROFILE));
    }
    const unknown = await get('get?context=karaoke');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'kb_design_library_unknown_context');
    assert.equal((await get('get')).body.code, 'kb_design_library_missing_params');
  });

  it('runs an AI content job from start through processing to its content', async () => {
    // get_all_items polls once, then get once: both answered 409
    services.pollsBeforeDone = 2;
    const started = await get('get?context=about');
    assert.equal(started.status, 200);
    assert.equal(started.body.state, 'processing');
    assert.equal(started.body.context, 'about');
    const create = services.last('/ai/content/create')!;
    assert.deepEqual(create.body.prompts, ['about', 'about-hero', 'about-columns', 'about-list', 'about-videos']);
    assert.equal(create.body.company, 'Acme Dental');
    assert.equal(create.body.industry, 'Dentist');
    const token = JSON.parse(Buffer.from(String(create.headers['x-prophecy-token']), 'base64').toString());
    assert.equal(token.key, LICENSE);
    assert.equal(token.domain, new URL(site.home).host);
    assert.deepEqual(await getJson('get_local_contexts'), ['about']);
    assert.deepEqual(await getJson('get_all_items'), {}, 'nothing is ready yet');
    const processing = await get('get?context=about');
    assert.equal(processing.body.state, 'processing', 'the service answered 409');
    const ready = await get('get?context=about');
    assert.equal(ready.body.state, 'ready');
    assert.deepEqual(ready.body.content, { about: [{ title: 'Written for about', text: 'Lorem for Acme Dental' }] });
    const polls = services.hits(`/ai/content/job/${ready.body.job_id}`);
    assert.deepEqual((await get('get?context=about')).body, ready.body);
    assert.equal(services.hits(`/ai/content/job/${ready.body.job_id}`), polls, 'finished content is served from the store');
    assert.deepEqual(await getJson('get_all_items'), { about: ready.body.content });
    const all = await getJson('get-all-ai');
    assert.equal(all.ready, true);
    assert.equal(all.contexts.about.state, 'ready');
    // the secret never comes back out
    assert.doesNotMatch(JSON.stringify(ready.body), new RegExp(LICENSE));
  });

  async function getJson(path: string) {
    return (await get(path)).body;
  }

  it('starts the wizard’s jobs, reports the remaining ones, and says when the credits are gone', async () => {
    services.pollsBeforeDone = 5;
    const initial = await get('get_initial_jobs');
    assert.equal(initial.status, 200);
    assert.equal(initial.body.started.length, 20);
    assert.ok(initial.body.started.includes('about') && initial.body.started.includes('work'));
    assert.deepEqual(initial.body.failed, []);
    const progress = await getJson('get-all-ai?force_reload=true');
    assert.equal(progress.ready, false);
    assert.equal(Object.keys(progress.contexts).length, 20);
    const remaining = await get('get_remaining_jobs');
    assert.deepEqual(remaining.body.started.sort(), ['blog', 'careers', 'history', 'news', 'partners', 'profile', 'support', 'volunteer']);
    assert.equal((await getJson('get_local_contexts')).length, 28);
    services.noCredits = true;
    try {
      const res = await get('get?context=faq&force_reload=true');
      assert.equal(res.status, 402);
      assert.equal(res.body.code, 'kb_design_library_no_credits');
      assert.equal((await get('get_initial_jobs')).status, 402);
    } finally {
      services.noCredits = false;
    }
  });

  it('says when the service gave up on a job, and starts a new one on the next request', async () => {
    services.pollsBeforeDone = 0;
    const started = await get('get?context=team&force_reload=true');
    services.failingJobs.add(started.body.job_id);
    const failed = await get('get?context=team');
    assert.equal(failed.status, 502);
    assert.equal(failed.body.code, 'kb_design_library_ai_job_failed');
    const restarted = await get('get?context=team');
    assert.equal(restarted.body.state, 'processing');
    assert.notEqual(restarted.body.job_id, started.body.job_id);
  });

  it('tells the remaining credits', async () => {
    const res = await get('get_remaining_credits');
    assert.equal(res.status, 200);
    assert.equal(res.body, 1500);
    const asked = services.last('/credits/get-remaining')!;
    assert.equal(asked.query.get('plugin_slug'), 'kadence-blocks');
    assert.equal(asked.query.get('email'), 'owner@example.com');
  });

  it('finds images by industry (kept), collections and verticals, and intake suggestions', async () => {
    const images = await get('get_images?industries[]=Dentist&image_type=JPEG');
    assert.equal(images.status, 200);
    assert.equal(images.body.data[0].industry, 'Dentist');
    await get('get_images?industries[]=Dentist&image_type=JPEG');
    assert.equal(services.received.filter((r) => r.path === '/ai/images/collections' && r.method === 'POST').length, 1);
    const search = await get('get_images?industries[]=aiGenerated&industry=smiling%20dentist');
    assert.equal(search.body.data[0].query, 'smiling dentist');
    const none = await get('get_images');
    assert.equal(none.status, 400);
    assert.equal(none.body.code, 'kb_design_library_missing_industries');
    assert.deepEqual((await get('get_image_collections')).body, { data: [{ label: 'Dental', value: 'dental' }] });
    assert.deepEqual((await get('get_verticals')).body, { Health: ['Dentist', 'Doctor'] });
    await get('get_verticals');
    assert.equal(services.hits('/ai/verticals'), 1);
    const business = { name: 'Acme', entity_type: 'company', industry: 'Dentist', location: 'Lisbon', description: 'Teeth' };
    assert.deepEqual((await post('get_keywords', { ...business, count: 3 })).body, { keywords: ['Dentist near Lisbon'] });
    assert.equal(services.last('/ai/proxy/intake/suggest-keywords')!.body.count, 3);
    await post('get_keywords', business);
    assert.deepEqual([services.last('/ai/proxy/intake/suggest-keywords')!.body.count, services.last('/ai/proxy/intake/suggest-keywords')!.body.lang], [10, ''], 'ten keywords, no language, unless asked');
    assert.deepEqual((await post('get_search_query', business)).body, { query: 'Dentist office' });
    const incomplete = await post('get_keywords', { name: 'Acme' });
    assert.equal(incomplete.status, 400);
    assert.deepEqual(incomplete.body.data.params, ['entity_type', 'industry', 'location', 'description']);
  });

  it('keeps editor events, forwards them to the analytics endpoint, and refuses unknown labels', async () => {
    const res = await post('handle_event', { event_label: 'pattern_added_to_page', event_data: { id: 'hero-1', slug: 'hero', name: 'Hero', style: 'dark', is_ai: true, context: 'about', categories: ['hero'] } });
    assert.equal(res.status, 200);
    assert.equal(res.body.message, 'Event handled.');
    await until(() => services.hits('/ai/analytics/event') > 0, 'the forwarded event');
    const sent = services.last('/ai/analytics/event')!;
    assert.equal(sent.body.name, 'Pattern Added to Page');
    assert.deepEqual(sent.body.context, { pattern_id: 'hero-1', pattern_slug: 'hero', pattern_name: 'Hero', pattern_style: 'dark', pattern_is_ai: true, pattern_context: 'about', pattern_categories: ['hero'] });
    assert.ok(sent.headers['x-prophecy-token']);
    const repo = site.app.store.plugin(designLibrary);
    await until(async () => (await repo.events())[0]?.forwardedAt !== null, 'the event marked forwarded');
    const [kept] = await repo.events();
    assert.equal(kept.id, res.body.id);
    assert.equal(kept.label, 'pattern_added_to_page');
    // a forward that fails is recorded, and the editor was answered all the same
    services.analyticsDown = true;
    try {
      const down = await post('handle_event', { event_label: 'ai_wizard_started' });
      assert.equal(down.status, 200);
      await until(async () => (await repo.events())[0]?.forwardError !== null, 'the failed forward recorded');
      assert.match((await repo.events())[0].forwardError!, /503/);
    } finally {
      services.analyticsDown = false;
    }
    const recorded = (await repo.events()).length;
    const unknown = await post('handle_event', { event_label: 'launch_rockets', event_data: {} });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'kb_design_library_unknown_event');
    const badData = await post('handle_event', { event_label: 'ai_wizard_started', event_data: 'x' });
    assert.equal(badData.status, 400);
    assert.equal(badData.body.code, 'rest_invalid_param');
    assert.equal((await repo.events()).length, recorded, 'a refused event is not recorded');
  });

  it('reset forgets the kept answers and the AI jobs', async () => {
    await get('get_library?library=section&key=section');
    const hits = services.hits('/patterns/get/');
    const res = await get('reset');
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.ok(res.body.cleared.cached_answers > 0);
    assert.ok(res.body.cleared.ai_jobs > 0);
    assert.deepEqual(await getJson('get_local_contexts'), []);
    await get('get_library?library=section&key=section');
    assert.equal(services.hits('/patterns/get/'), hits + 1);
  });
});

describe('kb-design-library/v1 (Variant B)', () => {
  const site = useServer({ variant: 'B' });
  it('lists the routes the interface gives Variant B, up to get_image_collections', async () => {
    await assertIndex(site, BOTH);
  });
});
