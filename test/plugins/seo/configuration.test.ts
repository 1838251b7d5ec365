import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { assertError, createPost, getJson, indexSite, NS, post, type Obj } from './helpers.ts';

describe('configuration and state routes', () => {
  const site = useServer();
  const option = (name: string) => site.app.store.options.get(name);
  const call = (method: string, route: string, json?: unknown, auth = site.admin) => site.call(`${NS}/${route}`, { method, ...(json === undefined ? {} : { json }), auth });

  test('site_representation: company or person, logo and tagline are stored; bad values refused and nothing stored', async () => {
    assert.deepEqual(await post(site, 'configuration/site_representation', site.admin, { company_or_person: 'company', company_name: 'Tea Co', company_logo: 'https://cdn.example.org/logo.png', company_logo_id: 7, description: 'Fresh leaves daily' }), { success: true, status: 200 });
    assert.deepEqual([await option('seo_company_or_person'), await option('seo_company_name'), await option('seo_company_logo'), await option('seo_company_logo_id')], ['company', 'Tea Co', 'https://cdn.example.org/logo.png', '7']);
    assert.equal(((await (await site.call('')).json()) as Obj).description, 'Fresh leaves daily', 'the tagline is the site description');

    const person = await userAuth(site, 'author');
    await post(site, 'configuration/site_representation', site.admin, { company_or_person: 'person', company_or_person_user_id: person.userId, person_logo: 'https://cdn.example.org/me.png' });
    assert.deepEqual([await option('seo_company_or_person'), await option('seo_company_or_person_user_id')], ['person', String(person.userId)]);

    await assertError(await call('POST', 'configuration/site_representation', { company_or_person: 'company', company_logo: 'not a url' }), 400, 'rest_invalid_param');
    await assertError(await call('POST', 'configuration/site_representation', { company_or_person: 'person', company_or_person_user_id: 99999 }), 400, 'rest_user_invalid_id');
    await assertError(await call('POST', 'configuration/site_representation', { company_or_person: 'club' }), 400, 'rest_invalid_param');
    await assertError(await call('POST', 'configuration/site_representation', { company_name: 'x' }), 400, 'rest_missing_callback_param');
    await assertError(await call('POST', 'configuration/site_representation', { company_or_person: 'company', company_logo_id: 'seven' }), 400, 'rest_invalid_param');
    assert.equal(await option('seo_company_or_person'), 'person', 'refused requests stored nothing');
  });

  test('social_profiles: stored as given (the second site as a handle); invalid ones named in data.failures and nothing stored', async () => {
    assert.deepEqual(await post(site, 'configuration/social_profiles', site.admin, { social_site_a: 'https://facebook.example/teaco', social_site_b: 'https://x.com/teaco', other_social_urls: ['https://social.example/a'] }), { json: { success: true, status: 200 } });
    assert.deepEqual([await option('seo_social_site_a'), await option('seo_social_site_b'), await option('seo_other_social_urls')], ['https://facebook.example/teaco', 'teaco', '["https://social.example/a"]']);
    const bad = await assertError(await call('POST', 'configuration/social_profiles', { social_site_a: 'nope', social_site_b: 'not a handle!', other_social_urls: ['https://ok.example/', 'ftp:bad'] }), 400, 'wpseo_invalid_social_profiles');
    assert.deepEqual(bad.data.failures, ['social_site_a', 'social_site_b', 'other_social_urls-1']);
    assert.equal(await option('seo_social_site_a'), 'https://facebook.example/teaco');
  });

  test('check_capability, enable_tracking and the configuration state round trip', async () => {
    const admin = (await site.app.store.users.byLogin('admin'))!;
    assert.deepEqual((await getJson(site, `${NS}/configuration/check_capability?user_id=${admin.id}`, { auth: site.admin })).body, { success: true, status: 200 });
    await assertError(await call('GET', 'configuration/check_capability?user_id=abc'), 400, 'rest_invalid_param');
    await assertError(await call('GET', 'configuration/check_capability?user_id=99999'), 404, 'rest_user_invalid_id');
    await assertError(await call('GET', 'configuration/check_capability'), 400, 'rest_missing_callback_param');

    assert.deepEqual(await post(site, 'configuration/enable_tracking', site.admin, { tracking: true }), { success: true, status: 200 });
    assert.equal(await option('seo_tracking'), '1');
    await post(site, 'configuration/enable_tracking', site.admin, { tracking: 'false' });
    assert.equal(await option('seo_tracking'), '0');
    await assertError(await call('POST', 'configuration/enable_tracking', { tracking: 'maybe' }), 400, 'rest_invalid_param');

    assert.deepEqual((await getJson(site, `${NS}/configuration/get_configuration_state`, { auth: site.admin })).body, { success: true, status: 200, data: [] });
    await post(site, 'configuration/save_configuration_state', site.admin, { finishedSteps: ['optimizeSeoData', 'siteRepresentation', 'siteRepresentation'] });
    assert.deepEqual((await getJson(site, `${NS}/configuration/get_configuration_state`, { auth: site.admin })).body.data, ['optimizeSeoData', 'siteRepresentation']);
    await assertError(await call('POST', 'configuration/save_configuration_state', {}), 400, 'rest_missing_callback_param');
    await assertError(await call('POST', 'configuration/save_configuration_state', { finishedSteps: [1, {}] }), 400, 'rest_invalid_param');
  });

  test('alerts/dismiss, introductions/{id}/seen and video_embed_permission are kept per user', async () => {
    const editor = await userAuth(site, 'editor');
    assert.deepEqual(await post(site, 'alerts/dismiss', editor.auth, { key: 'indexing-notification' }), { success: true, status: 200 });
    assert.deepEqual(JSON.parse((await site.app.store.users.meta.get(editor.userId, 'seo_dismissed_alerts'))!), ['indexing-notification']);
    await assertError(await call('POST', 'alerts/dismiss', { key: 'not-an-alert' }), 400, 'rest_invalid_param');
    await assertError(await call('POST', 'alerts/dismiss', {}), 400, 'rest_missing_callback_param');

    assert.deepEqual(await post(site, 'introductions/ai-brand-insights/seen', editor.auth), { json: { success: true } });
    await post(site, 'introductions/google-docs-addon/seen', editor.auth, { is_seen: false });
    assert.deepEqual(JSON.parse((await site.app.store.users.meta.get(editor.userId, 'seo_introductions_seen'))!), { 'ai-brand-insights': true, 'google-docs-addon': false });
    await assertError(await call('POST', 'introductions/no-such-intro/seen'), 400, 'wpseo_unknown_introduction');
    await assertError(await call('POST', 'introductions/bad%20id/seen'), 404, 'rest_no_route');
    await assertError(await call('POST', 'introductions/ai-brand-insights/seen', { is_seen: 'perhaps' }), 400, 'rest_invalid_param');

    assert.deepEqual((await getJson(site, `${NS}/video_embed_permission`, { auth: editor.auth })).body, { json: { value: false } });
    assert.deepEqual(await post(site, 'video_embed_permission', editor.auth, {}), { json: { success: true } });
    assert.deepEqual((await getJson(site, `${NS}/video_embed_permission`, { auth: editor.auth })).body, { json: { value: true } });
    assert.deepEqual((await getJson(site, `${NS}/video_embed_permission`, { auth: site.admin })).body, { json: { value: false } }, 'another user’s choice is their own');
    await post(site, 'video_embed_permission', editor.auth, { value: false });
    assert.deepEqual((await getJson(site, `${NS}/video_embed_permission`, { auth: editor.auth })).body, { json: { value: false } });
    await assertError(await call('POST', 'video_embed_permission', { value: 'x' }), 400, 'rest_invalid_param');
  });

  test('integrations/set_active, workouts, new content types and the setup steps are kept for the site', async () => {
    assert.deepEqual(await post(site, 'integrations/set_active', site.admin, { integration: 'rank_tracker', active: false }), { json: { success: true, status: 200 } });
    assert.equal(await option('seo_rank_tracker_integration_active'), '0');
    await assertError(await call('POST', 'integrations/set_active', { integration: 'nope', active: true }), 400, 'rest_invalid_param');
    await assertError(await call('POST', 'integrations/set_active', { integration: 'rank_tracker' }), 400, 'rest_missing_callback_param');

    assert.deepEqual((await getJson(site, `${NS}/workouts`, { auth: site.admin })).body, { json: { configuration: { finishedSteps: [] } } });
    const saved = await post(site, 'workouts', site.admin, { cornerstone: { finishedSteps: ['one'] } });
    assert.deepEqual(saved, { json: { configuration: { finishedSteps: [] }, cornerstone: { finishedSteps: ['one'] } } });
    assert.deepEqual((await getJson(site, `${NS}/workouts`, { auth: site.admin })).body, saved);
    await assertError(await call('POST', 'workouts', { cornerstone: 'done' }), 400, 'rest_invalid_param');
    await assertError(await call('POST', 'workouts', {}), 400, 'rest_missing_callback_param');

    assert.deepEqual(await post(site, 'new-content-type-visibility/dismiss-post-type', site.admin, { postTypeName: 'post' }), { message: 'Post type is not new.', success: true, status: 200 });
    await site.app.store.options.set('seo_seen_post_types', JSON.stringify(['post']));
    assert.deepEqual(await post(site, 'new-content-type-visibility/dismiss-post-type', site.admin, { post_type_name: 'page' }), { message: 'New post type dismissed.', success: true, status: 200 });
    assert.deepEqual(JSON.parse((await option('seo_seen_post_types'))!), ['post', 'page']);
    await assertError(await call('POST', 'new-content-type-visibility/dismiss-post-type', { postTypeName: 'unicorn' }), 400, 'rest_invalid_param');
    await site.app.store.options.set('seo_seen_taxonomies', JSON.stringify(['category']));
    assert.deepEqual(await post(site, 'new-content-type-visibility/dismiss-taxonomy', site.admin, { taxonomyName: 'post_tag' }), { message: 'New taxonomy dismissed.', success: true, status: 200 });
    assert.deepEqual(await post(site, 'new-content-type-visibility/dismiss-taxonomy', site.admin, {}), { message: 'Taxonomy is not new.', success: true, status: 200 });

    assert.deepEqual(await post(site, 'setup_steps_tracking', site.admin, { setup_widget_loaded: 'yes', first_interaction_stage: 'install' }), { success: true });
    await post(site, 'setup_steps_tracking', site.admin, { lastInteractionStage: 'grantConsent' });
    assert.deepEqual(JSON.parse((await option('seo_setup_steps'))!), { setup_widget_loaded: 'yes', first_interaction_stage: 'install', last_interaction_stage: 'grantConsent' });
    await assertError(await call('POST', 'setup_steps_tracking', {}), 400, 'wpseo_setup_steps_tracking_no_data');
    await assertError(await call('POST', 'setup_steps_tracking', { setup_widget_loaded: 'maybe' }), 400, 'rest_invalid_param');
    await assertError(await call('POST', 'setup_steps_tracking', { lastInteractionStage: 'later' }), 400, 'rest_invalid_param');
  });

  test('tasks come from the site’s state; completing one is kept; action_tracking counts', async () => {
    await createPost(site, site.admin, { title: 'Needs a keyphrase', content: '<p>Text.</p>' });
    await indexSite(site, site.admin);
    const { body } = await getJson(site, `${NS}/get_tasks`, { auth: site.admin });
    assert.equal(body.success, true);
    const byId = new Map((body.tasks as Obj[]).map((t) => [t.id, t]));
    assert.deepEqual(Object.keys(byId.get('complete-indexing')!), ['id', 'duration', 'priority', 'badge', 'isCompleted', 'callToAction', 'title', 'about']);
    assert.equal(byId.get('complete-indexing')!.isCompleted, true, 'the site is indexed');
    assert.equal(byId.get('set-site-representation')!.isCompleted, true, 'a person was set above');
    assert.equal(byId.get('add-social-profiles')!.isCompleted, true);
    const keyphrases = byId.get('add-focus-keyphrases')!;
    assert.equal(keyphrases.isCompleted, false);
    const published = (await site.app.store.posts.query({ types: ['post', 'page'], statuses: ['publish'], offset: 0, limit: 1 })).total;
    assert.match(keyphrases.title, new RegExp(`^Add a focus keyphrase to ${published} posts?$`));

    await createPost(site, site.admin, { title: 'Not indexed yet' });
    const after = (await getJson(site, `${NS}/get_tasks`, { auth: site.admin })).body.tasks as Obj[];
    assert.equal(after.find((t) => t.id === 'complete-indexing')!.isCompleted, false, 'a new post is not indexed');

    assert.deepEqual(await post(site, 'complete_task', site.admin, { options: { task: 'add-focus-keyphrases' } }), { success: true });
    const completed = (await getJson(site, `${NS}/get_tasks?options[filter]=completed`, { auth: site.admin })).body.tasks as Obj[];
    assert.ok(completed.some((t) => t.id === 'add-focus-keyphrases'));
    assert.ok(completed.every((t) => t.isCompleted));
    const open = (await getJson(site, `${NS}/get_tasks?options[filter]=open&options[limit]=1`, { auth: site.admin })).body.tasks as Obj[];
    assert.deepEqual(open.map((t) => t.id), ['complete-indexing']);
    await assertError(await call('POST', 'complete_task', { options: { task: 'no-such-task' } }), 404, 'wpseo_task_not_found');
    await assertError(await call('POST', 'complete_task', { options: {} }), 400, 'rest_invalid_param');
    await assertError(await call('POST', 'complete_task', {}), 400, 'rest_missing_callback_param');
    await assertError(await call('GET', 'get_tasks?options[filter]=later'), 400, 'rest_invalid_param');
    await assertError(await call('GET', 'get_tasks?options[limit]=0'), 400, 'rest_invalid_param');
    await assertError(await call('GET', 'get_tasks?options[limit]=many'), 400, 'rest_invalid_param');

    assert.deepEqual(await post(site, 'action_tracking', site.admin, { action: 'dashboard_visited' }), { success: true, action: 'dashboard_visited' });
    await post(site, 'action_tracking', site.admin, { action: 'dashboard_visited' });
    assert.equal(JSON.parse((await option('seo_tracked_actions'))!).dashboard_visited.count, 2);
    await assertError(await call('POST', 'action_tracking', { action: 'dance' }), 400, 'rest_invalid_param');
    await assertError(await call('POST', 'action_tracking', {}), 400, 'rest_missing_callback_param');
  });

  test('import/{plugin}/{type}: another plugin’s post meta into this one’s fields, batch by batch; cleanup removes it', async () => {
    const store = site.app.store;
    const a = await createPost(site, site.admin, { title: 'Imported' });
    const b = await createPost(site, site.admin, { title: 'Has its own', meta: { _yoast_wpseo_title: 'Mine' } });
    await store.posts.meta.set(a.id, 'rank_math_focus_keyword', 'green tea,black tea');
    await store.posts.meta.set(a.id, 'rank_math_title', '%title% %sep% %sitename%');
    await store.posts.meta.set(a.id, 'rank_math_robots', 'a:2:{i:0;s:7:"noindex";i:1;s:8:"nofollow";}');
    await store.posts.meta.set(a.id, 'rank_math_pillar_content', 'on');
    await store.posts.meta.set(b.id, 'rank_math_title', '%title% from Rank Math');
    const first = await post(site, 'import/rank-math/posts', site.admin);
    assert.equal(first.next_url, false);
    assert.deepEqual(first.objects, [
      { post_id: a.id, imported: { _yoast_wpseo_focuskw: 'green tea', _yoast_wpseo_title: '%%title%% %%sep%% %%sitename%%', '_yoast_wpseo_meta-robots-noindex': '1', '_yoast_wpseo_meta-robots-nofollow': 'true', _yoast_wpseo_is_cornerstone: 'true' } },
      { post_id: b.id, imported: {} },
    ]);
    const shown = (await (await site.call(`cms/v2/posts/${a.id}?context=edit`, { auth: site.admin })).json()) as Obj;
    assert.equal(shown.meta._yoast_wpseo_focuskw, 'green tea');
    assert.equal(shown.meta['_yoast_wpseo_meta-robots-noindex'], 1);
    assert.equal(shown.meta._yoast_wpseo_is_cornerstone, true);
    assert.equal(await store.posts.meta.get(b.id, '_yoast_wpseo_title'), 'Mine', 'what this plugin has wins');
    assert.deepEqual(await post(site, 'import/rank-math/posts', site.admin), { objects: [], next_url: false }, 'a second call resumes after the last post');

    const cleaned = await post(site, 'import/rank-math/cleanup', site.admin);
    assert.deepEqual(cleaned.objects.map((o: Obj) => o.post_id), [a.id, b.id]);
    assert.equal(await store.posts.meta.get(a.id, 'rank_math_title'), undefined);
    assert.equal(await store.posts.meta.get(a.id, '_yoast_wpseo_focuskw'), 'green tea');
    await assertError(await call('POST', 'import/no-such-plugin/posts'), 404, 'rest_no_route');
    await assertError(await call('POST', 'import/rank-math/everything'), 404, 'rest_no_route');
  });

  test('import of many posts follows next_url', async () => {
    const ids = await site.app.store.posts.insertMany(Array.from({ length: 30 }, (_, i) => ({ title: `SEOPress ${i}`, type: 'post', status: 'publish' })));
    for (const id of ids) await site.app.store.posts.meta.set(id, '_seopress_titles_desc', 'About %%post_title%%');
    const first = await post(site, 'import/seopress/posts', site.admin);
    assert.equal(first.objects.length, 25);
    assert.equal(first.next_url, `${site.api}${NS}/import/seopress/posts`);
    const second = await post(site, 'import/seopress/posts', site.admin);
    assert.equal(second.objects.length, 5);
    assert.equal(second.next_url, false);
    assert.equal(await site.app.store.posts.meta.get(ids[29], '_yoast_wpseo_metadesc'), 'About %%title%%');
  });

  test('meta/search, available_posts and file_size read the site’s content', async () => {
    const p = await createPost(site, site.admin, { title: 'Searchable', meta: { _yoast_wpseo_focuskw: 'tea' } });
    await site.app.store.posts.meta.set(p.id, 'color', 'green');
    await site.app.store.posts.meta.set(p.id, 'colour_list', 'a:1:{i:0;s:3:"red";}');
    assert.deepEqual((await getJson(site, `${NS}/meta/search?post_id=${p.id}`, { auth: site.admin })).body, { meta: [{ key: 'color', value: 'green' }] }, 'hidden and serialised values left out');
    assert.deepEqual((await getJson(site, `${NS}/meta/search?post_id=${p.id}&query=_yoast_wpseo_f`, { auth: site.admin })).body, { meta: [{ key: '_yoast_wpseo_focuskw', value: 'tea' }] });
    await assertError(await call('GET', 'meta/search'), 400, 'rest_missing_callback_param');
    await assertError(await call('GET', 'meta/search?post_id=x'), 400, 'rest_invalid_param');
    await assertError(await call('GET', 'meta/search?post_id=999999'), 404, 'rest_post_invalid_id');
    const contributor = await userAuth(site, 'contributor');
    await assertError(await call('GET', `meta/search?post_id=${p.id}`, undefined, contributor.auth), 403, 'rest_forbidden');

    await createPost(site, site.admin, { title: 'About our tea' }, 'pages');
    await createPost(site, site.admin, { title: 'Contact' }, 'pages');
    const pages = (await getJson<Obj[]>(site, `${NS}/available_posts?search=tea`, { auth: site.admin })).body;
    assert.deepEqual(pages.map((x) => [x.title, Object.keys(x)]), [['About our tea', ['id', 'title', 'slug']]]);
    const posts = (await getJson<Obj[]>(site, `${NS}/available_posts?postType=post&search=Searchable`, { auth: site.admin })).body;
    assert.deepEqual(posts.map((x) => x.id), [p.id]);
    await assertError(await call('GET', 'available_posts?postType=nav_menu_item'), 400, 'rest_invalid_param');

    const fileUrl = `${site.home}/wp-content/uploads/2024/05/cup.jpg`;
    const attachment = await site.app.store.posts.insert({ type: 'attachment', status: 'inherit', title: 'cup', guid: fileUrl });
    await site.app.store.posts.meta.set(attachment, '_wp_attachment_metadata', JSON.stringify({ width: 800, height: 600, file: '2024/05/cup.jpg', filesize: 48213 }));
    assert.deepEqual((await getJson(site, `${NS}/file_size?url=${encodeURIComponent(fileUrl)}`, { auth: site.admin })).body, { type: 'success', size_in_bytes: 48213 });
    for (const url of ['https://elsewhere.example/cup.jpg', `${site.home}/wp-content/uploads/none.jpg`]) {
      const { status, body } = await getJson(site, `${NS}/file_size?url=${encodeURIComponent(url)}`, { auth: site.admin });
      assert.equal(status, 404);
      assert.equal(body.code, 'wpseo_file_size_unknown');
      assert.equal(body.data.status, 404);
      assert.ok(body.message.includes(url) || body.message.includes('not on this site'), body.message);
    }
    await assertError(await call('GET', 'file_size'), 400, 'rest_missing_callback_param');
  });
});
