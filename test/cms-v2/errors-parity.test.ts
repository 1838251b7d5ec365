import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';

/**
 * Error answers WordPress 6.1 gives where a client sees them every day, body for body:
 * sanitize_post_statuses' refusal as WP_REST_Request::sanitize_params reports it, an arg outside
 * its enum, wp_set_object_terms skipping unknown term ids, and wp_insert_term's term_exists with
 * the existing term's id as WP_REST_Terms_Controller::create_item adds it.
 */

type Obj = Record<string, any>;

let subscriber: TestUser;
const server = useServer({}, async (s) => {
  subscriber = await userAuth(s, 'subscriber');
});

async function call(path: string, init: { method?: string; json?: unknown; auth?: string } = {}): Promise<{ status: number; body: Obj }> {
  const res = await server.call(path, init);
  return { status: res.status, body: (await res.json()) as Obj };
}

const forbiddenStatus = (status: number) => ({
  code: 'rest_invalid_param',
  message: 'Invalid parameter(s): status',
  data: {
    status: 400,
    params: { status: 'Status is forbidden.' },
    details: { status: { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status } } },
  },
});

describe('cms/v2 errors as WordPress answers them', () => {
  it('refuses a status the reader may not list as an invalid `status` param, before any permission check', async () => {
    assert.deepEqual(await call('cms/v2/posts?status=draft'), { status: 400, body: forbiddenStatus(401) });
    assert.deepEqual(await call('cms/v2/pages?status=draft,publish'), { status: 400, body: forbiddenStatus(401) });
    // sanitize_params runs before get_items_permissions_check: the context=edit refusal comes second
    assert.deepEqual(await call('cms/v2/posts?status=private&context=edit'), { status: 400, body: forbiddenStatus(401) });
    assert.deepEqual(await call('cms/v2/posts?status=pending', { auth: subscriber.auth }), { status: 400, body: forbiddenStatus(403) });
    // the attachments' default status is inherit: publish is not theirs to ask for
    assert.deepEqual(await call('cms/v2/media?status=private'), { status: 400, body: forbiddenStatus(401) });
    // the default status needs nothing, and an editor may ask for any
    assert.equal((await call('cms/v2/posts?status=publish')).status, 200);
    assert.equal((await call('cms/v2/posts?status=draft', { auth: server.admin })).status, 200);
  });

  it('answers a tax_relation outside its enum with 400 rest_invalid_param', async () => {
    assert.deepEqual(await call('cms/v2/posts?tax_relation=XOR'), {
      status: 400,
      body: {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): tax_relation',
        data: {
          status: 400,
          params: { tax_relation: 'tax_relation is not one of AND and OR.' },
          details: { tax_relation: { code: 'rest_not_in_enum', message: 'tax_relation is not one of AND and OR.', data: null } },
        },
      },
    });
    assert.equal((await call('cms/v2/posts?tax_relation=OR&categories=1&tags=1')).status, 200);
  });

  it('skips category and tag ids that name no term, on create and update, instead of refusing them', async () => {
    const cat = await call('cms/v2/categories', { method: 'POST', json: { name: 'Skipping' }, auth: server.admin });
    assert.equal(cat.status, 201);
    const created = await call('cms/v2/posts', { method: 'POST', json: { title: 'Unknown terms', categories: [999999], tags: [999998] }, auth: server.admin });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    // the list given replaces the default category (handle_terms after wp_insert_post), even emptied
    assert.deepEqual(created.body.categories, []);
    assert.deepEqual(created.body.tags, []);
    const updated = await call(`cms/v2/posts/${created.body.id}`, { method: 'POST', json: { categories: [cat.body.id, 999999, 1] }, auth: server.admin });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual([...updated.body.categories].sort((a, b) => a - b), [1, cat.body.id]);
    // a tag id given as a category names no category
    const tag = await call('cms/v2/tags', { method: 'POST', json: { name: 'Not a category' }, auth: server.admin });
    const crossed = await call(`cms/v2/posts/${created.body.id}`, { method: 'POST', json: { categories: [tag.body.id] }, auth: server.admin });
    assert.deepEqual(crossed.body.categories, []);
    // no categories given: the default one
    const plain = await call('cms/v2/posts', { method: 'POST', json: { title: 'Default category' }, auth: server.admin });
    assert.deepEqual(plain.body.categories, [1]);
  });

  it('refuses a duplicate term with term_exists, the existing id in data.term_id and additional_data', async () => {
    assert.deepEqual(await call('cms/v2/categories', { method: 'POST', json: { name: 'Uncategorized' }, auth: server.admin }), {
      status: 400,
      body: {
        code: 'term_exists',
        message: 'A term with the name provided already exists with this parent.',
        data: { status: 400, term_id: 1 },
        additional_data: [1, 1],
      },
    });
    const tag = await call('cms/v2/tags', { method: 'POST', json: { name: 'Twice' }, auth: server.admin });
    assert.equal(tag.status, 201);
    assert.deepEqual(await call('cms/v2/tags', { method: 'POST', json: { name: 'Twice' }, auth: server.admin }), {
      status: 400,
      body: {
        code: 'term_exists',
        message: 'A term with the name provided already exists in this taxonomy.',
        data: { status: 400, term_id: tag.body.id },
        additional_data: [tag.body.id, tag.body.id],
      },
    });
  });

  it('lets the same name in under another parent, or with a slug of its own nobody holds', async () => {
    const parent = await call('cms/v2/categories', { method: 'POST', json: { name: 'Shelf' }, auth: server.admin });
    const child = await call('cms/v2/categories', { method: 'POST', json: { name: 'Uncategorized', parent: parent.body.id }, auth: server.admin });
    assert.equal(child.status, 201, JSON.stringify(child.body));
    // wp_unique_term_slug: a child's taken slug takes its parent's
    assert.equal(child.body.slug, 'uncategorized-shelf');
    const again = await call('cms/v2/categories', { method: 'POST', json: { name: 'Uncategorized', parent: parent.body.id }, auth: server.admin });
    assert.equal(again.body.code, 'term_exists');
    assert.deepEqual(again.body.data, { status: 400, term_id: child.body.id });
    const ownSlug = await call('cms/v2/tags', { method: 'POST', json: { name: 'Twin', slug: 'twin-one' }, auth: server.admin });
    const otherSlug = await call('cms/v2/tags', { method: 'POST', json: { name: 'Twin', slug: 'twin-two' }, auth: server.admin });
    assert.equal(ownSlug.status, 201);
    assert.equal(otherSlug.status, 201);
    assert.equal(otherSlug.body.slug, 'twin-two');
    // a slug some term of that name holds is that term again
    const sameSlug = await call('cms/v2/tags', { method: 'POST', json: { name: 'Twin', slug: 'twin-one' }, auth: server.admin });
    assert.equal(sameSlug.body.code, 'term_exists');
  });
});
