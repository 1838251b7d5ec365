import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { addContent, addUser, DATED_PERMALINKS, setOptions, sitePage } from './content.ts';
import { URLS_PER_SITEMAP } from '../../src/site/sitemaps.ts';

/** A feed as a reader gets it: well-formed XML (checked strictly), then parsed by a feed parser. */
async function readFeed(server: TestServer, path: string, type: 'rss' | 'atom') {
  const res = await sitePage(server, path);
  assert.equal(res.status, 200, path);
  assert.equal(res.headers.get('content-type'), type === 'rss' ? 'application/rss+xml; charset=UTF-8' : 'application/atom+xml; charset=UTF-8', path);
  const xml = await res.text();
  assert.equal(XMLValidator.validate(xml), true, `${path} is well-formed XML`);
  const feed = parseFeed(xml);
  assert.equal(feed.meta.type, type, path);
  return { feed, xml, res };
}

const xml = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'url' || name === 'sitemap' });

/** The `<loc>`s of a sitemap or sitemap index, after a strict well-formedness check. */
async function sitemapLocs(url: string): Promise<string[]> {
  const res = await fetch(url, { redirect: 'manual' });
  assert.equal(res.status, 200, url);
  assert.equal(res.headers.get('content-type'), 'application/xml; charset=UTF-8');
  const text = await res.text();
  assert.equal(XMLValidator.validate(text), true, `${url} is well-formed XML`);
  const doc = xml.parse(text) as { urlset?: { '@_xmlns': string; url?: { loc: string }[] }; sitemapindex?: { '@_xmlns': string; sitemap?: { loc: string }[] } };
  const root = doc.urlset ?? doc.sitemapindex;
  assert.equal(root?.['@_xmlns'], 'http://www.sitemaps.org/schemas/sitemap/0.9');
  return (doc.urlset?.url ?? doc.sitemapindex?.sitemap ?? []).map((e) => e.loc);
}

