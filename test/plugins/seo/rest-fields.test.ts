import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { createPost, type Obj } from './helpers.ts';

/**
 * `yoast_head` and `yoast_head_json` (Yoast SEO's Yoast_Head_REST_Field) on posts, pages, terms,
 * users and the `post` type. The site is given Yoast's own default settings (separator `-`, its
 * title templates), so every expected string below is what Yoast SEO prints for the same content:
 * the tag formats of its presenters (Abstract_Indexable_Tag_Presenter, Robots_Presenter,
 * Canonical_Presenter, Open_Graph\Image_Presenter, Slack\Enhanced_Data_Presenter: label and
 * data lines joined by "\n\t", Schema_Presenter's `yoast-schema-graph` script), one presenter a
 * line between the debug markers, and Meta::get_head's JSON keys (`:`, space, `-` as `_`).
 */

const SITE = 'Tea House';
const TAGLINE = 'Leaves and water';
/** WPSEO_Option_Titles' defaults, as a fresh Yoast SEO install has them. */
const YOAST_TITLES = {
  post: '%%title%% %%page%% %%sep%% %%sitename%%',
  page: '%%title%% %%page%% %%sep%% %%sitename%%',
  home: '%%sitename%% %%page%% %%sep%% %%sitedesc%%',
  category: '%%term_title%% Archives %%page%% %%sep%% %%sitename%%',
  post_tag: '%%term_title%% Archives %%page%% %%sep%% %%sitename%%',
  author: '%%name%%, Author at %%sitename%% %%page%%',
};
const ROBOTS = { index: 'index', follow: 'follow', 'max-snippet': 'max-snippet:-1', 'max-image-preview': 'max-image-preview:large', 'max-video-preview': 'max-video-preview:-1' };
const ROBOTS_TAG = '<meta name="robots" content="index, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1" />';

