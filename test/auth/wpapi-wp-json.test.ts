import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { useServer } from '../helpers/server.ts';

// the published client, unchanged (CommonJS, no bundled types), used as its README shows
const WPAPI = createRequire(import.meta.url)('wpapi');

const server = useServer();

/** An application password for the site's admin, as a user would make one. */
async function adminPassword(): Promise<string> {
  const admin = (await server.app.store.users.byLogin('admin'))!;
  return (await createAppPassword(server.app.store, admin.id, { name: `wpapi at /wp-json ${randomUUID()}` })).password;
}

test('wpapi in its default usage against http://host/wp-json: posts, categories, users().me(), media', async () => {
  const password = await adminPassword();
  const wp = new WPAPI({ endpoint: `${server.home}/wp-json`, username: 'admin', password });

  const posts = await wp.posts().get();
  // wpapi pages through the X-WP-Total* and Link headers it is sent
  const paging = posts._paging;
  assert.ok(Array.isArray(posts));
  const hello = posts.find((p: { slug: string }) => p.slug === 'hello-world');
  assert.equal(hello.title.rendered, 'Hello world!');
  assert.deepEqual(hello._links.self, [{ href: `${server.home}/wp-json/wp/v2/posts/${hello.id}` }]);
  assert.equal(paging.total, posts.length);

  const categories = await wp.categories().get();
  assert.deepEqual(categories.map((c: { slug: string }) => c.slug), ['uncategorized']);
  const category = await wp.categories().create({ name: 'From wpapi' });
  assert.equal(category.slug, 'from-wpapi');

  const me = await wp.users().me().get();
  assert.equal(me.slug, 'admin');
  assert.deepEqual(me._links.self, [{ href: `${server.home}/wp-json/wp/v2/users/${me.id}` }]);

  const created = await wp.posts().create({ title: 'Written by wpapi at /wp-json', content: '<p>Default usage.</p>', status: 'publish', categories: [category.id] });
  assert.equal(created.title.raw, 'Written by wpapi at /wp-json');
  assert.deepEqual(created.categories, [category.id]);
  const read = await wp.posts().id(created.id).get();
  assert.equal(read.title.rendered, 'Written by wpapi at /wp-json');
  const inCategory = await wp.posts().categories(category.id).get();
  assert.deepEqual(inCategory.map((p: { id: number }) => p.id), [created.id]);

  const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
  const media = await wp.media().file(png, 'wpapi.png').create({ title: 'Uploaded by wpapi', alt_text: 'a blue block' });
  assert.equal(media.media_type, 'image');
  assert.equal(media.mime_type, 'image/png');
  assert.equal(media.alt_text, 'a blue block');
  assert.deepEqual(media._links.self, [{ href: `${server.home}/wp-json/wp/v2/media/${media.id}` }]);
  const library = await wp.media().get();
  assert.ok(library.some((m: { id: number }) => m.id === media.id));

  const deleted = await wp.posts().id(created.id).param('force', true).delete();
  assert.equal(deleted.deleted, true);
  await assert.rejects(wp.posts().id(created.id).get(), (e: { code?: string }) => e.code === 'rest_post_invalid_id');
});

test('wpapi at /wp-json without credentials: .users().me() is WordPress\'s 401', async () => {
  const wp = new WPAPI({ endpoint: `${server.home}/wp-json` });
  await assert.rejects(wp.users().me().get(), (e: { code?: string; data?: { status?: number } }) => e.code === 'rest_not_logged_in' && e.data?.status === 401);
});

test('WPAPI.discover(home) follows the Link header to /cms-json/: the core routes are under namespace("cms/v2")', async () => {
  const password = await adminPassword();
  const site = await WPAPI.discover(server.home);
  site.auth({ username: 'admin', password });
  // the home page announces /cms-json/, whose index names no wp/v2: the default-namespace shortcuts are not bound
  assert.equal(site._options.endpoint, `${server.home}/cms-json/`);
  assert.equal(typeof site.posts, 'undefined');
  const cms = site.namespace('cms/v2');
  const posts = await cms.posts().get();
  assert.ok(posts.some((p: { slug: string }) => p.slug === 'hello-world'));
  const me = await cms.users().me().get();
  assert.equal(me.slug, 'admin');
  const created = await cms.posts().create({ title: 'After discovery', status: 'draft' });
  assert.deepEqual(created._links.self, [{ href: `${server.home}/cms-json/cms/v2/posts/${created.id}` }]);
  // the same post through WordPress's address
  const wp = new WPAPI({ endpoint: `${server.home}/wp-json`, username: 'admin', password });
  const read = await wp.posts().id(created.id).context('edit').get();
  assert.equal(read.title.raw, 'After discovery');
});
