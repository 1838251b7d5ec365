import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';

// Classic menus (menus, menu-items, menu-locations), block navigation posts (navigation), and the
// theme showing the menus assigned to its locations, each answer as WordPress 6.1 gives it.

type Obj = Record<string, any>;

const w: { editor?: TestUser; author?: TestUser; subscriber?: TestUser; page?: Obj; child?: Obj; post?: Obj; category?: Obj } = {};

const server = useServer({}, async (s) => {
  w.editor = await userAuth(s, 'editor');
  w.author = await userAuth(s, 'author');
  w.subscriber = await userAuth(s, 'subscriber');
  const make = async (path: string, json: Obj) => (await s.call(path, { json, auth: s.admin })).json() as Promise<Obj>;
  w.page = await make('cms/v2/pages', { title: 'About us', status: 'publish' });
  w.child = await make('cms/v2/pages', { title: 'Team', status: 'publish', parent: w.page.id });
  w.post = await make('cms/v2/posts', { title: 'Hello menus', status: 'publish' });
  w.category = await make('cms/v2/categories', { name: 'Tutorials' });
});

async function call(path: string, init: { method?: string; json?: Obj; auth?: string } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await server.call(path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

const admin = (path: string, method?: string, json?: Obj) => call(path, { method, json, auth: server.admin });

function error(r: { status: number; body: any }, status: number, code: string, message: string): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.code, code);
  assert.equal(r.body.message, message);
  assert.equal(r.body.data.status, status);
}

const api = (path: string) => `${server.api}cms/v2/${path}`;
const MENU_KEYS = ['id', 'description', 'name', 'slug', 'meta', 'locations', 'auto_add', '_links'];
const ITEM_KEYS = ['id', 'title', 'status', 'url', 'attr_title', 'description', 'type', 'type_label', 'object', 'object_id', 'parent', 'menu_order', 'target', 'classes', 'xfn', 'invalid', 'meta', 'menus', '_links'];

