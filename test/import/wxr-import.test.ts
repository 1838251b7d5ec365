import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { basicAuth, ROOT, startTestServer, testUploadsDir, type TestServer } from '../helpers/server.ts';
import { testDatabase } from '../helpers/store.ts';
import { cms, fails, type Ran } from '../cli/run.ts';

/**
 * WordPress's own importer tests (wordpress-importer's phpunit/tests/import.php, postmeta.php,
 * term-meta.php, comment-meta.php), ported: the same fixtures imported by `cms-spec import`, the
 * same assertions read back over the REST API (or, for meta no REST field shows, from the store),
 * and the Theme Unit Test data with the counts WordPress 6.1 and its importer give.
 */

const FIXTURES = join(ROOT, 'test/fixtures/wxr');
const fixture = (name: string) => join(FIXTURES, name);

interface Imported {
  server: TestServer;
  runs: Ran[];
  /** An Authorization value for the site's own administrator (renamed `siteadmin`). */
  auth: string;
  get(path: string): Promise<{ body: any; total: number }>;
  close(): Promise<void>;
}

/**
 * A fresh site with the files imported into it, one `cms-spec import` each, then served. As
 * WordPress's tests empty the posts, terms, comments and users first, the site's sample content
 * goes and its administrator is renamed, so the files' own `admin` is the one created.
 */
