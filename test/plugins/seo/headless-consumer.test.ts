import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { createPost, type Obj } from './helpers.ts';

/**
 * A headless front-end, written as the popular Next.js starters for WordPress write it: it knows
 * nothing of this server, only WordPress's and Yoast SEO's addresses (`/wp-json/wp/v2/...`,
 * `/wp-json/yoast/v1/get_head`). Each page asks for its object's `yoast_head_json` alone
 * (`_fields`), turns it into Next's `Metadata` (generateMetadata) and prints the tags Next prints
 * for it, with the schema graph as a JSON-LD script; the home page has no object and asks
 * get_head for its URL. The tags it prints must be the site's own head for the same page.
 */

/** Yoast's `yoast_head_json`, as the starters type it. */
interface YoastHeadJson {
  title?: string;
  description?: string;
  robots?: { index?: string; follow?: string; [k: string]: string | undefined };
  canonical?: string;
  og_locale?: string;
  og_type?: string;
  og_title?: string;
  og_description?: string;
  og_url?: string;
  og_site_name?: string;
  article_published_time?: string;
  article_modified_time?: string;
  og_image?: { url: string; width?: number; height?: number; type?: string }[];
  author?: string;
  twitter_card?: string;
  twitter_misc?: Record<string, string>;
  schema?: unknown;
}

/** Next's Metadata, the part these pages fill. */
interface Metadata {
  title?: string;
  description?: string;
  alternates?: { canonical?: string };
  robots?: { index: boolean; follow: boolean };
  authors?: { name: string }[];
  openGraph?: { locale?: string; type?: string; title?: string; description?: string; url?: string; siteName?: string; publishedTime?: string; modifiedTime?: string; images?: { url: string; width?: number; height?: number }[] };
  twitter?: { card?: string };
}

