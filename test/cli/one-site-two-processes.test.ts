import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, fetch } from 'undici';
import { ok, serve, type Serving } from './run.ts';
import { basicAuth } from '../helpers/server.ts';
import { TEST_STORE, testDatabase, type TestDatabase } from '../helpers/store.ts';

/** The design library's pattern catalogue, served by the test, which counts the requests it gets. */
const CATALOGUE = { 'hero-1': { name: 'Hero', content: '<p>Hero</p>' } };

// `serve` and other processes on one database (a SQLite file, or a PostgreSQL schema on the
// PostgreSQL pass): what a command, or a second server (as `--workers` or another instance runs),
// changes is what the running server answers at its next request, through REST and on the site
// (issue 30; on SQLite, data_version tells the server another process wrote; on PostgreSQL, the
// shared-state versions are read before each request).
describe(`the CLI, a second server and a running server on one ${TEST_STORE === 'sqlite' ? 'SQLite file' : 'PostgreSQL database'}`, () => {
  let database: TestDatabase;
  let db = '';
  let site: Serving;
  /** The design library's service: how many catalogue requests it answered. */
  let library: Server;
  let libraryHits = 0;
  let admin = '';
  /** An application password for admin made by the CLI: the indented line of its answer. */
  const newPassword = (name: string) => /^ {4}(\S.*)$/m.exec(ok(['app-password', 'create', 'admin', name, '--db', db]))![1];
  // no connection is kept between requests: across a CLI command (seconds on a loaded machine) the server may close it as it is reused
  const agent = new Agent({ pipelining: 0 });
  /** A GET, or a POST of `json` when given. */
  const call = (path: string, auth?: string, json?: unknown) =>
    fetch(site.api + path, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { ...(auth ? { authorization: auth } : {}), ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
      dispatcher: agent,
    });
  /** The rendered home page of the server `of` (the first one unless told). */
  const homePage = async (of: Serving = site) => (await fetch(of.origin + '/', { dispatcher: agent })).text();
  before(async () => {
    database = await testDatabase();
    db = database.location;
    library = createServer((_, res) => {
      libraryHits++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(CATALOGUE));
    });
    await new Promise<void>((resolve) => library.listen(0, '127.0.0.1', resolve));
    // the design library may call the test's own service (a private address, refused unless allowed)
    site = await serve(['--db', db], { CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' });
    admin = basicAuth('admin', newPassword('two-processes'));
  });
  after(async () => {
    await site.stop();
    await agent.close();
    library.closeAllConnections();
    await new Promise((resolve) => library.close(resolve));
    await database.drop();
  });

  test('an option changed by the CLI is the REST settings and the rendered site at once', async () => {
    ok(['option', 'update', 'blogname', 'Changed From The CLI', '--db', db]);
    const settings = (await (await call('cms/v2/settings', admin)).json()) as { title: string };
    assert.equal(settings.title, 'Changed From The CLI');
    const page = await homePage();
    assert.match(page, /<title>[^<]*Changed From The CLI[^<]*<\/title>/);
    assert.equal((JSON.parse(await (await call('')).text()) as { name: string }).name, 'Changed From The CLI');
  });

  test("a plugin deactivated by the CLI stops serving its routes, and activated serves them again", async () => {
    assert.equal((await call('seo/v1')).status, 200);
    ok(['plugin', 'deactivate', 'seo', '--db', db]);
    const gone = await call('seo/v1');
    assert.equal(gone.status, 404);
    assert.equal(((await gone.json()) as { code: string }).code, 'rest_no_route');
    const listed = (await (await call('cms/v2/plugins', admin)).json()) as { plugin: string; status: string }[];
    assert.equal(listed.find((p) => p.plugin === 'seo/seo')!.status, 'inactive');
    ok(['plugin', 'activate', 'seo', '--db', db]);
    assert.equal((await call('seo/v1')).status, 200);
  });

  test("a plugin deactivated by the CLI is gone from the rendered site: its head markup, back once activated", async () => {
    // the SEO plugin's opening marker, as Yoast SEO's (its version aside)
    const SEO_HEAD = '<!-- This site is optimized with the SEO plugin v';
    assert.ok((await homePage()).includes(SEO_HEAD), 'the SEO plugin prints its meta tags in the head');
    ok(['plugin', 'deactivate', 'seo', '--db', db]);
    const without = await homePage();
    assert.ok(!without.includes(SEO_HEAD), 'no SEO meta tags once the CLI deactivated the plugin');
    assert.doesNotMatch(without, /<meta property="og:/);
    ok(['plugin', 'activate', 'seo', '--db', db]);
    assert.ok((await homePage()).includes(SEO_HEAD));
  });

  test('a snippet activated through a second server is on the first one\'s site and REST at its next request, and gone once deactivated there', async () => {
    const second = await serve(['--db', db]);
    try {
      const through = (path: string, json?: unknown) =>
        fetch(second.api + path, { method: json === undefined ? 'GET' : 'POST', headers: { authorization: admin, 'content-type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json), dispatcher: agent });
      const FOOTER = '<p class="from-the-second-server">Printed by a snippet</p>';
      // the first server has rendered its page (and kept its active snippets) before the snippet exists
      assert.ok(!(await homePage()).includes(FOOTER));
      const created = await through('code-snippets/v1/snippets', { name: 'Footer note', code: FOOTER, scope: 'footer-content', active: true });
      assert.equal(created.status, 200);
      const { id } = (await created.json()) as { id: number };
      assert.ok((await homePage(second)).includes(FOOTER), 'the second server prints it');
      assert.ok((await homePage()).includes(FOOTER), 'the first server prints it at its next request');
      const listed = (await (await call('code-snippets/v1/snippets', admin)).json()) as { id: number; name: string; active: boolean }[];
      assert.deepEqual(listed.filter((s) => s.id === id).map((s) => [s.name, s.active]), [['Footer note', true]]);

      assert.equal((await through(`code-snippets/v1/snippets/${id}/deactivate`, {})).status, 200);
      assert.ok(!(await homePage()).includes(FOOTER), 'deactivated on the second server: gone from the first one\'s site');
      assert.equal(((await (await call(`code-snippets/v1/snippets/${id}`, admin)).json()) as { active: boolean }).active, false);
    } finally {
      await second.stop();
    }
  });

  test('what the server kept in a plugin cache is fetched again once `cache flush` emptied it', async () => {
    const { port } = library.address() as AddressInfo;
    ok(['option', 'update', 'design_library_license_key', 'LICENSE-KEY-123', '--db', db]);
    ok(['option', 'update', 'design_library_patterns_url', `http://127.0.0.1:${port}/patterns/`, '--db', db]);
    const catalogue = async () => {
      const res = await call('kb-design-library/v1/get_library?library=section&key=section', admin);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), CATALOGUE);
    };
    await catalogue();
    await catalogue();
    assert.equal(libraryHits, 1, 'the second request is answered from the cache');
    assert.match(ok(['cache', 'flush', '--db', db]), /^Success: The cache was flushed \(.*1 cached design library answer.*\)\.$/m);
    await catalogue();
    assert.equal(libraryHits, 2, 'asked for again after the flush');
    await catalogue();
    assert.equal(libraryHits, 2, 'and kept again');
  });

  test("a role given by the CLI is the user's at the next request: what they may do, and what REST says they are", async () => {
    ok(['user', 'add', 'riley', '--role', 'subscriber', '--db', db]);
    const riley = basicAuth('riley', /^ {4}(\S.*)$/m.exec(ok(['app-password', 'create', 'riley', 'two-processes', '--db', db]))![1]);
    const draft = () => call('cms/v2/posts', riley, { title: 'By Riley' });
    assert.equal((await draft()).status, 403);
    ok(['user', 'set-role', 'riley', 'author', '--db', db]);
    const me = (await (await call('cms/v2/users/me?context=edit', riley)).json()) as { roles: string[] };
    assert.deepEqual(me.roles, ['author']);
    assert.equal((await draft()).status, 201);
  });

  test('a user deleted by the CLI is unknown at the next request', async () => {
    ok(['user', 'add', 'casey', '--role', 'author', '--db', db]);
    const casey = basicAuth('casey', /^ {4}(\S.*)$/m.exec(ok(['app-password', 'create', 'casey', 'two-processes', '--db', db]))![1]);
    assert.equal((await call('cms/v2/users/me', casey)).status, 200);
    ok(['user', 'delete', 'casey', '--reassign', 'admin', '--db', db]);
    const refused = await call('cms/v2/users/me', casey);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { code: string }).code, 'invalid_username');
  });

  test('an application password revoked by the CLI is refused at the next request', async () => {
    const auth = basicAuth('admin', newPassword('revoked-soon'));
    assert.equal((await call('cms/v2/users/me', auth)).status, 200);
    const list = (await (await call('cms/v2/users/1/application-passwords', admin)).json()) as { name: string; uuid: string }[];
    const { uuid } = list.find((p) => p.name === 'revoked-soon')!;
    ok(['app-password', 'revoke', 'admin', uuid, '--db', db]);
    const refused = await call('cms/v2/users/me', auth);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { code: string }).code, 'incorrect_password');
  });
});
