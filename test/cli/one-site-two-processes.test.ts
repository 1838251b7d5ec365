import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { ok, serve, type Serving } from './run.ts';
import { basicAuth } from '../helpers/server.ts';

// `serve` and the CLI on one SQLite file: what a command changes is what the running server answers
// at its next request (issue 30; SQLite's data_version tells the server another process wrote).
describe('the CLI and a running server on one SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-two-processes-'));
  const db = join(dir, 'site.sqlite');
  let site: Serving;
  let admin = '';
  /** An application password for admin made by the CLI: the indented line of its answer. */
  const newPassword = (name: string) => /^ {4}(\S.*)$/m.exec(ok(['app-password', 'create', 'admin', name, '--db', db]))![1];
  // a connection is not kept across a CLI command (seconds on a loaded machine): the server may close it as it is reused
  const agent = new Agent({ keepAliveTimeout: 500, keepAliveMaxTimeout: 500 });
  /** A GET, or a POST of `json` when given. */
  const call = (path: string, auth?: string, json?: unknown) =>
    fetch(site.api + path, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { ...(auth ? { authorization: auth } : {}), ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
      dispatcher: agent,
    });
  before(async () => {
    site = await serve(['--db', db]);
    admin = basicAuth('admin', newPassword('two-processes'));
  });
  after(async () => {
    await site.stop();
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an option changed by the CLI is the REST settings and the rendered site at once', async () => {
    ok(['option', 'update', 'blogname', 'Changed From The CLI', '--db', db]);
    const settings = (await (await call('cms/v2/settings', admin)).json()) as { title: string };
    assert.equal(settings.title, 'Changed From The CLI');
    const page = await (await fetch(site.origin + '/', { dispatcher: agent })).text();
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
