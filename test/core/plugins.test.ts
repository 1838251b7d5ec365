import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startTestServer, useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';
import { tableNames } from '../../src/store/portable.ts';

type Obj = Record<string, any>;

const SNIPPETS = 'code-snippets/code-snippets';
const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };

describe('plugins are activated per site, over REST, without a restart', () => {
  const site = useServer();
  const setStatus = (plugin: string, status: string, auth = site.admin) => site.call(`cms/v2/plugins/${plugin}`, { method: 'POST', json: { status }, auth });
  const index = async () => (await (await site.call('')).json()) as Obj;
  const page = async () => (await fetch(`${site.home}/`)).text();

  test('cms/v2/plugins lists the installed plugins in WordPress’s shape, for activate_plugins only', async () => {
    const res = await site.call('cms/v2/plugins', { auth: site.admin });
    assert.equal(res.status, 200);
    const list = (await res.json()) as Obj[];
    // every plugin folder of src/plugins, as folder/folder
    const installed = readdirSync(join(ROOT, 'src/plugins')).filter((n) => existsSync(join(ROOT, 'src/plugins', n, 'plugin.ts')));
    assert.deepEqual(list.map((p) => p.plugin).sort(), installed.map((n) => `${n}/${n}`).sort());
    assert.ok(installed.includes('code-snippets') && installed.includes('oembed'));
    const snippets = list.find((p) => p.plugin === SNIPPETS)!;
    assert.deepEqual(Object.keys(snippets), ['plugin', 'status', 'name', 'plugin_uri', 'author', 'author_uri', 'description', 'version', 'network_only', 'requires_wp', 'requires_php', 'textdomain', '_links']);
    assert.equal(snippets.status, 'active');
    assert.equal(snippets.name, 'Code Snippets');
    assert.equal(snippets._links.self[0].href, `${site.api}cms/v2/plugins/${SNIPPETS}`);
    assert.equal(((await (await site.call(`cms/v2/plugins/${SNIPPETS}`, { auth: site.admin })).json()) as Obj).version, snippets.version);
    assert.deepEqual((await (await site.call('cms/v2/plugins?status=inactive', { auth: site.admin })).json()) as Obj[], []);

    const anonymous = await site.call('cms/v2/plugins');
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as Obj).code, 'rest_cannot_view_plugins');
    const editor = await userAuth(site, 'editor');
    assert.equal((await setStatus(SNIPPETS, 'inactive', editor.auth)).status, 403);
    assert.equal((await site.call('cms/v2/plugins/no-such/plugin', { auth: site.admin })).status, 404);
  });

  test('deactivating code-snippets takes its routes, index entries and site output away; activating brings them back with the data', async () => {
    const css = '.from-snippet { color: rebeccapurple; }';
    const created = await site.call('code-snippets/v1/snippets', { json: { name: 'kept', scope: 'site-css', code: css, active: true }, auth: site.admin });
    assert.equal(created.status, 200);
    const { id } = (await created.json()) as Obj;
    assert.ok((await page()).includes(css));

    const off = await setStatus(SNIPPETS, 'inactive');
    assert.equal(off.status, 200);
    assert.equal(((await off.json()) as Obj).status, 'inactive');
    for (const path of ['code-snippets/v1/snippets', `code-snippets/v1/snippets/${id}`, 'code-snippets/v1']) {
      const res = await site.call(path, { auth: site.admin });
      assert.equal(res.status, 404, path);
      assert.deepEqual(await res.json(), NO_ROUTE);
    }
    const without = await index();
    assert.ok(!without.namespaces.includes('code-snippets/v1'));
    assert.ok(!Object.keys(without.routes).some((k) => k.startsWith('/code-snippets/')));
    assert.ok(without.namespaces.includes('cms/v2') && without.namespaces.includes('oembed/1.0'), 'the rest of the site is served');
    assert.ok(!(await page()).includes(css), 'its CSS no longer reaches the site');

    const on = await setStatus(SNIPPETS, 'active');
    assert.equal(((await on.json()) as Obj).status, 'active');
    const back = await site.call(`code-snippets/v1/snippets/${id}`, { auth: site.admin });
    assert.equal(back.status, 200);
    assert.equal(((await back.json()) as Obj).code, css);
    assert.ok((await index()).namespaces.includes('code-snippets/v1'));
    assert.ok((await page()).includes(css));
  });

  test('the choice is stored with the site: a restart keeps a deactivated plugin inactive', async () => {
    assert.equal((await setStatus('oembed/oembed', 'inactive')).status, 200);
    const stored = JSON.parse((await site.app.store.options.get('active_plugins'))!) as string[];
    assert.ok(stored.includes(SNIPPETS) && !stored.includes('oembed/oembed'), stored.join(','));
    const restarted = await startTestServer({ dbPath: site.dbPath });
    try {
      assert.equal((await restarted.call('oembed/1.0/embed?url=x')).status, 404);
      assert.equal((await restarted.call('code-snippets/v1/snippets/schema')).status, 200);
    } finally {
      await restarted.close();
    }
    assert.equal((await setStatus('oembed', 'active')).status, 200, 'the bare name works too');
  });
});

