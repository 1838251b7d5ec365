import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { adminAuth, userAuth } from '../../helpers/auth.ts';
import { assertNamespace, type Arg } from '../../helpers/route-index.ts';
import { setEnv } from '../../helpers/env.ts';
import { KadenceServices } from './fakes.ts';

const LICENSE = 'LICENSE-KEY-123';

/** Set SL as the interface gives it (`plugins` is a list of strings: checked below). */
const SET_SL: Arg[] = [
  ['context', 'string'],
  ['page', 'string'],
  ['per_page', 'integer', 10, { minimum: 1, maximum: 100 }],
  ['search', 'string'],
  ['library', 'string'],
  ['library_url', 'string'],
  ['force_reload', 'boolean', false],
  ['key', 'string'],
  ['api_key', 'string'],
  ['api_email', 'string'],
  ['product_id', 'string'],
  ['plugins', 'array'],
  ['plugin', 'string'],
  ['industry', 'string'],
  ['image_type', 'string'],
  ['industries', 'array'],
  ['image_sizes', 'array'],
];

/** The starter routes in registration order, with their methods. */
const ROUTES: [string, string][] = [
  ['get', 'GET'],
  ['ai-base', 'GET'],
  ['get-all-local-ai', 'GET'],
  ['get-all-ai', 'GET'],
  ['remove-content', 'GET'],
  ['install-plugins', 'GET'],
  ['install-plugin', 'GET'],
  ['install-pages', 'POST'],
  ['process-pages', 'POST'],
  ['install-posts', 'POST'],
  ['get-posts', 'GET'],
  ['update-pages', 'POST'],
  ['get-products', 'POST'],
  ['install-products', 'POST'],
  ['get-events', 'POST'],
  ['install-events', 'POST'],
  ['install-course', 'POST'],
  ['install-donation-form', 'POST'],
  ['install-block-cpt', 'POST'],
  ['install-settings', 'POST'],
  ['install-navigation', 'POST'],
  ['install-widgets', 'POST'],
  ['get_remaining_credits', 'GET'],
  ['get_auth_data', 'GET'],
  ['get_initial_jobs', 'GET'],
  ['has_initial_jobs', 'GET'],
  ['get_remaining_jobs', 'GET'],
  ['get_local_contexts', 'GET'],
  ['get_images', 'GET'],
  ['get_image_collections', 'GET'],
  ['get_search_query', 'POST'],
  ['get_verticals', 'GET'],
  ['get_keywords', 'POST'],
  ['process_images', 'POST'],
];

