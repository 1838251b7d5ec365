import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, type TestServer } from '../../helpers/server.ts';
import { assertError, createPost, getJson, NS, post, type Obj } from './helpers.ts';

const headOf = (server: TestServer, url: string) => getJson(server, `${NS}/get_head?url=${encodeURIComponent(url)}`);

/** The JSON-LD graph in a page or a head's HTML. */
function graphIn(html: string): Obj {
  const m = /<script type="application\/ld\+json" class="yoast-schema-graph">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, 'the head holds the schema graph');
  return JSON.parse(m[1]) as Obj;
}

const attr = (html: string, re: RegExp) => re.exec(html)?.[1]?.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#039;/g, "'");
const nodeOf = (graph: Obj, type: string) => (graph['@graph'] as Obj[]).find((n) => (Array.isArray(n['@type']) ? n['@type'].includes(type) : n['@type'] === type));

describe('the head: get_head and the rendered pages', () => {
  const site = useServer();
  let article: Obj;
  let name: string;

  test('a post: title, description, robots, canonical, Open Graph, article times, author, X tags and the schema graph', async () => {
    name = (await site.app.store.options.get('blogname'))!;
    await post(site, 'configuration/site_representation', site.admin, { company_or_person: 'company', company_name: 'Tea Co', company_logo: 'https://cdn.example.org/logo.png' });
    await post(site, 'configuration/social_profiles', site.admin, { social_site_a: 'https://facebook.example/teaco', social_site_b: '@teaco', other_social_urls: ['https://social.example/teaco'] });
    const cat = (await (await site.call('cms/v2/categories', { json: { name: 'Brewing' }, auth: site.admin })).json()) as Obj;
    const tag = (await (await site.call('cms/v2/tags', { json: { name: 'leaves' }, auth: site.admin })).json()) as Obj;
    article = await createPost(site, site.admin, {
      title: 'Brewing green tea',
      excerpt: 'How to brew it.',
      categories: [cat.id],
      tags: [tag.id],
      content: '<p>Steep the leaves for two minutes. <img src="/wp-content/uploads/cup.jpg" alt="A cup"></p>',
    });
    const { status, body } = await headOf(site, article.link);
    assert.equal(status, 200);
    assert.equal(body.status, 200);
    const j = body.json as Obj;
    assert.equal(j.title, `Brewing green tea – ${name}`);
    assert.equal(j.description, undefined, 'no description of its own and no template: Yoast prints none');
    assert.deepEqual(j.robots, { index: 'index', follow: 'follow', 'max-snippet': 'max-snippet:-1', 'max-image-preview': 'max-image-preview:large', 'max-video-preview': 'max-video-preview:-1' });
    assert.equal(j.canonical, article.link);
    assert.equal(j.og_locale, 'en_US');
    assert.equal(j.og_type, 'article');
    assert.equal(j.og_title, j.title);
    assert.equal(j.og_description, 'How to brew it.', 'Open Graph falls back to the excerpt');
    assert.equal(j.og_url, article.link);
    assert.equal(j.og_site_name, name);
    assert.equal(j.article_publisher, 'https://facebook.example/teaco');
    assert.equal(j.article_published_time, `${article.date_gmt}+00:00`);
    assert.deepEqual(j.og_image, [{ url: `${site.home}/wp-content/uploads/cup.jpg` }], 'an image that is no attachment: its URL alone');
    assert.equal(j.author, 'admin');
    assert.equal(j.twitter_card, 'summary_large_image');
    assert.equal(j.twitter_site, '@teaco');
    assert.deepEqual(j.twitter_misc, { 'Written by': 'admin', 'Est. reading time': '1 minute' });

    const graph = j.schema as Obj;
    assert.equal(graph['@context'], 'https://schema.org');
    assert.deepEqual(graphIn(body.html), graph, 'the html carries the same graph');
    const org = nodeOf(graph, 'Organization')!;
    assert.equal(org.name, 'Tea Co');
    assert.equal(org.logo.url, 'https://cdn.example.org/logo.png');
    assert.deepEqual(org.sameAs, ['https://facebook.example/teaco', 'https://x.com/teaco', 'https://social.example/teaco']);
    const website = nodeOf(graph, 'WebSite')!;
    assert.equal(website.url, `${site.home}/`);
    assert.deepEqual(website.publisher, { '@id': org['@id'] });
    const webpage = nodeOf(graph, 'WebPage')!;
    assert.equal(webpage['@id'], article.link);
    assert.equal(webpage.name, j.title);
    assert.deepEqual(webpage.isPartOf, { '@id': website['@id'] });
    const art = nodeOf(graph, 'Article')!;
    assert.equal(art.headline, 'Brewing green tea');
    assert.deepEqual(art.mainEntityOfPage, { '@id': webpage['@id'] });
    assert.deepEqual(art.articleSection, ['Brewing']);
    assert.deepEqual(art.keywords, ['leaves']);
    assert.equal(art.wordCount, 6);
    assert.deepEqual(art.publisher, { '@id': org['@id'] });
    const person = nodeOf(graph, 'Person')!;
    assert.deepEqual(art.author, { name: 'admin', '@id': person['@id'] });
    const crumbs = nodeOf(graph, 'BreadcrumbList')!;
    assert.deepEqual(crumbs.itemListElement, [
      { '@type': 'ListItem', position: 1, name: 'Home', item: `${site.home}/` },
      { '@type': 'ListItem', position: 2, name: 'Brewing green tea' },
    ]);
    assert.match(body.html, new RegExp(`<title>Brewing green tea – ${name}</title>`));
    assert.ok(body.html.includes(`<link rel="canonical" href="${article.link}" />`));
    assert.ok(body.html.includes('<meta property="og:type" content="article" />'));
  });

  test('the rendered post page prints the same head', async () => {
    const html = await (await fetch(article.link)).text();
    const { body } = await headOf(site, article.link);
    const j = body.json as Obj;
    assert.equal(attr(html, /<title>([^<]*)<\/title>/), j.title);
    assert.equal(attr(html, /<meta property="og:description" content="([^"]*)"/), j.og_description);
    assert.equal(attr(html, /<meta name="robots" content="([^"]*)"/), Object.values(j.robots).join(', '));
    assert.equal(attr(html, /<link rel="canonical" href="([^"]*)"/), j.canonical);
    assert.equal(attr(html, /<meta property="og:title" content="([^"]*)"/), j.og_title);
    assert.equal(attr(html, /<meta property="article:published_time" content="([^"]*)"/), j.article_published_time);
    assert.equal(attr(html, /<meta name="twitter:data1" content="([^"]*)"/), 'admin');
    assert.deepEqual(graphIn(html), j.schema);
    assert.equal((html.match(/<title>/g) ?? []).length, 1, 'one title');
  });

  test('the home page: a CollectionPage of the WebSite, og:type website, the site title', async () => {
    const { status, body } = await headOf(site, `${site.home}/`);
    assert.equal(status, 200);
    const j = body.json as Obj;
    const tagline = (await site.app.store.options.get('blogdescription'))!;
    assert.equal(j.title, tagline ? `${name} – ${tagline}` : name);
    assert.equal(j.og_type, 'website');
    assert.equal(j.canonical, `${site.home}/`);
    const graph = j.schema as Obj;
    assert.equal(nodeOf(graph, 'CollectionPage')!['@id'], `${site.home}/`);
    assert.ok(nodeOf(graph, 'WebSite'));
    assert.equal(nodeOf(graph, 'Article'), undefined);
    assert.deepEqual(nodeOf(graph, 'BreadcrumbList')!.itemListElement, [{ '@type': 'ListItem', position: 1, name: 'Home' }]);
    const html = await (await fetch(`${site.home}/`)).text();
    assert.equal(attr(html, /<title>([^<]*)<\/title>/), j.title);
    assert.deepEqual(graphIn(html), graph);
  });

  test('archives and search: their templates; search is noindex without a canonical URL', async () => {
    const cat = (await site.app.store.terms.bySlug('category', 'brewing'))!;
    const catHead = (await headOf(site, `${site.home}/category/brewing/`)).body.json as Obj;
    assert.equal(catHead.title, `Brewing – ${name}`);
    assert.equal(catHead.canonical, `${site.home}/category/brewing/`);
    assert.equal(nodeOf(catHead.schema, 'CollectionPage')!.name, catHead.title);
    assert.ok(cat);
    const search = await headOf(site, `${site.home}/?s=tea`);
    assert.equal(search.status, 200);
    const s = search.body.json as Obj;
    assert.equal(s.title, `Search Results for “tea” – ${name}`);
    assert.equal(s.robots.index, 'noindex');
    assert.equal(s.canonical, undefined);
    const html = await (await fetch(`${site.home}/?s=tea`)).text();
    assert.equal(attr(html, /<meta name="robots" content="([^"]*)"/), 'noindex, follow');
    const author = (await headOf(site, `${site.home}/author/admin/`)).body.json as Obj;
    assert.equal(author.title, `admin – ${name}`);
    assert.ok(nodeOf(author.schema, 'ProfilePage'));
  });

  test('an unknown URL, or one of another host, has the 404 head with status 404; a bad url is a 400', async () => {
    for (const url of [`${site.home}/no-such-page/`, 'https://elsewhere.example/']) {
      const { status, body } = await headOf(site, url);
      assert.equal(status, 404);
      assert.equal(body.status, 404);
      assert.equal(body.json.title, `Page not found – ${name}`);
      assert.equal(body.json.robots.index, 'noindex');
      assert.equal(body.json.canonical, undefined);
      assert.ok(nodeOf(body.json.schema, 'WebSite'));
      assert.equal(nodeOf(body.json.schema, 'WebPage'), undefined);
    }
    await assertError(await site.call(`${NS}/get_head?url=not%20a%20url`), 400, 'rest_invalid_param');
    await assertError(await site.call(`${NS}/get_head?url=javascript:alert(1)`), 400, 'rest_invalid_param');
    await assertError(await site.call(`${NS}/get_head`), 400, 'rest_missing_callback_param');
    const page = await fetch(`${site.home}/no-such-page/`);
    assert.equal(page.status, 404);
    assert.equal(attr(await page.text(), /<meta name="robots" content="([^"]*)"/), 'noindex, follow');
  });

  test("a post's own SEO title, description, noindex and canonical win, in get_head and on the page", async () => {
    const own = await createPost(site, site.admin, {
      title: 'Plain title',
      meta: { _yoast_wpseo_title: 'Custom %%sep%% %%sitename%%', _yoast_wpseo_metadesc: 'About %%title%%.', _yoast_wpseo_canonical: 'https://example.org/original/', '_yoast_wpseo_opengraph-title': 'Shared title', '_yoast_wpseo_twitter-title': 'Tweeted title' },
    });
    const j = (await headOf(site, own.link)).body.json as Obj;
    assert.equal(j.title, `Custom – ${name}`);
    assert.equal(j.description, 'About Plain title.');
    assert.equal(j.canonical, 'https://example.org/original/');
    assert.equal(j.og_title, 'Shared title');
    assert.equal(j.twitter_title, 'Tweeted title');
    const html = await (await fetch(own.link)).text();
    assert.equal(attr(html, /<title>([^<]*)<\/title>/), `Custom – ${name}`);
    assert.equal(attr(html, /<link rel="canonical" href="([^"]*)"/), 'https://example.org/original/');

    await site.call(`cms/v2/posts/${own.id}`, { json: { meta: { '_yoast_wpseo_meta-robots-noindex': 1, '_yoast_wpseo_meta-robots-nofollow': true } }, auth: site.admin });
    const hidden = (await headOf(site, own.link)).body.json as Obj;
    assert.deepEqual(hidden.robots, { index: 'noindex', follow: 'nofollow' });
    assert.equal(hidden.canonical, undefined, 'a noindex page names no canonical URL');
  });

  test('title templates and the separator are settings', async () => {
    await site.app.store.options.set('seo_separator', '|');
    await site.app.store.options.set('seo_title_templates', JSON.stringify({ post: '%%title%% %%sep%% %%category%% %%sep%% %%sitename%%' }));
    try {
      assert.equal(((await headOf(site, article.link)).body.json as Obj).title, `Brewing green tea | Brewing | ${name}`);
    } finally {
      await site.app.store.options.delete('seo_title_templates');
      await site.app.store.options.set('seo_separator', '–');
    }
  });

  test('a site that asks not to be indexed is noindex, nofollow everywhere', async () => {
    await site.app.store.options.set('blog_public', '0');
    try {
      assert.deepEqual(((await headOf(site, article.link)).body.json as Obj).robots, { index: 'noindex', follow: 'nofollow' });
    } finally {
      await site.app.store.options.set('blog_public', '1');
    }
  });

  test('a static front page: the home head is the page’s, about the organization', async () => {
    const front = await createPost(site, site.admin, { title: 'Welcome', content: '<p>Hello.</p>' }, 'pages');
    await site.call('cms/v2/settings', { json: { show_on_front: 'page', page_on_front: front.id }, auth: site.admin });
    try {
      const j = (await headOf(site, `${site.home}/`)).body.json as Obj;
      const webpage = nodeOf(j.schema, 'WebPage')!;
      assert.equal(webpage['@id'], `${site.home}/`);
      assert.deepEqual(webpage.about, { '@id': `${site.home}/#organization` });
      assert.equal(j.og_type, 'website');
      assert.equal(j.og_description, 'Hello.');
    } finally {
      await site.call('cms/v2/settings', { json: { show_on_front: 'posts', page_on_front: 0 }, auth: site.admin });
    }
  });

  test('with the headless endpoints setting off, get_head is not served', async () => {
    await site.app.store.options.set('seo_enable_headless_rest_endpoints', '0');
    try {
      await assertError(await site.call(`${NS}/get_head?url=${encodeURIComponent(article.link)}`), 404, 'rest_no_route');
    } finally {
      await site.app.store.options.set('seo_enable_headless_rest_endpoints', '1');
    }
  });
});
