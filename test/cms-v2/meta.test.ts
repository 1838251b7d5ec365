import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

/**
 * `meta` as WordPress 6.1 answers it (WP_REST_Meta_Fields): only meta registered with
 * show_in_rest, an empty PHP array (`[]`) when none is; users' `persisted_preferences`
 * (wp_register_persisted_preferences_meta) in edit context only. The SEO plugin registers its
 * protected `_yoast_wpseo_*` keys for posts and pages, so they are part of those types' `meta`.
 */
const server = useServer();

type Obj = Record<string, any>;

const json = (path: string, init: { method?: string; json?: unknown; auth?: string } = {}, status = 200) => server.json(path, init, status);

describe('meta', () => {
  it('unregistered keys are ignored; a protected key only where a plugin registers it', async () => {
    const post = await json('cms/v2/posts', { method: 'POST', json: { title: 'Meta', status: 'publish', meta: { color: 'green', _yoast_wpseo_title: 'Registered' } } }, 201);
    assert.equal('color' in post.meta, false);
    assert.equal(post.meta._yoast_wpseo_title, 'Registered');
    // pages have the SEO plugin's keys only: the site declares no field group (spec/fields)
    const page = await json('cms/v2/pages', { method: 'POST', json: { title: 'Meta page' } }, 201);
    assert.deepEqual(Object.keys(page.meta).filter((k) => !k.startsWith('_yoast_wpseo_')), []);
    const [term] = (await json('cms/v2/categories', { auth: undefined })) as Obj[];
    assert.deepEqual(term.meta, []);
  });

  it("the SEO plugin's keys: in `meta` with their defaults, validated and checked", async () => {
    const post = await json('cms/v2/posts', { method: 'POST', json: { title: 'SEO', status: 'publish', meta: { _yoast_wpseo_focuskw: 'tea', _yoast_wpseo_is_cornerstone: true } } }, 201);
    assert.equal('seo_meta' in post, false);
    assert.deepEqual(post.meta, {
      _yoast_wpseo_focuskw: 'tea',
      _yoast_wpseo_title: '',
      _yoast_wpseo_metadesc: '',
      '_yoast_wpseo_meta-robots-noindex': 0,
      '_yoast_wpseo_meta-robots-nofollow': false,
      _yoast_wpseo_canonical: '',
      _yoast_wpseo_is_cornerstone: true,
      _yoast_wpseo_bctitle: '',
      '_yoast_wpseo_opengraph-title': '',
      '_yoast_wpseo_opengraph-description': '',
      '_yoast_wpseo_opengraph-image': '',
      '_yoast_wpseo_twitter-title': '',
      '_yoast_wpseo_twitter-description': '',
      '_yoast_wpseo_twitter-image': '',
    });
    const updated = await json(`cms/v2/posts/${post.id}`, { method: 'POST', json: { meta: { _yoast_wpseo_focuskw: null, _yoast_wpseo_title: 'Own title' } } });
    assert.equal(updated.meta._yoast_wpseo_focuskw, '', 'null deletes the key');
    assert.equal(updated.meta._yoast_wpseo_title, 'Own title');
    const bad = await server.call(`cms/v2/posts/${post.id}`, { method: 'POST', json: { meta: { '_yoast_wpseo_meta-robots-noindex': 7 } }, auth: server.admin });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as Obj).code, 'rest_invalid_param');
  });

  it("users: `persisted_preferences` in edit context, WordPress's empty array in view context", async () => {
    const me = await json('cms/v2/users/me?context=edit');
    assert.deepEqual(me.meta, { persisted_preferences: [] });
    const viewed = await json('cms/v2/users/1', { auth: undefined });
    assert.deepEqual(viewed.meta, []);
  });

  it('users: stored preferences this server cannot read (PHP’s serialization, from an import) answer the default, not a 500', async () => {
    const { users } = server.app.store;
    const me = await json('cms/v2/users/me?context=edit&_fields=id');
    await users.meta.set(me.id, 'persisted_preferences', 'a:1:{s:4:"core";a:1:{s:10:"fixedToolbar";b:1;}}');
    try {
      assert.deepEqual((await json('cms/v2/users/me?context=edit')).meta, { persisted_preferences: [] });
    } finally {
      await users.meta.delete(me.id, 'persisted_preferences');
    }
  });
});

describe('meta without plugins (WordPress 6.1 with nothing registered)', () => {
  const bare = useServer({ compose: { plugins: [] } });

  it('a page answers `meta` as an empty list', async () => {
    const res = await bare.call('cms/v2/pages', { method: 'POST', json: { title: 'Bare page' }, auth: bare.admin });
    assert.equal(res.status, 201);
    assert.deepEqual(((await res.json()) as Obj).meta, []);
  });
});