describe('feeds, sitemaps and robots.txt', () => {
  let server: TestServer;
  let news: number;
  let jo: number;
  const ids: Record<string, number> = {};

  before(async () => {
    server = await startTestServer();
    await setOptions(server, { permalink_structure: DATED_PERMALINKS });
    const { terms } = server.app.store;
    news = await terms.insert({ taxonomy: 'category', name: 'News', slug: 'news' });
    const local = await terms.insert({ taxonomy: 'category', name: 'Local', slug: 'local', parent: news });
    const tea = await terms.insert({ taxonomy: 'post_tag', name: 'Tea & Cakes', slug: 'tea' });
    jo = await addUser(server, 'jo', 'Jo Writer');
    ids.harvest = await addContent(server, { title: 'Green tea & <harvest>', slug: 'green-tea-harvest', date: '2024-03-05 09:00:00', author: jo, categories: [news], tags: [tea], content: 'Leaves are picked.\n\nThen dried.', excerpt: 'About leaves' });
    ids.market = await addContent(server, { title: 'Local market opens', slug: 'local-market-opens', date: '2024-03-20 12:00:00', author: jo, categories: [local], content: 'Stalls.' });
    ids.page = await addContent(server, { type: 'page', title: 'Contact', slug: 'contact', content: 'Write to us.' });
  });
  after(() => server.close());

  test('/feed/ is RSS 2.0 of the newest posts, with full content, excerpt, author and terms', async () => {
    const { feed, xml: text } = await readFeed(server, '/feed/', 'rss');
    assert.equal(feed.url, `${server.home}/`);
    assert.equal(feed.self, `${server.home}/feed/`);
    const hello = (await server.app.store.posts.findBySlug('hello-world', ['post']))!;
    const helloUrl = `${server.home}/${hello.date.slice(0, 10).replace(/-/g, '/')}/hello-world/`;
    assert.deepEqual(feed.items.map((i) => i.url), [helloUrl, `${server.home}/2024/03/20/local-market-opens/`, `${server.home}/2024/03/05/green-tea-harvest/`], 'newest first');
    const harvest = feed.items.find((i) => i.url?.endsWith('/green-tea-harvest/'))!;
    assert.equal(harvest.title, 'Green tea & <harvest>');
    assert.equal(harvest.id, `${server.home}/?p=${ids.harvest}`);
    assert.equal(harvest.description, 'About leaves');
    assert.equal(harvest.content?.trim(), '<p>Leaves are picked.</p>\n<p>Then dried.</p>');
    assert.deepEqual(harvest.authors.map((a) => a.name), ['Jo Writer']);
    assert.deepEqual(harvest.categories.map((c) => c.term).sort(), ['News', 'Tea & Cakes']);
    assert.equal(harvest.published?.toISOString(), '2024-03-05T09:00:00.000Z');
    assert.ok(!feed.items.some((i) => i.url?.endsWith('/contact/')), 'pages are not in the posts feed');
    assert.ok(text.includes('<dc:creator>'));
  });

  test('/feed/atom/ is Atom 1.0 of the same posts', async () => {
    const { feed } = await readFeed(server, '/feed/atom/', 'atom');
    assert.equal(feed.self, `${server.home}/feed/atom/`);
    const market = feed.items.find((i) => i.url?.endsWith('/local-market-opens/'))!;
    assert.equal(market.title, 'Local market opens');
    assert.deepEqual(market.authors.map((a) => a.name), ['Jo Writer']);
    assert.equal(market.content?.trim(), '<p>Stalls.</p>');
  });

  test('category, tag, author and search feeds hold only their posts', async () => {
    const urls = async (path: string, type: 'rss' | 'atom' = 'rss') => (await readFeed(server, path, type)).feed.items.map((i) => i.url);
    assert.deepEqual(await urls('/category/news/feed/'), [`${server.home}/2024/03/20/local-market-opens/`, `${server.home}/2024/03/05/green-tea-harvest/`], 'a category feed has its children’s posts');
    assert.deepEqual(await urls('/category/news/local/feed/atom/', 'atom'), [`${server.home}/2024/03/20/local-market-opens/`]);
    assert.deepEqual(await urls('/tag/tea/feed/'), [`${server.home}/2024/03/05/green-tea-harvest/`]);
    assert.deepEqual(await urls('/author/jo/feed/atom/', 'atom'), [`${server.home}/2024/03/20/local-market-opens/`, `${server.home}/2024/03/05/green-tea-harvest/`]);
    assert.deepEqual(await urls('/?s=stalls&feed=rss2'), [`${server.home}/2024/03/20/local-market-opens/`]);
    assert.equal((await sitePage(server, '/category/nothing/feed/')).status, 404);
  });

  test('the comments feed is valid and empty, in both formats', async () => {
    const rss = await readFeed(server, '/comments/feed/', 'rss');
    assert.equal(rss.feed.items.length, 0);
    assert.match(rss.feed.title ?? '', /^Comments for /);
    const atom = await readFeed(server, '/comments/feed/atom/', 'atom');
    assert.equal(atom.feed.items.length, 0);
    assert.ok(atom.feed.updated, 'an Atom feed always says when it was updated');
  });

  test('every page names its feeds in the head; archives add their own', async () => {
    const home = await (await sitePage(server, '/')).text();
    assert.match(home, new RegExp(`<link rel="alternate" type="application/rss\\+xml" title="[^"]+ » Feed" href="${server.home}/feed/">`));
    assert.match(home, new RegExp(`<link rel="alternate" type="application/rss\\+xml" title="[^"]+ » Comments Feed" href="${server.home}/comments/feed/">`));
    const author = await (await sitePage(server, '/author/jo/')).text();
    assert.match(author, new RegExp(`title="[^"]+ » Posts by Jo Writer Feed" href="${server.home}/author/jo/feed/"`));
    const tag = await (await sitePage(server, '/tag/tea/')).text();
    assert.match(tag, new RegExp(`title="[^"]+ » Tea &amp; Cakes Tag Feed" href="${server.home}/tag/tea/feed/"`));
  });

  test('feeds carry validators and answer 304 to a matching If-None-Match', async () => {
    const { res } = await readFeed(server, '/feed/', 'rss');
    const etag = res.headers.get('etag')!;
    assert.ok(etag);
    assert.ok(res.headers.get('last-modified'));
    const again = await sitePage(server, '/feed/', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  test('with plain permalinks the feeds answer ?feed=', async () => {
    await setOptions(server, { permalink_structure: '' });
    try {
      const { feed } = await readFeed(server, `/?cat=${news}&feed=atom`, 'atom');
      assert.equal(feed.items.length, 2);
      assert.equal(feed.items[0].url, `${server.home}/?p=${ids.market}`);
      assert.equal((await readFeed(server, '/?feed=comments-rss2', 'rss')).feed.items.length, 0);
      assert.equal((await readFeed(server, '/?feed=rss2', 'rss')).feed.self, `${server.home}/?feed=rss2`);
    } finally {
      await setOptions(server, { permalink_structure: DATED_PERMALINKS });
    }
  });

  test('wp-sitemap.xml lists the sub-sitemaps WordPress core serves, and every URL in them answers 200', async () => {
    const index = await sitemapLocs(`${server.home}/wp-sitemap.xml`);
    assert.deepEqual(index, ['posts-post-1', 'posts-page-1', 'taxonomies-category-1', 'taxonomies-post_tag-1', 'users-1'].map((n) => `${server.home}/wp-sitemap-${n}.xml`));
    const posts = await sitemapLocs(index[0]);
    assert.ok(posts.includes(`${server.home}/2024/03/05/green-tea-harvest/`));
    const pages = await sitemapLocs(index[1]);
    assert.equal(pages[0], `${server.home}/`, 'the home page leads the page sitemap when the front shows posts');
    assert.ok(pages.includes(`${server.home}/contact/`));
    assert.deepEqual((await sitemapLocs(index[2])).sort(), [`${server.home}/category/news/`, `${server.home}/category/news/local/`, `${server.home}/category/uncategorized/`].sort());
    assert.deepEqual(await sitemapLocs(index[3]), [`${server.home}/tag/tea/`]);
    const users = await sitemapLocs(index[4]);
    assert.ok(users.includes(`${server.home}/author/jo/`));
    for (const loc of [...posts, ...pages, ...users]) assert.equal((await sitePage(server, new URL(loc).pathname)).status, 200, loc);
    for (const path of ['/wp-sitemap-posts-post-2.xml', '/wp-sitemap-posts-nothing-1.xml', '/wp-sitemap-widgets-1.xml']) assert.equal((await sitePage(server, path)).status, 404, path);
  });

  test(`a sitemap page holds ${URLS_PER_SITEMAP} URLs; the rest go on the next`, async () => {
    const admin = (await server.app.store.users.byLogin('admin'))!;
    const before = (await server.app.store.posts.query({ types: ['post'], statuses: ['publish'], offset: 0, limit: 0 })).total;
    const more = URLS_PER_SITEMAP + 1 - before;
    await server.app.store.posts.insertMany(Array.from({ length: more }, (_, i) => ({ author: admin.id, title: `Bulk ${i}`, status: 'publish', type: 'post', date_gmt: '2022-01-01 00:00:00' })));
    try {
      const index = await sitemapLocs(`${server.home}/wp-sitemap.xml`);
      assert.deepEqual(index.slice(0, 3), [`${server.home}/wp-sitemap-posts-post-1.xml`, `${server.home}/wp-sitemap-posts-post-2.xml`, `${server.home}/wp-sitemap-posts-page-1.xml`]);
      assert.equal((await sitemapLocs(index[0])).length, URLS_PER_SITEMAP);
      assert.equal((await sitemapLocs(index[1])).length, 1);
    } finally {
      const bulk = await server.app.store.posts.query({ types: ['post'], search: 'Bulk', offset: 0, limit: 5000 });
      await server.app.store.posts.deleteMany(bulk.rows.map((p) => p.id));
    }
  });

  test('robots.txt points at the sitemap; a site that is not public disallows everything and has no sitemap', async () => {
    const res = await sitePage(server, '/robots.txt');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=UTF-8');
    const text = await res.text();
    assert.match(text, /^User-agent: \*$/m);
    assert.ok(text.includes(`Sitemap: ${server.home}/wp-sitemap.xml`));
    assert.ok(text.includes('Disallow: /cms-admin/\n'), text);
    await setOptions(server, { blog_public: '0' });
    try {
      assert.equal(await (await sitePage(server, '/robots.txt')).text(), 'User-agent: *\nDisallow: /\n');
      assert.equal((await sitePage(server, '/wp-sitemap.xml')).status, 404);
    } finally {
      await setOptions(server, { blog_public: '1' });
    }
    await setOptions(server, { permalink_structure: '' });
    try {
      assert.ok((await (await sitePage(server, '/robots.txt')).text()).includes(`Sitemap: ${server.home}/?sitemap=index`));
      const index = await sitemapLocs(`${server.home}/?sitemap=index`);
      assert.equal(index[0], `${server.home}/?sitemap=posts&sitemap-subtype=post&paged=1`);
      assert.ok((await sitemapLocs(index[0])).includes(`${server.home}/?p=${ids.harvest}`));
    } finally {
      await setOptions(server, { permalink_structure: DATED_PERMALINKS });
    }
  });
});