const FIXTURES = join(ROOT, 'test/fixtures/plugins');
const EXAMPLES = join(ROOT, 'examples/plugins');

describe('the plugin registry', () => {
  const site = useServer({
    compose: {
      plugins: [join(ROOT, 'src/plugins'), FIXTURES, EXAMPLES],
      extraNamespaces: [{ file: join(FIXTURES, 'slow/slow.yaml') }, { file: join(EXAMPLES, 'hello/hello.yaml'), handlers: join(EXAMPLES, 'hello/handlers') }],
    },
  });
  const statusOf = async (plugin: string) => ((await (await site.call(`cms/v2/plugins/${plugin}`, { auth: site.admin })).json()) as Obj).status;
  const setStatus = (plugin: string, status: string) => site.call(`cms/v2/plugins/${plugin}`, { method: 'POST', json: { status }, auth: site.admin });

  test('a plugin that throws while loading is reported by name and left inactive; the rest of the site starts', async () => {
    assert.ok(site.errors.some((e) => e.includes('plugin throws-at-load is not active') && e.includes('this plugin breaks while loading')), site.errors.join('\n'));
    assert.equal(await statusOf('throws-at-load/throws-at-load'), 'inactive');
    const refused = await setStatus('throws-at-load/throws-at-load', 'active');
    assert.equal(refused.status, 500);
    assert.match(((await refused.json()) as Obj).message, /breaks while loading/);
    assert.equal((await site.call('cms/v2/posts')).status, 200);
    assert.equal(await statusOf('hello/hello'), 'active');
  });

  test('a plugin whose post type takes a REST base already served stays inactive, and the routes it would shadow keep working', async () => {
    assert.equal(await statusOf('type-clash/type-clash'), 'inactive');
    assert.ok(site.errors.some((e) => e.includes('plugin type-clash is not active') && e.includes('REST base pages')), site.errors.join('\n'));
    const refused = await setStatus('type-clash/type-clash', 'active');
    assert.equal(refused.status, 500);
    assert.match(((await refused.json()) as Obj).message, /clashes with the post type page/);
    assert.equal((await site.call('cms/v2/pages')).status, 200);
  });

  test('a migration that breaks the table-prefix rule is undone whole, and its plugin stays inactive', async () => {
    assert.equal(await statusOf('bad-migration/bad-migration'), 'inactive');
    assert.ok(site.errors.some((e) => e.includes('plugin bad-migration is not active') && e.includes('somebody_elses')));
    const tables = await tableNames(site.app.store.db);
    assert.ok(!tables.includes('somebody_elses') && !tables.includes('bad_migration_ok'), tables.join(','));
  });

  test("a plugin's migrations run once, however often it is activated, and its data stays while it is inactive", async () => {
    const note = await site.call('hello/v1/notes', { json: { text: 'first' }, auth: site.admin });
    assert.equal(note.status, 201);
    for (const status of ['inactive', 'active', 'inactive', 'active']) assert.equal((await setStatus('hello/hello', status)).status, 200);
    const ran = await site.app.store.db.selectFrom('plugin_migrations').select(['plugin', 'name']).where('plugin', '=', 'hello').execute();
    assert.deepEqual(ran, [{ plugin: 'hello', name: '001-notes' }]);
    assert.deepEqual(((await (await site.call('hello/v1/notes')).json()) as Obj[]).map((n) => n.text), ['first']);
  });

  test('a plugin may derive its post meta from the spec the site runs with; when that fails it stays inactive with the reason', async () => {
    const created = (await (await site.call('cms/v2/posts', { json: { title: 'From the spec', meta: {} }, auth: site.admin })).json()) as Obj;
    assert.equal(created.meta.from_oembed, 'cms-spec', "a key named after a file of the spec's folder, its default read from site.yaml");
    const written = (await (await site.call(`cms/v2/posts/${created.id}`, { json: { meta: { from_oembed: 'set' } }, auth: site.admin })).json()) as Obj;
    assert.equal(written.meta.from_oembed, 'set');
    assert.equal(await statusOf('spec-meta-throws/spec-meta-throws'), 'inactive');
    assert.ok(site.errors.some((e) => e.includes('plugin spec-meta-throws is not active') && e.includes('fields/broken.yaml: a field has no name')), site.errors.join('\n'));
    const refused = await setStatus('spec-meta-throws/spec-meta-throws', 'active');
    assert.equal(refused.status, 500);
    assert.match(((await refused.json()) as Obj).message, /a field has no name/);
  });

  test('dependencies: a plugin cannot be active without the ones it depends on, nor they be deactivated under it', async () => {
    assert.equal(await statusOf('needs-base/needs-base'), 'active');
    const required = await setStatus('base/base', 'inactive');
    assert.equal(required.status, 400);
    assert.equal(((await required.json()) as Obj).code, 'plugin_required');
    assert.equal((await setStatus('needs-base/needs-base', 'inactive')).status, 200);
    assert.equal((await setStatus('base/base', 'inactive')).status, 200);
    const missing = await setStatus('needs-base/needs-base', 'active');
    assert.equal(missing.status, 400);
    assert.equal(((await missing.json()) as Obj).code, 'plugin_missing_dependencies');
    assert.ok(!(await (await fetch(`${site.home}/`)).text()).includes('needs-base was here'));
    assert.equal((await setStatus('base/base', 'active')).status, 200);
    assert.equal((await setStatus('needs-base/needs-base', 'active')).status, 200);
    assert.ok((await (await fetch(`${site.home}/`)).text()).includes('needs-base was here'), 'its site hook runs again');
  });

  test('registered post meta is shown typed with its defaults, validated on write, refused without its capability, and deleted by null', async () => {
    const created = await site.call('cms/v2/posts', { json: { title: 'Meta', status: 'publish', meta: { rating: '4', rows: [{ label: 'a' }], unknown: 'ignored' } }, auth: site.admin });
    assert.equal(created.status, 201, await created.clone().text());
    const post = (await created.json()) as Obj;
    // the fixture's keys (other active plugins register theirs beside them)
    const own = (meta: Obj) => Object.fromEntries(Object.entries(meta).filter(([k]) => ['mood', 'rating', 'rows', '_secret'].includes(k)));
    assert.deepEqual(own(post.meta), { mood: 'calm', rating: 4, rows: [{ label: 'a' }], _secret: '' });
    const page = (await (await site.call('cms/v2/pages', { json: { title: 'P', meta: { rating: 2, mood: 'busy' } }, auth: site.admin })).json()) as Obj;
    assert.deepEqual(own(page.meta), { rating: 2 }, 'a key registered for posts only is neither shown nor written on a page');

    const bad = await site.call(`cms/v2/posts/${post.id}`, { json: { meta: { mood: 'angry', rating: 3 } }, auth: site.admin });
    assert.equal(bad.status, 400);
    const body = (await bad.json()) as Obj;
    assert.equal(body.code, 'rest_invalid_param');
    assert.deepEqual(Object.keys(body.data.params), ['meta.mood']);
    assert.equal(((await (await site.call(`cms/v2/posts/${post.id}`)).json()) as Obj).meta.rating, 4, 'a refused write changes nothing');

    const editor = await userAuth(site, 'editor');
    const refused = await site.call(`cms/v2/posts/${post.id}`, { json: { meta: { _secret: 'x' } }, auth: editor.auth });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as Obj).code, 'rest_cannot_update');
    const cleared = (await (await site.call(`cms/v2/posts/${post.id}`, { json: { meta: { rating: null, _secret: 'kept' } }, auth: site.admin })).json()) as Obj;
    assert.deepEqual([cleared.meta.rating, cleared.meta._secret], [0, 'kept']);
  });

  test('content changes are told to the plugins; the head meta filter changes the rendered page', async () => {
    const post = (await (await site.call('cms/v2/posts', { json: { title: 'Watched', status: 'publish' }, auth: site.admin })).json()) as Obj;
    await site.call(`cms/v2/posts/${post.id}`, { json: { title: 'Watched again' }, auth: site.admin });
    const tag = (await (await site.call('cms/v2/tags', { json: { name: 'watched' }, auth: site.admin })).json()) as Obj;
    await site.call(`cms/v2/tags/${tag.id}?force=true`, { method: 'DELETE', auth: site.admin });
    await site.call(`cms/v2/posts/${post.id}?force=true`, { method: 'DELETE', auth: site.admin });
    const events = await site.app.store.db.selectFrom('extension_points_events' as never).select(['type', 'object_id'] as never).orderBy('id' as never).execute();
    const mine = (events as { type: string; object_id: number }[]).filter((e) => e.object_id === post.id || e.object_id === tag.id);
    assert.deepEqual(mine.map((e) => e.type), ['postSaved', 'postSaved', 'termSaved', 'termDeleted', 'postDeleted']);

    const shown = (await (await site.call('cms/v2/posts', { json: { title: 'Headed', status: 'publish' }, auth: site.admin })).json()) as Obj;
    const html = await (await fetch(shown.link)).text();
    assert.match(html, /<title>Headed – [^<]* \(noted\)<\/title>/);
    assert.ok(html.includes('<meta name="robots" content="noindex, follow">'));
    assert.ok(!(await (await fetch(`${site.home}/`)).text()).includes('content="noindex'), 'the filter decides per page');
  });

  test('a menu item takes the meta registered for it on create and update, as a post does', async () => {
    const menu = (await (await site.call('cms/v2/menus', { json: { name: 'Meta menu' }, auth: site.admin })).json()) as Obj;
    const created = await site.call('cms/v2/menu-items', { json: { title: 'Docs', url: 'https://example.com/docs', menus: menu.id, meta: { rating: 3 } }, auth: site.admin });
    assert.equal(created.status, 201, await created.clone().text());
    const item = (await created.json()) as Obj;
    assert.equal(item.meta.rating, 3);
    const bad = await site.call(`cms/v2/menu-items/${item.id}`, { json: { meta: { rating: 9 } }, auth: site.admin });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(((await bad.json()) as Obj).data.params), ['meta.rating']);
    const updated = (await (await site.call(`cms/v2/menu-items/${item.id}`, { json: { meta: { rating: 5 } }, auth: site.admin })).json()) as Obj;
    assert.equal(updated.meta.rating, 5);
    assert.equal(((await (await site.call(`cms/v2/menu-items/${item.id}?context=edit`, { auth: site.admin })).json()) as Obj).meta.rating, 5);
  });

  test('a request in flight when its plugin is deactivated still gets its answer', async () => {
    const inFlight = site.call('slow/v1/wait?ms=300');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await setStatus('slow/slow', 'inactive')).status, 200);
    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { waited: 300 });
    assert.equal((await site.call('slow/v1/wait')).status, 404);
  });
});

