import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { addContent, addUser, DATED_PERMALINKS, setOptions, sitePage } from './content.ts';

/** The ids of the posts a list page shows, in order. */
const listed = (html: string) => [...html.matchAll(/<article id="post-(\d+)"/g)].map((m) => Number(m[1]));

describe('archives and search, as WordPress queries them', () => {
  let server: TestServer;
  const ids: Record<string, number> = {};
  const cat: Record<string, number> = {};
  let jo: number;
  let quiet: number;

  before(async () => {
    server = await startTestServer();
    await setOptions(server, { permalink_structure: DATED_PERMALINKS });
    const { terms } = server.app.store;
    cat.news = await terms.insert({ taxonomy: 'category', name: 'News', slug: 'news', description: 'What happened' });
    cat.local = await terms.insert({ taxonomy: 'category', name: 'Local', slug: 'local', parent: cat.news });
    cat.empty = await terms.insert({ taxonomy: 'category', name: 'Empty', slug: 'empty' });
    const tea = await terms.insert({ taxonomy: 'post_tag', name: 'Tea', slug: 'tea' });
    jo = await addUser(server, 'jo', 'Jo Writer');
    quiet = await addUser(server, 'quiet', 'Quiet One');
    ids.harvest = await addContent(server, { title: 'Green tea harvest', slug: 'green-tea-harvest', date: '2024-03-05 09:00:00', author: jo, categories: [cat.news], tags: [tea], content: 'Leaves are picked.' });
    ids.market = await addContent(server, { title: 'Local market opens', slug: 'local-market-opens', date: '2024-03-20 12:00:00', author: jo, categories: [cat.local], content: 'Stalls and more.' });
    ids.ceremony = await addContent(server, { title: 'A quiet afternoon', slug: 'quiet-afternoon', date: '2023-07-01 16:00:00', content: 'We held a tea ceremony.' });
    ids.draft = await addContent(server, { title: 'Draft about tea', slug: 'draft-tea', status: 'draft', date: '2024-03-06 09:00:00', author: jo, categories: [cat.news] });
  });
  after(() => server.close());

  const get = async (path: string) => {
    const res = await sitePage(server, path);
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };

  test("a category archive lists its posts and its children's, newest first, under its name and description", async () => {
    const r = await get('/category/news/');
    assert.equal(r.status, 200);
    assert.deepEqual(listed(r.html), [ids.market, ids.harvest], 'the child category’s post is included; the draft is not');
    assert.ok(r.html.includes('<h1 class="page-title">Category: <span>News</span></h1>'));
    assert.ok(r.html.includes('<div class="archive-description"><p>What happened</p></div>'));
    assert.ok(r.html.includes(`<title>News – `));
    assert.ok(r.html.includes(`<link rel="canonical" href="${server.home}/category/news/">`));
    assert.ok(r.html.includes(`<body class="archive category category-news category-${cat.news}">`));
    assert.match(r.html, new RegExp(`<link rel="alternate" type="application/rss\\+xml" title="[^"]+ » News Category Feed" href="${server.home}/category/news/feed/">`));
  });

  test('a child category lives under its parent’s path; its bare slug redirects there; a wrong parent is a 404', async () => {
    const child = await get('/category/news/local/');
    assert.equal(child.status, 200);
    assert.deepEqual(listed(child.html), [ids.market]);
    const bare = await get('/category/local/');
    assert.equal(bare.status, 301);
    assert.equal(bare.location, `${server.home}/category/news/local/`);
    assert.equal((await get('/category/empty/local/')).status, 404);
    assert.equal((await get('/category/no-such-category/')).status, 404);
    const slashless = await get('/category/news');
    assert.equal(slashless.status, 301);
    assert.equal(slashless.location, `${server.home}/category/news/`);
  });

  test('an existing category without posts answers 200 with "Nothing Found"', async () => {
    const r = await get('/category/empty/');
    assert.equal(r.status, 200);
    assert.deepEqual(listed(r.html), []);
    assert.ok(r.html.includes('Nothing Found'));
  });

  test('tag and author archives; an author without posts is found, an unknown one is not', async () => {
    const tag = await get('/tag/tea/');
    assert.equal(tag.status, 200);
    assert.deepEqual(listed(tag.html), [ids.harvest]);
    assert.ok(tag.html.includes('Tag: <span>Tea</span>'));
    assert.equal((await get('/tag/coffee/')).status, 404);

    const author = await get('/author/jo/');
    assert.equal(author.status, 200);
    assert.deepEqual(listed(author.html), [ids.market, ids.harvest]);
    assert.ok(author.html.includes('Author: <span>Jo Writer</span>'));
    assert.ok(author.html.includes(`author-jo author-${jo}`));
    const none = await get('/author/quiet/');
    assert.equal(none.status, 200, 'an author of this site without posts is not a 404 (WP::handle_404)');
    assert.deepEqual(listed(none.html), []);
    assert.equal((await get('/author/nobody/')).status, 404);
  });

  test('year, month and day archives; an empty or impossible date is a 404', async () => {
    const year = await get('/2024/');
    assert.equal(year.status, 200);
    assert.deepEqual(listed(year.html).filter((id) => id !== 1).sort(), [ids.harvest, ids.market].sort());
    assert.ok(year.html.includes('Year: <span>2024</span>'));
    const month = await get('/2024/03/');
    assert.ok(month.html.includes('Month: <span>March 2024</span>'));
    assert.ok(listed(month.html).includes(ids.market) && listed(month.html).includes(ids.harvest));
    const day = await get('/2024/03/05/');
    assert.deepEqual(listed(day.html), [ids.harvest]);
    assert.ok(day.html.includes('Day: <span>March 5, 2024</span>'));
    assert.deepEqual(listed((await get('/2023/')).html), [ids.ceremony]);
    for (const path of ['/2024/02/', '/1999/', '/2024/13/', '/2024/02/30/', '/2024/00/']) assert.equal((await get(path)).status, 404, path);
  });

  test('paging: /page/N/ on an archive, older and newer links, a page past the last is a 404', async () => {
    await setOptions(server, { posts_per_page: '1' });
    try {
      const first = await get('/category/news/');
      assert.deepEqual(listed(first.html), [ids.market]);
      assert.ok(first.html.includes(`<a href="${server.home}/category/news/page/2/">Older posts</a>`));
      const second = await get('/category/news/page/2/');
      assert.equal(second.status, 200);
      assert.deepEqual(listed(second.html), [ids.harvest]);
      assert.ok(second.html.includes(`<a href="${server.home}/category/news/">Newer posts</a>`));
      assert.ok(second.html.includes('<title>News – Page 2 – '));
      assert.equal((await get('/category/news/page/3/')).status, 404);
      assert.equal((await get('/author/quiet/page/2/')).status, 404, 'an empty page past the first is a 404 even where the first is not');
      const search = await get('/page/2/?s=tea');
      assert.equal(search.status, 200);
      assert.equal(listed(search.html).length, 1);
    } finally {
      await setOptions(server, { posts_per_page: '10' });
    }
  });

  test('search: WordPress semantics (title matches first, -word excludes), excerpts, and a 200 when nothing matches', async () => {
    const r = await get('/?s=tea');
    assert.equal(r.status, 200);
    assert.deepEqual(listed(r.html), [ids.harvest, ids.ceremony], 'the title match ranks first; drafts never show');
    assert.ok(r.html.includes('Search Results for: <span>“tea”</span>'));
    assert.ok(r.html.includes('class="search search-results"'));
    assert.ok(r.html.includes('<div class="entry-summary">'), 'results show excerpts');
    assert.ok(r.html.includes('name="s" value="tea"'), 'the search box keeps the text');
    assert.deepEqual(listed((await get('/?s=tea+-ceremony')).html), [ids.harvest]);
    assert.deepEqual(listed((await get('/category/news/?s=tea')).html), [ids.harvest], 'a search within a category');
    const none = await get('/?s=zebra');
    assert.equal(none.status, 200);
    assert.ok(none.html.includes('search-no-results'));
    assert.ok(none.html.includes('Sorry, but nothing matched your search terms.'));
    const hostile = await get('/?s=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    assert.equal(hostile.status, 200);
    assert.ok(!hostile.html.includes('<script>alert(1)'), 'the search text is escaped everywhere');
  });

  test('with pretty permalinks, query-var archives redirect to their pretty URLs', async () => {
    const cases: [string, string][] = [
      [`/?cat=${cat.news}`, '/category/news/'],
      [`/?cat=${cat.local}`, '/category/news/local/'],
      ['/?tag=tea', '/tag/tea/'],
      [`/?author=${jo}`, '/author/jo/'],
      ['/?m=202403', '/2024/03/'],
      ['/?year=2024&monthnum=3&day=5', '/2024/03/05/'],
      ['/?paged=2', '/page/2/'],
      [`/?cat=${cat.news}&feed=atom`, '/category/news/feed/atom/'],
    ];
    for (const [from, to] of cases) {
      const r = await get(from);
      assert.equal(r.status, 301, from);
      assert.equal(r.location, server.home + to, from);
    }
    assert.equal((await get(`/?author=${quiet}`)).location, `${server.home}/author/quiet/`);
  });

  test('with plain permalinks, the query-var archives answer and the pretty paths are 404s', async () => {
    await setOptions(server, { permalink_structure: '' });
    try {
      const cases: [string, number[]][] = [
        [`/?cat=${cat.news}`, [ids.market, ids.harvest]],
        ['/?tag=tea', [ids.harvest]],
        [`/?author=${jo}`, [ids.market, ids.harvest]],
        ['/?m=20240305', [ids.harvest]],
        ['/?s=ceremony', [ids.ceremony]],
      ];
      for (const [path, expected] of cases) {
        const r = await get(path);
        assert.equal(r.status, 200, path);
        assert.deepEqual(listed(r.html), expected, path);
      }
      const news = await get(`/?cat=${cat.news}`);
      assert.ok(news.html.includes(`<link rel="canonical" href="${server.home}/?cat=${cat.news}">`));
      assert.ok(news.html.includes(`href="${server.home}/?cat=${cat.news}&amp;feed=rss2"`), 'the category feed in the head');
      for (const path of ['/category/news/', '/tag/tea/', '/author/jo/', '/2024/']) assert.equal((await get(path)).status, 404, path);
      assert.equal((await get('/?cat=99999')).status, 404);
    } finally {
      await setOptions(server, { permalink_structure: DATED_PERMALINKS });
    }
  });
});
