import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

/**
 * `meta` as WordPress 6.1 answers it (WP_REST_Meta_Fields): only meta registered with
 * show_in_rest, an empty PHP array (`[]`) when none is; users' `persisted_preferences`
 * (wp_register_persisted_preferences_meta) in edit context only. The SEO plugin's protected
 * `_seo_*` keys are no part of `meta`: it shows and takes them through its own `seo_meta` field.
 */
const server = useServer();

type Obj = Record<string, any>;

const json = (path: string, init: { method?: string; json?: unknown; auth?: string } = {}, status = 200) => server.json(path, init, status);

describe('meta', () => {
  it('`[]` when nothing is registered for `meta`; unregistered and protected keys are ignored', async () => {
    const post = await json('cms/v2/posts', { method: 'POST', json: { title: 'Meta', status: 'publish', meta: { color: 'green', _seo_title: 'Sneaked in' } } }, 201);
    assert.deepEqual(post.meta, []);
    assert.equal(post.seo_meta._seo_title, '', 'a protected key sent in `meta` is not written');
    const viewed = await json(`cms/v2/posts/${post.id}`, { auth: undefined });
    assert.deepEqual(viewed.meta, []);
    assert.equal(JSON.stringify(viewed).includes('"meta":[]'), true);
    // pages have the keys of the site's field group (spec/fields), registered with show_in_rest, and no protected one
    const page = await json('cms/v2/pages', { method: 'POST', json: { title: 'Meta page' } }, 201);
    assert.equal(page.meta.book_subtitle, '');
    assert.deepEqual(Object.keys(page.meta).filter((k) => !k.startsWith('book_')), []);
    assert.equal(page.seo_meta._seo_title, '');
    const [term] = (await json('cms/v2/categories', { auth: undefined })) as Obj[];
    assert.deepEqual(term.meta, []);
  });

  it("the SEO plugin's keys: under its own field, after the schema's fields, with their defaults, validated and checked as before", async () => {
    const post = await json('cms/v2/posts', { method: 'POST', json: { title: 'SEO', status: 'publish', seo_meta: { _seo_focuskw: 'tea', _seo_is_cornerstone: true } } }, 201);
    const keys = Object.keys(post);
    assert.deepEqual(keys.slice(keys.indexOf('generated_slug')), ['generated_slug', 'seo_meta', '_links']);
    assert.deepEqual(post.seo_meta, {
      _seo_focuskw: 'tea',
      _seo_title: '',
      _seo_metadesc: '',
      '_seo_meta-robots-noindex': 0,
      '_seo_meta-robots-nofollow': false,
      _seo_canonical: '',
      _seo_is_cornerstone: true,
      _seo_bctitle: '',
      '_seo_opengraph-title': '',
      '_seo_opengraph-description': '',
      '_seo_opengraph-image': '',
      '_seo_twitter-title': '',
      '_seo_twitter-description': '',
      '_seo_twitter-image': '',
    });
    const updated = await json(`cms/v2/posts/${post.id}`, { method: 'POST', json: { seo_meta: { _seo_focuskw: null, _seo_title: 'Own title' } } });
    assert.equal(updated.seo_meta._seo_focuskw, '', 'null deletes the key');
    assert.equal(updated.seo_meta._seo_title, 'Own title');
    const bad = await server.call(`cms/v2/posts/${post.id}`, { method: 'POST', json: { seo_meta: { '_seo_meta-robots-noindex': 7 } }, auth: server.admin });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as Obj).code, 'rest_invalid_param');
    // the embed context has no plugin fields
    const [embedded] = (await json(`cms/v2/posts?include=${post.id}&context=embed`, { auth: undefined })) as Obj[];
    assert.equal('seo_meta' in embedded, false);
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
