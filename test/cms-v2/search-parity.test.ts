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
