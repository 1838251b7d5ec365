import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { Site } from '../../src/core/site.ts';
import { loadSpec } from '../../src/engine/spec.ts';
import { installContent } from '../../src/core/install.ts';
import { verifyPassword } from '../../src/auth/passwords.ts';
import { startTestServer } from '../helpers/server.ts';
import { openTestStore, testDatabase } from '../helpers/store.ts';

// the engine's own fixture spec: these tests need only the site defaults, not the product namespaces
const FIXTURE_SPEC = resolve(import.meta.dirname, '../fixtures/basic');

async function installed(url: string) {
  const store = await openTestStore();
  const site = new Site(loadSpec(FIXTURE_SPEC), store);
  await site.install(url);
  const result = await installContent(store, site);
  return { store, site, result };
}

test('a new site gets exactly WordPress defaults: admin, Uncategorized, Hello world!, Sample Page, options', async () => {
  const { store, site, result } = await installed('http://127.0.0.1:8080');
  try {
    assert.equal(result.adminLogin, 'admin');
    assert.match(result.adminPassword, /^[A-Za-z0-9]{24}$/);

    const users = await store.users.list({ offset: 0, limit: 10 });
    assert.equal(users.total, 1);
    const admin = users.rows[0];
    assert.deepEqual([admin.id, admin.login, admin.role, admin.display_name, admin.email], [1, 'admin', 'administrator', 'admin', 'admin@example.com']);
    assert.ok(await verifyPassword(result.adminPassword, admin.password_hash), 'the reported password is the stored one');
    assert.ok(!(await verifyPassword('wrong', admin.password_hash)));

    const cats = await store.terms.query({ taxonomy: 'category', offset: 0, limit: 10 });
    assert.deepEqual(cats.rows.map((t) => [t.id, t.name, t.slug, t.count]), [[1, 'Uncategorized', 'uncategorized', 1]]);
    assert.equal((await store.terms.query({ taxonomy: 'post_tag', offset: 0, limit: 10 })).total, 0);

    const all = await store.posts.query({ types: ['post', 'page', 'attachment'], offset: 0, limit: 10, orderby: 'id', order: 'asc' });
    assert.equal(all.total, 2);
    const [hello, sample] = all.rows;
    assert.deepEqual([hello.id, hello.type, hello.status, hello.title, hello.slug, hello.author], [1, 'post', 'publish', 'Hello world!', 'hello-world', 1]);
    assert.match(hello.content, /<p>Welcome to WordPress\. This is your first post\. Edit or delete it, then start writing!<\/p>/);
    assert.equal(hello.excerpt, '');
    assert.equal(hello.sticky, 0);
    assert.deepEqual((await store.terms.termsOfPosts([1])).get(1)!.map((t) => t.slug), ['uncategorized']);
    assert.deepEqual([sample.id, sample.type, sample.status, sample.title, sample.slug], [2, 'page', 'publish', 'Sample Page', 'sample-page']);
    assert.match(sample.content, /This is an example page\. It's different from a blog post/);
    assert.match(sample.content, /Hi there! I'm a bike messenger by day/);
    assert.equal(sample.guid, 'http://127.0.0.1:8080/?page_id=2');

    const o = site.options;
    assert.equal(o.permalink_structure, '/%year%/%monthnum%/%day%/%postname%/');
    assert.equal(o.date_format, 'F j, Y');
    assert.equal(o.time_format, 'g:i a');
    assert.equal(o.posts_per_page, '10');
    assert.equal(o.blog_charset, 'UTF-8');
    assert.equal(await store.options.get('default_category'), '1');
    assert.equal(await store.options.get('admin_email'), 'admin@example.com');
  } finally {
    await store.dropDatabase();
  }
});

test('the admin email uses the site host when it is a domain name', async () => {
  const { store } = await installed('https://blog.example.org/');
  try {
    assert.equal((await store.users.byLogin('admin'))!.email, 'admin@blog.example.org');
  } finally {
    await store.dropDatabase();
  }
});

test('content survives a restart, and a second start installs nothing again', async () => {
  const database = await testDatabase();
  const dbPath = database.location;
  try {
    const first = await startTestServer({ spec: FIXTURE_SPEC, dbPath });
    const store = first.app.store;
    const cat = await store.terms.insert({ taxonomy: 'category', name: 'Kept' });
    const id = await store.posts.insert({ title: 'Written before the restart', content: '<p>still here</p>' });
    await store.terms.setPostTerms(id, 'category', [cat]);
    await store.posts.meta.set(id, 'mood', 'calm');
    await store.options.set('blogname', 'Renamed site');
    const adminHash = (await store.users.byLogin('admin'))!.password_hash;
    await first.close();

    const second = await startTestServer({ spec: FIXTURE_SPEC, dbPath });
    try {
      const s = second.app.store;
      const post = await s.posts.get(id);
      assert.equal(post?.title, 'Written before the restart');
      assert.equal(await s.posts.meta.get(id, 'mood'), 'calm');
      assert.deepEqual((await s.terms.termsOfPosts([id])).get(id)!.map((t) => [t.name, t.count]), [['Kept', 1]]);
      assert.equal(second.app.site.info.name, 'Renamed site');
      const users = await s.users.list({ offset: 0, limit: 10 });
      assert.equal(users.total, 1, 'no second admin');
      assert.equal(users.rows[0].password_hash, adminHash, 'the admin password was not regenerated');
      assert.equal((await s.posts.query({ types: ['post'], slugs: ['hello-world'], offset: 0, limit: 10 })).total, 1);
    } finally {
      await second.close();
    }
  } finally {
    await database.drop();
  }
});
