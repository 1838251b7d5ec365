import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import type { SiteHooks } from '../../src/core/site.ts';
import { addContent, DATED_PERMALINKS, setOptions, sitePage } from './content.ts';

const DATED = DATED_PERMALINKS;
const page = sitePage;

function headOf(html: string): string {
  const m = /<head>([\s\S]*)<\/head>/.exec(html);
  assert.ok(m, 'the page has a <head>');
  return m[1];
}

describe('server-rendered site', () => {
  const server = useServer();
  let hello: { id: number; path: string; author: number };
  let siteName: string;
  let tagline: string;

  before(async () => {
    await setOptions(server, { permalink_structure: DATED });
    const post = await server.app.store.posts.findBySlug('hello-world', ['post']);
    assert.ok(post, 'a new site has the Hello world post');
    const [y, m, d] = post.date.slice(0, 10).split('-');
    hello = { id: post.id, path: `/${y}/${m}/${d}/hello-world/`, author: post.author };
    const index = (await (await server.call('')).json()) as { name: string; description: string };
    siteName = index.name;
    tagline = index.description;
  });

  test('home lists the Hello world post and links to its permalink', async () => {
    const res = await page(server, '/');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=UTF-8');
    assert.equal(res.headers.get('link'), `<${server.api}>; rel="https://api.w.org/"`);
    const html = await res.text();
    assert.match(html, /^<!DOCTYPE html>/);
    assert.ok(html.includes(`<title>${siteName} – ${tagline}</title>`), 'home title is site name – tagline');
    assert.ok(html.includes(`href="${server.home}${hello.path}"`), 'home links to the post');
    assert.ok(html.includes('Hello world!'));
    assert.ok(headOf(html).includes(`<link rel="https://api.w.org/" href="${server.api}">`));
  });

  test("a post's permalink page has title, description, canonical, JSON alternate and Link headers", async () => {
    const id = await addContent(server, {
      title: 'Fish & <Chips>',
      slug: 'fish-and-chips',
      content: 'First paragraph\nsame paragraph\n\nSecond paragraph',
      excerpt: 'A "short" summary',
      date: '2023-11-02 08:00:00',
    });
    const url = `${server.home}/2023/11/02/fish-and-chips/`;
    const res = await page(server, '/2023/11/02/fish-and-chips/');
    assert.equal(res.status, 200);
    const rest = `${server.api}cms/v2/posts/${id}`;
    const link = res.headers.get('link') ?? '';
    assert.ok(link.includes(`<${server.api}>; rel="https://api.w.org/"`), link);
    assert.ok(link.includes(`<${rest}>; rel="alternate"; title="JSON"; type="application/json"`), link);
    const html = await res.text();
    const head = headOf(html);
    assert.ok(head.includes('<meta charset="UTF-8">'));
    assert.ok(head.includes(`<title>Fish &amp; &lt;Chips&gt; – ${siteName}</title>`), head);
    assert.ok(head.includes('<meta name="description" content="A &quot;short&quot; summary">'), head);
    assert.ok(head.includes(`<link rel="canonical" href="${url}">`), head);
    assert.ok(head.includes(`<link rel="alternate" title="JSON" type="application/json" href="${rest}">`), head);
    assert.ok(!html.includes('<Chips>'), 'the title is escaped everywhere');
    assert.ok(html.includes('<p>First paragraph<br />\nsame paragraph</p>\n<p>Second paragraph</p>'), 'content goes through wpautop');
    assert.ok(html.includes('November 2, 2023'), 'the date shows in the date format');
  });

  test('the post shows its author and categories', async () => {
    const html = await (await page(server, hello.path)).text();
    const admin = await server.app.store.users.get(hello.author);
    assert.ok(admin);
    assert.ok(html.includes(`<span class="author vcard"><a href="${server.home}/author/${admin.nicename}/" class="url fn n">${admin.display_name}</a></span>`), 'the byline links to the author archive');
    assert.ok(html.includes(`Categories: <a href="${server.home}/category/uncategorized/" rel="category tag">Uncategorized</a>`), 'the categories link to their archives');
  });

  test('?p=ID redirects to the pretty permalink with 301; a missing trailing slash too', async () => {
    const res = await page(server, `/?p=${hello.id}`);
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), server.home + hello.path);
    const slashless = await page(server, hello.path.slice(0, -1));
    assert.equal(slashless.status, 301);
    assert.equal(slashless.headers.get('location'), server.home + hello.path);
  });

  test('a dated URL with the wrong date is a 404', async () => {
    const res = await page(server, '/1999/01/01/hello-world/');
    assert.equal(res.status, 404);
    assert.match(await res.text(), /<title>Page not found – /);
  });

  test('drafts are not shown, by id or by slug', async () => {
    const id = await addContent(server, { title: 'Secret draft', slug: 'secret-draft', status: 'draft', content: 'unpublished words' });
    for (const path of [`/?p=${id}`, '/2024/03/05/secret-draft/', '/secret-draft/']) {
      const res = await page(server, path);
      assert.equal(res.status, 404, path);
      assert.ok(!(await res.text()).includes('unpublished words'), path);
    }
    assert.ok(!(await (await page(server, '/')).text()).includes('Secret draft'), 'home leaves drafts out');
    // drafts keep their slug without making it unique: a newer draft named like a published post must not hide it
    await addContent(server, { title: 'Hello again', slug: 'hello-world', status: 'draft', date: '2030-01-01 00:00:00' });
    const res = await page(server, hello.path);
    assert.equal(res.status, 200);
    assert.ok((await res.text()).includes('<h1 class="entry-title">Hello world!</h1>'));
  });

  test('pages live at their parent path; the Sample Page has no byline', async () => {
    const parent = await addContent(server, { type: 'page', title: 'About', slug: 'about', content: 'About us' });
    await addContent(server, { type: 'page', title: 'Team', slug: 'team', parent, content: 'The team' });
    const child = await page(server, '/about/team/');
    assert.equal(child.status, 200);
    const html = await child.text();
    assert.ok(html.includes(`<title>Team – ${siteName}</title>`));
    assert.ok(html.includes(`<link rel="canonical" href="${server.home}/about/team/">`));
    assert.ok(!html.includes('class="byline"'));
    assert.equal((await page(server, '/team/')).status, 404, 'a child page is not at the top level');
    assert.equal((await page(server, '/other/team/')).status, 404, 'nor under another parent');
    const sample = await page(server, '/sample-page/');
    assert.equal(sample.status, 200);
    const sampleRest = (await server.app.store.posts.findBySlug('sample-page', ['page']))!.id;
    assert.ok((sample.headers.get('link') ?? '').includes(`cms/v2/pages/${sampleRest}>; rel="alternate"`));
  });

  test('?page_id=ID redirects to the page', async () => {
    const sample = (await server.app.store.posts.findBySlug('sample-page', ['page']))!;
    const res = await page(server, `/?page_id=${sample.id}`);
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), `${server.home}/sample-page/`);
  });

  test('the embed view is a standalone card linking to the post', async () => {
    const res = await page(server, `${hello.path}embed/`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(html.includes(`<p class="wp-embed-heading"><a href="${server.home}${hello.path}" target="_top">Hello world!</a></p>`), html);
    assert.match(html, /<div class="wp-embed-excerpt"><p>[^<]+<\/p><\/div>/);
    assert.ok(html.includes(`<span>${siteName}</span>`));
    assert.ok(!html.includes('site-header'), 'no theme chrome');
    assert.equal((await page(server, '/1999/01/01/nothing/embed/')).status, 404);
  });

  test('unknown URLs get the 404 page with the API Link header; malformed ones too', async () => {
    for (const path of ['/no-such-thing/', '/a/b/c/d/e/', '/%E0%A4%A/']) {
      const res = await page(server, path);
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get('content-type'), 'text/html; charset=UTF-8');
      assert.equal(res.headers.get('link'), `<${server.api}>; rel="https://api.w.org/"`);
      assert.ok((await res.text()).includes('Nothing here'));
    }
  });

  test('HEAD answers with the headers and no body', async () => {
    const res = await page(server, hello.path, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=UTF-8');
    assert.ok((res.headers.get('link') ?? '').includes('rel="https://api.w.org/"'));
    assert.equal(await res.text(), '');
  });

  test("plugins' head, footer and content hooks' output appear", async () => {
    const seen: string[] = [];
    const hooks: SiteHooks = {
      head: (ctx) => `<meta name="test-head" content="${ctx.kind}-${ctx.postId}">`,
      footer: () => '<script>/* test footer */</script>',
      content: (html, ctx) => {
        seen.push(ctx.url);
        return `${html}<p class="filtered">filtered</p>`;
      },
    };
    const site = server.app.site;
    const before = site.hooks;
    site.hooks = [...before, { plugin: 'test-hooks', hooks }];
    try {
      const html = await (await page(server, hello.path)).text();
      assert.ok(headOf(html).includes(`<meta name="test-head" content="post-${hello.id}">`));
      assert.match(html, /<script>\/\* test footer \*\/<\/script>\n<\/footer>/, "a plugin's footer output ends the theme's footer");
      assert.ok(html.includes('<p class="filtered">filtered</p>'));
      assert.deepEqual(seen, [server.home + hello.path]);
    } finally {
      site.hooks = before;
    }
    assert.ok(!(await (await page(server, hello.path)).text()).includes('filtered'), 'removed hooks stop running');
  });

  test('the home page pages through posts with /page/N/', async () => {
    await setOptions(server, { posts_per_page: '1' });
    try {
      const first = await (await page(server, '/')).text();
      assert.ok(first.includes(`href="${server.home}/page/2/"`), 'links to older posts');
      const published = await server.app.store.posts.query({ types: ['post'], statuses: ['publish'], orderby: 'date', order: 'desc', offset: 0, limit: 100 });
      const last = published.total;
      const lastPage = await page(server, `/page/${last}/`);
      assert.equal(lastPage.status, 200);
      const lastHtml = await lastPage.text();
      // the oldest post, whose title the page must show escaped
      assert.ok(lastHtml.includes('Fish &amp; &lt;Chips&gt;'), 'the oldest post, its title escaped');
      assert.ok(!lastHtml.includes('Fish & <Chips>'));
      assert.ok(lastHtml.includes(`<title>${siteName} – Page ${last} – ${tagline}</title>`));
      assert.equal((await page(server, `/page/${last + 1}/`)).status, 404);
      assert.equal((await page(server, '/page/99999999999999999999999/')).status, 404);
    } finally {
      await setOptions(server, { posts_per_page: '10' });
    }
  });

  test('a static front page shows at the home URL; its own permalink redirects there', async () => {
    const sample = (await server.app.store.posts.findBySlug('sample-page', ['page']))!;
    await setOptions(server, { show_on_front: 'page', page_on_front: String(sample.id) });
    try {
      const home = await page(server, '/');
      assert.equal(home.status, 200);
      const html = await home.text();
      assert.ok(html.includes('<h1 class="entry-title">Sample Page</h1>'));
      assert.ok(html.includes(`<link rel="canonical" href="${server.home}/">`));
      const old = await page(server, '/sample-page/');
      assert.equal(old.status, 301);
      assert.equal(old.headers.get('location'), `${server.home}/`);
    } finally {
      await setOptions(server, { show_on_front: 'posts', page_on_front: '0' });
    }
  });

  test('with plain permalinks ?p=ID is the post itself and pretty paths are 404', async () => {
    await setOptions(server, { permalink_structure: '' });
    try {
      const res = await page(server, `/?p=${hello.id}`);
      assert.equal(res.status, 200);
      assert.ok((await res.text()).includes(`<link rel="canonical" href="${server.home}/?p=${hello.id}">`));
      assert.equal((await page(server, hello.path)).status, 404);
    } finally {
      await setOptions(server, { permalink_structure: DATED });
    }
  });

  test('sticky posts lead the first page; the more tag cuts a post short in lists only', async () => {
    const sticky = await addContent(server, { title: 'Old but sticky', slug: 'old-sticky', date: '2001-01-01 00:00:00', sticky: true });
    const teaser = await addContent(server, { title: 'Teaser', slug: 'teaser', content: 'Intro part\n<!--more-->\nThe rest of it', date: '2025-06-07 00:00:00' });
    const home = await (await page(server, '/')).text();
    assert.equal(/<article id="post-(\d+)"/.exec(home)?.[1], String(sticky), 'the sticky post comes first');
    assert.ok(home.includes(`<a href="${server.home}/2025/06/07/teaser/#more-${teaser}" class="more-link">Continue reading <span class="screen-reader-text">Teaser</span></a>`), home);
    assert.ok(!home.includes('The rest of it'));
    const single = await (await page(server, '/2025/06/07/teaser/')).text();
    assert.ok(single.includes(`<span id="more-${teaser}"></span>`));
    assert.ok(single.includes('The rest of it'));
  });

  test('the application-authorization page is routed, not a 404', async () => {
    const res = await page(server, server.app.site.authPath);
    assert.notEqual(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  });
});