/** generateMetadata from Yoast's fields, the starters' mapping. */
function metadataFromYoast(y: YoastHeadJson): Metadata {
  return {
    title: y.title,
    description: y.description,
    alternates: { canonical: y.canonical },
    robots: { index: y.robots?.index !== 'noindex', follow: y.robots?.follow !== 'nofollow' },
    authors: y.author ? [{ name: y.author }] : undefined,
    openGraph: {
      locale: y.og_locale,
      type: y.og_type,
      title: y.og_title,
      description: y.og_description,
      url: y.og_url,
      siteName: y.og_site_name,
      publishedTime: y.article_published_time,
      modifiedTime: y.article_modified_time,
      images: y.og_image?.map((i) => ({ url: i.url, width: i.width, height: i.height })),
    },
    twitter: { card: y.twitter_card },
  };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The tags Next prints for a Metadata, in its order, and the page's JSON-LD script. */
function headTags(m: Metadata, schema: unknown): string[] {
  const tags: string[] = [];
  const meta = (attr: 'name' | 'property', key: string, value: string | undefined) => value && tags.push(`<meta ${attr}="${key}" content="${esc(value)}"/>`);
  if (m.title) tags.push(`<title>${esc(m.title)}</title>`);
  meta('name', 'description', m.description);
  m.authors?.forEach((a) => meta('name', 'author', a.name));
  if (m.robots) meta('name', 'robots', `${m.robots.index ? 'index' : 'noindex'}, ${m.robots.follow ? 'follow' : 'nofollow'}`);
  if (m.alternates?.canonical) tags.push(`<link rel="canonical" href="${esc(m.alternates.canonical)}"/>`);
  const og = m.openGraph ?? {};
  meta('property', 'og:title', og.title);
  meta('property', 'og:description', og.description);
  meta('property', 'og:url', og.url);
  meta('property', 'og:site_name', og.siteName);
  meta('property', 'og:locale', og.locale);
  og.images?.forEach((i) => {
    meta('property', 'og:image', i.url);
    if (i.width) meta('property', 'og:image:width', String(i.width));
    if (i.height) meta('property', 'og:image:height', String(i.height));
  });
  meta('property', 'og:type', og.type);
  meta('property', 'article:published_time', og.publishedTime);
  meta('property', 'article:modified_time', og.modifiedTime);
  meta('name', 'twitter:card', m.twitter?.card);
  if (schema) tags.push(`<script type="application/ld+json">${JSON.stringify(schema)}</script>`);
  return tags;
}

/** What the front-end's fetch layer does: the object's Yoast fields by slug, at WordPress's address. */
async function yoastOf(wpJson: string, route: string, slug: string): Promise<YoastHeadJson> {
  const res = await fetch(`${wpJson}wp/v2/${route}?slug=${encodeURIComponent(slug)}&_fields=yoast_head_json`);
  assert.equal(res.status, 200);
  const [item] = (await res.json()) as { yoast_head_json: YoastHeadJson }[];
  assert.deepEqual(Object.keys(item), ['yoast_head_json'], 'the answer carries the asked field alone');
  return item.yoast_head_json;
}

async function homeYoast(wpJson: string, home: string): Promise<YoastHeadJson> {
  const res = await fetch(`${wpJson}yoast/v1/get_head?url=${encodeURIComponent(`${home}/`)}`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { json: YoastHeadJson }).json;
}

/** A tag's value in the site's own rendered page, as a crawler reads it. */
const onPage = (html: string, re: RegExp) => re.exec(html)?.[1]?.replace(/&quot;/g, '"').replace(/&#039;/g, "'").replace(/&amp;/g, '&');

describe('a Next.js-style headless front-end reads yoast_head_json', () => {
  const site = useServer();
  let wpJson: string;

  test('set up: a site with a post, a page and a category, and its WordPress address', async () => {
    wpJson = `${site.home}/wp-json/`;
    assert.equal((await site.call('cms/v2/settings', { json: { title: 'Tea House', description: 'Leaves and water' }, auth: site.admin })).status, 200);
    await site.app.store.options.set('seo_separator', '-');
    const category = (await (await site.call('cms/v2/categories', { json: { name: 'Brewing', description: 'All about brewing.' }, auth: site.admin })).json()) as Obj;
    await createPost(site, site.admin, { title: 'Green tea', slug: 'green-tea', date_gmt: '2024-03-01T09:30:00', content: '<p>Steep the leaves for two minutes.</p>', categories: [category.id], meta: { _yoast_wpseo_metadesc: 'How to brew green tea.' } });
    await createPost(site, site.admin, { title: 'About us', slug: 'about', content: '<p>We sell tea.</p>' }, 'pages');
  });

  test('the post page: its metadata and the tags it prints', async () => {
    const y = await yoastOf(wpJson, 'posts', 'green-tea');
    const link = `${site.home}/2024/03/01/green-tea/`;
    const tags = headTags(metadataFromYoast(y), y.schema);
    assert.deepEqual(tags.slice(0, 11), [
      '<title>Green tea - Tea House</title>',
      '<meta name="description" content="How to brew green tea."/>',
      '<meta name="author" content="admin"/>',
      '<meta name="robots" content="index, follow"/>',
      `<link rel="canonical" href="${link}"/>`,
      '<meta property="og:title" content="Green tea - Tea House"/>',
      '<meta property="og:description" content="How to brew green tea."/>',
      `<meta property="og:url" content="${link}"/>`,
      '<meta property="og:site_name" content="Tea House"/>',
      '<meta property="og:locale" content="en_US"/>',
      '<meta property="og:type" content="article"/>',
    ]);
    assert.equal(tags[11], '<meta property="article:published_time" content="2024-03-01T09:30:00+00:00"/>');
    assert.match(tags.at(-1)!, /^<script type="application\/ld\+json">\{"@context":"https:\/\/schema\.org","@graph":\[\{"@type":"Article"/);
    await sameAsTheSite(link, y);
  });

  test('the page', async () => {
    const y = await yoastOf(wpJson, 'pages', 'about');
    const link = `${site.home}/about/`;
    const tags = headTags(metadataFromYoast(y), y.schema);
    assert.deepEqual(tags.slice(0, 9), [
      '<title>About us - Tea House</title>',
      '<meta name="robots" content="index, follow"/>',
      `<link rel="canonical" href="${link}"/>`,
      '<meta property="og:title" content="About us - Tea House"/>',
      '<meta property="og:description" content="We sell tea."/>',
      `<meta property="og:url" content="${link}"/>`,
      '<meta property="og:site_name" content="Tea House"/>',
      '<meta property="og:locale" content="en_US"/>',
      '<meta property="og:type" content="article"/>',
    ]);
    await sameAsTheSite(link, y);
  });

  test('the category archive', async () => {
    const y = await yoastOf(wpJson, 'categories', 'brewing');
    const link = `${site.home}/category/brewing/`;
    assert.deepEqual(headTags(metadataFromYoast(y), undefined), [
      '<title>Brewing - Tea House</title>',
      '<meta name="robots" content="index, follow"/>',
      `<link rel="canonical" href="${link}"/>`,
      '<meta property="og:title" content="Brewing - Tea House"/>',
      '<meta property="og:description" content="All about brewing."/>',
      `<meta property="og:url" content="${link}"/>`,
      '<meta property="og:site_name" content="Tea House"/>',
      '<meta property="og:locale" content="en_US"/>',
      '<meta property="og:type" content="article"/>',
      '<meta name="twitter:card" content="summary_large_image"/>',
    ]);
    await sameAsTheSite(link, y);
  });

  test('the home page, through get_head at its Yoast address', async () => {
    const y = await homeYoast(wpJson, site.home);
    assert.deepEqual(headTags(metadataFromYoast(y), undefined), [
      '<title>Tea House - Leaves and water</title>',
      '<meta name="robots" content="index, follow"/>',
      `<link rel="canonical" href="${site.home}/"/>`,
      '<meta property="og:title" content="Tea House - Leaves and water"/>',
      '<meta property="og:description" content="Leaves and water"/>',
      `<meta property="og:url" content="${site.home}/"/>`,
      '<meta property="og:site_name" content="Tea House"/>',
      '<meta property="og:locale" content="en_US"/>',
      '<meta property="og:type" content="website"/>',
      '<meta name="twitter:card" content="summary_large_image"/>',
    ]);
    await sameAsTheSite(`${site.home}/`, y);
  });

  /** The front-end's head says what the site's own page at that URL says: title, canonical, Open Graph, the graph. */
  async function sameAsTheSite(url: string, y: YoastHeadJson): Promise<void> {
    const html = await (await fetch(url)).text();
    assert.equal(onPage(html, /<title>([^<]*)<\/title>/), y.title);
    assert.equal(onPage(html, /<link rel="canonical" href="([^"]*)"/), y.canonical);
    assert.equal(onPage(html, /<meta property="og:title" content="([^"]*)"/), y.og_title);
    assert.equal(onPage(html, /<meta property="og:description" content="([^"]*)"/), y.og_description);
    assert.equal(onPage(html, /<meta property="og:type" content="([^"]*)"/), y.og_type);
    const graph = /<script type="application\/ld\+json" class="yoast-schema-graph">([\s\S]*?)<\/script>/.exec(html)?.[1];
    assert.deepEqual(JSON.parse(graph ?? 'null'), y.schema);
  }
});
