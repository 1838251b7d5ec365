import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ROOT, useServer, type TestServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';
import { scanWxr } from '../../src/import/wxr-scan.ts';
import { parseWxr, type WxrRecord } from '../../src/import/wxr-parser.ts';
import { UPLOADS_PATH } from '../../src/core/media.ts';

/**
 * The admin's Tools → Import and Tools → Export over HTTP (cms-import/v1): WordPress's importer in
 * its three steps (upload, the authors' mapping, the run) on small-export.xml from
 * wordpress-importer's tests, with the counts WordPress's test_small_import asserts (as the CLI's
 * test does); the refusals WordPress's parser gives a file that is not a WXR; who may do it
 * (`import`, `export`: administrators only in WordPress 6.1); and the export's download as
 * export_wp() sends it, which the importer reads back.
 */

const fixture = (name: string) => readFileSync(join(ROOT, 'test/fixtures/wxr', name));

type Obj = Record<string, any>;

/** A file sent as WordPress's importer form sends it: multipart/form-data, the field `import`'s file (here `file`, as the media route takes it). */
function form(name: string, bytes: Buffer): FormData {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(bytes)], { type: 'text/xml' }), name);
  return body;
}

async function upload(site: TestServer, auth: string, name: string, bytes: Buffer): Promise<Response> {
  return site.call('cms-import/v1/imports', { method: 'POST', body: form(name, bytes), auth });
}

