import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import sharp from 'sharp';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { basicAuth, ROOT, startTestServer, type TestServer } from '../helpers/server.ts';
import { cmsAsync, emptySite, restView, type Site } from './sites.ts';

/**
 * `cms-spec import --from URL`: a second server of this project stands in for the old WordPress
 * (its /wp-json/ answers as WordPress's); it holds the Theme Unit Test data and an uploaded image
 * used as a featured image and in a post's content. Read over its REST API into a fresh site, it
 * gives the same site: users, terms, posts and pages, media (the file fetched), comments, menus
 * and menu items, compared over the REST API with ids replaced by what they name.
 */

const TUT = join(ROOT, 'test/fixtures/wxr/themeunittestdata.wordpress.xml');

interface OldSite {
  server: TestServer;
  site: Pick<Site, 'db' | 'home'>;
  /** `admin:<application password>`. */
  auth: string;
  authorization: string;
  image: { id: number; url: string; bytes: Buffer };
}

/** The old site, served for the whole test: the Theme Unit Test data imported, then an image uploaded and used. */
async function oldSite(): Promise<OldSite> {
  const server = await startTestServer();
  const admin = (await server.app.store.users.byLogin('admin'))!;
  // the new site's administrator is the old one's login, which an import keeps as it is: the same address on both
  await server.app.store.users.update(admin.id, { email: 'admin@example.test' });
  const { password } = await createAppPassword(server.app.store, admin.id, { name: 'migration' });
  const authorization = basicAuth('admin', password);
  const imported = await cmsAsync(['import', TUT, '--db', server.dbPath, '--no-attachments']);
  assert.equal(imported.status, 0, imported.stderr);

  const bytes = await sharp({ create: { width: 6, height: 4, channels: 3, background: '#00ff00' } }).png().toBuffer();
  const uploaded = await server.call('cms/v2/media', { method: 'POST', body: bytes, headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="green.png"' }, auth: authorization });
  assert.equal(uploaded.status, 201, await uploaded.clone().text());
  const media = (await uploaded.json()) as { id: number; source_url: string };
  const altered = await server.call(`cms/v2/media/${media.id}`, { json: { alt_text: 'A green field', caption: 'Green' }, auth: authorization });
  assert.equal(altered.status, 200, await altered.clone().text());
  const made = await server.call('cms/v2/posts', {
    json: { title: 'With an image', status: 'publish', featured_media: media.id, content: `<!-- wp:image {"id":${media.id}} -->\n<figure class="wp-block-image"><img src="${media.source_url}" class="wp-image-${media.id}"/></figure>\n<!-- /wp:image -->` },
    auth: authorization,
  });
  assert.equal(made.status, 201, await made.clone().text());
  return { server, site: { db: { location: server.dbPath, drop: async () => {} }, home: server.home }, auth: `admin:${password}`, authorization, image: { id: media.id, url: media.source_url, bytes } };
}

describe('cms-spec import --from (a live site over its REST API)', () => {
  test('a second cms-spec server read over its REST API gives the same site, the image fetched, and a second run imports nothing', { timeout: 600_000 }, async () => {
    const old = await oldSite();
    const fresh = await emptySite();
    try {
      const args = ['import', '--from', old.server.home, '--auth', old.auth, '--allow-private', '--db', fresh.db.location];
      if (fresh.uploads) process.env.CMS_SPEC_UPLOADS = fresh.uploads;
      let first, second;
      try {
        first = await cmsAsync(args);
        second = await cmsAsync(args);
      } finally {
        delete process.env.CMS_SPEC_UPLOADS;
      }
      assert.equal(first.status, 0, first.stderr);
      // the Theme Unit Test data's 21 pages, 58 posts, 70 menu items and 33 comments, with the site's sample page and post and the post with the image
      assert.match(first.stdout, /Imported 2 users, 197 terms, 22 page, 60 post, 70 menu items, 1 attachment, 33 comments; 0 already there, 0 failed\./);
      assert.equal(second.status, 0, second.stderr);
      assert.match(second.stdout, /Imported 0 users, 0 terms, no posts, 0 menu items, 0 attachments, 0 comments; \d+ already there, 0 failed\./);

      const [before, after] = [await restView(old.site), await restView(fresh)];
      assert.equal(Object.keys(before.media).length, 1);
      for (const part of Object.keys(before)) assert.deepEqual(after[part], before[part], part);

      // the file itself came over, under the new site's address
      const served = await startTestServer({ dbPath: fresh.db.location });
      try {
        const media = (await (await served.call('cms/v2/media?slug=green', { auth: basicAuth('admin', (await createAppPassword(served.app.store, 1, { name: 'check' })).password) })).json()) as { id: number; source_url: string }[];
        // the site keeps the address it was installed at; this server listens on another port
        const file = await fetch(new URL(new URL(media[0].source_url).pathname, served.api));
        assert.equal(file.status, 200);
        assert.deepEqual(Buffer.from(await file.arrayBuffer()), old.image.bytes);
      } finally {
        await served.close();
      }
    } finally {
      await old.server.close();
      await fresh.close();
    }
  });

  test('refusals: a non-public address without --allow-private, a wrong application password, --auth without a password', { timeout: 300_000 }, async () => {
    const old = await oldSite();
    const fresh = await emptySite();
    try {
      const run = (args: string[]) => cmsAsync(['import', '--from', old.server.home, '--db', fresh.db.location, ...args]);
      const oneError = (r: { status: number | null; stderr: string }, message: RegExp) => {
        assert.equal(r.status, 1, r.stderr);
        const lines = r.stderr.trim().split('\n').filter((l) => !/^read \d+\/\d+ /.test(l));
        assert.equal(lines.length, 1, r.stderr);
        assert.match(lines[0], message);
      };
      const host = new URL(old.server.home).host;
      oneError(await run(['--auth', old.auth]), new RegExp(`^Error: ${old.server.home}/wp-json/: Requests to ${host} are not allowed: it is or resolves to the non-public address 127\\.0\\.0\\.1; nothing was imported\\.$`));
      oneError(await run(['--auth', 'admin:wrong password', '--allow-private']), /^Error: http:\/\/127\.0\.0\.1:\d+\/wp-json\/ answered HTTP 401: incorrect_password \(The provided password is an invalid application password\.\); check --auth \(a user and one of their application passwords\); nothing was imported\.$/);
      oneError(await run(['--auth', 'admin', '--allow-private']), /^Error: --auth takes user:application-password/);
    } finally {
      await old.server.close();
      await fresh.close();
    }
  });
});
