import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth } from '../helpers/auth.ts';
import { addContent, addUser, DATED_PERMALINKS, setOptions, sitePage } from './content.ts';

const COLLECTIONS = ['posts', 'pages', 'categories', 'tags', 'users'];

/** Every `link` a REST collection hands out, page by page as a client walks it. */
async function linksOf(server: TestServer, collection: string, auth?: string): Promise<string[]> {
  const links: string[] = [];
  for (let page = 1; ; page++) {
    const res = await server.call(`cms/v2/${collection}?per_page=100&page=${page}`, { auth });
    assert.equal(res.status, 200, collection);
    for (const item of (await res.json()) as { link: string }[]) links.push(item.link);
    if (page >= Number(res.headers.get('x-wp-totalpages'))) return links;
  }
}

describe('every URL the REST API hands out answers 200 on the site', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
    const { terms } = server.app.store;
    const news = await terms.insert({ taxonomy: 'category', name: 'News', slug: 'news' });
    const local = await terms.insert({ taxonomy: 'category', name: 'Local', slug: 'local', parent: news });
    const street = await terms.insert({ taxonomy: 'category', name: 'Street', slug: 'street', parent: local });
    await terms.insert({ taxonomy: 'category', name: 'Empty', slug: 'empty' });
    const tea = await terms.insert({ taxonomy: 'post_tag', name: 'Tea', slug: 'tea' });
    await terms.insert({ taxonomy: 'post_tag', name: 'Unused', slug: 'unused' });
    const jo = await addUser(server, 'jo', 'Jo Writer');
    await addUser(server, 'quiet', 'Quiet One', 'subscriber');
    await addContent(server, { title: 'Street party', slug: 'street-party', author: jo, categories: [street], tags: [tea], date: '2023-05-06 07:08:09' });
    await addContent(server, { title: 'Tea', slug: 'tea-post', categories: [news], tags: [tea], date: '2024-12-31 23:59:59' });
    const about = await addContent(server, { type: 'page', title: 'About', slug: 'about' });
    await addContent(server, { type: 'page', title: 'Team', slug: 'team', parent: about });
  });
  after(() => server.close());

  for (const [name, structure] of [
    ['pretty', DATED_PERMALINKS],
    ['postname', '/%postname%/'],
    ['plain', ''],
  ] as const) {
    test(`${name} permalinks: posts, pages, categories, tags and users, as a visitor and as an administrator sees them`, async () => {
      await setOptions(server, { permalink_structure: structure });
      const auth = await adminAuth(server);
      const seen = new Set<string>();
      for (const collection of COLLECTIONS) {
        for (const link of [...(await linksOf(server, collection)), ...(await linksOf(server, collection, auth))]) seen.add(link);
      }
      assert.ok(seen.size >= 14, `walked ${seen.size} links`);
      for (const link of seen) {
        assert.ok(link.startsWith(`${server.home}/`), link);
        const url = new URL(link);
        const res = await sitePage(server, url.pathname + url.search);
        assert.equal(res.status, 200, link);
        await res.body?.cancel();
      }
    });
  }
});
