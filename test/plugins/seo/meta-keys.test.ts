import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { migrations } from '../../../src/plugins/seo/migrations.ts';
import { createPost } from './helpers.ts';

/** A site whose SEO meta was written under the earlier `_seo_*` keys finds it under Yoast's `_yoast_wpseo_*` after the migration. */
describe("the SEO meta under Yoast's keys", () => {
  const site = useServer();

  test('003-yoast-meta-keys renames every earlier key and leaves other meta alone', async () => {
    const store = site.app.store;
    const post = await createPost(site, site.admin, { title: 'Kept' });
    await store.posts.meta.set(post.id, '_seo_title', 'Earlier title');
    await store.posts.meta.set(post.id, '_seo_meta-robots-noindex', '1');
    await store.posts.meta.set(post.id, '_seo_unrelated', 'stays');
    await migrations['003-yoast-meta-keys'].up(store.db);
    assert.equal(await store.posts.meta.get(post.id, '_yoast_wpseo_title'), 'Earlier title');
    assert.equal(await store.posts.meta.get(post.id, '_yoast_wpseo_meta-robots-noindex'), '1');
    assert.equal(await store.posts.meta.get(post.id, '_seo_title'), undefined);
    assert.equal(await store.posts.meta.get(post.id, '_seo_unrelated'), 'stays', 'a key the plugin never had is not its to rename');
    const shown = (await (await site.call(`cms/v2/posts/${post.id}`, { auth: site.admin })).json()) as { meta: Record<string, unknown>; yoast_head_json: { title: string; robots: { index: string } } };
    assert.equal(shown.meta._yoast_wpseo_title, 'Earlier title');
    assert.equal(shown.yoast_head_json.title, 'Earlier title');
    assert.equal(shown.yoast_head_json.robots.index, 'noindex');
  });
});