describe('menus (WP_REST_Menus_Controller)', () => {
  it('is read by who may edit the theme or posts, written by who may edit the theme', async () => {
    error(await call('cms/v2/menus'), 401, 'rest_cannot_view', 'Sorry, you are not allowed to view menus.');
    error(await call('cms/v2/menus', { auth: w.subscriber!.auth }), 403, 'rest_cannot_view', 'Sorry, you are not allowed to view menus.');
    assert.equal((await call('cms/v2/menus', { auth: w.author!.auth })).status, 200);
    error(await call('cms/v2/menus?context=edit', { auth: w.author!.auth }), 403, 'rest_forbidden_context', 'Sorry, you are not allowed to edit terms in this taxonomy.');
    error(await call('cms/v2/menus', { json: { name: 'Nope' } }), 401, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');
    error(await call('cms/v2/menus', { json: { name: 'Nope' }, auth: w.editor!.auth }), 403, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');
  });

  it('creates a menu with its locations and auto_add, and refuses what WordPress refuses', async () => {
    const r = await admin('cms/v2/menus', 'POST', { name: 'Main Menu', description: 'The header menu', locations: ['primary'], auto_add: true });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const id = r.body.id as number;
    assert.equal(r.headers.get('location'), api(`menus/${id}`));
    assert.deepEqual(Object.keys(r.body), MENU_KEYS);
    assert.deepEqual({ ...r.body, _links: undefined }, { id, description: 'The header menu', name: 'Main Menu', slug: 'main-menu', meta: [], locations: ['primary'], auto_add: true, _links: undefined });
    assert.deepEqual(r.body._links, {
      self: [{ href: api(`menus/${id}`) }],
      collection: [{ href: api('menus') }],
      about: [{ href: api('taxonomies/nav_menu') }],
      'wp:post_type': [{ href: api(`menu-items?menus=${id}`) }],
      'wp:menu-location': [{ href: api('menu-locations/primary'), embeddable: true }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    });

    const dup = await admin('cms/v2/menus', 'POST', { name: 'Main Menu' });
    error(dup, 400, 'menu_exists', 'The menu name <strong>Main Menu</strong> conflicts with another menu name. Please try another.');
    assert.deepEqual(dup.body.data, { status: 400, term_id: id });
    // WordPress 6.1: the id added first with add_data stays as additional_data
    assert.deepEqual(dup.body.additional_data, [id]);
    const badLocation = await admin('cms/v2/menus', 'POST', { name: 'Other', locations: ['sidebar'] });
    error(badLocation, 400, 'rest_invalid_param', 'Invalid parameter(s): locations');
    assert.deepEqual(badLocation.body.data.params, { locations: 'Invalid menu location.' });
    assert.deepEqual(badLocation.body.data.details, { locations: { code: 'rest_invalid_menu_location', message: 'Invalid menu location.', data: { location: 'sidebar' } } });
    error(await admin('cms/v2/menus', 'POST', { name: 'Other', parent: id }), 400, 'rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.');
    error(await admin('cms/v2/menus', 'POST', { name: '  ' }), 400, 'empty_term_name', 'A name is required for this term.');
    error(await admin('cms/v2/menus', 'POST', {}), 400, 'rest_missing_callback_param', 'Missing parameter(s): name');

    const embed = await admin(`cms/v2/menus/${id}?context=embed`);
    assert.deepEqual(Object.keys(embed.body), ['id', 'name', 'slug', '_links']);
    error(await admin('cms/v2/menus/999999'), 404, 'rest_term_invalid', 'Term does not exist.');
    error(await admin(`cms/v2/menus/${w.category!.id}`), 404, 'rest_term_invalid', 'Term does not exist.');
    const list = await admin('cms/v2/menus');
    assert.deepEqual(list.body.map((m: Obj) => m.name), ['Main Menu']);
    assert.equal(list.headers.get('x-wp-total'), '1');
    await admin(`cms/v2/menus/${id}`, 'DELETE', { force: true });
  });

  it('updates name (the slug follows), locations and auto_add; deletes only with force, emptying its locations', async () => {
    const { body: menu } = await admin('cms/v2/menus', 'POST', { name: 'Links', locations: ['primary', 'footer'] });
    const { body: other } = await admin('cms/v2/menus', 'POST', { name: 'Other links' });
    const item = await admin('cms/v2/menu-items', 'POST', { title: 'Docs', url: 'https://example.com/docs', menus: menu.id });
    const r = await admin(`cms/v2/menus/${menu.id}`, 'PUT', { name: 'Useful links', locations: ['footer'], auto_add: false });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual({ name: r.body.name, slug: r.body.slug, locations: r.body.locations, auto_add: r.body.auto_add }, { name: 'Useful links', slug: 'useful-links', locations: ['footer'], auto_add: false });
    error(await admin(`cms/v2/menus/${menu.id}`, 'PUT', { name: 'Other links' }), 400, 'menu_exists', 'The menu name <strong>Other links</strong> conflicts with another menu name. Please try another.');
    error(await admin('cms/v2/menus/999999', 'PUT', { name: 'X' }), 404, 'rest_term_invalid', 'Term does not exist.');
    error(await call(`cms/v2/menus/${menu.id}`, { method: 'PUT', json: { name: 'X' }, auth: w.editor!.auth }), 403, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');

    error(await admin(`cms/v2/menus/${menu.id}`, 'DELETE'), 501, 'rest_trash_not_supported', "Menus do not support trashing. Set 'force=true' to delete.");
    const gone = await admin(`cms/v2/menus/${menu.id}?force=true`, 'DELETE');
    assert.equal(gone.status, 200);
    assert.equal(gone.body.deleted, true);
    // the prepared response's get_data(): no links
    assert.deepEqual(Object.keys(gone.body.previous), MENU_KEYS.filter((k) => k !== '_links'));
    assert.equal(gone.body.previous.name, 'Useful links');
    error(await admin(`cms/v2/menu-items/${item.body.id}`), 404, 'rest_post_invalid_id', 'Invalid post ID.');
    assert.equal((await admin('cms/v2/menu-locations/footer')).body.menu, 0);
    await admin(`cms/v2/menus/${other.id}?force=true`, 'DELETE');
  });

  it('is a taxonomy of menu items, edited with edit_theme_options', async () => {
    const taxonomies = (await call('cms/v2/taxonomies')).body;
    assert.deepEqual(Object.keys(taxonomies), ['category', 'post_tag', 'nav_menu']);
    assert.deepEqual({ ...taxonomies.nav_menu, _links: undefined }, {
      description: '', hierarchical: false, name: 'Navigation Menus', slug: 'nav_menu', types: ['nav_menu_item'], rest_base: 'menus', rest_namespace: 'cms/v2', _links: undefined,
    });
    const edit = (await admin('cms/v2/taxonomies/nav_menu?context=edit')).body;
    assert.deepEqual(edit.capabilities, { manage_terms: 'edit_theme_options', edit_terms: 'edit_theme_options', delete_terms: 'edit_theme_options', assign_terms: 'edit_theme_options' });
    assert.deepEqual(edit.visibility, { public: false, publicly_queryable: false, show_admin_column: false, show_in_nav_menus: false, show_in_quick_edit: false, show_ui: false });
    error(await call('cms/v2/taxonomies/nav_menu?context=edit', { auth: w.editor!.auth }), 403, 'rest_forbidden_context', 'Sorry, you are not allowed to manage terms in this taxonomy.');
    assert.deepEqual(Object.keys((await call('cms/v2/taxonomies?context=edit', { auth: w.editor!.auth })).body), ['category', 'post_tag']);
    const type = (await admin('cms/v2/types/nav_menu_item?context=edit')).body;
    assert.equal(type.capabilities.edit_posts, 'edit_theme_options');
    assert.deepEqual(type.taxonomies, ['nav_menu']);
  });
});

describe('menu-items (WP_REST_Menu_Items_Controller)', () => {
  it('creates custom, post, term and archive items with WordPress fields and links', async () => {
    const { body: menu } = await admin('cms/v2/menus', 'POST', { name: 'Items menu' });
    const custom = await admin('cms/v2/menu-items', 'POST', { title: 'Home', url: 'https://example.com/', menus: menu.id, classes: ['home-link', 'x y'], xfn: ['me'], target: '_blank', attr_title: 'Go <b>home</b>' });
    assert.equal(custom.status, 201, JSON.stringify(custom.body));
    const cid = custom.body.id as number;
    assert.equal(custom.headers.get('location'), api(`menu-items/${cid}`));
    assert.deepEqual(Object.keys(custom.body), ITEM_KEYS);
    assert.deepEqual({ ...custom.body, _links: undefined }, {
      id: cid, title: { raw: 'Home', rendered: 'Home' }, status: 'publish', url: 'https://example.com/', attr_title: 'Go home', description: '', type: 'custom', type_label: 'Custom Link',
      object: 'custom', object_id: cid, parent: 0, menu_order: 1, target: '_blank', classes: ['home-link', 'x', 'y'], xfn: ['me'], invalid: false, meta: [], menus: menu.id, _links: undefined,
    });
    assert.deepEqual(custom.body._links, {
      self: [{ href: api(`menu-items/${cid}`) }],
      collection: [{ href: api('menu-items') }],
      about: [{ href: api('types/nav_menu_item') }],
      'wp:term': [{ taxonomy: 'nav_menu', embeddable: true, href: api(`menus?post=${cid}`) }],
      // get_available_actions in edit context (a create answers in edit): nav_menu_item's caps and
      // nav_menu's are edit_theme_options, the flat taxonomy's create is its assign_terms
      'wp:action-publish': [{ href: api(`menu-items/${cid}`) }],
      'wp:action-unfiltered-html': [{ href: api(`menu-items/${cid}`) }],
      'wp:action-create-menus': [{ href: api(`menu-items/${cid}`) }],
      'wp:action-assign-menus': [{ href: api(`menu-items/${cid}`) }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    });
    // view context has no actions
    assert.deepEqual(Object.keys((await admin(`cms/v2/menu-items/${cid}`)).body._links), ['self', 'collection', 'about', 'wp:term', 'curies']);

    const page = await admin('cms/v2/menu-items', 'POST', { type: 'post_type', object_id: w.page!.id, menus: menu.id, parent: cid, menu_order: 2 });
    assert.equal(page.status, 201, JSON.stringify(page.body));
    assert.deepEqual(
      { title: page.body.title, url: page.body.url, type: page.body.type, type_label: page.body.type_label, object: page.body.object, object_id: page.body.object_id, parent: page.body.parent, menu_order: page.body.menu_order, classes: page.body.classes, xfn: page.body.xfn },
      { title: { raw: 'About us', rendered: 'About us' }, url: w.page!.link, type: 'post_type', type_label: 'Page', object: 'page', object_id: w.page!.id, parent: cid, menu_order: 2, classes: [''], xfn: [''] },
    );
    assert.deepEqual(page.body._links['wp:menu-item-object'], [{ href: api(`pages/${w.page!.id}`), post_type: 'page', embeddable: true }]);
    assert.deepEqual(Object.keys(page.body._links), ['self', 'collection', 'about', 'wp:term', 'wp:menu-item-object', 'wp:action-publish', 'wp:action-unfiltered-html', 'wp:action-create-menus', 'wp:action-assign-menus', 'curies']);

    const term = await admin('cms/v2/menu-items', 'POST', { type: 'taxonomy', object_id: w.category!.id, title: 'Learn', menus: menu.id, menu_order: 3 });
    assert.deepEqual({ title: term.body.title.raw, url: term.body.url, object: term.body.object, type_label: term.body.type_label }, { title: 'Learn', url: w.category!.link, object: 'category', type_label: 'Category' });
    assert.deepEqual(term.body._links['wp:menu-item-object'], [{ href: api(`categories/${w.category!.id}`), taxonomy: 'category', embeddable: true }]);
    const archive = await admin('cms/v2/menu-items', 'POST', { type: 'post_type_archive', object: 'post', menus: menu.id, menu_order: 4 });
    assert.deepEqual({ title: archive.body.title.raw, url: archive.body.url, type_label: archive.body.type_label }, { title: 'Post Archives', url: `${server.home}/`, type_label: 'Post Type Archive' });

    assert.deepEqual((await admin(`cms/v2/menus?post=${cid}`)).body.map((m: Obj) => m.id), [menu.id], 'the wp:term link lists the menu of the item');

    const list = await admin(`cms/v2/menu-items?menus=${menu.id}`);
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('x-wp-total'), '4');
    assert.deepEqual(list.body.map((i: Obj) => i.title.rendered), ['Home', 'About us', 'Learn', 'Post Archives']);
    assert.equal(list.body[0].title.raw, undefined, 'view context has no raw title');
    assert.deepEqual((await admin(`cms/v2/menu-items?menus=${menu.id}&orderby=menu_order&order=desc&per_page=1`)).body.map((i: Obj) => i.id), [archive.body.id]);
    assert.deepEqual((await admin(`cms/v2/menu-items?menus_exclude=${menu.id}`)).body, []);
    assert.equal((await admin(`cms/v2/menu-items?menus[terms][]=${menu.id}&menus[operator]=AND`)).body.length, 4);
    error(await admin('cms/v2/menu-items?menus[nope]=1'), 400, 'rest_invalid_param', 'Invalid parameter(s): menus');

    // the page it links to goes to the trash: the item is invalid
    await admin(`cms/v2/pages/${w.child!.id}`, 'DELETE');
    const stale = await admin('cms/v2/menu-items', 'POST', { type: 'post_type', object_id: w.child!.id, menus: menu.id });
    assert.equal(stale.body.invalid, true);
    await admin(`cms/v2/menus/${menu.id}?force=true`, 'DELETE');
  });

  it('answers WordPress errors for bad items', async () => {
    const { body: menu } = await admin('cms/v2/menus', 'POST', { name: 'Errors menu' });
    error(await admin('cms/v2/menu-items', 'POST', { url: 'https://example.com/', menus: menu.id }), 400, 'rest_title_required', 'The title is required when using a custom menu item type.');
    error(await admin('cms/v2/menu-items', 'POST', { title: 'No link', menus: menu.id }), 400, 'rest_url_required', 'The url is required when using a custom menu item type.');
    error(await admin('cms/v2/menu-items', 'POST', { type: 'post_type', object_id: 999999, menus: menu.id }), 400, 'rest_post_invalid_id', 'Invalid post ID.');
    error(await admin('cms/v2/menu-items', 'POST', { type: 'taxonomy', object_id: 999999, menus: menu.id }), 400, 'rest_term_invalid_id', 'Invalid term ID.');
    error(await admin('cms/v2/menu-items', 'POST', { type: 'post_type_archive', object: 'nope', menus: menu.id }), 400, 'rest_post_invalid_type', 'Invalid post type.');
    error(await admin('cms/v2/menu-items', 'POST', { title: 'X', url: 'https://example.com/', menus: 999999 }), 400, 'invalid_menu_id', 'Invalid menu ID.');
    error(await admin('cms/v2/menu-items', 'POST', { title: 'X', url: 'https://example.com/', parent: -9 }), 400, 'rest_invalid_param', 'Invalid parameter(s): parent');
    error(await admin('cms/v2/menu-items', 'POST', { title: 'X', url: 'https://example.com/', target: 'top' }), 400, 'rest_invalid_param', 'Invalid parameter(s): target');
    error(await admin('cms/v2/menu-items', 'POST', { id: 5, title: 'X', url: 'https://example.com/' }), 400, 'rest_post_exists', 'Cannot create existing post.');
    error(await admin(`cms/v2/menu-items/${w.post!.id}`), 404, 'rest_post_invalid_id', 'Invalid post ID.');
    error(await admin(`cms/v2/menu-items/${w.post!.id}`, 'PUT', { title: 'X' }), 404, 'rest_post_invalid_id', 'Invalid post ID.');
    error(await admin('cms/v2/menu-items/999999?force=true', 'DELETE'), 404, 'rest_post_invalid_id', 'Invalid post ID.');
    await admin(`cms/v2/menus/${menu.id}?force=true`, 'DELETE');
  });

  it('is read by who may edit posts, written by who may edit the theme; updates keep what is not sent', async () => {
    const { body: menu } = await admin('cms/v2/menus', 'POST', { name: 'Access menu' });
    const { body: item } = await admin('cms/v2/menu-items', 'POST', { title: 'Blog', url: 'https://example.com/blog', menus: menu.id, description: 'All\nposts' });
    assert.equal(item.description, 'All posts');
    error(await call(`cms/v2/menu-items/${item.id}`), 401, 'rest_cannot_view', 'Sorry, you are not allowed to view menu items.');
    error(await call('cms/v2/menu-items', { auth: w.subscriber!.auth }), 403, 'rest_cannot_view', 'Sorry, you are not allowed to view menu items.');
    assert.equal((await call(`cms/v2/menu-items/${item.id}`, { auth: w.author!.auth })).status, 200);
    error(await call(`cms/v2/menu-items/${item.id}?context=edit`, { auth: w.author!.auth }), 403, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
    error(await call('cms/v2/menu-items', { json: { title: 'X', url: 'https://example.com/' }, auth: w.editor!.auth }), 403, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
    error(await call(`cms/v2/menu-items/${item.id}`, { method: 'PUT', json: { title: 'X' }, auth: w.editor!.auth }), 403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');

    const updated = await admin(`cms/v2/menu-items/${item.id}`, 'PUT', { title: 'Journal', status: 'pending' });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual({ title: updated.body.title, url: updated.body.url, status: updated.body.status, menus: updated.body.menus, description: updated.body.description }, { title: { raw: 'Journal', rendered: 'Journal' }, url: 'https://example.com/blog', status: 'draft', menus: menu.id, description: 'All posts' });
    assert.deepEqual((await admin(`cms/v2/menu-items?menus=${menu.id}`)).body, [], 'a draft item is not listed by default');
    assert.deepEqual((await admin(`cms/v2/menu-items?menus=${menu.id}&status=draft`)).body.map((i: Obj) => i.id), [item.id]);
    // sanitize_post_statuses' refusal, reported by sanitize_params before the permission check
    const forbiddenStatus = await call(`cms/v2/menu-items?status=draft`, { auth: w.author!.auth });
    error(forbiddenStatus, 400, 'rest_invalid_param', 'Invalid parameter(s): status');
    assert.deepEqual(forbiddenStatus.body.data.details, { status: { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: 403 } } });

    error(await admin(`cms/v2/menu-items/${item.id}`, 'DELETE'), 501, 'rest_trash_not_supported', "Menu items do not support trashing. Set 'force=true' to delete.");
    const gone = await admin(`cms/v2/menu-items/${item.id}?force=true`, 'DELETE');
    assert.equal(gone.status, 200);
    assert.equal(gone.body.deleted, true);
    assert.deepEqual(gone.body.previous.title, { rendered: 'Journal' });
    error(await admin(`cms/v2/menu-items/${item.id}`), 404, 'rest_post_invalid_id', 'Invalid post ID.');
    await admin(`cms/v2/menus/${menu.id}?force=true`, 'DELETE');
  });
});

describe('menus in a batch', () => {
  it('creates a menu and its items in one batch/v1 request, all or nothing with require-all-validate', async () => {
    const { body: menu } = await admin('cms/v2/menus', 'POST', { name: 'Batched' });
    const item = (title: string) => ({ path: '/cms/v2/menu-items', body: { title, url: `https://example.com/${title}`, menus: menu.id } });
    const r = await call('batch/v1', { json: { requests: [item('one'), item('two')] }, auth: server.admin });
    assert.equal(r.status, 207);
    assert.deepEqual(r.body.responses.map((x: Obj) => x.status), [201, 201]);
    assert.deepEqual((await admin(`cms/v2/menu-items?menus=${menu.id}`)).body.map((i: Obj) => i.title.rendered), ['one', 'two']);
    const bad = await call('batch/v1', { json: { validation: 'require-all-validate', requests: [item('three'), { path: '/cms/v2/menu-items', body: { title: 'x', target: 'top' } }] }, auth: server.admin });
    assert.equal(bad.body.failed, 'validation');
    assert.equal(bad.body.responses[0], null);
    assert.equal(bad.body.responses[1].body.code, 'rest_invalid_param');
    assert.equal((await admin(`cms/v2/menu-items?menus=${menu.id}`)).body.length, 2, 'nothing of a batch that fails validation is stored');
    await admin(`cms/v2/menus/${menu.id}?force=true`, 'DELETE');
  });
});

describe('menus follow the content they link to', () => {
  it('a top-level page published for the first time joins the auto_add menus, at the end', async () => {
    const { body: auto } = await admin('cms/v2/menus', 'POST', { name: 'Auto pages', auto_add: true });
    const { body: manual } = await admin('cms/v2/menus', 'POST', { name: 'Manual pages' });
    await admin('cms/v2/menu-items', 'POST', { title: 'First', url: 'https://example.com/', menus: auto.id, menu_order: 5 });
    const itemsOf = async (menu: number) => (await admin(`cms/v2/menu-items?menus=${menu}&context=edit`)).body.map((i: Obj) => [i.title.raw, i.type, i.object, i.menu_order]);

    const { body: fresh } = await admin('cms/v2/pages', 'POST', { title: 'Fresh page', status: 'publish' });
    assert.deepEqual(await itemsOf(auto.id), [['First', 'custom', 'custom', 5], ['Fresh page', 'post_type', 'page', 6]]);
    assert.deepEqual(await itemsOf(manual.id), []);
    // a child page, a draft, and a second save of a published page add nothing
    const { body: child } = await admin('cms/v2/pages', 'POST', { title: 'Child page', status: 'publish', parent: fresh.id });
    const { body: draft } = await admin('cms/v2/pages', 'POST', { title: 'Draft page', status: 'draft' });
    await admin(`cms/v2/pages/${fresh.id}`, 'PUT', { title: 'Fresh page, edited' });
    assert.deepEqual((await itemsOf(auto.id)).map((i: unknown[]) => i[0]), ['First', 'Fresh page, edited']);
    // the draft published later joins then
    await admin(`cms/v2/pages/${draft.id}`, 'PUT', { status: 'publish' });
    assert.deepEqual((await itemsOf(auto.id)).map((i: unknown[]) => i[0]), ['First', 'Fresh page, edited', 'Draft page']);
    for (const p of [child, fresh, draft]) await admin(`cms/v2/pages/${p.id}?force=true`, 'DELETE');
    await admin(`cms/v2/menus/${auto.id}?force=true`, 'DELETE');
    await admin(`cms/v2/menus/${manual.id}?force=true`, 'DELETE');
  });

  it('the items linking to a deleted page or term are deleted with it', async () => {
    const { body: menu } = await admin('cms/v2/menus', 'POST', { name: 'Linked' });
    const { body: page } = await admin('cms/v2/pages', 'POST', { title: 'Short-lived', status: 'publish' });
    const { body: category } = await admin('cms/v2/categories', 'POST', { name: 'Short-lived category' });
    const { body: pageItem } = await admin('cms/v2/menu-items', 'POST', { type: 'post_type', object_id: page.id, menus: menu.id });
    const { body: termItem } = await admin('cms/v2/menu-items', 'POST', { type: 'taxonomy', object_id: category.id, menus: menu.id });
    const { body: other } = await admin('cms/v2/menu-items', 'POST', { title: 'Stays', url: 'https://example.com/', menus: menu.id });
    // in the trash, the page's item stays, marked invalid
    await admin(`cms/v2/pages/${page.id}`, 'DELETE');
    assert.equal((await admin(`cms/v2/menu-items/${pageItem.id}`)).body.invalid, true);
    await admin(`cms/v2/pages/${page.id}?force=true`, 'DELETE');
    await admin(`cms/v2/categories/${category.id}?force=true`, 'DELETE');
    error(await admin(`cms/v2/menu-items/${pageItem.id}`), 404, 'rest_post_invalid_id', 'Invalid post ID.');
    error(await admin(`cms/v2/menu-items/${termItem.id}`), 404, 'rest_post_invalid_id', 'Invalid post ID.');
    assert.equal((await admin(`cms/v2/menu-items/${other.id}`)).status, 200);
    await admin(`cms/v2/menus/${menu.id}?force=true`, 'DELETE');
  });
});

describe('menu-locations (WP_REST_Menu_Locations_Controller)', () => {
  it("lists the theme's primary and footer locations with their menus", async () => {
    error(await call('cms/v2/menu-locations'), 401, 'rest_cannot_view', 'Sorry, you are not allowed to view menu locations.');
    error(await call('cms/v2/menu-locations/primary', { auth: w.editor!.auth }), 403, 'rest_cannot_view', 'Sorry, you are not allowed to view menu locations.');
    error(await admin('cms/v2/menu-locations/sidebar'), 404, 'rest_menu_location_invalid', 'Invalid menu location.');
    const { body: menu } = await admin('cms/v2/menus', 'POST', { name: 'Located', locations: ['primary'] });
    const list = await admin('cms/v2/menu-locations');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, {
      primary: {
        name: 'primary', description: 'Primary menu', menu: menu.id,
        _links: { self: [{ href: api('menu-locations/primary') }], collection: [{ href: api('menu-locations') }], 'wp:menu': [{ href: api(`menus/${menu.id}`), embeddable: true }], curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }] },
      },
      footer: { name: 'footer', description: 'Footer menu', menu: 0, _links: { self: [{ href: api('menu-locations/footer') }], collection: [{ href: api('menu-locations') }] } },
    });
    assert.equal((await admin('cms/v2/menu-locations/primary?context=embed')).body.menu, menu.id);
    await admin(`cms/v2/menus/${menu.id}?force=true`, 'DELETE');
    assert.equal((await admin('cms/v2/menu-locations/primary')).body.menu, 0);
  });
});

describe('navigation (wp_navigation through WP_REST_Posts_Controller)', () => {
  it('stores block navigation menus, written by who may edit the theme', async () => {
    error(await call('cms/v2/navigation', { json: { title: 'Nav' }, auth: w.editor!.auth }), 403, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
    const r = await admin('cms/v2/navigation', 'POST', { title: 'Header navigation', content: '<!-- wp:navigation-link {"label":"Home","url":"/"} /-->', status: 'publish' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const id = r.body.id as number;
    assert.equal(r.headers.get('location'), api(`navigation/${id}`));
    assert.deepEqual(Object.keys(r.body), ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'password', 'slug', 'status', 'type', 'link', 'title', 'content', 'template', '_links']);
    assert.deepEqual({ type: r.body.type, slug: r.body.slug, status: r.body.status, title: r.body.title.raw }, { type: 'cms_navigation', slug: 'header-navigation', status: 'publish', title: 'Header navigation' });
    assert.equal(r.body._links.author, undefined, 'a navigation menu has no author link');
    assert.deepEqual(r.body._links.about, [{ href: api('types/cms_navigation') }]);

    const list = await call('cms/v2/navigation');
    assert.deepEqual(list.body.map((n: Obj) => n.id), [id]);
    assert.deepEqual(Object.keys(list.body[0]).filter((k) => k !== '_links'), ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'content', 'template']);
    error(await call('cms/v2/navigation?context=edit', { auth: w.editor!.auth }), 403, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.');
    // not a viewable type: no `alternate` Link replaces the API root's (WordPress 6.1's header)
    const single = await call(`cms/v2/navigation/${id}`);
    assert.equal(single.headers.get('link'), `<${server.api}>; rel="https://api.w.org/"`);
    const updated = await admin(`cms/v2/navigation/${id}`, 'PUT', { title: 'Main navigation' });
    assert.equal(updated.body.title.raw, 'Main navigation');
    error(await call(`cms/v2/navigation/${id}`, { method: 'DELETE', auth: w.editor!.auth }), 403, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
    assert.equal((await admin(`cms/v2/navigation/${id}`, 'DELETE')).body.status, 'trash');
    assert.equal((await admin(`cms/v2/navigation/${id}?force=true`, 'DELETE')).body.deleted, true);
    error(await admin(`cms/v2/navigation/${w.post!.id}`), 404, 'rest_post_invalid_id', 'Invalid post ID.');
  });
});

describe('the theme shows the menus assigned to its locations', () => {
  it('the primary menu replaces the page list in the header, nested, with the current item marked; the footer menu shows in the footer', async () => {
    const header = async (url: string) => {
      const html = await (await fetch(url)).text();
      return { html, nav: html.match(/<nav class="main-navigation"[\s\S]*?<\/nav>/)?.[0] ?? '' };
    };
    // no menu assigned: the published top-level pages
    assert.match((await header(`${server.home}/`)).nav, /^<nav class="main-navigation" aria-label="Main menu"><button class="menu-toggle" type="button" aria-controls="main-navigation-list" aria-expanded="false">Menu<\/button><ul id="main-navigation-list" class="menu"><li><a href="[^"]*\/about-us\/">About us<\/a><\/li><li><a href="[^"]*\/sample-page\/">Sample Page<\/a><\/li><\/ul><\/nav>$/);

    const { body: menu } = await admin('cms/v2/menus', 'POST', { name: 'Site menu', locations: ['primary'] });
    const { body: top } = await admin('cms/v2/menu-items', 'POST', { title: 'Start', url: `${server.home}/`, menus: menu.id, menu_order: 1 });
    const { body: about } = await admin('cms/v2/menu-items', 'POST', { type: 'post_type', object_id: w.page!.id, menus: menu.id, menu_order: 2 });
    const { body: hello } = await admin('cms/v2/menu-items', 'POST', { type: 'post_type', object_id: w.post!.id, parent: about.id, menus: menu.id, menu_order: 3, classes: ['featured'] });
    await admin('cms/v2/menu-items', 'POST', { title: 'Hidden', url: 'https://example.com/hidden', menus: menu.id, status: 'draft', menu_order: 4 });

    const onPost = await header(w.post!.link);
    assert.equal(
      onPost.nav,
      `<nav class="main-navigation" aria-label="Main menu"><button class="menu-toggle" type="button" aria-controls="menu-site-menu" aria-expanded="false">Menu</button><ul id="menu-site-menu" class="menu">` +
        `<li id="menu-item-${top.id}" class="menu-item menu-item-type-custom menu-item-object-custom menu-item-${top.id}"><a href="${server.home}/">Start</a></li>` +
        `<li id="menu-item-${about.id}" class="menu-item menu-item-type-post_type menu-item-object-page current-menu-ancestor current-menu-parent menu-item-has-children menu-item-${about.id}"><a href="${w.page!.link}">About us</a>` +
        `<ul class="sub-menu"><li id="menu-item-${hello.id}" class="featured menu-item menu-item-type-post_type menu-item-object-post current-menu-item menu-item-${hello.id}"><a href="${w.post!.link}" aria-current="page">Hello menus</a></li></ul></li>` +
        `</ul></nav>`,
    );
    assert.doesNotMatch(onPost.html, /footer-navigation/);

    const { body: footer } = await admin('cms/v2/menus', 'POST', { name: 'Legal', locations: ['footer'] });
    await admin('cms/v2/menu-items', 'POST', { title: 'Imprint', url: 'https://example.com/imprint', menus: footer.id, target: '_blank' });
    const home = await header(`${server.home}/`);
    assert.match(home.nav, /<li id="menu-item-\d+" class="menu-item menu-item-type-custom menu-item-object-custom current-menu-item menu-item-\d+"><a href="[^"]+" aria-current="page">Start<\/a><\/li>/);
    assert.match(home.html, /<footer class="site-footer">\n<nav class="footer-navigation" aria-label="Footer menu"><ul id="menu-legal" class="menu"><li id="menu-item-\d+" class="menu-item menu-item-type-custom menu-item-object-custom menu-item-\d+"><a target="_blank" rel="noopener" href="https:\/\/example.com\/imprint">Imprint<\/a><\/li><\/ul><\/nav>/);

    // the menu moves to the footer over REST: the header falls back to the page list
    await admin(`cms/v2/menus/${menu.id}`, 'POST', { locations: [] });
    assert.match((await header(`${server.home}/`)).nav, /^<nav class="main-navigation" aria-label="Main menu"><button class="menu-toggle" type="button" aria-controls="main-navigation-list" aria-expanded="false">Menu<\/button><ul id="main-navigation-list" class="menu"><li><a href="[^"]*\/about-us\/">About us<\/a><\/li><li><a href="[^"]*\/sample-page\/">Sample Page<\/a><\/li><\/ul><\/nav>$/);
    await admin(`cms/v2/menus/${menu.id}?force=true`, 'DELETE');
    await admin(`cms/v2/menus/${footer.id}?force=true`, 'DELETE');
  });
});
