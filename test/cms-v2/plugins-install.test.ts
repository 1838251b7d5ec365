import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { ROOT, startTestServer, useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';
import { tableNames } from '../../src/store/portable.ts';

type Obj = Record<string, any>;

/**
 * A plugin's definition file as a trusted source holds it: a table made by its migration (named
 * with its prefix, as migrations must), an option from its settings, no routes of its own.
 */
const pluginSource = (name: string, title: string) => `export default {
  name: '${name}',
  title: '${title}',
  version: '1.2.0',
  description: 'A plugin installed by the install test.',
  author: 'Tester',
  settings: { ${name.replace(/-/g, '_')}_greeting: 'hello' },
  migrations: { '001-notes': { up: (db) => db.schema.createTable('${name.replace(/-/g, '_')}_notes').addColumn('id', 'integer').execute() } },
};
`;

// WordPress 6.1.9's answers, from the running WordPress (rest_do_request with the filesystem available, as root)
/** POST wp/v2/plugins {"slug":"akismet"} with WP_HTTP_BLOCK_EXTERNAL on: plugins_api's error, status added by create_item. */
const DIRECTORY_UNREACHABLE = {
  code: 'plugins_api_failed',
  message:
    'An unexpected error occurred. Something may be wrong with WordPress.org or this server&#8217;s configuration. If you continue to have problems, please try the <a href="https://wordpress.org/support/forums/">support forums</a>.',
  data: { status: 500 },
  additional_data: ['User has blocked requests through HTTP.'],
};
/** DELETE wp/v2/plugins/{plugin} of an active plugin. */
const DELETE_ACTIVE = { code: 'rest_cannot_delete_active_plugin', message: 'Cannot delete an active plugin. Please deactivate it first.', data: { status: 400 } };
/** DELETE of a plugin deleted already. */
const NOT_FOUND = { code: 'rest_plugin_not_found', message: 'Plugin not found.', data: { status: 404 } };
/** POST wp/v2/plugins without a slug. */
const MISSING_SLUG = { code: 'rest_missing_callback_param', message: 'Missing parameter(s): slug', data: { status: 400, params: ['slug'] } };
/** create_item_permissions_check without install_plugins (anonymous: 401). */
const CANNOT_INSTALL = { code: 'rest_cannot_install_plugin', message: 'Sorry, you are not allowed to install plugins on this site.', data: { status: 401 } };
/** delete_item_permissions_check without activate_plugins (anonymous: 401). */
const CANNOT_MANAGE = { code: 'rest_cannot_manage_plugins', message: 'Sorry, you are not allowed to manage plugins for this site.', data: { status: 401 } };

describe('POST plugins installs from the trusted source, DELETE plugins/{plugin} uninstalls (WordPress 6.1)', () => {
  const work = mkdtempSync(join(tmpdir(), 'cms-spec-plugin-install-'));
  const sitePlugins = join(work, 'site-plugins');
  const source = join(work, 'source');
  mkdirSync(sitePlugins);
  mkdirSync(join(source, 'tidy-notes'), { recursive: true });
  writeFileSync(join(source, 'tidy-notes', 'plugin.ts'), pluginSource('tidy-notes', 'Tidy Notes'));
  writeFileSync(join(source, 'zipped.zip'), zipSync({ 'zipped/plugin.ts': strToU8(pluginSource('zipped', 'Zipped')) }));
  // a zip whose entry climbs out of its folder: refused whole
  writeFileSync(join(source, 'climber.zip'), zipSync({ 'climber/plugin.ts': strToU8(pluginSource('climber', 'Climber')), 'climber/../../escaped.ts': strToU8('x') }));
  // plugins whose prefix starts another's tables: a core table (post_meta), another plugin's (tidy_notes_notes)
  for (const name of ['tidy', 'post']) {
    mkdirSync(join(source, name));
    writeFileSync(join(source, name, 'plugin.ts'), `export default { name: '${name}', title: '${name}', version: '1.0.0', description: 'A prefix of others.' };\n`);
  }
  // the name of a plugin the site has already, in another of its plugin folders
  mkdirSync(join(source, 'oembed'));
  writeFileSync(join(source, 'oembed', 'plugin.ts'), pluginSource('oembed', 'Not the site’s oEmbed'));
  mkdirSync(join(source, 'no-definition'));
  writeFileSync(join(source, 'no-definition', 'readme.txt'), 'no plugin.ts here');

  // the site's plugin folder first: installs go to the first folder the spec names
  const site = useServer({ compose: { plugins: [sitePlugins, join(ROOT, 'src/plugins')] } });
  const install = (json: Obj, auth: string | undefined = site.admin) => site.call('cms/v2/plugins', { method: 'POST', json, auth });
  const remove = (plugin: string, auth: string | undefined = site.admin) => site.call(`cms/v2/plugins/${plugin}`, { method: 'DELETE', auth });
  const setStatus = (plugin: string, status: string) => site.call(`cms/v2/plugins/${plugin}`, { method: 'POST', json: { status }, auth: site.admin });
  const tables = () => tableNames(site.app.store.db);

  before(() => {
    delete process.env.CMS_SPEC_PLUGIN_SOURCE;
  });
  after(() => {
    delete process.env.CMS_SPEC_PLUGIN_SOURCE;
    rmSync(work, { recursive: true, force: true });
  });

  test('with no source configured every slug gets WordPress’s answer for a directory it cannot reach; the args and permissions are WordPress’s', async () => {
    const res = await install({ slug: 'akismet' });
    assert.equal(res.status, 500);
    assert.deepEqual(await res.json(), DIRECTORY_UNREACHABLE);
    const missing = await install({});
    assert.equal(missing.status, 400);
    assert.deepEqual(await missing.json(), MISSING_SLUG);
    const anonymous = await install({ slug: 'akismet' }, '');
    assert.deepEqual([anonymous.status, await anonymous.json()], [401, CANNOT_INSTALL]);
    const editor = await userAuth(site, 'editor');
    const refused = await install({ slug: 'akismet' }, editor.auth);
    assert.deepEqual([refused.status, await refused.json()], [403, { ...CANNOT_INSTALL, data: { status: 403 } }]);
    // the slug's pattern is [\w\-]+ (unanchored, as WordPress checks it): a slug with none of those characters is refused
    assert.equal(((await (await install({ slug: '../..' })).json()) as Obj).code, 'rest_invalid_param');
    assert.equal(((await (await install({ slug: 'akismet', status: 'network-active' })).json()) as Obj).code, 'rest_invalid_param');
  });

  test('a folder of the source is installed inactive, 201 with its Location; a slug it lacks is the unreachable directory, one installed already its folder_exists', async () => {
    process.env.CMS_SPEC_PLUGIN_SOURCE = source;
    const res = await install({ slug: 'tidy-notes' });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('location'), `${site.api}cms/v2/plugins/tidy-notes/tidy-notes`);
    const body = (await res.json()) as Obj;
    assert.deepEqual(
      { ...body, _links: undefined },
      {
        plugin: 'tidy-notes/tidy-notes',
        status: 'inactive',
        name: 'Tidy Notes',
        plugin_uri: '',
        author: 'Tester',
        author_uri: '',
        description: { raw: 'A plugin installed by the install test.', rendered: 'A plugin installed by the install test.' },
        version: '1.2.0',
        network_only: false,
        requires_wp: '',
        requires_php: '',
        textdomain: 'tidy-notes',
        _links: undefined,
      },
    );
    assert.ok(existsSync(join(sitePlugins, 'tidy-notes', 'plugin.ts')));
    assert.deepEqual(readdirSync(sitePlugins), ['tidy-notes'], 'nothing of the unpacking is left beside it');
    const listed = (await (await site.call('cms/v2/plugins?status=inactive', { auth: site.admin })).json()) as Obj[];
    assert.deepEqual(listed.map((p) => p.plugin), ['tidy-notes/tidy-notes']);

    const absent = await install({ slug: 'akismet' });
    assert.deepEqual([absent.status, await absent.json()], [500, DIRECTORY_UNREACHABLE]);
    // WP_Upgrader::install_package's refusal, the destination folder as its earlier error data
    const again = await install({ slug: 'tidy-notes' });
    assert.deepEqual([again.status, await again.json()], [500, { code: 'folder_exists', message: 'Destination folder already exists.', data: { status: 500 }, additional_data: [`${join(sitePlugins, 'tidy-notes')}/`] }]);
    const taken = await install({ slug: 'oembed' });
    assert.deepEqual([taken.status, await taken.json()], [500, { code: 'folder_exists', message: 'Destination folder already exists.', data: { status: 500 }, additional_data: [`${join(ROOT, 'src/plugins/oembed')}/`] }]);
    assert.equal(((await (await site.call('cms/v2/plugins/oembed/oembed', { auth: site.admin })).json()) as Obj).name, 'oEmbed');
    // a folder with no definition file is no plugin: WordPress's upgrader finds no plugin file in it, and nothing stays
    const bare = await install({ slug: 'no-definition' });
    assert.deepEqual([bare.status, await bare.json()], [500, { code: 'unable_to_determine_installed_plugin', message: 'Unable to determine what plugin was installed.', data: { status: 500 } }]);
    const climber = await install({ slug: 'climber' });
    assert.deepEqual([climber.status, await climber.json()], [500, { code: 'incompatible_archive', message: 'The package could not be installed.', data: { status: 500 } }]);
    assert.deepEqual(readdirSync(sitePlugins), ['tidy-notes']);
    assert.ok(!existsSync(join(work, 'escaped.ts')));
  });

  test('deleting refuses an active plugin; an inactive one loses its files, its tables, its migration records and its options', async () => {
    assert.equal((await setStatus('tidy-notes/tidy-notes', 'active')).status, 200);
    assert.ok((await tables()).includes('tidy_notes_notes'));
    assert.equal(await site.app.store.options.get('tidy_notes_greeting'), 'hello');
    const active = await remove('tidy-notes/tidy-notes');
    assert.deepEqual([active.status, await active.json()], [400, DELETE_ACTIVE]);
    // deleting a plugin whose prefix begins other tables' names leaves those tables
    for (const name of ['tidy', 'post']) {
      assert.equal((await install({ slug: name })).status, 201);
      assert.equal((await remove(`${name}/${name}`)).status, 200);
    }
    assert.ok((await tables()).includes('tidy_notes_notes') && (await tables()).includes('post_meta'));

    const anonymous = await remove('tidy-notes/tidy-notes', '');
    assert.deepEqual([anonymous.status, await anonymous.json()], [401, CANNOT_MANAGE]);
    const editor = await userAuth(site, 'editor');
    const refused = await remove('tidy-notes/tidy-notes', editor.auth);
    assert.deepEqual([refused.status, await refused.json()], [403, { ...CANNOT_MANAGE, data: { status: 403 } }]);

    assert.equal((await setStatus('tidy-notes/tidy-notes', 'inactive')).status, 200);
    const res = await remove('tidy-notes/tidy-notes');
    assert.equal(res.status, 200);
    const body = (await res.json()) as Obj;
    assert.equal(body.deleted, true);
    assert.deepEqual(Object.keys(body), ['deleted', 'previous']);
    assert.equal(body.previous.plugin, 'tidy-notes/tidy-notes');
    assert.equal(body.previous.status, 'inactive');
    assert.ok(!existsSync(join(sitePlugins, 'tidy-notes')));
    assert.ok(!(await tables()).includes('tidy_notes_notes'));
    assert.equal(await site.app.store.options.get('tidy_notes_greeting'), undefined);
    const gone = await remove('tidy-notes/tidy-notes');
    assert.deepEqual([gone.status, await gone.json()], [404, NOT_FOUND]);
    assert.equal((await site.call('cms/v2/plugins/tidy-notes/tidy-notes', { auth: site.admin })).status, 404);

    // installed again, it starts afresh: its migration runs again at activation
    assert.equal((await install({ slug: 'tidy-notes', status: 'active' })).status, 201);
    assert.ok((await tables()).includes('tidy_notes_notes'));
    assert.equal((await setStatus('tidy-notes/tidy-notes', 'inactive')).status, 200);
    assert.equal((await remove('tidy-notes/tidy-notes')).status, 200);
  });

  test('a zip of the source is unpacked and, with status=active, activated; another instance of the site sees the install and the delete at its next request', async () => {
    process.env.CMS_SPEC_PLUGIN_SOURCE = source;
    const other = await startTestServer({ dbPath: site.dbPath, compose: { plugins: [sitePlugins, join(ROOT, 'src/plugins')] } });
    try {
      const statusThere = async () => {
        const res = await other.call('cms/v2/plugins/zipped/zipped', { auth: site.admin });
        return res.status === 200 ? ((await res.json()) as Obj).status : res.status;
      };
      assert.equal(await statusThere(), 404);
      const res = await install({ slug: 'zipped', status: 'active' });
      assert.equal(res.status, 201);
      const body = (await res.json()) as Obj;
      assert.deepEqual([body.plugin, body.status, body.name], ['zipped/zipped', 'active', 'Zipped']);
      assert.ok(existsSync(join(sitePlugins, 'zipped', 'plugin.ts')));
      assert.ok((await tables()).includes('zipped_notes'));
      assert.equal(await statusThere(), 'active');

      assert.equal((await setStatus('zipped/zipped', 'inactive')).status, 200);
      assert.equal((await remove('zipped/zipped')).status, 200);
      assert.equal(await statusThere(), 404);
    } finally {
      await other.close();
    }
  });
});
