import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth, userAuth, type TestUser } from '../helpers/auth.ts';

// WP_REST_Sidebars_Controller, WP_REST_Widgets_Controller and WP_REST_Widget_Types_Controller over
// real HTTP, and the theme's sidebar that the stored widgets make. The tests run in order on one
// site: each starts from what the one before left.

let server: TestServer;
let admin: string;
let editor: TestUser;
let ns: string;

const MANAGE = { code: 'rest_cannot_manage_widgets', message: 'Sorry, you are not allowed to manage widgets on this site.' };

async function call(path: string, init: { method?: string; json?: unknown; auth?: string | null } = {}) {
  const res = await server.call(`cms/v2/${path}`, { method: init.method, json: init.json, auth: init.auth === null ? undefined : (init.auth ?? admin) });
  return { status: res.status, body: (await res.json()) as any };
}

async function fails(res: { status: number; body: any }, status: number, code: string, message: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.code, code);
  assert.equal(res.body.message, message);
  assert.equal(res.body.data.status, status);
}

/** The rendered sidebar of the home page, or '' when the page has none. */
async function homeSidebar(): Promise<string> {
  const html = await (await fetch(`${server.home}/`)).text();
  const start = html.indexOf('<aside class="widget-area"');
  return start < 0 ? '' : html.slice(start, html.indexOf('</aside>', start) + '</aside>'.length);
}

const searchWidget = (id: string, title: string, inputId = 'sidebar-search') => `<section id="${id}" class="widget widget_search">
<h2 class="widget-title">${title}</h2>
<form role="search" method="get" class="search-form" action="${server.home}/">
<label class="screen-reader-text" for="${inputId}">Search for:</label>
<input type="search" id="${inputId}" class="search-field" name="s" value="">
<button type="submit" class="search-submit">Search</button>
</form>
</section>`;

let helloUrl: string;
const recentWidget = () => `<section id="recent-posts-2" class="widget widget_recent_entries">
<h2 class="widget-title">Recent Posts</h2>
<ul><li><a href="${helloUrl}">Hello world!</a></li></ul>
</section>`;
const categoriesWidget = (count = '') => `<section id="categories-2" class="widget widget_categories">
<h2 class="widget-title">Categories</h2>
<ul><li><a href="${server.home}/category/uncategorized/">Uncategorized</a>${count}</li></ul>
</section>`;

before(async () => {
  server = await startTestServer();
  admin = await adminAuth(server);
  editor = await userAuth(server, 'editor');
  ns = `${server.api}cms/v2`;
  const posts = await call('posts?slug=hello-world');
  helloUrl = posts.body[0].link;
});
after(() => server.close());

