import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { DATED_PERMALINKS, setOptions, sitePage } from './content.ts';

describe('/sitemap.xml (redirect_sitemapxml)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('sends crawlers on to the sitemap index with wp_safe_redirect’s 302', async () => {
    for (const path of ['/sitemap.xml', '/sitemap.xml/']) {
      const res = await sitePage(server, path);
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.get('location'), `${server.home}/wp-sitemap.xml`, path);
    }
    const index = await fetch(`${server.home}/sitemap.xml`);
    assert.equal(index.status, 200);
    assert.equal(index.url, `${server.home}/wp-sitemap.xml`);
    assert.equal(index.headers.get('content-type'), 'application/xml; charset=UTF-8');
    assert.match(await index.text(), /<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
  });

  test('is a 404 on a site with no sitemaps (blog_public 0) and with plain permalinks (no rewrite rules)', async () => {
    try {
      await setOptions(server, { blog_public: '0' });
      assert.equal((await sitePage(server, '/sitemap.xml')).status, 404);
      await setOptions(server, { blog_public: '1', permalink_structure: '' });
      assert.equal((await sitePage(server, '/sitemap.xml')).status, 404);
      assert.equal((await sitePage(server, '/?sitemap=index')).status, 200, 'the index itself, at its plain address');
    } finally {
      await setOptions(server, { blog_public: '1', permalink_structure: DATED_PERMALINKS });
    }
    assert.equal((await sitePage(server, '/sitemap.xml')).status, 302);
  });
});
