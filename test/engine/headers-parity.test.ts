import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';

/**
 * The headers WordPress 6.1 sends (wordpress-observed.md §5; rest_send_allow_header,
 * envelope_response, serve_request): Allow only for the methods whose permission callback passes
 * on a matched route, none when none does; `_envelope` and batch headers; paging links; the
 * no-cache and Vary headers.
 */
const server = useServer();

type Obj = Record<string, any>;

const url = (path: string) => `${server.api}cms/v2/${path}`;

async function created(path: string, body: Obj): Promise<Obj> {
  const res = await server.call(`cms/v2/${path}`, { method: 'POST', json: body, auth: server.admin });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json() as Promise<Obj>;
}

describe('Allow', () => {
  it('none on a missing object, a route nobody may call, or an object a forced DELETE removed', async () => {
    const missing = await server.call('cms/v2/posts/999999');
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
    assert.equal(missing.headers.get('allow'), null);
    assert.equal((await server.call('no/such/route')).headers.get('allow'), null);

    const settings = await server.call('cms/v2/settings');
    assert.equal(settings.status, 401);
    assert.equal(settings.headers.get('allow'), null);

    const post = await created('posts', { title: 'Short-lived', status: 'publish' });
    const trashed = await server.call(`cms/v2/posts/${post.id}`, { method: 'DELETE', auth: server.admin });
    assert.equal(trashed.status, 200);
    assert.equal(trashed.headers.get('allow'), 'GET, POST, PUT, PATCH, DELETE');
    const deleted = await server.call(`cms/v2/posts/${post.id}?force=true`, { method: 'DELETE', auth: server.admin });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.headers.get('allow'), null);
  });

  it("a refusal leaves out the methods refused and keeps the others, as each method's permission callback answers", async () => {
    const create = await server.call('cms/v2/posts', { method: 'POST', json: { title: 'x' } });
    assert.equal(create.status, 401);
    assert.deepEqual(await create.json(), { code: 'rest_cannot_create', message: 'Sorry, you are not allowed to create posts as this user.', data: { status: 401 } });
    assert.equal(create.headers.get('allow'), 'GET');

    // a draft: anonymous may neither read, edit nor delete it
    const draft = await created('posts', { title: 'Hidden' });
    const read = await server.call(`cms/v2/posts/${draft.id}`);
    assert.equal(read.status, 401);
    assert.equal(read.headers.get('allow'), null);
    assert.equal((await server.call(`cms/v2/posts/${draft.id}`, { auth: server.admin })).headers.get('allow'), 'GET, POST, PUT, PATCH, DELETE');
  });

  it('users/me: every method its callbacks let the user call', async () => {
    const allow = async (auth?: string) => (await server.call('cms/v2/users/me', { method: 'OPTIONS', auth })).headers.get('allow');
    assert.equal(await allow(server.admin), 'GET, POST, PUT, PATCH, DELETE');
    assert.equal(await allow((await userAuth(server, 'subscriber')).auth), 'GET, POST, PUT, PATCH');
    assert.equal(await allow(undefined), 'GET');
    const me = await server.call('cms/v2/users/me', { auth: server.admin });
    assert.equal(me.headers.get('allow'), 'GET, POST, PUT, PATCH, DELETE');
  });
});

describe('_envelope and batch', () => {
  it("an envelope carries the response's headers, WordPress's integers as numbers, and Allow", async () => {
    const res = await server.call('cms/v2/categories?_envelope');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-wp-total'), null);
    const body = (await res.json()) as Obj;
    assert.equal(body.status, 200);
    assert.deepEqual(body.headers, { 'X-WP-Total': 1, 'X-WP-TotalPages': 1, Allow: 'GET' });
    const text = await (await server.call('cms/v2/posts/999999?_envelope')).text();
    assert.ok(text.endsWith(',"status":404,"headers":[]}'), text);
  });

  it('batch items: the Allow of a refusal, `[]` for an unknown route (§5.8)', async () => {
    const res = await server.call('batch/v1', {
      method: 'POST',
      json: { requests: [{ path: '/cms/v2/posts', body: { title: 'A' } }, { path: '/no/such' }] },
    });
    assert.equal(res.status, 207);
    const { responses } = (await res.json()) as Obj;
    assert.deepEqual(responses[0], {
      body: { code: 'rest_cannot_create', message: 'Sorry, you are not allowed to create posts as this user.', data: { status: 401 } },
      status: 401,
      headers: { Allow: 'GET' },
    });
    assert.deepEqual(responses[1], { body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }, status: 404, headers: [] });
  });
});

describe('paging links, cache headers', () => {
  it("next and prev repeat the query as add_query_arg writes it: lists as key%5B0%5D, values urlencoded, page in its place", async () => {
    await created('posts', { title: 'Second', status: 'publish' });
    await created('posts', { title: 'Third', status: 'publish' });
    const first = await server.call('cms/v2/posts?author[]=1&per_page=1');
    assert.equal(first.headers.get('link'), `<${url('posts')}?author%5B0%5D=1&per_page=1&page=2>; rel="next"`);
    // add_query_arg drops the `=` of an empty value (WordPress 6.1: `search`, not `search=`)
    const middle = await server.call('cms/v2/posts?page=2&per_page=1&search=');
    assert.equal(middle.headers.get('link'), `<${url('posts')}?page=1&per_page=1&search>; rel="prev", <${url('posts')}?page=3&per_page=1&search>; rel="next"`);
    // a bare `_envelope` stays bare in the envelope's Link
    const enveloped = (await (await server.call('cms/v2/posts?_envelope&per_page=1')).json()) as Obj;
    assert.equal(enveloped.headers.Link, `<${url('posts')}?_envelope&per_page=1&page=2>; rel="next"`);
    const spaced = await server.call('cms/v2/posts?per_page=1&orderby=title&order=asc&_fields=id,title');
    assert.equal(spaced.headers.get('link'), `<${url('posts')}?per_page=1&orderby=title&order=asc&_fields=id%2Ctitle&page=2>; rel="next"`);
  });

  it('anonymous answers: Vary: Origin on a GET only, no Cache-Control; a logged-in user gets the no-cache headers', async () => {
    // Accept-Encoding, which chose the answer's coding, is in Vary on every JSON answer (test/engine/compression.test.ts)
    const get = await server.call('cms/v2/posts');
    assert.equal(get.headers.get('vary'), 'Origin, Accept-Encoding');
    assert.equal(get.headers.get('cache-control'), null);
    assert.equal(get.headers.get('expires'), null);
    const options = await server.call('cms/v2/posts', { method: 'OPTIONS' });
    assert.equal(options.headers.get('vary'), 'Accept-Encoding');
    assert.equal(options.headers.get('allow'), 'GET');
    const post = await server.call('cms/v2/posts', { method: 'POST', json: {} });
    assert.equal(post.headers.get('vary'), 'Accept-Encoding');
    const mine = await server.call('cms/v2/posts', { auth: server.admin });
    assert.equal(mine.headers.get('vary'), 'Accept-Encoding');
    assert.equal(mine.headers.get('cache-control'), 'no-cache, must-revalidate, max-age=0');
    assert.equal(mine.headers.get('expires'), 'Wed, 11 Jan 1984 05:00:00 GMT');
  });
});