describe('yoast_head and yoast_head_json', () => {
  const site = useServer();
  let post: Obj;
  let page: Obj;
  let category: Obj;
  let home: string;

  const get = async (path: string, auth?: string): Promise<Obj> => {
    const res = await site.call(path, auth ? { auth } : {});
    const body = (await res.json()) as Obj;
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  };
  const website = () => ({
    '@type': 'WebSite',
    '@id': `${home}/#website`,
    url: `${home}/`,
    name: SITE,
    description: TAGLINE,
    potentialAction: [{ '@type': 'SearchAction', target: { '@type': 'EntryPoint', urlTemplate: `${home}/?s={search_term_string}` }, 'query-input': { '@type': 'PropertyValueSpecification', valueRequired: true, valueName: 'search_term_string' } }],
    inLanguage: 'en-US',
  });

  test('set up as a fresh Yoast SEO site: its separator and title templates', async () => {
    home = site.home;
    const settings = await site.call('cms/v2/settings', { json: { title: SITE, description: TAGLINE }, auth: site.admin });
    assert.equal(settings.status, 200);
    await site.app.store.options.set('seo_separator', '-');
    await site.app.store.options.set('seo_title_templates', JSON.stringify(YOAST_TITLES));
    category = (await (await site.call('cms/v2/categories', { json: { name: 'Brewing', description: 'All about brewing.' }, auth: site.admin })).json()) as Obj;
    post = await createPost(site, site.admin, { title: 'Brewing green tea', date_gmt: '2024-03-01T09:30:00', content: '<p>Steep the leaves for two minutes.</p>', categories: [category.id] });
    page = await createPost(site, site.admin, { title: 'About us', date_gmt: '2024-03-02T10:00:00', content: '<p>We sell tea.</p>', meta: { _yoast_wpseo_metadesc: 'Who we are.' } }, 'pages');
  });

  test("a post: Yoast's head, tag for tag, and the same as JSON", async () => {
    const answer = await get(`cms/v2/posts/${post.id}`);
    const link = post.link as string;
    const modified = `${answer.modified_gmt}+00:00`;
    const json = answer.yoast_head_json as Obj;
    const person = (json.schema['@graph'] as Obj[]).find((n) => n['@type'] === 'Person')!;
    assert.match(person['@id'], new RegExp(`^${home}/#/schema/person/[0-9a-f]{32}$`));
    const schema = {
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': 'Article',
          '@id': `${link}#article`,
          isPartOf: { '@id': link },
          author: { name: 'admin', '@id': person['@id'] },
          headline: 'Brewing green tea',
          datePublished: '2024-03-01T09:30:00+00:00',
          dateModified: modified,
          mainEntityOfPage: { '@id': link },
          wordCount: 6,
          commentCount: 0,
          articleSection: ['Brewing'],
          inLanguage: 'en-US',
          potentialAction: [{ '@type': 'CommentAction', name: 'Comment', target: [`${link}#respond`] }],
        },
        {
          '@type': 'WebPage',
          '@id': link,
          url: link,
          name: `Brewing green tea - ${SITE}`,
          isPartOf: { '@id': `${home}/#website` },
          datePublished: '2024-03-01T09:30:00+00:00',
          dateModified: modified,
          breadcrumb: { '@id': `${link}#breadcrumb` },
          inLanguage: 'en-US',
          potentialAction: [{ '@type': 'ReadAction', target: [link] }],
        },
        {
          '@type': 'BreadcrumbList',
          '@id': `${link}#breadcrumb`,
          itemListElement: [
            { '@type': 'ListItem', position: 1, name: 'Home', item: `${home}/` },
            { '@type': 'ListItem', position: 2, name: 'Brewing green tea' },
          ],
        },
        website(),
        {
          '@type': 'Person',
          '@id': person['@id'],
          name: 'admin',
          image: { '@type': 'ImageObject', inLanguage: 'en-US', '@id': `${home}/#/schema/person/image/`, url: person.image.url, contentUrl: person.image.url, caption: 'admin' },
          // the installed administrator's website is the site's address (wp_install), which Yoast lists
          sameAs: [home],
          url: `${home}/author/admin/`,
        },
      ],
    };
    // get_avatar_url on a site served over http: http://{0,1,2}.gravatar.com
    assert.match(person.image.url, /^http:\/\/[012]\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=96&d=mm&r=g$/);
    // no meta description of its own and no template: Yoast's JSON has no `description`, og:description is the excerpt
    assert.deepEqual(json, {
      title: `Brewing green tea - ${SITE}`,
      robots: ROBOTS,
      canonical: link,
      og_locale: 'en_US',
      og_type: 'article',
      og_title: `Brewing green tea - ${SITE}`,
      og_description: 'Steep the leaves for two minutes.',
      og_url: link,
      og_site_name: SITE,
      article_published_time: '2024-03-01T09:30:00+00:00',
      article_modified_time: modified,
      author: 'admin',
      twitter_card: 'summary_large_image',
      twitter_misc: { 'Written by': 'admin', 'Est. reading time': '1 minute' },
      schema,
    });
    assert.deepEqual(Object.keys(json), ['title', 'robots', 'canonical', 'og_locale', 'og_type', 'og_title', 'og_description', 'og_url', 'og_site_name', 'article_published_time', 'article_modified_time', 'author', 'twitter_card', 'twitter_misc', 'schema']);
    assert.equal(
      answer.yoast_head,
      [
        '<!-- This site is optimized with the SEO plugin v28.4.0 -->',
        `<title>Brewing green tea - ${SITE}</title>`,
        ROBOTS_TAG,
        `<link rel="canonical" href="${link}" />`,
        '<meta property="og:locale" content="en_US" />',
        '<meta property="og:type" content="article" />',
        `<meta property="og:title" content="Brewing green tea - ${SITE}" />`,
        '<meta property="og:description" content="Steep the leaves for two minutes." />',
        `<meta property="og:url" content="${link}" />`,
        `<meta property="og:site_name" content="${SITE}" />`,
        '<meta property="article:published_time" content="2024-03-01T09:30:00+00:00" />',
        `<meta property="article:modified_time" content="${modified}" />`,
        '<meta name="author" content="admin" />',
        '<meta name="twitter:card" content="summary_large_image" />',
        '<meta name="twitter:label1" content="Written by" />\n\t<meta name="twitter:data1" content="admin" />\n\t<meta name="twitter:label2" content="Est. reading time" />\n\t<meta name="twitter:data2" content="1 minute" />',
        `<script type="application/ld+json" class="yoast-schema-graph">${JSON.stringify(schema)}</script>`,
        '<!-- / SEO plugin. -->',
      ].join('\n'),
    );
    // the fields follow WordPress's, as register_rest_field appends them
    const keys = Object.keys(answer);
    assert.deepEqual(keys.slice(keys.indexOf('tags')), ['tags', 'yoast_head', 'yoast_head_json', '_links']);
  });

  test('an SEO manager is told, in a comment, that the page has no meta description', async () => {
    const answer = await get(`cms/v2/posts/${post.id}`, site.admin);
    const lines = (answer.yoast_head as string).split('\n');
    assert.equal(
      lines[2],
      '<!-- Admin only notice: this page does not show a meta description because it does not have one, either write it for this page specifically or go into the [SEO - Settings] menu and set up a template. -->',
    );
    assert.equal(lines[3], ROBOTS_TAG);
  });

  test('a page: its own description; no author or publication time, only the reading time', async () => {
    const json = (await get(`cms/v2/pages/${page.id}`)).yoast_head_json as Obj;
    assert.equal(json.title, `About us - ${SITE}`);
    assert.equal(json.description, 'Who we are.');
    assert.equal(json.og_description, 'Who we are.');
    assert.equal(json.og_type, 'article');
    assert.equal(json.article_published_time, undefined, 'Yoast prints the publication time of posts only');
    assert.equal(json.author, undefined);
    assert.deepEqual(json.twitter_misc, { 'Est. reading time': '1 minute' });
    assert.deepEqual(
      (json.schema['@graph'] as Obj[]).map((n) => n['@type']),
      ['WebPage', 'BreadcrumbList', 'WebSite'],
    );
  });

  test("a category: its archive's head, the term's description as og:description", async () => {
    const answer = await get(`cms/v2/categories/${category.id}`);
    const json = answer.yoast_head_json as Obj;
    const link = category.link as string;
    assert.deepEqual(Object.fromEntries(Object.entries(json).filter(([k]) => k !== 'schema')), {
      title: `Brewing Archives - ${SITE}`,
      robots: ROBOTS,
      canonical: link,
      og_locale: 'en_US',
      og_type: 'article',
      og_title: `Brewing Archives - ${SITE}`,
      og_description: 'All about brewing.',
      og_url: link,
      og_site_name: SITE,
      twitter_card: 'summary_large_image',
    });
    assert.deepEqual(json.schema['@graph'][0], {
      '@type': 'CollectionPage',
      '@id': link,
      url: link,
      name: `Brewing Archives - ${SITE}`,
      isPartOf: { '@id': `${home}/#website` },
      breadcrumb: { '@id': `${link}#breadcrumb` },
      inLanguage: 'en-US',
      potentialAction: [{ '@type': 'ReadAction', target: [link] }],
    });
    assert.match(answer.yoast_head, /^<!-- This site is optimized with the SEO plugin v28\.4\.0 -->\n<title>Brewing Archives - Tea House<\/title>\n<meta name="robots"/);
    // every listed term carries it too
    const [listed] = (await get(`cms/v2/categories?include=${category.id}`)) as unknown as Obj[];
    assert.deepEqual(listed.yoast_head_json, json);
  });

  test("a user: the author archive's head (og:type profile, a ProfilePage)", async () => {
    const json = (await get('cms/v2/users/1')).yoast_head_json as Obj;
    assert.equal(json.title, `admin, Author at ${SITE}`);
    assert.equal(json.og_type, 'profile');
    assert.equal(json.og_url, `${home}/author/admin/`);
    assert.equal(json.schema['@graph'][0]['@type'], 'ProfilePage');
  });

  test("the post type: the blog's head (the home page while it lists the posts)", async () => {
    const json = (await get('cms/v2/types/post')).yoast_head_json as Obj;
    assert.equal(json.title, `${SITE} - ${TAGLINE}`);
    assert.equal(json.og_type, 'website');
    assert.equal(json.og_description, TAGLINE);
    assert.equal(json.canonical, `${home}/`);
    const types = await get('cms/v2/types');
    assert.deepEqual(types.post.yoast_head_json, json);
    assert.equal(types.page.yoast_head_json, null, 'a type without an archive has no head');
    assert.equal(types.page.yoast_head, null);
  });

  test('`_fields` asks for one of them: only that one, and nothing is made for an answer without them', async () => {
    const only = await get(`cms/v2/posts/${post.id}?_fields=yoast_head_json`);
    assert.deepEqual(Object.keys(only), ['yoast_head_json']);
    assert.equal(only.yoast_head_json.title, `Brewing green tea - ${SITE}`);
    const title = await get(`cms/v2/posts/${post.id}?_fields=id,yoast_head_json.title`);
    assert.deepEqual(title, { id: post.id, yoast_head_json: { title: `Brewing green tea - ${SITE}` } });
    // the head is made only when asked for: its first step, reading the headless setting, is watched
    const options = site.app.store.options;
    const read = options.get.bind(options);
    const names: string[] = [];
    options.get = (name: string) => (names.push(name), read(name));
    try {
      assert.deepEqual(await get(`cms/v2/posts/${post.id}?_fields=id`, site.admin), { id: post.id });
      assert.equal(names.includes('seo_enable_headless_rest_endpoints'), false, 'no head for an answer without its fields');
      await get(`cms/v2/posts/${post.id}?_fields=id,yoast_head`, site.admin);
      assert.equal(names.includes('seo_enable_headless_rest_endpoints'), true, 'the head is made when asked for');
    } finally {
      options.get = read;
    }
  });

  test('types with no pages of their own have no fields; with the headless setting off, none has', async () => {
    const block = (await (await site.call('cms/v2/blocks', { json: { title: 'Reusable', content: '<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->', status: 'publish' }, auth: site.admin })).json()) as Obj;
    assert.equal('yoast_head' in block, false);
    await site.app.store.options.set('seo_enable_headless_rest_endpoints', '0');
    try {
      const answer = await get(`cms/v2/posts/${post.id}`, site.admin);
      assert.equal('yoast_head' in answer, false);
      assert.equal('yoast_head_json' in answer, false);
    } finally {
      await site.app.store.options.set('seo_enable_headless_rest_endpoints', '1');
    }
  });
});
