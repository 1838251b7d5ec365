import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  const get = (path: string, auth?: string) => fetch(site.api + path, { headers: auth ? { authorization: auth } : {} });
  before(async () => {
    site = await serve(['--db', db]);
    admin = basicAuth('admin', newPassword('two-processes'));
  });
  after(async () => {
    await site.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an option changed by the CLI is the REST settings and the rendered site at once', async () => {
    ok(['option', 'update', 'blogname', 'Changed From The CLI', '--db', db]);
    const settings = await (await get('cms/v2/settings', admin)).json();
    assert.equal(settings.title, 'Changed From The CLI');
    const page = await (await fetch(site.origin + '/')).text();
    assert.match(page, /<title>[^<]*Changed From The CLI[^<]*<\/title>/);
    assert.equal(JSON.parse(await (await get('')).text()).name, 'Changed From The CLI');
  });

  test("a plugin deactivated by the CLI stops serving its routes, and activated serves them again", async () => {
    assert.equal((await get('seo/v1')).status, 200);
    ok(['plugin', 'deactivate', 'seo', '--db', db]);
    const gone = await get('seo/v1');
    assert.equal(gone.status, 404);
    assert.equal((await gone.json()).code, 'rest_no_route');
    const listed = await (await get('cms/v2/plugins', admin)).json();
    assert.equal(listed.find((p: { plugin: string }) => p.plugin === 'seo/seo').status, 'inactive');
    ok(['plugin', 'activate', 'seo', '--db', db]);
    assert.equal((await get('seo/v1')).status, 200);
  });

  test('an application password revoked by the CLI is refused at the next request', async () => {
    const auth = basicAuth('admin', newPassword('revoked-soon'));
    assert.equal((await get('cms/v2/users/me', auth)).status, 200);
    const list = await (await get('cms/v2/users/1/application-passwords', admin)).json();
    const { uuid } = list.find((p: { name: string }) => p.name === 'revoked-soon');
    ok(['app-password', 'revoke', 'admin', uuid, '--db', db]);
    const refused = await get('cms/v2/users/me', auth);
    assert.equal(refused.status, 401);
    assert.equal((await refused.json()).code, 'incorrect_password');
  });
});
