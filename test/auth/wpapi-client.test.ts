import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { useServer } from '../helpers/server.ts';

// the published client, unchanged (CommonJS, no bundled types)
const WPAPI = createRequire(import.meta.url)('wpapi');

const server = useServer();

test('wpapi discovers the API from the home page and creates, reads and deletes a post with an application password', async () => {
  const admin = (await server.app.store.users.byLogin('admin'))!;
  const { password } = await createAppPassword(server.app.store, admin.id, { name: 'wpapi' });

  const site = await WPAPI.discover(server.home);
  // discovery falls back to guessed wp/v2 routes on any failure; the cms/v2 namespace exists only if the index was read
  const cms = site.namespace('cms/v2');
  site.auth({ username: 'admin', password });

  const created = await cms.posts().create({ title: 'Written by wpapi', content: '<p>Hello from a real client.</p>', status: 'publish' });
  assert.equal(typeof created.id, 'number');
  assert.equal(created.title.raw, 'Written by wpapi');

  const read = await cms.posts().id(created.id).get();
  assert.equal(read.title.rendered, 'Written by wpapi');
  assert.match(read.content.rendered, /Hello from a real client/);

  const deleted = await cms.posts().id(created.id).param('force', true).delete();
  assert.equal(deleted.deleted, true);
  await assert.rejects(cms.posts().id(created.id).get(), (e: { code?: string }) => e.code === 'rest_post_invalid_id');
});
