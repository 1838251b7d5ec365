import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth, userAuth, type TestUser } from '../helpers/auth.ts';

// WP_REST_Users_Controller::get_items: callers without list_users search only ID, user_login,
// user_nicename and display_name; the others get WP_User_Query's columns, email included.

let server: TestServer;
let admin: string;
let author: TestUser;
let subscriber: TestUser;

const found = async (search: string, auth?: string): Promise<number[]> => {
  const res = await server.call(`cms/v2/users?search=${encodeURIComponent(search)}&per_page=100`, { auth });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { id: number }[]).map((u) => u.id);
};

before(async () => {
  server = await startTestServer();
  admin = await adminAuth(server);
  author = await userAuth(server, 'author');
  subscriber = await userAuth(server, 'subscriber');
  // a published post makes the author visible to anyone (has_published_posts)
  const res = await server.call('cms/v2/posts', { json: { title: 'By the author', status: 'publish' }, auth: author.auth });
  assert.equal(res.status, 201);
});
after(() => server.close());

describe('cms/v2 users search', () => {
  it('does not find people by their email for anonymous callers or subscribers', async () => {
    for (const auth of [undefined, subscriber.auth]) {
      assert.deepEqual(await found('*example.*', auth), []);
      assert.deepEqual(await found('example.test', auth), []);
      assert.deepEqual(await found(`${author.login}@example.test`, auth), []);
    }
  });

  it('finds published authors by part of their login, name or slug, and by ID', async () => {
    assert.deepEqual(await found(author.login.slice(2, 10)), [author.userId]);
    assert.deepEqual(await found(author.login.toUpperCase()), [author.userId]);
    assert.ok((await found(String(author.userId))).includes(author.userId));
  });

  it('searches email too for callers with list_users, as WP_User_Query does', async () => {
    const byDomain = await found('example.test', admin);
    assert.ok(byDomain.includes(author.userId) && byDomain.includes(subscriber.userId), String(byDomain));
    assert.deepEqual(await found(`${subscriber.login}@example.test`, admin), [subscriber.userId]);
  });
});