describe('cms/v2 widgets', () => {
  it('refuses everyone without edit_theme_options with rest_cannot_manage_widgets', async () => {
    const routes: [string, string][] = [
      ['GET', 'sidebars'],
      ['GET', 'sidebars/sidebar-1'],
      ['PUT', 'sidebars/sidebar-1'],
      ['GET', 'widgets'],
      ['POST', 'widgets'],
      ['GET', 'widgets/search-2'],
      ['PUT', 'widgets/search-2'],
      ['DELETE', 'widgets/search-2'],
      ['GET', 'widget-types'],
      ['GET', 'widget-types/search'],
      ['POST', 'widget-types/search/encode'],
      ['POST', 'widget-types/search/render'],
    ];
    for (const [method, path] of routes) {
      await fails(await call(path, { method, auth: null }), 401, MANAGE.code, MANAGE.message);
      await fails(await call(path, { method, auth: editor.auth }), 403, MANAGE.code, MANAGE.message);
    }
  });

  it('a fresh site shows search, recent posts and categories in the theme sidebar, as the theme always did', async () => {
    assert.equal(await homeSidebar(), `<aside class="widget-area" aria-label="Sidebar">\n${searchWidget('search-2', 'Search')}\n${recentWidget()}\n${categoriesWidget()}\n</aside>`);
  });

  it('lists the inactive widgets and the theme sidebar', async () => {
    const res = await call('sidebars');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map(({ _links, ...s }: any) => s),
      [
        { id: 'wp_inactive_widgets', name: 'Inactive widgets', description: '', class: '', before_widget: '', after_widget: '', before_title: '', after_title: '', status: 'inactive', widgets: [] },
        {
          id: 'sidebar-1',
          name: 'Sidebar',
          description: 'Add widgets here to appear in your sidebar.',
          class: '',
          before_widget: '<section id="%1$s" class="widget %2$s">',
          after_widget: '</section>',
          before_title: '<h2 class="widget-title">',
          after_title: '</h2>',
          status: 'active',
          widgets: ['search-2', 'recent-posts-2', 'categories-2'],
        },
      ],
    );
    assert.deepEqual(res.body[1]._links, {
      collection: [{ href: `${ns}/sidebars` }],
      self: [{ href: `${ns}/sidebars/sidebar-1` }],
      'wp:widget': [{ href: `${ns}/widgets?sidebar=sidebar-1`, embeddable: true }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    });
    const one = await call('sidebars/sidebar-1');
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, res.body[1]);
    await fails(await call('sidebars/sidebar-9'), 404, 'rest_sidebar_not_found', 'No sidebar exists with that id.');
    await fails(await call('sidebars/sidebar-9', { method: 'PUT', json: { widgets: ['search-2'] } }), 404, 'rest_sidebar_not_found', 'No sidebar exists with that id.');
  });

  it('lists the widget types, by id', async () => {
    const res = await call('widget-types');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map(({ _links, ...t }: any) => t),
      [
        { id: 'block', name: 'Block', description: 'A widget containing a block.', is_multi: true, classname: 'widget_block' },
        { id: 'categories', name: 'Categories', description: 'A list or dropdown of categories.', is_multi: true, classname: 'widget_categories' },
        { id: 'recent-posts', name: 'Recent Posts', description: 'Your site’s most recent Posts.', is_multi: true, classname: 'widget_recent_entries' },
        { id: 'search', name: 'Search', description: 'A search form for your site.', is_multi: true, classname: 'widget_search' },
      ],
    );
    const one = await call('widget-types/search');
    assert.deepEqual(one.body, res.body[3]);
    assert.deepEqual(one.body._links, { collection: [{ href: `${ns}/widget-types` }], self: [{ href: `${ns}/widget-types/search` }] });
    await fails(await call('widget-types/archives'), 404, 'rest_widget_type_invalid', 'Invalid widget type.');
    await fails(await call('widget-types/archives/encode', { method: 'POST', json: {} }), 404, 'rest_widget_type_invalid', 'Invalid widget type.');
  });

  it('shows each widget rendered as the sidebar shows it, and its instance and form in edit context', async () => {
    const list = await call('widgets');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map(({ _links, ...w }: any) => w),
      [
        { id: 'search-2', id_base: 'search', sidebar: 'sidebar-1', rendered: searchWidget('search-2', 'Search') },
        { id: 'recent-posts-2', id_base: 'recent-posts', sidebar: 'sidebar-1', rendered: recentWidget() },
        { id: 'categories-2', id_base: 'categories', sidebar: 'sidebar-1', rendered: categoriesWidget() },
      ],
    );
    assert.deepEqual(list.body[0]._links, {
      self: [{ href: `${ns}/widgets/search-2` }],
      collection: [{ href: `${ns}/widgets` }],
      about: [{ href: `${ns}/widget-types/search`, embeddable: true }],
      'wp:sidebar': [{ href: `${ns}/sidebars/sidebar-1/` }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    });
    assert.deepEqual((await call('widgets?sidebar=wp_inactive_widgets')).body, []);

    const edit = await call('widgets/search-2?context=edit');
    assert.equal(edit.status, 200);
    assert.deepEqual(Object.keys(edit.body), ['id', 'id_base', 'sidebar', 'rendered', 'rendered_form', 'instance', '_links']);
    assert.equal(
      edit.body.rendered_form,
      '<p>\n<label for="widget-search-2-title">Title:</label>\n<input class="widefat" id="widget-search-2-title" name="widget-search[2][title]" type="text" value="Search" />\n</p>',
    );
    // base64 of the instance's JSON, signed with the site's secret
    assert.equal(edit.body.instance.encoded, Buffer.from('{"title":"Search"}').toString('base64'));
    assert.match(edit.body.instance.hash, /^[\w-]{43}$/);
    assert.deepEqual(edit.body.instance.raw, { title: 'Search' });

    const embedded = await server.call('cms/v2/widgets/search-2?_embed=about', { auth: admin });
    assert.equal(((await embedded.json()) as any)._embedded.about[0].id, 'search');

    await fails(await call('widgets/archives-2'), 404, 'rest_widget_not_found', 'No widget was found with that id.');
    await fails(await call('widgets/search-9'), 404, 'rest_widget_not_found', 'No widget was found with that id.');
  });

  it('refuses instances it cannot take with rest_invalid_widget', async () => {
    const post = (json: unknown) => call('widgets', { method: 'POST', json });
    await fails(await post({ sidebar: 'sidebar-1' }), 400, 'rest_invalid_widget', 'Widget type (id_base) is required.');
    await fails(await post({ id_base: 'archives', sidebar: 'sidebar-1' }), 400, 'rest_invalid_widget', 'The provided widget type (id_base) cannot be updated.');
    await fails(await post({ id_base: 'search', sidebar: 'sidebar-1', instance: {} }), 400, 'rest_invalid_widget', 'The provided instance is invalid. Must contain raw OR encoded and hash.');
    const forged = { encoded: Buffer.from('{"title":"Forged"}').toString('base64'), hash: 'badhash' };
    await fails(await post({ id_base: 'search', sidebar: 'sidebar-1', instance: forged }), 400, 'rest_invalid_widget', 'The provided instance is malformed.');
    await fails(await call('widgets/search-2', { method: 'PUT', json: { instance: forged } }), 400, 'rest_invalid_widget', 'The provided instance is malformed.');
    await fails(await call('widgets/archives-2', { method: 'PUT', json: { instance: { raw: {} } } }), 400, 'rest_invalid_widget', 'The provided widget type (id_base) cannot be updated.');
    // nothing was stored by any of them
    assert.deepEqual((await call('sidebars/sidebar-1')).body.widgets, ['search-2', 'recent-posts-2', 'categories-2']);
  });

  it('encodes an admin form into a signed instance that updates the widget, and the site shows it', async () => {
    const encoded = await call('widget-types/search/encode', { method: 'POST', json: { number: 2, form_data: 'widget-search%5B2%5D%5Btitle%5D=Find+<b>it</b>' } });
    assert.equal(encoded.status, 200);
    assert.deepEqual(Object.keys(encoded.body), ['form', 'preview', 'instance']);
    assert.equal(encoded.body.form, '<p>\n<label for="widget-search-2-title">Title:</label>\n<input class="widefat" id="widget-search-2-title" name="widget-search[2][title]" type="text" value="Find it" />\n</p>');
    assert.ok(encoded.body.preview.startsWith('<div class="widget widget_search">\n<h2 class="widgettitle">Find it</h2>\n<form role="search"'), encoded.body.preview);
    assert.deepEqual(encoded.body.instance.raw, { title: 'Find it' });

    const updated = await call('widgets/search-2', { method: 'PUT', json: { instance: { encoded: encoded.body.instance.encoded, hash: encoded.body.instance.hash } } });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.sidebar, 'sidebar-1');
    assert.deepEqual(updated.body.instance.raw, { title: 'Find it' });
    assert.equal(updated.body.rendered, searchWidget('search-2', 'Find it'));
    assert.ok((await homeSidebar()).includes(searchWidget('search-2', 'Find it')));

    const rendered = await call('widget-types/search/render', { method: 'POST', json: { instance: encoded.body.instance } });
    assert.equal(rendered.status, 200);
    assert.deepEqual(Object.keys(rendered.body), ['preview']);
    assert.match(rendered.body.preview, /^<!doctype html>\n<html lang="en">/);
    assert.ok(rendered.body.preview.includes('<div id="content" class="site-content">\n<div class="widget widget_search">\n<h2 class="widgettitle">Find it</h2>'));
  });

  it('moving a widget out of the sidebar takes it off the site', async () => {
    const moved = await call('widgets/recent-posts-2', { method: 'PUT', json: { sidebar: 'wp_inactive_widgets' } });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.sidebar, 'wp_inactive_widgets');
    assert.equal(moved.body.rendered, '');
    assert.deepEqual((await call('sidebars/wp_inactive_widgets')).body.widgets, ['recent-posts-2']);
    assert.equal(await homeSidebar(), `<aside class="widget-area" aria-label="Sidebar">\n${searchWidget('search-2', 'Find it')}\n${categoriesWidget()}\n</aside>`);
  });

  it('a sidebar update shows exactly the widgets listed, in order; the others become inactive', async () => {
    const res = await call('sidebars/sidebar-1', { method: 'PUT', json: { widgets: ['categories-2', 'recent-posts-2'] } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.widgets, ['categories-2', 'recent-posts-2']);
    assert.deepEqual((await call('sidebars/wp_inactive_widgets')).body.widgets, ['search-2']);
    assert.equal(await homeSidebar(), `<aside class="widget-area" aria-label="Sidebar">\n${categoriesWidget()}\n${recentWidget()}\n</aside>`);
  });

  it('creates widgets numbered after the type’s highest, from raw instances or form data', async () => {
    const block = await call('widgets', {
      method: 'POST',
      json: { id_base: 'block', sidebar: 'sidebar-1', instance: { raw: { content: '<!-- wp:paragraph -->\n<p>Open <em>daily</em></p>\n<!-- /wp:paragraph -->' } } },
    });
    assert.equal(block.status, 201, JSON.stringify(block.body));
    assert.equal(block.body.id, 'block-2');
    assert.equal(block.body.sidebar, 'sidebar-1');
    assert.equal(block.body.rendered, '<section id="block-2" class="widget widget_block widget_text"><p>Open <em>daily</em></p>\n</section>');
    assert.equal(
      block.body.rendered_form,
      '<textarea id="widget-block-2-content" name="widget-block[2][content]" class="content sync-input" hidden>&lt;!-- wp:paragraph --&gt;\n&lt;p&gt;Open &lt;em&gt;daily&lt;/em&gt;&lt;/p&gt;\n&lt;!-- /wp:paragraph --&gt;</textarea>',
    );

    const search = await call('widgets', { method: 'POST', json: { id_base: 'search', sidebar: 'sidebar-1', form_data: 'widget-search[3][title]=Look' } });
    assert.equal(search.status, 201);
    assert.equal(search.body.id, 'search-3');
    assert.deepEqual(search.body.instance.raw, { title: 'Look' });
    // no sidebar named: WordPress's default, the inactive widgets
    const inactive = await call('widgets', { method: 'POST', json: { id_base: 'categories', instance: { raw: { count: 1 } } } });
    assert.equal(inactive.status, 201);
    assert.equal(inactive.body.id, 'categories-3');
    assert.equal(inactive.body.sidebar, 'wp_inactive_widgets');
    assert.deepEqual(inactive.body.instance.raw, { title: '', count: 1, hierarchical: 0, dropdown: 0 });

    assert.deepEqual((await call('sidebars/sidebar-1')).body.widgets, ['categories-2', 'recent-posts-2', 'block-2', 'search-3']);
    assert.equal(
      await homeSidebar(),
      `<aside class="widget-area" aria-label="Sidebar">\n${categoriesWidget()}\n${recentWidget()}\n<section id="block-2" class="widget widget_block widget_text"><p>Open <em>daily</em></p>\n</section>\n${searchWidget('search-3', 'Look')}\n</aside>`,
    );
  });

  it('widget settings change what the site shows: post counts', async () => {
    const res = await call('widgets/categories-2', { method: 'PUT', json: { instance: { raw: { count: true } } } });
    assert.equal(res.status, 200);
    assert.equal(res.body.rendered, categoriesWidget(' (1)'));
    assert.ok((await homeSidebar()).includes(categoriesWidget(' (1)')));
  });

  it('deleting without force moves the widget to the inactive ones; with force it is gone', async () => {
    const soft = await call('widgets/block-2', { method: 'DELETE' });
    assert.equal(soft.status, 200);
    assert.equal(soft.body.sidebar, 'wp_inactive_widgets');
    assert.deepEqual(soft.body.instance.raw, { content: '<!-- wp:paragraph -->\n<p>Open <em>daily</em></p>\n<!-- /wp:paragraph -->' });
    assert.ok(!(await homeSidebar()).includes('block-2'));

    const hard = await call('widgets/block-2?force=true', { method: 'DELETE' });
    assert.equal(hard.status, 200);
    assert.deepEqual(Object.keys(hard.body), ['deleted', 'previous']);
    assert.equal(hard.body.deleted, true);
    assert.equal(hard.body.previous.id, 'block-2');
    assert.equal(hard.body.previous.sidebar, 'wp_inactive_widgets');
    await fails(await call('widgets/block-2'), 404, 'rest_widget_not_found', 'No widget was found with that id.');
    await fails(await call('widgets/block-2', { method: 'DELETE' }), 404, 'rest_widget_not_found', 'No widget was found with that id.');
    // the instance is gone from the option WordPress keeps it in
    const stored = JSON.parse((await server.app.store.options.get('widget_block'))!);
    assert.deepEqual(stored, { _multiwidget: 1 });
    const sidebars = JSON.parse((await server.app.store.options.get('sidebars_widgets'))!);
    assert.deepEqual(sidebars, { wp_inactive_widgets: ['search-2', 'categories-3'], 'sidebar-1': ['categories-2', 'recent-posts-2', 'search-3'], array_version: 3 });
  });

  it('takes widget writes in a batch, each step seeing the one before', async () => {
    const res = await server.call('batch/v1', {
      method: 'POST',
      auth: admin,
      json: {
        requests: [
          { method: 'POST', path: '/cms/v2/widgets', body: { id_base: 'search', sidebar: 'sidebar-1', instance: { raw: { title: 'One' } } } },
          { method: 'POST', path: '/cms/v2/widgets', body: { id_base: 'search', sidebar: 'sidebar-1', instance: { raw: { title: 'Two' } } } },
          { method: 'PUT', path: '/cms/v2/widgets/search-4', body: { sidebar: 'wp_inactive_widgets' } },
        ],
      },
    });
    assert.equal(res.status, 207);
    const { responses } = (await res.json()) as any;
    assert.deepEqual(responses.map((r: any) => [r.status, r.body.id, r.body.sidebar]), [[201, 'search-4', 'sidebar-1'], [201, 'search-5', 'sidebar-1'], [200, 'search-4', 'wp_inactive_widgets']]);
    assert.deepEqual((await call('sidebars/sidebar-1')).body.widgets, ['categories-2', 'recent-posts-2', 'search-3', 'search-5']);
  });

  it('recent posts and categories follow their settings: how many, dates, counts, hierarchy, dropdown', async () => {
    const tea = await call('categories', { method: 'POST', json: { name: 'Tea', parent: 1 } });
    assert.equal(tea.status, 201);
    const second = await call('posts', { method: 'POST', json: { title: 'Second', status: 'publish', categories: [tea.body.id] } });
    assert.equal(second.status, 201);
    const dateText = new Date(`${second.body.date}Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

    const recent = await call('widgets/recent-posts-2', { method: 'PUT', json: { instance: { raw: { title: 'Latest', number: 1, show_date: true } } } });
    assert.equal(recent.status, 200);
    assert.deepEqual(recent.body.instance.raw, { title: 'Latest', number: 1, show_date: true });
    const recentHtml = `<section id="recent-posts-2" class="widget widget_recent_entries">
<h2 class="widget-title">Latest</h2>
<ul><li><a href="${second.body.link}">Second</a> <span class="post-date">${dateText}</span></li></ul>
</section>`;
    assert.equal(recent.body.rendered, recentHtml);

    const tree = await call('widgets/categories-2', { method: 'PUT', json: { instance: { raw: { count: 1, hierarchical: 1 } } } });
    const treeHtml = `<section id="categories-2" class="widget widget_categories">
<h2 class="widget-title">Categories</h2>
<ul><li><a href="${server.home}/category/uncategorized/">Uncategorized</a> (1)<ul class="children"><li><a href="${server.home}/category/uncategorized/tea/">Tea</a> (1)</li></ul></li></ul>
</section>`;
    assert.equal(tree.body.rendered, treeHtml);
    const sidebar = await homeSidebar();
    assert.ok(sidebar.includes(recentHtml) && sidebar.includes(treeHtml), sidebar);

    const dropdown = await call('widgets/categories-2', { method: 'PUT', json: { instance: { raw: { dropdown: 1 } } } });
    assert.ok(
      dropdown.body.rendered.includes(
        `<form action="${server.home}/" method="get"><label class="screen-reader-text" for="categories-dropdown">Categories</label><select name="cat" id="categories-dropdown" class="postform"><option value="-1">Select Category</option><option class="level-0" value="${tea.body.id}">Tea</option><option class="level-0" value="1">Uncategorized</option></select></form>`,
      ),
      dropdown.body.rendered,
    );
  });

  it('the search widgets keep the text searched for, each with its own field id', async () => {
    const html = await (await fetch(`${server.home}/?s=Second`)).text();
    assert.ok(html.includes('<input type="search" id="sidebar-search" class="search-field" name="s" value="Second">'));
    assert.ok(html.includes('<input type="search" id="sidebar-search-2" class="search-field" name="s" value="Second">'));
  });

  it('widgets created at the same time each get their own number', async () => {
    const made = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => call('widgets', { method: 'POST', json: { id_base: 'block', sidebar: 'wp_inactive_widgets', instance: { raw: { content: `<p>${n}</p>` } } } })),
    );
    assert.deepEqual(made.map((r) => r.status), [201, 201, 201, 201, 201, 201]);
    // block-2 was deleted for good above: its number is free again, as next_widget_id_number finds it
    assert.deepEqual(made.map((r) => r.body.id).sort(), ['block-2', 'block-3', 'block-4', 'block-5', 'block-6', 'block-7']);
    const inactive = (await call('sidebars/wp_inactive_widgets')).body.widgets;
    for (const r of made) assert.ok(inactive.includes(r.body.id), String(inactive));
  });

  it('a removed sidebar leaves no widgets area on the site', async () => {
    const res = await call('sidebars/sidebar-1', { method: 'PUT', json: { widgets: [] } });
    assert.deepEqual(res.body.widgets, []);
    assert.equal(await homeSidebar(), '');
    const html = await (await fetch(`${server.home}/`)).text();
    assert.match(html, /<\/main>\n\n<\/div>/);
  });
});