async function importInto(files: string[], args: string[] = []): Promise<Imported> {
  const db = await testDatabase();
  const fresh = await startTestServer({ dbPath: db.location });
  const { store } = fresh.app;
  await store.db.deleteFrom('comments').execute();
  await store.db.deleteFrom('posts').execute();
  await store.db.deleteFrom('terms').execute();
  const admin = (await store.users.byLogin('admin'))!;
  await store.users.update(admin.id, { login: 'siteadmin', nicename: 'siteadmin' });
  await fresh.close();
  // the command keeps attachments' files where the server reads them (beside a SQLite file; named after a PostgreSQL database)
  const uploads = testUploadsDir(db.location);
  if (uploads) process.env.CMS_SPEC_UPLOADS = uploads;
  // the import spools the file's records to a temporary folder: its own here, to see it go
  const temporary = mkdtempSync(join(tmpdir(), 'cms-spec-wxr-tmp-'));
  const tmpdirBefore = process.env.TMPDIR;
  process.env.TMPDIR = temporary;
  let runs: Ran[];
  try {
    runs = files.map((f) => cms(['import', f, '--db', db.location, '--no-attachments', ...args]));
  } finally {
    delete process.env.CMS_SPEC_UPLOADS;
    if (tmpdirBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdirBefore;
  }
  assert.deepEqual(readdirSync(temporary), [], 'the import leaves nothing in the temporary folder');
  rmSync(temporary, { recursive: true });
  const server = await startTestServer({ dbPath: db.location });
  const { password } = await createAppPassword(server.app.store, admin.id, { name: 'wxr test' });
  const auth = basicAuth('siteadmin', password);
  return {
    server,
    runs,
    auth,
    async get(path) {
      const r = await server.call(path, { auth });
      const body = await r.json();
      assert.equal(r.status, 200, `${path}: ${JSON.stringify(body).slice(0, 300)}`);
      return { body, total: Number(r.headers.get('x-wp-total')) };
    },
    async close() {
      await server.close();
      await db.drop();
      if (uploads) rmSync(uploads, { recursive: true, force: true });
    },
  };
}

const succeeded = (r: Ran) => assert.equal(r.status, 0, r.stderr);

/** test_small_import's checks of users, terms and counts, which test_double_import repeats after a second import. */
async function assertSmallExport(site: Imported): Promise<Record<string, any>> {
  const { body: users } = await site.get('cms/v2/users?context=edit&per_page=100');
  const user = (login: string) => users.find((u: any) => u.username === login);
  assert.deepEqual(users.map((u: any) => u.username).sort(), ['admin', 'author', 'editor', 'siteadmin'], 'the three authors, and the site’s own administrator');
  assert.equal(user('admin').email, 'local@host.null');
  assert.equal(user('editor').email, 'editor@example.org');
  assert.equal(user('editor').first_name, 'FirstName');
  assert.equal(user('editor').last_name, 'LastName');
  assert.equal(user('author').email, 'author@example.org');

  assert.equal((await site.get('cms/v2/categories?per_page=1')).total, 30);
  assert.equal((await site.get('cms/v2/tags?per_page=1')).total, 3);
  const category = async (slug: string) => (await site.get(`cms/v2/categories?slug=${slug}`)).body[0];
  assert.equal((await category('foo')).parent, 0);
  assert.equal((await category('foo-bar')).parent, (await category('bar')).id);

  assert.equal((await site.get('cms/v2/posts?status=publish&per_page=1')).total, 5);
  assert.equal((await site.get('cms/v2/posts?status=private&per_page=1')).total, 1);
  assert.equal((await site.get('cms/v2/pages?status=publish&per_page=1')).total, 4);
  assert.equal((await site.get('cms/v2/pages?status=draft&per_page=1')).total, 1);
  assert.equal((await site.get('cms/v2/comments?per_page=1')).total, 1);
  return { admin: user('admin'), editor: user('editor'), author: user('author') };
}

describe('WordPress importer tests (wordpress-importer phpunit/tests/import.php)', () => {
  test('test_small_import: users, terms, posts and pages as WordPress imports small-export.xml', { timeout: 120_000 }, async () => {
    const site = await importInto([fixture('small-export.xml')]);
    try {
      succeeded(site.runs[0]);
      const { admin, editor, author } = await assertSmallExport(site);
      const post = async (slug: string) => (await site.get(`cms/v2/posts?slug=${slug}&status=publish,private&context=edit`)).body[0];
      const page = async (slug: string) => (await site.get(`cms/v2/pages?slug=${slug}&status=publish,draft&context=edit`)).body[0];

      const many = await post('many-categories');
      assert.equal(many.title.raw, 'Many Categories');
      assert.equal(many.author, admin.id);
      assert.equal(many.categories.length, 27);

      const aside = await post('non-standard-post-format');
      assert.equal(aside.title.raw, 'Non-standard post format');
      assert.equal(aside.categories.length, 1);
      assert.equal(aside.format, 'aside');

      const foo = await post('top-level-foo');
      assert.equal(foo.author, admin.id);
      assert.deepEqual(foo.categories, [(await site.get('cms/v2/categories?slug=foo')).body[0].id]);

      const child = await post('foo-child');
      assert.equal(child.author, editor.id);
      assert.deepEqual(child.categories, [(await site.get('cms/v2/categories?slug=foo-bar')).body[0].id]);

      const priv = await post('private-post');
      assert.equal(priv.status, 'private');
      assert.equal(priv.categories.length, 1);
      const tags = (await site.get(`cms/v2/tags?post=${priv.id}&orderby=slug`)).body;
      assert.deepEqual(tags.map((t: any) => t.slug), ['tag1', 'tag2', 'tag3']);

      const oneCol = await page('1-col-page');
      assert.equal(oneCol.title.raw, '1-col page');
      assert.equal(oneCol.template, 'onecolumn-page.php');
      assert.equal(oneCol.parent, 0);

      const drafts = (await site.get('cms/v2/pages?status=draft&context=edit')).body;
      assert.equal(drafts[0].title.raw, 'Draft Page');
      assert.equal(drafts[0].slug, '');
      assert.equal(drafts[0].template, '');

      const parent = await page('parent-page');
      assert.equal(parent.parent, 0);
      assert.equal((await page('child-page')).parent, parent.id);
      assert.equal((await page('sample-page')).author, admin.id);

      const hello = await post('hello-world');
      assert.equal(hello.title.raw, 'Hello world!');
      assert.equal(hello.author, author.id);
      assert.equal(hello.categories.length, 1);
    } finally {
      await site.close();
    }
  });

  test('test_double_import: a second import of small-export.xml adds nothing', { timeout: 120_000 }, async () => {
    const site = await importInto([fixture('small-export.xml'), fixture('small-export.xml')]);
    try {
      site.runs.forEach(succeeded);
      assert.match(site.runs[1].stdout, /Imported 0 users, 0 terms, no posts, 0 menu items, 0 attachments, 0 comments; 11 already there, 0 failed\./);
      assert.match(site.runs[1].stderr, /small-export\.xml:\d+: Post “Hello world!” already exists\./);
      await assertSmallExport(site);
    } finally {
      await site.close();
    }
  });

  test('test_slashes_should_not_be_stripped: slashes.xml keeps its backslashes', { timeout: 120_000 }, async () => {
    const site = await importInto([fixture('slashes.xml')]);
    try {
      succeeded(site.runs[0]);
      assert.equal((await site.get('cms/v2/categories?slug=alpha')).body[0].name, 'a \\"great\\" category');
      assert.equal((await site.get('cms/v2/tags?slug=tag1')).body[0].name, "foo\\'bar");
      const [post] = (await site.get('cms/v2/posts?context=edit&status=publish,draft,private,pending,future')).body;
      assert.equal(post.content.raw, 'Slashes aren\\\'t \\"cool\\"');
      const [comment] = (await site.get(`cms/v2/comments?post=${post.id}&context=edit`)).body;
      assert.equal(comment.content.raw, '\\o/ ¯\\_(ツ)_/¯');
    } finally {
      await site.close();
    }
  });
});

describe('the default category', () => {
  test('a post the file files in no category is in the site’s default one, as wp_insert_post files it before the importer sets the item’s terms', { timeout: 120_000 }, async () => {
    // two posts of the Theme Unit Test data's kind: "Keyboard navigation" carries only a tag there
    const item = (id: number, slug: string, terms: string) =>
      `<item><title>${slug}</title><dc:creator><![CDATA[admin]]></dc:creator><content:encoded><![CDATA[Text.]]></content:encoded><wp:post_id>${id}</wp:post_id>` +
      `<wp:post_date>2020-01-0${id} 10:00:00</wp:post_date><wp:post_date_gmt>2020-01-0${id} 10:00:00</wp:post_date_gmt><wp:post_name>${slug}</wp:post_name><wp:status>publish</wp:status>` +
      `<wp:post_parent>0</wp:post_parent><wp:post_type>post</wp:post_type>${terms}</item>`;
    const wxr =
      '<?xml version="1.0" encoding="UTF-8" ?><rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" ' +
      'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>http://example.test/</wp:base_site_url>' +
      '<wp:category><wp:term_id>3</wp:term_id><wp:category_nicename>news</wp:category_nicename><wp:category_parent></wp:category_parent><wp:cat_name><![CDATA[News]]></wp:cat_name></wp:category>' +
      item(1, 'filed-nowhere', '<category domain="post_tag" nicename="codex"><![CDATA[Codex]]></category>') +
      item(2, 'filed-in-news', '<category domain="category" nicename="news"><![CDATA[News]]></category>') +
      '</channel></rss>';
    const dir = mkdtempSync(join(tmpdir(), 'cms-spec-wxr-default-'));
    const file = join(dir, 'default-category.xml');
    writeFileSync(file, wxr);
    const db = await testDatabase();
    await (await startTestServer({ dbPath: db.location })).close();
    try {
      succeeded(cms(['import', file, '--db', db.location, '--no-attachments', '--authors', 'skip']));
      const server = await startTestServer({ dbPath: db.location });
      try {
        const post = async (slug: string) => (await (await server.call(`cms/v2/posts?slug=${slug}`)).json())[0];
        const news = (await (await server.call('cms/v2/categories?slug=news')).json())[0];
        // WordPress 6.1.9 with its importer (the Theme Unit Test data's "Keyboard navigation" in
        // Uncategorized, which then counts it beside "Hello world!")
        assert.deepEqual((await post('filed-nowhere')).categories, [1]);
        assert.deepEqual((await post('filed-in-news')).categories, [news.id]);
        assert.equal((await (await server.call('cms/v2/categories/1')).json()).count, 2);
        assert.equal(news.count, 1);
      } finally {
        await server.close();
      }
    } finally {
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('WordPress importer tests of meta (postmeta.php, term-meta.php, comment-meta.php)', () => {
  const expectedString = '¯\\_(ツ)_/¯';
  const expectedArray = { key: '¯\\_(ツ)_/¯' };

  /** Each file into a site of its own, as each of WordPress's tests imports into an emptied one. */
  async function metaOf(file: string, check: (json: (post: number, key: string) => Promise<unknown>, raw: (post: number, key: string) => Promise<string | undefined>) => Promise<void>): Promise<void> {
    const site = await importInto([fixture(file)], ['--authors', 'skip']);
    try {
      succeeded(site.runs[0]);
      const meta = site.server.app.store.posts.meta;
      await check(async (post, key) => JSON.parse((await meta.get(post, key))!), (post, key) => meta.get(post, key));
    } finally {
      await site.close();
    }
  }

  test('test_serialized_postmeta_no_cdata', { timeout: 120_000 }, async () => {
    await metaOf('test-serialized-postmeta-no-cdata.xml', async (json) => {
      assert.deepEqual(await json(122, 'post-options'), { special_post_title: 'A special title', is_calendar: '' });
    });
  });

  test('test_utw_postmeta: an array of objects with a `tag`, read as plain data', { timeout: 120_000 }, async () => {
    await metaOf('test-utw-post-meta-import.xml', async (json) => {
      assert.deepEqual(await json(150, 'test'), ['album', 'apple', 'art', 'artwork', 'dead-tracks', 'ipod', 'itunes', 'javascript', 'lyrics', 'script', 'tracks', 'windows-scripting-host', 'wscript'].map((tag) => ({ tag })));
    });
  });

  test('test_serialized_postmeta_with_cdata, _with_evil_stuff_in_cdata and _with_slashes', { timeout: 120_000 }, async () => {
    await metaOf('test-serialized-postmeta-with-cdata.xml', async (json, raw) => {
      const meta = { get: raw };
      assert.equal(await meta.get(10, 'contains-html'), '<pre>some html</pre>');
      assert.deepEqual(await json(10, 'post-options'), { special_post_title: 'A special title', is_calendar: '' });
      // test_serialized_postmeta_with_evil_stuff_in_cdata
      assert.equal(await meta.get(10, 'evil'), '<wp:meta_value>evil</wp:meta_value>');
      // test_serialized_postmeta_with_slashes
      assert.equal(await meta.get(10, 'string'), expectedString);
      assert.deepEqual(await json(10, 'array'), expectedArray);
      assert.deepEqual(await json(10, 'array-nested'), { key: { foo: '¯\\_(ツ)_/¯', bar: '\\o/' } });
      assert.equal(await meta.get(10, 'integer'), '1');
    });
  });

  test('test_serialized_term_meta and test_serialized_comment_meta', { timeout: 120_000 }, async () => {
    const site = await importInto([fixture('test-serialized-term-meta.xml'), fixture('test-serialized-comment-meta.xml')]);
    try {
      site.runs.forEach(succeeded);
      const { store } = site.server.app;
      for (const [taxonomy, slug] of [['post_tag', 'post_tag'], ['category', 'category'], ['custom_taxonomy', 'custom_taxonomy']]) {
        const term = (await store.terms.query({ taxonomy, slugs: [slug], offset: 0, limit: 1 })).rows[0];
        assert.ok(term, `${taxonomy} ${slug}`);
        assert.equal(await store.terms.meta.get(term.id, 'string'), expectedString);
        assert.deepEqual(JSON.parse((await store.terms.meta.get(term.id, 'array'))!), expectedArray);
      }
      const comments = (await site.get('cms/v2/comments?context=edit')).body;
      assert.equal(comments.length, 1, 'one approved comment');
      assert.equal(await store.comments.meta.get(comments[0].id, 'string'), expectedString);
      assert.deepEqual(JSON.parse((await store.comments.meta.get(comments[0].id, 'array'))!), expectedArray);
    } finally {
      await site.close();
    }
  });
});

describe('attachments (import.php test_flat_attachment_import_rewrites_attachment_url)', () => {
  test('an attachment taken from --uploads, and the post’s image URL rewritten to the new file', { timeout: 120_000 }, async () => {
    const uploads = mkdtempSync(join(tmpdir(), 'cms-spec-old-uploads-'));
    try {
      mkdirSync(join(uploads, '2008/06'), { recursive: true });
      await sharp({ create: { width: 100, height: 100, channels: 3, background: '#c0ffee' } }).jpeg().toFile(join(uploads, '2008/06/canola2.jpg'));
      const site = await importInto([fixture('wxr-flat-attachment-same-site.xml')], ['--uploads', uploads, '--authors', 'skip']);
      try {
        succeeded(site.runs[0]);
        const media = (await site.get('cms/v2/media?context=edit')).body;
        assert.equal(media.length, 1, 'the attachment imported');
        const url: string = media[0].source_url;
        // in the folder its _wp_attached_file names (2008/06), as WordPress's importer places it (upload_date)
        assert.match(url, /\/cms-content\/uploads\/2008\/06\/canola2\.jpg$/);
        const file = await fetch(new URL(new URL(url).pathname, site.server.api));
        assert.equal(file.status, 200, 'the file is served');
        const [post] = (await site.get('cms/v2/posts?context=edit')).body;
        assert.ok(post.content.raw.includes(url.replace(/\.jpg$/, '')), post.content.raw);
        assert.ok(post.content.raw.includes(`wp-image-${media[0].id}`), 'the image class names the new attachment');
      } finally {
        await site.close();
      }
    } finally {
      rmSync(uploads, { recursive: true, force: true });
    }
  });
});

describe('WordPress importer refusals (parser.php)', () => {
  test('malformed XML, and a missing or invalid WXR version: one line naming the file and line, nothing imported', { timeout: 120_000 }, async () => {
    const db = await testDatabase();
    const fresh = await startTestServer({ dbPath: db.location });
    const before = (await fresh.app.store.posts.query({ types: ['post', 'page'], offset: 0, limit: 100 })).total;
    await fresh.close();
    try {
      fails(['import', fixture('malformed.xml'), '--db', db.location], /malformed\.xml:\d+: There was an error when reading this WXR file: .*; nothing was imported\.$/);
      fails(['import', fixture('missing-version-tag.xml'), '--db', db.location], /missing-version-tag\.xml:\d+: This does not appear to be a WXR file, missing\/invalid WXR version number; nothing was imported\.$/);
      fails(['import', fixture('invalid-version-tag.xml'), '--db', db.location], /invalid-version-tag\.xml:\d+: This does not appear to be a WXR file, missing\/invalid WXR version number; nothing was imported\.$/);
      const again = await startTestServer({ dbPath: db.location });
      try {
        assert.equal((await again.app.store.posts.query({ types: ['post', 'page'], offset: 0, limit: 100 })).total, before);
      } finally {
        await again.close();
      }
    } finally {
      await db.drop();
    }
  });
});

describe('the block test data after the Theme Unit Test data (WordPress/theme-test-data)', () => {
  test('the block data’s category `media` is the unit data’s “Media” (`media-2`): term_exists finds a name whatever its case', { timeout: 240_000 }, async () => {
    const site = await importInto([fixture('themeunittestdata.wordpress.xml'), fixture('64-block-test-data.xml')]);
    try {
      site.runs.forEach(succeeded);
      // WordPress 6.1.9 with both files imported (scripts/render-parity/wp-import.php, WP_Import's rules):
      // GET categories?search=media and GET posts?categories=<its id>
      const media = (await site.get('cms/v2/categories?search=media')).body;
      assert.deepEqual(media.map((c: { name: string; slug: string; count: number }) => [c.name, c.slug, c.count]), [['Media', 'media-2', 10]]);
      const posts = (await site.get(`cms/v2/posts?categories=${media[0].id}&per_page=100`)).body;
      assert.deepEqual(
        posts.map((p: { title: { rendered: string } }) => p.title.rendered),
        ['Video', 'Media &amp; Text', 'File', 'Cover', 'Audio', 'Gallery', 'Image', 'Block category: Embeds', 'Media: Twitter Embeds', 'Edge Case: Many Categories'],
      );

      // saved as wp_insert_post and wp_filter_comment save them for the importing administrator:
      // `rel="noopener"` on links with a target (wp_targeted_link_rel), `nofollow ugc` on a
      // comment's links (wp_rel_ugc); WordPress 6.1.9's content.raw of both (context=edit)
      const links = (html: string) => html.match(/<a [^>]*>/g) ?? [];
      const twitter = (await site.get('cms/v2/posts?slug=media-twitter-embeds&context=edit')).body[0];
      assert.deepEqual(links(twitter.content.raw), ['<a title="Twitter Embeds" href="https://en.support.wordpress.com/twitter/twitter-embeds/" target="_blank" rel="noopener">']);
      const commented = (await site.get('cms/v2/posts?slug=template-comments')).body[0];
      const comments = (await site.get(`cms/v2/comments?post=${commented.id}&context=edit&orderby=id&order=asc`)).body;
      assert.deepEqual(links(comments[1].content.raw), ['<a href="https://gravatar.com//" title="Gravatar" rel="nofollow ugc">']);
      assert.deepEqual(links(comments[0].content.raw).slice(0, 1), ['<a href="https://developer.mozilla.org/en-US/docs/HTML/Element/blockquote#Notes" rel="nofollow ugc">']);
    } finally {
      await site.close();
    }
  });
});

describe('the Theme Unit Test data (WordPress/theme-test-data themeunittestdata.wordpress.xml)', () => {
  test('imports with the counts WordPress gives, attachments reported offline, and a second run imports nothing', { timeout: 240_000 }, async () => {
    const file = fixture('themeunittestdata.wordpress.xml');
    const site = await importInto([file, file]);
    try {
      site.runs.forEach(succeeded);
      const [first, second] = site.runs;
      assert.equal(first.stderr.match(/: Failed to import Media “[^”]*”: /g)?.length, 37, 'each attachment reported');
      assert.match(first.stdout, /Imported 2 users, \d+ terms, 58 post, 21 page, 70 menu items, 0 attachments, 33 comments; 0 already there, 37 failed\./);
      assert.match(second.stdout, /Imported 0 users, 0 terms, no posts, 0 menu items, 0 attachments, 0 comments; 149 already there, 37 failed\./);

      const total = async (path: string) => (await site.get(`${path}${path.includes('?') ? '&' : '?'}per_page=1`)).total;
      assert.equal(await total('cms/v2/posts?status=publish'), 56);
      assert.equal(await total('cms/v2/posts?status=future'), 1);
      assert.equal(await total('cms/v2/posts?status=draft'), 1);
      assert.equal(await total('cms/v2/pages?status=publish'), 21);
      assert.equal(await total('cms/v2/categories'), 68);
      assert.equal(await total('cms/v2/tags'), 114);
      assert.equal((await site.server.app.store.terms.query({ taxonomy: 'post_format', offset: 0, limit: 100 })).total, 9);
      assert.equal((await site.get('cms/v2/menus?per_page=100')).body.length, 6);
      assert.equal(await total('cms/v2/menu-items'), 70);
      // WordPress exports no theme locations: once one is given the imported menu, the site shows it, every item linking where the old one did
      const short = (await site.get('cms/v2/menus?slug=short')).body[0];
      const assigned = await site.server.call(`cms/v2/menus/${short.id}`, { json: { locations: ['primary'] }, auth: site.auth });
      assert.equal(assigned.status, 200, await assigned.text());
      const items = (await site.get(`cms/v2/menu-items?menus=${short.id}&per_page=100`)).body;
      assert.equal(items.length, 6);
      // the site keeps the address it was installed at; this server is on another port
      const home = await (await fetch(new URL('/', site.server.api))).text();
      const menu = /<ul[^>]*id="menu-short"[\s\S]*?<\/ul>\s*<\/nav>|<ul[^>]*id="menu-short"[\s\S]*$/.exec(home)?.[0] ?? '';
      assert.ok(menu, 'the menu is on the home page');
      for (const item of items) assert.ok(menu.includes(`href="${item.url}"`), `${item.url} is in the menu`);

      const approval = await site.server.app.store.db.selectFrom('comments').select(['approved', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('approved').orderBy('approved').execute();
      assert.deepEqual(approval.map((r) => [r.approved, Number(r.n)]), [['0', 3], ['1', 30]], '30 approved, 3 held');
    } finally {
      await site.close();
    }
  });
});