/** Asks for the import's state until it is no longer running (each answer a fresh read of its state file). */
async function finished(site: TestServer, auth: string, id: string): Promise<Obj> {
  const seen: number[] = [];
  for (;;) {
    const r = await site.call(`cms-import/v1/imports/${id}`, { auth });
    assert.equal(r.status, 200);
    const state = (await r.json()) as Obj;
    seen.push(state.progress.done);
    if (state.status !== 'running') return { ...state, seen };
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

describe('Tools → Import over REST: upload, map the authors, run, report', () => {
  let admin: string;
  let siteAdminId: number;
  const site = useServer({}, async (s) => {
    // as WordPress's importer tests (and the CLI's) start from an empty site
    const { store } = s.app;
    await store.db.deleteFrom('comments').execute();
    await store.db.deleteFrom('posts').execute();
    await store.db.deleteFrom('terms').execute();
    const me = await s.json('cms/v2/users/me');
    siteAdminId = me.id;
  });
  before(() => {
    admin = site.admin;
  });

  let state: Obj;
  test('the upload answers the file’s authors and counts, as the mapping form lists them', async () => {
    const r = await upload(site, admin, 'small-export.xml', fixture('small-export.xml'));
    const body = (await r.json()) as Obj;
    assert.equal(r.status, 201, JSON.stringify(body));
    assert.equal(r.headers.get('location'), `${site.api}cms-import/v1/imports/${body.id}`);
    assert.equal(body.status, 'uploaded');
    assert.deepEqual(body.file, { name: 'small-export.xml', size: fixture('small-export.xml').length });
    // the three wp:author records of the file, as WordPress's form lists them
    assert.deepEqual(
      body.wxr.authors.map((a: Obj) => [a.login, a.email]),
      [['admin', 'local@host.null'], ['editor', 'editor@example.org'], ['author', 'author@example.org']],
    );
    assert.equal(body.wxr.version, '1.1');
    assert.deepEqual(body.wxr.items, { page: 5, post: 6 });
    assert.equal(body.progress.done, 0);
    // the file is kept where the site never serves it: a dot folder of the uploads folder
    const kept = join(site.app.site.media.uploadsDir, '.imports', body.id);
    assert.deepEqual((await readdir(kept)).sort(), ['state.json', 'wxr.xml']);
    assert.equal((await fetch(`${site.home}${UPLOADS_PATH}/.imports/${body.id}/wxr.xml`)).status, 404);
    state = body;
  });

  test('run with WordPress’s mapping: one author assigned to an existing user, one made under a new login, one as the file has them', async () => {
    const r = await site.call(`cms-import/v1/imports/${state.id}/run`, {
      method: 'POST',
      auth: admin,
      json: { authors: [{ login: 'admin', user_id: siteAdminId }, { login: 'editor', new_login: 'chief' }], fetch_attachments: false },
    });
    const started = (await r.json()) as Obj;
    assert.equal(r.status, 202, JSON.stringify(started));
    assert.equal(started.status, 'running');
    const done = await finished(site, admin, state.id);
    assert.equal(done.status, 'done', JSON.stringify([done, site.errors]));
    assert.equal(done.progress.done, done.progress.total);
    assert.equal(done.progress.total, state.wxr.total);
    assert.ok(done.seen.every((n: number, i: number) => i === 0 || n >= done.seen[i - 1]), `progress only goes forward: ${done.seen}`);
    assert.equal(typeof done.progress.rate, 'number');
    assert.deepEqual({ ...done.report, notices: undefined }, { users: 2, terms: 34, posts: { post: 6, page: 5 }, menu_items: 0, attachments: 0, comments: 1, existing: 0, failed: 0, notices: undefined });
    // 34 terms: the file's 30 categories and 3 tags, and the post format aside one of its posts has
    // the file is deleted once imported, as WordPress's importer deletes its upload
    assert.deepEqual(await readdir(join(site.app.site.media.uploadsDir, '.imports', state.id)), ['state.json']);

    // test_small_import's counts
    const total = async (path: string) => Number((await site.call(path, { auth: admin })).headers.get('x-wp-total'));
    assert.equal(await total('cms/v2/categories?per_page=1'), 30);
    assert.equal(await total('cms/v2/tags?per_page=1'), 3);
    assert.equal(await total('cms/v2/posts?status=publish&per_page=1'), 5);
    assert.equal(await total('cms/v2/posts?status=private&per_page=1'), 1);
    assert.equal(await total('cms/v2/pages?status=publish&per_page=1'), 4);
    assert.equal(await total('cms/v2/pages?status=draft&per_page=1'), 1);
    assert.equal(await total('cms/v2/comments?per_page=1'), 1);
    const category = async (slug: string) => (await site.json(`cms/v2/categories?slug=${slug}`))[0];
    assert.equal((await category('foo-bar')).parent, (await category('bar')).id);

    // the mapping: admin's posts are the site administrator's; editor's went to a new user "chief" (wp_create_user: a login, nothing else); author was made as the file has them
    const users = (await site.json('cms/v2/users?context=edit&per_page=100')) as Obj[];
    const user = (login: string) => users.find((u) => u.username === login);
    assert.deepEqual(users.map((u) => u.username).sort(), ['admin', 'author', 'chief']);
    assert.equal(user('chief')!.email, '');
    assert.equal(user('author')!.email, 'author@example.org');
    const many = (await site.json('cms/v2/posts?slug=many-categories'))[0];
    assert.equal(many.author, siteAdminId);
    const byEditor = (await site.json(`cms/v2/posts?author=${user('chief')!.id}&status=publish,private&per_page=100`)) as Obj[];
    assert.ok(byEditor.length > 0, 'the editor’s posts are chief’s');
  });

  test('a run of an import that is done is refused: its file is gone', async () => {
    await site.error(`cms-import/v1/imports/${state.id}/run`, { method: 'POST', auth: admin, json: {} }, 409, 'cms_import_done', 'This import is done and its file deleted; upload the file again to import it again.');
  });

  test('the same file imported again imports nothing twice: every item is reported as there already', async () => {
    const again = (await (await upload(site, admin, 'small-export.xml', fixture('small-export.xml'))).json()) as Obj;
    const r = await site.call(`cms-import/v1/imports/${again.id}/run`, { method: 'POST', auth: admin, json: { authors: [{ login: 'admin', user_id: siteAdminId }, { login: 'editor', new_login: 'chief' }] } });
    assert.equal(r.status, 202);
    const done = await finished(site, admin, again.id);
    assert.equal(done.status, 'done');
    assert.deepEqual([done.report.users, done.report.terms, done.report.posts, done.report.comments, done.report.existing], [0, 0, {}, 0, 11]);
    assert.match(done.report.notices[0].message, /^small-export\.xml:\d+: \w+ “.+” already exists\.$/);
  });

  test('the mapping names only the file’s authors and existing users', async () => {
    const fresh = (await (await upload(site, admin, 'small-export.xml', fixture('small-export.xml'))).json()) as Obj;
    const run = (json: Obj) => site.call(`cms-import/v1/imports/${fresh.id}/run`, { method: 'POST', auth: admin, json });
    const nobody = await run({ authors: [{ login: 'nobody', new_login: 'x' }] });
    assert.equal(nobody.status, 400);
    assert.deepEqual(((await nobody.json()) as Obj).data.params, { authors: 'The file has no author "nobody".' });
    const missing = await run({ authors: [{ login: 'admin', user_id: 99999 }] });
    assert.equal(missing.status, 400);
    assert.equal(((await missing.json()) as Obj).code, 'rest_invalid_param');
    const unknownField = await run({ authors: [{ login: 'admin', role: 'administrator' }] });
    assert.equal(unknownField.status, 400);
    assert.equal((await site.json(`cms-import/v1/imports/${fresh.id}`)).status, 'uploaded', 'nothing ran');
  });

  test('a file that is not a WXR: 400 with the parser’s one line naming the file, and nothing kept', async () => {
    const before = await readdir(join(site.app.site.media.uploadsDir, '.imports'));
    const refusal = async (name: string, bytes: Buffer, message: RegExp) => {
      const r = await upload(site, admin, name, bytes);
      const body = (await r.json()) as Obj;
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(body.code, 'cms_import_invalid_file');
      assert.match(body.message, message);
      assert.equal(body.data.status, 400);
    };
    await refusal('malformed.xml', fixture('malformed.xml'), /^malformed\.xml:\d+: There was an error when reading this WXR file: /);
    await refusal('missing-version-tag.xml', fixture('missing-version-tag.xml'), /^missing-version-tag\.xml:\d+: This does not appear to be a WXR file, missing\/invalid WXR version number$/);
    await refusal('invalid-version-tag.xml', fixture('invalid-version-tag.xml'), /^invalid-version-tag\.xml:\d+: This does not appear to be a WXR file, missing\/invalid WXR version number$/);
    const whole = fixture('small-export.xml');
    await refusal('truncated.xml', whole.subarray(0, Math.floor(whole.length / 2)), /^truncated\.xml:\d+: There was an error when reading this WXR file: /);
    await refusal('photo.png', Buffer.from('\x89PNG\r\n\x1a\n'), /^photo\.png:\d+: /);
    assert.deepEqual(await readdir(join(site.app.site.media.uploadsDir, '.imports')), before, 'nothing is kept of a refused file');
    await site.error('cms-import/v1/imports', { method: 'POST', auth: admin, body: new FormData() }, 400, 'rest_upload_no_data', 'No data supplied.');
    await site.error('cms-import/v1/imports/0b1c9d10-3b59-4a8a-9a57-6c0e0f0b5e2a', { auth: admin }, 404, 'cms_import_not_found', 'There is no import with this ID.');
  });

  test('an upload never run goes a day later, as importer_scheduled_cleanup removes it; one run, or newer, stays', async () => {
    const imports = join(site.app.site.media.uploadsDir, '.imports');
    const uploadedNow = async () => ((await (await upload(site, admin, 'small-export.xml', fixture('small-export.xml'))).json()) as Obj).id as string;
    const stale = await uploadedNow();
    const recent = await uploadedNow();
    // a day passing, told to the state file (what every request reads of an import)
    const backdate = async (id: string, hours: number) => {
      const file = join(imports, id, 'state.json');
      const state = JSON.parse(await readFile(file, 'utf8')) as Obj;
      await writeFile(file, JSON.stringify({ ...state, uploaded: new Date(Date.now() - hours * 3600_000).toISOString() }));
    };
    await backdate(stale, 25);
    await backdate(recent, 23);
    const next = await uploadedNow();
    await site.error(`cms-import/v1/imports/${stale}`, { auth: admin }, 404, 'cms_import_not_found', 'There is no import with this ID.');
    assert.equal((await readdir(imports)).includes(stale), false, 'its folder and file are gone');
    for (const id of [recent, next]) assert.equal((await site.json(`cms-import/v1/imports/${id}`)).status, 'uploaded');
  });

  test('a raw body named by Content-Disposition, as the media route takes one', async () => {
    const r = await site.call('cms-import/v1/imports', { method: 'POST', auth: admin, body: fixture('valid-wxr-1.1.xml'), headers: { 'content-type': 'text/xml', 'content-disposition': 'attachment; filename="old-site.xml"' } });
    const body = (await r.json()) as Obj;
    assert.equal(r.status, 201, JSON.stringify(body));
    assert.equal(body.file.name, 'old-site.xml');
    assert.equal(body.wxr.version, '1.1');
  });

  test('an upload over the upload limit is cut off with 413', async () => {
    // the limit of the test server (WordPress's wp_max_upload_size) is well under this
    const big = Buffer.alloc(site.app.site.media.settings.uploadLimit + 1, 0x20);
    const r = await site.call('cms-import/v1/imports', { method: 'POST', auth: admin, body: big, headers: { 'content-type': 'text/xml', 'content-disposition': 'attachment; filename="big.xml"' } });
    assert.equal(r.status, 413);
  });
});

describe('who may import and export: WordPress’s `import` and `export`, which only administrators hold', () => {
  const users: Record<string, TestUser> = {};
  const site = useServer({}, async (s) => {
    for (const role of ['subscriber', 'editor']) users[role] = await userAuth(s, role);
  });

  test('anonymous 401, a subscriber and an editor 403, with WordPress’s admin pages’ words', async () => {
    const importWords = 'Sorry, you are not allowed to import content into this site.';
    const exportWords = 'Sorry, you are not allowed to export the content of this site.';
    const id = '0b1c9d10-3b59-4a8a-9a57-6c0e0f0b5e2a';
    const cases: [string, string, string, string][] = [
      ['POST', 'cms-import/v1/imports', 'rest_cannot_import', importWords],
      ['GET', `cms-import/v1/imports/${id}`, 'rest_cannot_import', importWords],
      ['POST', `cms-import/v1/imports/${id}/run`, 'rest_cannot_import', importWords],
      ['GET', 'cms-import/v1/export', 'rest_cannot_export', exportWords],
    ];
    for (const [method, path, code, message] of cases) {
      await site.error(path, { method, body: method === 'POST' ? form('x.xml', fixture('small-export.xml')) : undefined }, 401, code, message);
      for (const role of ['subscriber', 'editor']) await site.error(path, { method, auth: users[role].auth, body: method === 'POST' ? form('x.xml', fixture('small-export.xml')) : undefined }, 403, code, message);
    }
  });
});

describe('Tools → Export over REST: the file export_wp() sends', () => {
  const site = useServer();

  const records = async (text: string): Promise<WxrRecord[]> => {
    const out: WxrRecord[] = [];
    for await (const r of parseWxr(Readable.from([text]), 'export.xml')) out.push(r);
    return out;
  };

  test('all content: WordPress’s headers, named after the site and today, a WXR 1.2 the importer reads back', async () => {
    await site.json('cms/v2/settings', { method: 'POST', json: { title: 'My Old Blog!' } });
    await site.json('cms/v2/posts', { method: 'POST', json: { title: 'Exported post', content: 'Words.', status: 'publish' } }, 201);
    const r = await site.call('cms-import/v1/export', { auth: site.admin });
    assert.equal(r.status, 200);
    const today = new Date().toISOString().slice(0, 10);
    // export_wp: sanitize_key(blogname) . '.' . 'WordPress.' . gmdate('Y-m-d') . '.xml'
    assert.equal(r.headers.get('content-disposition'), `attachment; filename=myoldblog.WordPress.${today}.xml`);
    assert.equal(r.headers.get('content-type'), 'text/xml; charset=UTF-8');
    assert.equal(r.headers.get('content-description'), 'File Transfer');
    // sent as it is written, as export_wp echoes it: no length known up front, nothing held whole
    assert.equal(r.headers.get('transfer-encoding'), 'chunked');
    assert.equal(r.headers.get('content-length'), null);
    const text = await r.text();
    const read = await records(text);
    const header = read.find((x) => x.kind === 'header');
    assert.equal(header?.kind === 'header' && header.header.version, '1.2');
    const titles = read.flatMap((x) => (x.kind === 'post' ? [x.post.post_title] : []));
    assert.ok(titles.includes('Exported post'), titles.join(', '));
    assert.ok(titles.includes('Sample Page'), 'pages too');
    assert.ok(read.some((x) => x.kind === 'category'), 'the categories are listed for all content');
    assert.equal((await scanWxr('export.xml', () => parseWxr(Readable.from([text]), 'export.xml'))).version, '1.2');
  });

  test('the filters of export.php: posts of a category, an author, a status, a month range', async () => {
    const cat = await site.json('cms/v2/categories', { method: 'POST', json: { name: 'Picked' } }, 201);
    const other = await userAuth(site, 'author');
    const otherMe = await site.json('cms/v2/users/me', { auth: other.auth });
    await site.json('cms/v2/posts', { method: 'POST', json: { title: 'In the category', status: 'publish', categories: [cat.id], date: '2021-03-10T10:00:00' } }, 201);
    await site.json('cms/v2/posts', { method: 'POST', json: { title: 'A draft in it', status: 'draft', categories: [cat.id], date: '2021-05-10T10:00:00' } }, 201);
    await site.json('cms/v2/posts', { method: 'POST', auth: other.auth, json: { title: 'By the author', status: 'publish', date: '2021-04-02T10:00:00' } }, 201);
    const exported = async (query: string) => {
      const r = await site.call(`cms-import/v1/export?${query}`, { auth: site.admin });
      assert.equal(r.status, 200, await r.clone().text());
      const read = await records(await r.text());
      return { titles: read.flatMap((x) => (x.kind === 'post' ? [x.post.post_title] : [])).sort(), categories: read.flatMap((x) => (x.kind === 'category' ? [x.category.category_nicename] : [])) };
    };
    assert.deepEqual(await exported(`content=post&category=${cat.id}`), { titles: ['A draft in it', 'In the category'], categories: ['picked'] });
    assert.deepEqual((await exported(`content=post&category=${cat.id}&status=publish`)).titles, ['In the category']);
    assert.deepEqual((await exported(`content=post&author=${otherMe.id}`)).titles, ['By the author']);
    assert.deepEqual((await exported('content=post&start_date=2021-03&end_date=2021-04')).titles, ['By the author', 'In the category']);
    const pages = await exported('content=page');
    assert.deepEqual(pages.titles, ['Sample Page']);
    assert.deepEqual(pages.categories, [], 'one type: no term lists');
  });

  test('bad filters: 400 rest_invalid_param', async () => {
    for (const query of ['content=nothing', 'start_date=2021-13', 'end_date=March', 'status=trash', 'category=99999', 'author=99999']) {
      const r = await site.call(`cms-import/v1/export?${query}`, { auth: site.admin });
      assert.equal(r.status, 400, query);
      assert.equal(((await r.json()) as Obj).code, 'rest_invalid_param', query);
    }
  });
});
