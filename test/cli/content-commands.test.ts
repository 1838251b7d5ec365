import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/index.ts';
import { verifyPassword } from '../../src/auth/passwords.ts';
import { oembed } from '../../src/plugins/oembed/plugin.ts';
import { cms, fails, ok } from './run.ts';
import { TEST_STORE, testDatabase } from '../helpers/store.ts';

/** Reads the database the commands wrote, as the server would. */
async function withDb<T>(db: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await Store.open(db);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('wp-cli-like commands on a site database', () => {
  // files the commands read (and the bad --db paths) live here; the site's database is the run's test store
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-cli-'));
  const database = testDatabase();
  let db = '';
  let dbArgs: string[] = [];
  before(async () => {
    db = (await database).location;
    dbArgs = ['--db', db];
    // the address a served site would have; seed alone leaves it to the first serve
    ok(['seed', '--posts', '3', '--seed-random', '5', '--url', 'http://127.0.0.1:8080', ...dbArgs]);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await (await database).drop();
  });

  test('post create --porcelain prints the id; get, list and their formats show it', async () => {
    const id = ok(['post', 'create', '--post_title', 'Made, on the "CLI"', '--post_content', '<p>Body</p>', '--post_status', 'publish', '--post_category', 'uncategorized', '--tags_input', 'Tea,Cake', '--post_date', '2024-02-03 04:05:06', '--porcelain', ...dbArgs]).trim();
    assert.match(id, /^\d+$/);
    const item = JSON.parse(ok(['post', 'get', id, '--format', 'json', ...dbArgs])) as Record<string, unknown>;
    assert.equal(item.post_title, 'Made, on the "CLI"');
    assert.equal(item.post_status, 'publish');
    assert.equal(item.post_date, '2024-02-03 04:05:06');
    assert.equal(item.url, 'http://127.0.0.1:8080/2024/02/03/made-on-the-cli/');
    const tags = await withDb(db, async (s) => (await s.terms.termsOfPosts([Number(id)], 'post_tag')).get(Number(id))!.map((t) => t.name));
    assert.deepEqual(tags.sort(), ['Cake', 'Tea'], 'missing tags are created, as tags_input does');
    assert.equal(ok(['post', 'get', id, '--field', 'post_name', ...dbArgs]).trim(), 'made-on-the-cli');
    const table = ok(['post', 'get', id, '--fields', 'ID,post_title', ...dbArgs]);
    assert.match(table, /^Field\s+Value\n/);
    assert.match(table, /^post_title\s+Made, on the "CLI"$/m);

    const rows = JSON.parse(ok(['post', 'list', '--format', 'json', ...dbArgs])) as Record<string, unknown>[];
    assert.deepEqual(Object.keys(rows[0]), ['ID', 'post_title', 'post_name', 'post_date', 'post_status']);
    assert.equal(rows.length, 5, 'Hello world, three seeded, one created');
    const csv = ok(['post', 'list', '--fields', 'ID,post_title', '--format', 'csv', '--s', 'CLI', ...dbArgs]);
    assert.equal(csv, `ID,post_title\n${id},"Made, on the ""CLI"""\n`);
    assert.equal(ok(['post', 'list', '--format', 'count', ...dbArgs]).trim(), '5');
    const ids = ok(['post', 'list', '--format', 'ids', '--orderby', 'id', '--order', 'asc', ...dbArgs]).trim().split(' ');
    assert.equal(ids.length, 5);
    assert.deepEqual(ids, [...ids].sort((a, b) => Number(a) - Number(b)));
    assert.equal(ok(['post', 'list', '--post_type', 'page', '--field', 'post_title', ...dbArgs]).trim(), 'Sample Page');
  });

  test('post create reads a content file and defaults to a draft by the first administrator; pages too', async () => {
    const file = join(dir, 'content.html');
    writeFileSync(file, '<p>From a file</p>');
    const id = Number(ok(['post', 'create', file, '--post_title', 'Filed', '--porcelain', ...dbArgs]));
    const page = Number(ok(['post', 'create', '--post_type', 'page', '--post_title', 'About', '--post_status', 'publish', '--porcelain', ...dbArgs]));
    await withDb(db, async (s) => {
      const post = (await s.posts.get(id))!;
      assert.equal(post.content, '<p>From a file</p>');
      assert.equal(post.status, 'draft');
      assert.equal(post.author, (await s.users.byLogin('admin'))!.id);
      assert.equal((await s.posts.get(page))!.type, 'page');
    });
  });

  test('post update and delete: the API’s rules and messages, trash before deletion, one failure does not stop the rest', async () => {
    const id = ok(['post', 'create', '--post_title', 'To change', '--porcelain', ...dbArgs]).trim();
    assert.equal(ok(['post', 'update', id, '--post_title', 'Changed', '--post_status', 'publish', ...dbArgs]).trim(), `Success: Updated post ${id}.`);
    assert.equal(ok(['post', 'get', id, '--field', 'post_title', ...dbArgs]).trim(), 'Changed');
    fails(['post', 'update', id, '--post_status', 'bogus', ...dbArgs], /^Error: Invalid parameter\(s\): status/);
    fails(['post', 'update', id, '--post_category', 'no-such-category', ...dbArgs], /There is no category "no-such-category"\./);
    fails(['post', 'update', id, ...dbArgs], /Nothing to update/);
    fails(['post', 'get', '99999', ...dbArgs], /Could not find the post with ID 99999\./);
    fails(['post', 'create', '--post_type', 'widget', '--post_title', 'x', ...dbArgs], /Unknown post type "widget"/);
    fails(['post', 'create', '--post_date', 'tomorrow', '--post_title', 'x', ...dbArgs], /--post_date takes 'YYYY-MM-DD HH:MM:SS'/);

    assert.equal(ok(['post', 'delete', id, ...dbArgs]).trim(), `Success: Trashed post ${id}.`);
    assert.equal(ok(['post', 'get', id, '--field', 'post_status', ...dbArgs]).trim(), 'trash');
    fails(['post', 'delete', id, ...dbArgs], /already in the trash; delete it for good with --force/);
    const r = ok(['post', 'delete', id, '--force', ...dbArgs]);
    assert.equal(r.trim(), `Success: Deleted post ${id}.`);
    await withDb(db, async (s) => assert.equal(await s.posts.get(Number(id)), undefined));
  });

  test('post delete of many posts shows progress and one summary; unknown ids are warned about and fail the command', async () => {
    const ids = await withDb(db, async (s) => (await s.posts.insertMany(Array.from({ length: 12 }, (_, i) => ({ author: 1, title: `Bulk ${i}`, status: 'publish', type: 'post' })))).map(String));
    const r = cms(['post', 'delete', ...ids, '424242', '--force', ...dbArgs]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /deleted 13\/13 posts/, 'progress lines when not on a terminal');
    assert.match(r.stderr, /^Warning: Could not find the post with ID 424242\.$/m);
    assert.match(r.stdout, /^Success: Deleted 12 of 13 posts\.$/m);
    assert.match(r.stderr, /^Error: 1 of 13 posts failed\.$/m);
  });

  test('option get, update and list; home and siteurl must be URLs', () => {
    assert.equal(ok(['option', 'get', 'home', ...dbArgs]).trim(), 'http://127.0.0.1:8080');
    assert.equal(ok(['option', 'update', 'blogname', 'My Site', ...dbArgs]).trim(), "Success: Updated 'blogname' option.");
    assert.equal(ok(['option', 'get', 'blogname', '--format', 'json', ...dbArgs]).trim(), '"My Site"');
    assert.match(ok(['option', 'update', 'home', 'http://127.0.0.1:9090/', ...dbArgs]), /^Success: Updated 'home' option\.$/m);
    assert.equal(ok(['option', 'get', 'home', ...dbArgs]).trim(), 'http://127.0.0.1:9090', 'kept without the trailing slash');
    assert.match(ok(['option', 'update', 'home', 'http://127.0.0.1:9090', ...dbArgs]), /unchanged/);
    fails(['option', 'update', 'siteurl', 'not a url', ...dbArgs], /siteurl must be an absolute URL/);
    fails(['option', 'update', 'home', 'ftp://example.com', ...dbArgs], /home must be an http or https URL/);
    fails(['option', 'get', 'no_such_option', ...dbArgs], /Could not get 'no_such_option' option/);
    const listed = JSON.parse(ok(['option', 'list', '--search', 'site*', '--format', 'json', ...dbArgs])) as { option_name: string; option_value: string }[];
    // a new site holds site_icon 0, as WordPress 6.1's populate_options writes it; listed by name here (WP-CLI lists by option_id)
    assert.deepEqual(listed, [{ option_name: 'site_icon', option_value: '0' }, { option_name: 'siteurl', option_value: 'http://127.0.0.1:8080' }]);
    ok(['option', 'update', 'home', 'http://127.0.0.1:8080', ...dbArgs]);
  });

  test('user add defaults to subscriber; update, set-role, reset-password and delete', async () => {
    const id = ok(['user', 'add', 'reader', '--porcelain', ...dbArgs]).trim();
    assert.match(id, /^\d+$/);
    const users = JSON.parse(ok(['user', 'list', '--format', 'json', ...dbArgs])) as Record<string, unknown>[];
    assert.equal(users.find((u) => u.user_login === 'reader')?.roles, 'subscriber');
    assert.match(ok(['user', 'update', 'reader', '--display_name', 'A Reader', '--user_email', 'reader@example.org', ...dbArgs]), /^Success: Updated user \d+\.$/m);
    assert.match(ok(['user', 'set-role', 'reader', 'editor', ...dbArgs]), /is now an editor\.$/m);
    assert.match(ok(['user', 'set-role', id, ...dbArgs]), /is now a subscriber/, 'the role defaults to the site’s default role');
    const password = ok(['user', 'reset-password', 'reader', '--porcelain', ...dbArgs]).trim();
    assert.match(password, /^\S{24}$/);
    await withDb(db, async (s) => {
      const u = (await s.users.byLogin('reader'))!;
      assert.equal(u.display_name, 'A Reader');
      assert.equal(u.email, 'reader@example.org');
      assert.ok(await verifyPassword(password, u.password_hash), 'the printed password is the new one');
    });
    fails(['user', 'update', 'reader', '--user_email', 'admin@example.com', ...dbArgs], /already used/);
    fails(['user', 'set-role', 'reader', 'wizard', ...dbArgs], /Unknown role "wizard"/);
    fails(['user', 'update', 'nobody', '--display_name', 'x', ...dbArgs], /There is no user "nobody"/);
    fails(['user', 'delete', 'reader', ...dbArgs], /Pass --yes to confirm/);

    const writer = ok(['user', 'add', 'writer', '--role', 'author', '--porcelain', ...dbArgs]).trim();
    const post = ok(['post', 'create', '--post_title', 'By the writer', '--post_author', 'writer', '--porcelain', ...dbArgs]).trim();
    assert.match(ok(['user', 'delete', 'writer', '--reassign', 'admin', ...dbArgs]), /their posts now belong to admin/);
    await withDb(db, async (s) => {
      assert.equal(await s.users.get(Number(writer)), undefined);
      assert.equal((await s.posts.get(Number(post)))!.author, (await s.users.byLogin('admin'))!.id);
    });
    ok(['user', 'delete', 'reader', '--yes', ...dbArgs]);
    assert.ok(!ok(['user', 'list', '--format', 'csv', ...dbArgs]).includes('reader'));
  });

  test('cache flush empties the oEmbed cache and says how much it dropped', async () => {
    await withDb(db, async (s) => {
      await s.plugin(oembed).set('a', { html: 'x' }, 3600);
      await s.plugin(oembed).set('b', { html: 'y' }, 3600);
    });
    assert.equal(ok(['cache', 'flush', ...dbArgs]).trim(), 'Success: The cache was flushed (0 cached link previews, 0 cached design library answers, 2 cached oEmbed answers, 0 stored SEO dashboard answers, 0 remote SEO service answers dropped).');
    await withDb(db, async (s) => assert.equal(await s.plugin(oembed).get('a'), undefined));
  });

  test('commands on a database that cannot be opened, or holds no site, fail in one line', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'this is not a database, just some notes that are long enough to fill a header page of sqlite '.repeat(20));
    fails(['post', 'list', '--db', text], /^Error: Cannot open the database ".*notes\.txt": file is not a database\. Check that --db names/);
    fails(['option', 'list', '--db', dir], /^Error: Cannot open the database/);
    fails(['user', 'list', '--db', join(dir, 'missing.sqlite')], /holds no site yet\. Run `cms-spec serve --db/);
    fails(['post', 'create', '--post_title', 'x', '--spec', join(dir, 'no-spec'), ...dbArgs], /There is no spec in ".*no-spec" \(no site\.yaml there\)/);
    // PostgreSQL that does not answer: one line, and the URL's password is never printed
    const refused = fails(['post', 'list', '--db', 'postgres://editor:s3cret-pw@127.0.0.1:1/site'], /^Error: Cannot reach the database postgres:\/\/editor:\*\*\*@127\.0\.0\.1:1\/site: nothing accepts connections there\. Check that PostgreSQL is running there/);
    assert.doesNotMatch(refused.stderr, /s3cret-pw/);
    if (TEST_STORE === 'postgres') {
      const empty = await testDatabase();
      try {
        fails(['user', 'list', '--db', empty.location], /holds no site yet\. Run `cms-spec serve --db/);
      } finally {
        await empty.drop();
      }
    }
  });
});
