import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';

type Obj = Record<string, any>;

const caps = (...names: string[]) => Object.fromEntries(names.map((n) => [n, true]));

/**
 * A user's `capabilities` in edit context is WordPress's $user->allcaps: the role's capabilities as
 * populate_roles stores them, the legacy user levels included (level_0 for a subscriber up to
 * level_10 for an administrator), then the role itself; `extra_capabilities` is $user->caps.
 */
describe('users capabilities field for field (WordPress 6.1 roles)', () => {
  // no plugins: only WordPress's own roles (plugins may grant roles more, as a SEO plugin grants editors its own)
  const site = useServer({ compose: { plugins: [] } });
  const me = async (role: string) => {
    const user = await userAuth(site, role);
    return (await (await site.call('cms/v2/users/me?context=edit', { auth: user.auth })).json()) as Obj;
  };

  it('gives a subscriber read and level_0', async () => {
    const body = await me('subscriber');
    assert.deepEqual(body.capabilities, caps('read', 'level_0', 'subscriber'));
    assert.deepEqual(body.extra_capabilities, { subscriber: true });
  });

  it('gives a contributor levels 0 and 1', async () => {
    assert.deepEqual((await me('contributor')).capabilities, caps('edit_posts', 'read', 'level_1', 'level_0', 'delete_posts', 'contributor'));
  });

  it('gives an author levels 0 to 2', async () => {
    assert.deepEqual((await me('author')).capabilities, caps(
      'upload_files', 'edit_posts', 'edit_published_posts', 'publish_posts', 'read', 'level_2', 'level_1', 'level_0', 'delete_posts', 'delete_published_posts', 'author',
    ));
  });

  it('gives an editor levels 0 to 7', async () => {
    assert.deepEqual((await me('editor')).capabilities, caps(
      'moderate_comments', 'manage_categories', 'manage_links', 'upload_files', 'unfiltered_html', 'edit_posts', 'edit_others_posts', 'edit_published_posts', 'publish_posts',
      'edit_pages', 'read', 'level_7', 'level_6', 'level_5', 'level_4', 'level_3', 'level_2', 'level_1', 'level_0', 'edit_others_pages', 'edit_published_pages', 'publish_pages',
      'delete_pages', 'delete_others_pages', 'delete_published_pages', 'delete_posts', 'delete_others_posts', 'delete_published_posts', 'delete_private_posts', 'edit_private_posts',
      'read_private_posts', 'delete_private_pages', 'edit_private_pages', 'read_private_pages', 'editor',
    ));
  });

  it('gives an administrator every level up to level_10', async () => {
    const body = await me('administrator');
    for (let level = 0; level <= 10; level++) assert.equal(body.capabilities[`level_${level}`], true, `level_${level}`);
    assert.equal(body.capabilities.administrator, true);
    assert.deepEqual(body.extra_capabilities, { administrator: true });
  });

  it('filters the list by a level as by any capability', async () => {
    const admin = site.admin;
    const roles = async (query: string) => {
      const list = (await (await site.call(`cms/v2/users?context=edit&per_page=100&${query}`, { auth: admin })).json()) as Obj[];
      return [...new Set(list.flatMap((u) => u.roles))].sort();
    };
    assert.deepEqual(await roles('capabilities=level_10'), ['administrator']);
    assert.deepEqual(await roles('capabilities=level_3'), ['administrator', 'editor']);
    assert.deepEqual(await roles('capabilities=level_0'), ['administrator', 'author', 'contributor', 'editor', 'subscriber']);
  });
});

/**
 * A meta capability (map_meta_cap's view_site_health_checks, which WordPress 6.1 maps to
 * install_plugins) is never stored on a role, so `capabilities` (allcaps) does not list it; it still
 * opens its routes to whoever holds the primitive capability.
 */
describe('users capabilities with the plugins on: primitive capabilities only', () => {
  const site = useServer();
  const me = async (auth: string) => (await (await site.call('cms/v2/users/me?context=edit', { auth })).json()) as Obj;

  it('lists no mapped meta capability, and the mapping still decides', async () => {
    const admin = await me(site.admin);
    assert.equal(admin.capabilities.install_plugins, true);
    assert.equal('view_site_health_checks' in admin.capabilities, false);
    assert.equal((await site.call('cms-site-health/v1/tests/background-updates', { auth: site.admin })).status, 200);
    const editor = await userAuth(site, 'editor');
    const refused = await site.call('cms-site-health/v1/tests/background-updates', { auth: editor.auth });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as Obj).code, 'rest_forbidden');
  });
});
