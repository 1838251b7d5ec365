import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';

describe('cms/v2/statuses: WP_REST_Post_Statuses_Controller', () => {
  const site = useServer();
  const posts = () => `${site.api}cms/v2/posts`;

  it('shows an anonymous caller only the public status, with view fields and the archives link', async () => {
    const res = await site.call('cms/v2/statuses');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      publish: { name: 'Published', public: true, queryable: true, slug: 'publish', date_floating: false, _links: { archives: [{ href: posts() }] } },
    });
  });

  it('shows a subscriber the same, and refuses the edit context (403)', async () => {
    const subscriber = await userAuth(site, 'subscriber');
    assert.deepEqual(Object.keys(await (await site.call('cms/v2/statuses', { auth: subscriber.auth })).json()), ['publish']);
    const res = await site.call('cms/v2/statuses?context=edit', { auth: subscriber.auth });
    assert.equal(res.status, 403);
    assert.deepEqual(await res.json(), { code: 'rest_cannot_view', message: 'Sorry, you are not allowed to manage post statuses.', data: { status: 403 } });
    const anonymous = await site.call('cms/v2/statuses?context=edit');
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).code, 'rest_cannot_view');
  });

  it('shows a contributor every status that is not internal, and trash, in registration order', async () => {
    const contributor = await userAuth(site, 'contributor');
    const body = await (await site.call('cms/v2/statuses', { auth: contributor.auth })).json();
    assert.deepEqual(Object.keys(body), ['publish', 'future', 'draft', 'pending', 'private', 'trash']);
    assert.deepEqual(body.draft, { name: 'Draft', public: false, queryable: false, slug: 'draft', date_floating: true, _links: { archives: [{ href: `${posts()}?status=draft` }] } });
  });

  it('gives the edit context every field', async () => {
    const body = await (await site.call('cms/v2/statuses?context=edit', { auth: site.admin })).json();
    assert.deepEqual(body.trash, {
      name: 'Trash', private: false, protected: false, public: false, queryable: false, show_in_list: false, slug: 'trash', date_floating: false,
      _links: { archives: [{ href: `${posts()}?status=trash` }] },
    });
    assert.deepEqual(body.future, {
      name: 'Scheduled', private: false, protected: true, public: false, queryable: false, show_in_list: true, slug: 'future', date_floating: false,
      _links: { archives: [{ href: `${posts()}?status=future` }] },
    });
    assert.equal(body.private.private, true);
  });

  it('answers one status, the embed context with name and slug only', async () => {
    const res = await site.call('cms/v2/statuses/publish?context=embed');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { name: 'Published', slug: 'publish', _links: { archives: [{ href: posts() }] } });
    const pending = await (await site.call('cms/v2/statuses/pending', { auth: site.admin })).json();
    assert.deepEqual(pending, { name: 'Pending', public: false, queryable: false, slug: 'pending', date_floating: true, _links: { archives: [{ href: `${posts()}?status=pending` }] } });
  });

  it('refuses a status the caller may not read, internal ones to everyone, and an unknown one with 404', async () => {
    const draft = await site.call('cms/v2/statuses/draft');
    assert.equal(draft.status, 401);
    assert.deepEqual(await draft.json(), { code: 'rest_cannot_read_status', message: 'Cannot view status.', data: { status: 401 } });
    const subscriber = await userAuth(site, 'subscriber');
    assert.equal((await site.call('cms/v2/statuses/private', { auth: subscriber.auth })).status, 403);
    const inherit = await site.call('cms/v2/statuses/inherit', { auth: site.admin });
    assert.equal(inherit.status, 403);
    assert.equal((await inherit.json()).code, 'rest_cannot_read_status');
    const unknown = await site.call('cms/v2/statuses/no-such-status', { auth: site.admin });
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), { code: 'rest_status_invalid', message: 'Invalid status.', data: { status: 404 } });
  });

  it('is listed in the index with WordPress 6.1 args', async () => {
    const index = await (await site.call('cms/v2')).json();
    assert.deepEqual(index.routes['/cms/v2/statuses/(?P<status>[\\w-]+)'].endpoints[0].args, {
      status: { description: 'An alphanumeric identifier for the status.', type: 'string', required: false },
      context: { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view', 'embed', 'edit'], default: 'view', required: false },
    });
  });
});