describe('the example plugin (examples/plugins/hello, the README’s)', () => {
  const site = useServer({
    compose: { plugins: [join(ROOT, 'src/plugins'), EXAMPLES], extraNamespaces: [{ file: join(EXAMPLES, 'hello/hello.yaml'), handlers: join(EXAMPLES, 'hello/handlers') }] },
  });

  test('serves its routes, grants its capability, and adds to the rendered site', async () => {
    const index = (await (await site.call('')).json()) as Obj;
    assert.deepEqual(Object.keys(index.routes).filter((k) => k.startsWith('/hello/')), ['/hello/v1', '/hello/v1/notes']);
    const editor = await userAuth(site, 'editor');
    const author = await userAuth(site, 'author');
    assert.equal((await site.call('hello/v1/notes', { json: { text: 'from an editor' }, auth: editor.auth })).status, 201);
    assert.equal((await site.call('hello/v1/notes', { json: { text: 'from an author' }, auth: author.auth })).status, 403, 'only the roles it grants write_notes to');
    const missing = await site.call('hello/v1/notes', { json: {}, auth: editor.auth });
    assert.equal(((await missing.json()) as Obj).code, 'rest_missing_callback_param');
    assert.deepEqual(((await (await site.call('hello/v1/notes')).json()) as Obj[]).map((n) => n.text), ['from an editor']);
    assert.ok((await (await fetch(`${site.home}/`)).text()).includes('<p class="hello-notes">1 notes</p>'));
  });
});
