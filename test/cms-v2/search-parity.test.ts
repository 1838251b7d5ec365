import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

type Obj = Record<string, any>;

/**
 * GET /wp/v2/search as WordPress 6.1 answers it: WP_REST_Search_Controller with the post and term
 * handlers. WP_REST_Term_Search_Handler::prepare_item gives the term's taxonomy as `type` and no
 * `subtype`; every result links to its resource (`self`, embeddable), its type or taxonomy
 * (`about`) and the search collection.
 */
describe('search results field for field (WordPress 6.1)', () => {
  let category: Obj;
  let tag: Obj;
  let post: Obj;
  const site = useServer({}, async (s) => {
    const make = async (path: string, json: Obj) => (await (await s.call(path, { method: 'POST', json, auth: s.admin })).json()) as Obj;
    category = await make('cms/v2/categories', { name: 'Quokka Facts' });
    tag = await make('cms/v2/tags', { name: 'quokka-tag' });
    post = await make('cms/v2/posts', { title: 'All about quokkas', content: 'Quokkas smile.', status: 'publish' });
  });
  const get = async (path: string) => {
    const res = await site.call(path);
    return { status: res.status, total: res.headers.get('x-wp-total'), body: (await res.json()) as Obj[] };
  };
  const api = (path: string) => `${site.api}cms/v2/${path}`;

  it('answers terms with their taxonomy as type and no subtype', async () => {
    const { status, total, body } = await get('cms/v2/search?type=term&search=quokka');
    assert.equal(status, 200);
    assert.equal(total, '2');
    assert.deepEqual(body, [
      {
        id: category.id, title: 'Quokka Facts', url: category.link, type: 'category',
        _links: { self: [{ href: api(`categories/${category.id}`), embeddable: true }], about: [{ href: api('taxonomies/category') }], collection: [{ href: api('search') }] },
      },
      {
        id: tag.id, title: 'quokka-tag', url: tag.link, type: 'post_tag',
        _links: { self: [{ href: api(`tags/${tag.id}`), embeddable: true }], about: [{ href: api('taxonomies/post_tag') }], collection: [{ href: api('search') }] },
      },
    ]);
    assert.deepEqual((await get('cms/v2/search?type=term&subtype=post_tag&search=quokka')).body.map((r) => [r.id, r.type, 'subtype' in r]), [[tag.id, 'post_tag', false]]);
  });

  it('answers posts with type post and their post type as subtype', async () => {
    const { body } = await get('cms/v2/search?search=quokkas');
    assert.deepEqual(body, [
      {
        id: post.id, title: 'All about quokkas', url: post.link, type: 'post', subtype: 'post',
        _links: { self: [{ href: api(`posts/${post.id}`), embeddable: true }], about: [{ href: api('types/post') }], collection: [{ href: api('search') }] },
      },
    ]);
  });

  it('keeps to view and embed contexts, as its context arg declares', async () => {
    const res = await site.call('cms/v2/search?context=edit');
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      code: 'rest_invalid_param', message: 'Invalid parameter(s): context', data: { status: 400, params: { context: 'context is not one of view and embed.' }, details: { context: { code: 'rest_not_in_enum', message: 'context is not one of view and embed.', data: null } } },
    });
  });
});

/**
 * GET /wp/v2/search?type=post-format as WordPress 6.1 answers it: WP_REST_Post_Format_Search_Handler
 * walks get_post_format_strings in its order, keeps the formats whose slug or name holds the text
 * (stripos) and that have a link (get_post_format_link: only a format some post was given has its
 * `post-format-*` term, never `standard`), and answers each with its slug as `id`, its name, its
 * archive (`/type/{slug}/`, `?post_format={slug}` with plain permalinks), `type` `post-format`,
 * no `subtype` and no `_links`.
 */
describe('post-format search (WordPress 6.1)', () => {
  const site = useServer({}, async (s) => {
    for (const format of ['video', 'aside', 'standard', 'aside'])
      assert.equal((await s.call('cms/v2/posts', { method: 'POST', json: { title: `A ${format} post`, status: 'publish', format }, auth: s.admin })).status, 201);
  });
  const home = () => new URL(site.api).origin;

  it('answers the formats in use, in WordPress order, without subtype or links', async () => {
    const res = await site.call('cms/v2/search?type=post-format');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-wp-total'), '2');
    const body = await res.json();
    const link = (slug: string) => `${home()}/type/${slug}/`; // the site's default permalink structure is pretty
    assert.deepEqual(body, [
      { id: 'aside', title: 'Aside', url: link('aside'), type: 'post-format' },
      { id: 'video', title: 'Video', url: link('video'), type: 'post-format' },
    ]);
  });

  it('matches the text in the slug or the name, case-blind, and pages', async () => {
    assert.deepEqual((await (await site.call('cms/v2/search?type=post-format&search=VID')).json()).map((r: Obj) => r.id), ['video']);
    assert.deepEqual((await (await site.call('cms/v2/search?type=post-format&search=standard')).json()), []);
    const second = await site.call('cms/v2/search?type=post-format&per_page=1&page=2');
    assert.equal(second.headers.get('x-wp-totalpages'), '2');
    assert.deepEqual((await second.json()).map((r: Obj) => r.id), ['video']);
  });

  it('refuses a type no handler serves', async () => {
    const res = await site.call('cms/v2/search?type=format');
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as Obj).data.params.type, 'type is not one of post, term, and post-format.');
  });
});
