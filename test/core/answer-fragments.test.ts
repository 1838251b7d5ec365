import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';
import { NO_DESCRIPTION_NOTICE } from '../../src/plugins/seo/head.ts';

/**
 * A post's object is kept as a fragment and used again for other requests and other callers
 * (src/core/answer-fragments.ts; the write routes' side is in test/engine/response-cache.test.ts).
 * What one caller was answered is never given to another whose capabilities or identity would
 * have made it differently. The response cache is off, so every answer here is made per request.
 */

interface Post {
  id: number;
  content: { rendered: string; raw?: string };
  yoast_head?: string;
  _links: Record<string, unknown>;
}

describe('answer fragments never leak one caller’s answer to another', () => {
  const site = useServer({ responseCache: false });
  const get = async (path: string, auth?: string) => {
    const r = await site.call(path, auth ? { auth } : {});
    assert.equal(r.status, 200, `GET ${path}`);
    return r.json();
  };

  it('an SEO manager’s notice in yoast_head is not shown to anyone else', async () => {
    const { id } = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'No description', content: 'Words.', status: 'publish' } }, 201);
    // Yoast tells those who manage its settings that the page lacks a description (wpseo_manage_options)
    for (let i = 0; i < 2; i++) assert.ok(((await get(`cms/v2/posts/${id}`, site.admin)) as Post).yoast_head?.includes(NO_DESCRIPTION_NOTICE), 'the administrator sees the notice');
    const editor = await userAuth(site, 'editor');
    for (const auth of [undefined, editor.auth]) {
      const head = ((await get(`cms/v2/posts/${id}`, auth)) as Post).yoast_head;
      assert.ok(head?.includes('<!-- This site is optimized with the SEO plugin'), 'the head is there');
      assert.ok(!head!.includes('Admin only notice'), `${auth ? 'an editor' : 'an anonymous reader'} is not told`);
    }
    assert.ok(((await get(`cms/v2/posts/${id}`, site.admin)) as Post).yoast_head?.includes(NO_DESCRIPTION_NOTICE));
  });

  it('the edit context’s action links are each caller’s own', async () => {
    const author = await userAuth(site, 'author');
    const { id } = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'An author’s post', status: 'publish' }, auth: author.auth }, 201);
    const rels = async (auth: string) => Object.keys(((await get(`cms/v2/posts/${id}?context=edit`, auth)) as Post)._links).filter((rel) => rel.startsWith('wp:action-'));
    // WP_REST_Posts_Controller::get_available_actions: an author may publish and assign terms, not
    // post unfiltered HTML, make it sticky, change its author or create categories
    const adminRels = ['wp:action-publish', 'wp:action-unfiltered-html', 'wp:action-sticky', 'wp:action-assign-author', 'wp:action-create-categories', 'wp:action-assign-categories', 'wp:action-create-tags', 'wp:action-assign-tags'];
    const authorRels = ['wp:action-publish', 'wp:action-assign-categories', 'wp:action-create-tags', 'wp:action-assign-tags'];
    assert.deepEqual(await rels(site.admin), adminRels);
    assert.deepEqual(await rels(site.admin), adminRels);
    assert.deepEqual(await rels(author.auth), authorRels);
    assert.deepEqual(await rels(author.auth), authorRels);
    assert.deepEqual(await rels(site.admin), adminRels);
  });

  it('a protected post’s content, open to its author in the edit context, stays closed to another author', async () => {
    const owner: TestUser = await userAuth(site, 'author');
    const other: TestUser = await userAuth(site, 'author');
    const { id } = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'Protected', content: 'Only for the owner', password: 'opensesame', status: 'publish' }, auth: owner.auth }, 201);
    const listed = async (auth: string) => ((await get('cms/v2/posts?context=edit&per_page=100', auth)) as Post[]).find((p) => p.id === id)!;
    // can_access_password_content: the right to edit the post opens it without the password
    for (let i = 0; i < 2; i++) assert.match((await listed(owner.auth)).content.rendered, /Only for the owner/);
    const closed = await listed(other.auth);
    assert.equal(closed.content.rendered, '');
    assert.equal(closed.content.raw, 'Only for the owner');
    assert.match((await listed(owner.auth)).content.rendered, /Only for the owner/);
  });
});