describe('designkit-starter-library/v1 (Variant B)', () => {
  const services = new KadenceServices();
  let restoreEnv = () => {};
  before(() => (restoreEnv = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' })));
  after(() => restoreEnv());
  const site = useServer({ variant: 'B' }, async (s) => {
    await services.start();
    const o = s.app.store.options;
    await o.set('design_library_starter_url', `${services.base}/starter/`);
    await o.set('design_library_starter_base_url', `${services.base}/base/`);
    await o.set('design_library_ai_url', `${services.base}/ai/`);
    await o.set('design_library_license_key', LICENSE);
  });
  after(() => services.close());
  let admin: string;
  before(async () => {
    admin = await adminAuth(site);
  });
  const call = async (path: string, json?: unknown, auth = admin) => {
    const res = await site.call(`designkit-starter-library/v1/${path}`, json === undefined ? { auth } : { method: 'POST', json, auth });
    return { status: res.status, body: await res.json() };
  };

  it('is in the Variant B index exactly as the interface lists it', async () => {
    const args: Record<string, Arg[]> = {
      '/starter-help-docs': [['context', 'string'], ['page', 'integer', 1, { minimum: 1 }], ['per_page', 'integer', 10, { minimum: 1, maximum: 100 }], ['search', 'string'], ['library', 'string'], ['force_reload', 'boolean', false], ['key', 'string']],
      '/handle_event': [['event_label', 'string'], ['event_data', 'object']],
    };
    const methods: Record<string, string> = { '/handle_event': 'POST' };
    for (const [path, method] of ROUTES) {
      args[`/${path}`] = SET_SL;
      methods[`/${path}`] = method;
    }
    await assertNamespace(site, 'designkit-starter-library/v1', args, methods);
    const index = await (await site.call('')).json();
    assert.deepEqual(index.routes['/designkit-starter-library/v1/install-plugins'].endpoints[0].args.plugins.items, { type: 'string' });
  });

  it('needs manage_options: anonymous 401, an editor 403', async () => {
    assert.equal((await site.call('designkit-starter-library/v1/get')).status, 401);
    const editor = await userAuth(site, 'editor');
    const refused = await call('get', undefined, editor.auth);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'rest_forbidden');
  });

  it('serves the starter catalogue, help docs and starter sites, kept in the store', async () => {
    const first = await call('get');
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, [{ slug: 'site1', name: 'Dental starter', pages: ['home', 'about'] }]);
    assert.equal(services.last('/starter/get/')!.query.get('api_key'), LICENSE);
    await call('get');
    assert.equal(services.hits('/starter/get/'), 1);
    await call('get?force_reload=true');
    assert.equal(services.hits('/starter/get/'), 2);
    assert.equal((await call('starter-help-docs?search=import')).body[0].search, 'import');
    assert.deepEqual((await call('ai-base')).body, { site1: { name: 'Dental starter' } });
    assert.deepEqual((await call('get-posts?key=site1')).body, [{ title: 'Welcome', content: '<p>Hi</p>' }]);
  });

  it('says which license it uses without giving the key away', async () => {
    const res = await call('get_auth_data');
    assert.equal(res.status, 200);
    assert.equal(res.body.domain, new URL(site.home).host);
    assert.equal(res.body.has_key, true);
    assert.ok(res.body.key.endsWith('-123'));
    assert.doesNotMatch(JSON.stringify(res.body), new RegExp(LICENSE));
  });

  /** Every REST answer a visitor or the admin would notice the import in. */
  async function snapshot() {
    const out: Record<string, unknown> = {};
    for (const path of ['', 'cms/v2/posts?context=edit&per_page=100', 'cms/v2/pages?context=edit&per_page=100', 'cms/v2/media?context=edit&per_page=100', 'cms/v2/categories?per_page=100', 'cms/v2/tags?per_page=100', 'cms/v2/settings', 'cms/v2/designkit_header?per_page=100']) {
      const res = await site.call(path, { auth: admin });
      const body = await res.json();
      if (path === '') delete body.routes;
      out[path] = { status: res.status, total: res.headers.get('x-wp-total'), body };
    }
    return out;
  }

  it('imports a starter (pages, posts, menus, widgets, settings, images) and remove-content takes it all out again', async () => {
    const before = await snapshot();
    const photo = `${services.base}/img/hero.jpg`;
    const pages = await call('install-pages', {
      pages: [
        { title: 'Home', content: `<!-- wp:image --><figure class="wp-block-image"><img src="${photo}" alt=""/></figure><!-- /wp:image --><p>Welcome to Acme</p>` },
        { title: 'About', content: '<p>About Acme</p>' },
      ],
      image_library: [],
    });
    assert.equal(pages.status, 200);
    assert.equal(pages.body.length, 2);
    const home = pages.body[0];
    assert.equal(home.images.length, 1);
    const homePage = await (await site.call(`cms/v2/pages/${home.id}?context=edit`, { auth: admin })).json();
    assert.equal(homePage.status, 'publish');
    assert.doesNotMatch(homePage.content.raw, /\/img\/hero\.jpg/);
    const media = await (await site.call(`cms/v2/media/${home.images[0].id}`, { auth: admin })).json();
    assert.ok(homePage.content.raw.includes(media.source_url), 'the page shows the imported copy');

    const posts = await call('install-posts', { posts: [{ title: 'Fresh news', content: '<p>News</p>', image: `${services.base}/img/news.jpg`, categories: ['Updates'], tags: [{ name: 'Smiles', slug: 'smiles' }] }] });
    assert.equal(posts.status, 200);
    const post = await (await site.call(`cms/v2/posts/${posts.body[0].id}`, { auth: admin })).json();
    assert.ok(post.featured_media > 0);
    const [category] = await (await site.call(`cms/v2/categories?include=${post.categories.join(',')}`, { auth: admin })).json();
    assert.equal(category.name, 'Updates');
    assert.equal(post.tags.length, 1);

    const nav = await call('install-navigation', { goals: [] });
    assert.equal(nav.status, 400, 'the starter site to import from is required');
    const navigation = await call('install-navigation?key=site1', { goals: [] });
    assert.equal(navigation.status, 200);
    assert.deepEqual(navigation.body.map((m: { location: string; assigned: boolean; name: string; items: number }) => [m.location, m.assigned, m.name, m.items]), [['primary', true, 'Main menu', 3]]);
    const menuId = navigation.body[0].id;
    // a WordPress menu, assigned where the theme reads its locations
    const location = await (await site.call('cms/v2/menu-locations/primary', { auth: admin })).json();
    assert.equal(location.menu, menuId);
    const menuItems = await (await site.call(`cms/v2/menu-items?menus=${menuId}&orderby=menu_order&order=asc`, { auth: admin })).json();
    assert.deepEqual(
      menuItems.map((i: { title: { rendered: string }; type: string; object_id: number; url: string; parent: number }) => [i.title.rendered, i.type, i.parent === 0 ? 'top' : menuItems.find((p: { id: number }) => p.id === i.parent)?.title.rendered]),
      [['Home', 'post_type', 'top'], ['About', 'post_type', 'top'], ['Team', 'custom', 'About']],
    );
    assert.equal(menuItems[0].object_id, home.id);
    assert.equal(menuItems[2].url, 'https://demo.example/team/');
    // and on the site: the header shows the menu, the Home item linking to the imported page
    const withMenu = await (await fetch(`${site.home}/`)).text();
    const header = /<nav class="main-navigation"[\s\S]*?<\/nav>/.exec(withMenu)?.[0] ?? '';
    assert.match(header, /<ul id="menu-main-menu"/);
    assert.match(header, new RegExp(`<a href="${homePage.link}"[^>]*>Home</a>`));
    assert.match(header, new RegExp(`<a href="${pages.body[1].link}"[^>]*>About</a><ul class="sub-menu"><li[^>]*><a href="https://demo\\.example/team/"[^>]*>Team</a>`));

    // the default theme has one widget area, sidebar-1: the starter's footer widgets could show nowhere
    const widgets = await call('install-widgets?key=site1&context=Acme', {});
    assert.deepEqual(widgets.body, { sidebars: { 'sidebar-1': 1 }, inactive: { 'footer-1': 1 } });
    assert.match(String(await site.app.store.options.get('widget_block')), /Acme Dental, since 1990/);
    const areas = JSON.parse(String(await site.app.store.options.get('sidebars_widgets')));
    assert.deepEqual(areas['sidebar-1'], ['block-3']);
    assert.ok(areas.wp_inactive_widgets.includes('block-2'), JSON.stringify(areas));
    // and on the site: the sidebar shows the starter's widget, with the site's name in it
    const withWidgets = await (await fetch(`${site.home}/`)).text();
    assert.match(withWidgets, /<p>Acme Dental opens at eight<\/p>/);
    assert.doesNotMatch(withWidgets, /since 1990/);

    const settings = await call('install-settings?key=site1', {});
    assert.deepEqual(settings.body, { applied: ['theme_mods_default', 'custom_css', 'posts_per_page', 'blogdescription'], skipped: ['theme_mods_default.nav_menu_locations', 'siteurl'] });
    const stored = await (await site.call('cms/v2/settings', { auth: admin })).json();
    assert.equal(stored.posts_per_page, 7);
    // the active theme's mods: the starter's, the menu's location kept (not the demo's menu id)
    const mods = JSON.parse(String(await site.app.store.options.get('theme_mods_default')));
    assert.equal(mods.accent, '#336699');
    assert.deepEqual(mods.nav_menu_locations, { primary: menuId });
    // the Additional CSS, as wp_custom_css_cb prints it, and the tagline, on every page
    const styled = await (await fetch(`${site.home}/`)).text();
    assert.ok(styled.includes('\t\t<style id="wp-custom-css">\n\t\t\t.site-title a{color:#336699}\t\t</style>\n\t\t</head>'), styled.slice(0, styled.indexOf('</head>') + 7));
    assert.match(styled, /<p class="site-description">Smiles for everyone<\/p>/);

    const front = await call('update-pages', { pages: [{ id: pages.body[1].id, title: { rendered: 'About' } }, { id: home.id, title: { rendered: 'Home' } }] });
    assert.deepEqual(front.body, { success: true, page_on_front: home.id });
    const index = await (await site.call('')).json();
    assert.equal(index.page_on_front, home.id);
    assert.equal(index.show_on_front, 'page');

    const removed = await call('remove-content');
    assert.equal(removed.status, 200);
    assert.equal(removed.body.success, true);
    assert.ok(removed.body.deleted >= 7, JSON.stringify(removed.body));
    assert.deepEqual(await snapshot(), before, 'the site answers as before the import');
    assert.equal(await site.app.store.terms.get(menuId), undefined, 'the menu is gone');
    assert.equal(await site.app.store.options.get('widget_block'), undefined);
    assert.equal(await site.app.store.options.get('theme_mods_default'), undefined, 'the theme mods are as before');
    const after = await (await fetch(`${site.home}/`)).text();
    assert.doesNotMatch(after, /wp-custom-css|menu-main-menu|Smiles for everyone/);
    const again = await call('remove-content');
    assert.deepEqual(again.body, { success: true, deleted: 0, restored_options: 0 });
  });

  it('imports products, events, courses, donation forms and block posts as their post types', async () => {
    for (const [route, field, type] of [
      ['install-products', 'products', 'designkit_product'],
      ['install-events', 'events', 'designkit_event'],
      ['install-course', 'courses', 'designkit_course'],
      ['install-donation-form', 'forms', 'designkit_donation'],
    ]) {
      const res = await call(route, { [field]: [{ title: `A ${type}`, content: '<p>x</p>', excerpt: 'short' }] });
      assert.equal(res.status, 200, route);
      const made = await (await site.call(`cms/v2/${type}/${res.body[0].id}`, { auth: admin })).json();
      assert.equal(made.title.rendered, `A ${type}`);
      const empty = await call(route, { [field]: [] });
      assert.equal(empty.status, 400, route);
      assert.match(empty.body.code, /^no_/);
    }
    const header = await call('install-block-cpt', { posts: [{ post_type: 'designkit_header', title: 'Starter header', content: '<p>h</p>' }] });
    assert.equal(header.status, 200);
    const wrong = await call('install-block-cpt', { posts: [{ post_type: 'post', title: 'x', content: '' }] });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.code, 'kb_starter_invalid_post_type');
    await call('remove-content');
    assert.equal((await (await site.call('cms/v2/designkit_header', { auth: admin })).json()).length, 0);
  });

  it('refuses bad import requests with 400s that say what is wrong', async () => {
    for (const [route, json, code] of [
      ['install-pages', {}, 'no_pages'],
      ['install-pages', { pages: 'Home' }, 'no_pages'],
      ['install-pages', { pages: [{ content: '<p>no title</p>' }] }, 'rest_invalid_param'],
      ['install-pages', { pages: [42] }, 'rest_invalid_param'],
      ['install-posts', { posts: [] }, 'no_posts'],
      ['update-pages', { pages: [] }, 'no_pages'],
      ['update-pages', { pages: [{ id: 999999, title: 'Home' }] }, 'kb_starter_invalid_page'],
    ] as const) {
      const res = await call(route, json);
      assert.equal(res.status, 400, `${route} ${JSON.stringify(json)}`);
      assert.equal(res.body.code, code, `${route} ${JSON.stringify(json)}`);
      assert.equal(res.body.data.status, 400);
    }
    const failing = await call('install-settings?key=broken', {});
    assert.equal(failing.status, 502);
    assert.equal(failing.body.code, 'kb_design_library_error');
    assert.equal(failing.body.data.service, 'starter');
  });

  it('refuses a starter service on a private address', async () => {
    await site.app.store.options.set('design_library_starter_base_url', 'http://10.1.2.3/');
    try {
      const res = await call('install-navigation?key=site1', {});
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'kb_design_library_forbidden_address');
    } finally {
      await site.app.store.options.set('design_library_starter_base_url', `${services.base}/base/`);
    }
  });

  it('activates the plugins a starter needs, and refuses one this server does not have', async () => {
    const off = await site.call('cms/v2/plugins/seo/seo', { method: 'POST', json: { status: 'inactive' }, auth: admin });
    assert.equal(off.status, 200);
    const unknown = await call('install-plugins?plugins[]=wordpress-seo&plugins[]=woocommerce');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'kb_starter_unknown_plugin');
    assert.deepEqual(unknown.body.data.plugins, ['woocommerce']);
    assert.equal((await (await site.call('cms/v2/plugins/seo/seo', { auth: admin })).json()).status, 'inactive', 'nothing was activated');
    const res = await call('install-plugins?plugins[]=wordpress-seo&plugins[]=kadence-blocks&key=site1');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.activated, ['seo']);
    assert.ok(res.body.already_active.includes('design-library'));
    assert.equal((await site.call('seo/v1')).status, 200, 'the SEO routes are served again');
    const one = await call('install-plugin?plugin=code-snippets');
    assert.equal(one.status, 200);
    assert.equal((await call('install-plugin')).status, 400);
  });

  it('shares the design library’s AI jobs: has_initial_jobs and get-all-local-ai read the store', async () => {
    const none = await call('has_initial_jobs');
    assert.deepEqual(none.body, { has_jobs: false, ready: false, contexts: {} });
    const local = await call('get-all-local-ai');
    assert.deepEqual(local.body, { ready: true, contexts: {} });
  });

  it('installs widgets over stored widget options that are not JSON objects (a 500 once): they count as empty', async () => {
    const o = site.app.store.options;
    await o.set('sidebars_widgets', 'a:1:{s:9:"footer-1";a:0:{}}');
    await o.set('widget_block', 'null');
    const widgets = await call('install-widgets?key=site1&context=Acme', {});
    assert.equal(widgets.status, 200, JSON.stringify(widgets.body));
    assert.deepEqual(widgets.body, { sidebars: { 'sidebar-1': 1 }, inactive: { 'footer-1': 1 } });
    assert.match(String(await o.get('widget_block')), /Acme Dental, since 1990/);
  });
});
