import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, type ServerFixture } from '../../helpers/server.ts';
import { userAuth, type TestUser } from '../../helpers/auth.ts';

type Obj = Record<string, any>;

/** A small seeded site: posts over four months with categories, tags, a sticky post, a draft, a private post, a featured image and a page. */
interface Seeded {
  ids: Record<string, number>;
  news: number;
  sport: number;
  green: number;
  red: number;
  author: TestUser;
  editor: TestUser;
  contributor: TestUser;
}
const seeded = {} as Seeded;

async function seed(site: ServerFixture): Promise<void> {
  const s = site.app.store;
  seeded.author = await userAuth(site, 'author');
  seeded.editor = await userAuth(site, 'editor');
  seeded.contributor = await userAuth(site, 'contributor');
  const admin = (await s.users.byLogin('admin'))!.id;
  // the install's sample post and page would join every list
  const installed = await s.posts.query({ types: ['post', 'page'], offset: 0, limit: 100 });
  await s.posts.deleteMany(installed.rows.map((r) => r.id));
  seeded.news = await s.terms.insert({ taxonomy: 'category', name: 'News' });
  seeded.sport = await s.terms.insert({ taxonomy: 'category', name: 'Sport' });
  seeded.green = await s.terms.insert({ taxonomy: 'post_tag', name: 'Green' });
  seeded.red = await s.terms.insert({ taxonomy: 'post_tag', name: 'Red' });
  const rows: [string, Obj][] = [
    ['alpha', { title: 'Alpha lantern', content: 'First words about a lantern.', date: '2024-01-10 10:00:00', author: admin, sticky: 1, comment_count: 2 }],
    ['bravo', { title: 'Bravo orchard', content: 'An orchard in spring.', excerpt: 'Hand-written excerpt', date: '2024-02-10 10:00:00', author: seeded.author.userId, comment_count: 9 }],
    ['charlie', { title: 'Charlie river', content: 'The river and the orchard.', date: '2024-03-10 10:00:00', author: seeded.author.userId }],
    ['delta', { title: 'Delta garden', content: 'A garden.', date: '2024-04-10 10:00:00', author: admin, menu_order: 3 }],
    ['draft', { title: 'Echo draft', content: 'Unpublished.', date: '2024-05-10 10:00:00', author: admin, status: 'draft' }],
    ['private', { title: 'Foxtrot private', content: 'Hidden.', date: '2024-05-11 10:00:00', author: admin, status: 'private' }],
    ['page', { title: 'About the orchard', content: 'A page.', type: 'page', date: '2024-06-01 10:00:00', author: admin }],
    ['image', { title: 'cover.jpg', type: 'attachment', mime_type: 'image/jpeg', guid: 'http://media.test/uploads/cover.jpg', date: '2024-01-01 00:00:00', author: admin }],
  ];
  seeded.ids = {};
  for (const [key, p] of rows) seeded.ids[key] = await s.posts.insert(p);
  const { ids } = seeded;
  await s.terms.setPostTerms(ids.alpha, 'category', [seeded.news]);
  await s.terms.setPostTerms(ids.bravo, 'category', [seeded.news, seeded.sport]);
  await s.terms.setPostTerms(ids.charlie, 'category', [seeded.sport]);
  await s.terms.setPostTerms(ids.delta, 'category', [seeded.sport]);
  await s.terms.setPostTerms(ids.bravo, 'post_tag', [seeded.green]);
  await s.terms.setPostTerms(ids.charlie, 'post_tag', [seeded.green, seeded.red]);
  await s.posts.meta.set(ids.image, '_wp_attachment_metadata', JSON.stringify({ width: 2000, height: 1000, sizes: { large: { file: 'cover-1024x512.jpg', width: 1024, height: 512 } } }));
  await s.posts.meta.set(ids.delta, '_thumbnail_id', String(ids.image));
}

describe('kbp/v1 and kbpp/v1 post queries on a seeded site', () => {
  const site = useServer({}, seed);
  const get = async (path: string, auth: string = site.admin) => {
    const res = await site.call(path, { auth });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const titles = async (query: string, ns = 'kbp') => {
    const { status, body } = await get(`${ns}/v1/post-query?${query}`);
    assert.equal(status, 200, JSON.stringify(body));
    return (body as Obj[]).map((p) => p.title.raw);
  };
  const id = (k: string) => seeded.ids[k];

  // every argument of the post query changes the result as it should
  const cases: [string, () => string, string[]][] = [
    ['no query: nothing to run', () => 'type=post', []],
    ['newest published posts first', () => 'query=category&type=post', ['Delta garden', 'Charlie river', 'Bravo orchard', 'Alpha lantern']],
    ['order=asc', () => 'query=category&type=post&order=asc', ['Alpha lantern', 'Bravo orchard', 'Charlie river', 'Delta garden']],
    ['order_by=title order=desc', () => 'query=category&type=post&order_by=title&order=desc', ['Delta garden', 'Charlie river', 'Bravo orchard', 'Alpha lantern']],
    ['order_by=comment_count', () => 'query=category&type=post&order_by=comment_count', ['Bravo orchard', 'Alpha lantern', 'Delta garden', 'Charlie river']],
    ['order_by=menu_order', () => 'query=category&type=post&order_by=menu_order', ['Delta garden', 'Charlie river', 'Bravo orchard', 'Alpha lantern']],
    ['per_page', () => 'query=category&type=post&per_page=2', ['Delta garden', 'Charlie river']],
    ['offset', () => 'query=category&type=post&offset=1&per_page=2', ['Charlie river', 'Bravo orchard']],
    ['page after the offset', () => 'query=category&type=post&offset=1&per_page=2&page=2', ['Alpha lantern']],
    ['allow_sticky puts the sticky post first', () => 'query=category&type=post&allow_sticky=true', ['Alpha lantern', 'Delta garden', 'Charlie river', 'Bravo orchard']],
    ['allow_sticky=false leaves it in date order', () => 'query=category&type=post&allow_sticky=false&per_page=1&order=asc', ['Alpha lantern']],
    ['category', () => `query=category&type=post&category=${seeded.news}`, ['Bravo orchard', 'Alpha lantern']],
    ['category, exclude=exclude', () => `query=category&type=post&category=${seeded.news}&exclude=exclude`, ['Delta garden', 'Charlie river']],
    ['several categories', () => `query=category&type=post&category=${seeded.news},${seeded.sport}&per_page=10`, ['Delta garden', 'Charlie river', 'Bravo orchard', 'Alpha lantern']],
    ['tags', () => `query=category&type=post&tags=${seeded.red}`, ['Charlie river']],
    ['tags, exclude=exclude', () => `query=category&type=post&tags=${seeded.green}&exclude=exclude`, ['Delta garden', 'Alpha lantern']],
    ['category and tags together', () => `query=category&type=post&category=${seeded.news}&tags=${seeded.green}`, ['Bravo orchard']],
    ['a tag id given as category matches nothing', () => `query=category&type=post&category=${seeded.green}`, []],
    ['custom_tax with tax_type', () => `query=category&type=post&custom_tax=true&tax_type=post_tag&category=${seeded.green}`, ['Charlie river', 'Bravo orchard']],
    ['custom_tax, exclude=exclude', () => `query=category&type=post&custom_tax=true&tax_type=post_tag&category=${seeded.green}&exclude=exclude`, ['Delta garden', 'Alpha lantern']],
    ['custom_tax ignores tags', () => `query=category&type=post&custom_tax=true&tax_type=category&category=${seeded.sport}&tags=${seeded.red}`, ['Delta garden', 'Charlie river', 'Bravo orchard']],
    ['post_id leaves the current post out', () => `query=category&type=post&post_id=${id('delta')}`, ['Charlie river', 'Bravo orchard', 'Alpha lantern']],
    ['a template post_id is ignored', () => 'query=category&type=post&post_id=theme//single', ['Delta garden', 'Charlie river', 'Bravo orchard', 'Alpha lantern']],
    ['include narrows a category query', () => `query=category&type=post&include=${id('alpha')},${id('charlie')}`, ['Charlie river', 'Alpha lantern']],
    ['individual: the picked posts in their order', () => `query=individual&type=post&include=${id('charlie')},${id('alpha')},${id('bravo')}`, ['Charlie river', 'Alpha lantern', 'Bravo orchard']],
    ['individual shows private posts to who may read them, never drafts', () => `query=individual&type=post&include=${id('private')},${id('draft')},${id('alpha')}`, ['Foxtrot private', 'Alpha lantern']],
    ['individual without include', () => 'query=individual&type=post', []],
    ['search', () => 'query=category&type=post&search=orchard', ['Bravo orchard', 'Charlie river']],
    ['type=page', () => 'query=category&type=page', ['About the orchard']],
    ['multiple types through type_array', () => 'query=category&multiple=true&type_array=post,page&per_page=2', ['About the orchard', 'Delta garden']],
  ];
  for (const [name, query, expected] of cases) test(`post-query: ${name}`, async () => assert.deepEqual(await titles(query()), expected));

  test('kbpp post-query: author, 88888888 for the caller, post_tax and type=all', async () => {
    assert.deepEqual(await titles(`query=category&type=post&author=${seeded.author.userId}`, 'kbpp'), ['Charlie river', 'Bravo orchard']);
    const mine = await get('kbpp/v1/post-query?query=category&type=post&author=88888888', seeded.author.auth);
    assert.deepEqual((mine.body as Obj[]).map((p) => p.title.raw), ['Charlie river', 'Bravo orchard']);
    assert.deepEqual(await titles(`query=category&type=post&post_tax=true&tax_type=post_tag&category=${seeded.red}`, 'kbpp'), ['Charlie river']);
    assert.deepEqual(await titles('query=category&type=all&per_page=2', 'kbpp'), ['About the orchard', 'Delta garden']);
    assert.deepEqual(await titles(`query=category&type=post&post_id=${id('delta')}&per_page=1`, 'kbpp'), ['Delta garden'], 'kbpp has no post_id');
  });

  test('an item has the reference shape: dates, title and excerpt raw and rendered, link, author, image, terms', async () => {
    const [delta] = (await get(`kbp/v1/post-query?query=individual&type=post&include=${id('delta')}`)).body as Obj[];
    assert.deepEqual(Object.keys(delta), ['id', 'date', 'date_gmt', 'modified', 'modified_gmt', 'title', 'excerpt', 'type', 'slug', 'status', 'link', 'author', 'featured_media', 'featured_image_src_large', 'author_info', 'comment_info', 'category_info', 'tag_info', 'taxonomy_info']);
    assert.equal(delta.date, '2024-04-10T10:00:00');
    assert.deepEqual(delta.title, { raw: 'Delta garden', rendered: 'Delta garden' });
    assert.deepEqual(delta.excerpt, { raw: '', rendered: 'A garden.' });
    assert.equal(delta.link, `${site.home}/2024/04/10/delta-garden/`);
    assert.equal(delta.featured_media, id('image'));
    assert.deepEqual(delta.featured_image_src_large, ['http://media.test/uploads/cover-1024x512.jpg', 1024, 512, true]);
    assert.deepEqual(delta.author_info, { display_name: 'admin', author_link: `${site.home}/author/admin/` });
    assert.equal(delta.comment_info, 0);
    assert.deepEqual(delta.category_info.map((c: Obj) => [c.term_id, c.name, c.cat_ID, c.taxonomy]), [[seeded.sport, 'Sport', seeded.sport, 'category']]);
    assert.equal(delta.tag_info, false, 'no tags: get_the_tags gives false');
    assert.deepEqual(delta.taxonomy_info, { category: [{ value: seeded.sport, label: 'Sport' }] });
    const [bravo] = (await get(`kbpp/v1/post-query?query=individual&type=post&include=${id('bravo')}`)).body as Obj[];
    assert.equal(bravo.featured_media, '');
    assert.ok(!('featured_image_src_large' in bravo));
    assert.equal(bravo.excerpt.rendered, 'Hand-written excerpt');
    assert.deepEqual(Object.keys(bravo.author_info), ['display_name', 'author_link', 'author_website_link'], 'the Pro item adds the website');
    assert.deepEqual(bravo.tag_info.map((t: Obj) => t.name), ['Green']);
    assert.deepEqual(bravo.taxonomy_info.post_tag, [{ value: seeded.green, label: 'Green' }]);
  });

  test('post-select pages with X-WP-Total, filters by type, search, include and terms', async () => {
    const all = await get('kbpp/v1/post-select?per_page=2');
    assert.equal(all.status, 200);
    assert.equal(all.headers.get('x-wp-total'), '6', 'posts and the page, private included for an administrator');
    assert.equal(all.headers.get('x-wp-totalpages'), '3');
    assert.deepEqual(Object.keys(all.body[0]), ['id', 'title', 'type', 'date', 'slug', 'status', 'link', 'author', 'date_gmt']);
    assert.deepEqual(all.body.map((p: Obj) => p.title.raw), ['About the orchard', 'Foxtrot private']);
    assert.deepEqual((await get('kbpp/v1/post-select?per_page=2&page=3')).body.map((p: Obj) => p.title.raw), ['Bravo orchard', 'Alpha lantern']);
    assert.deepEqual((await get('kbpp/v1/post-select?type=page')).body.map((p: Obj) => p.title.raw), ['About the orchard']);
    assert.deepEqual((await get('kbpp/v1/post-select?search=orchard')).body.map((p: Obj) => p.title.raw), ['About the orchard', 'Bravo orchard', 'Charlie river']);
    assert.deepEqual((await get(`kbpp/v1/post-select?include=${id('charlie')},${id('alpha')}`)).body.map((p: Obj) => p.title.raw), ['Charlie river', 'Alpha lantern']);
    assert.deepEqual((await get(`kbpp/v1/post-select?categories=${seeded.news}`)).body.map((p: Obj) => p.title.raw), ['Bravo orchard', 'Alpha lantern']);
    assert.deepEqual((await get(`kbpp/v1/post-select?tags=${seeded.red}`)).body.map((p: Obj) => p.title.raw), ['Charlie river']);
    const unknown = await get('kbpp/v1/post-select?type=nav_menu_item');
    assert.deepEqual([unknown.body, unknown.headers.get('x-wp-total')], [[], '0'], 'a type the picker does not offer is dropped');
    const author = await get('kbpp/v1/post-select', seeded.author.auth);
    assert.equal(author.headers.get('x-wp-total'), '5', 'no private posts for an author');
  });

  test('ktp post-select offers every registered type but attachments, including the page-builder types', async () => {
    const form = await site.app.store.posts.insert({ title: 'Contact form', type: 'designkit_form', author: seeded.editor.userId });
    const res = await get('ktp/v1/post-select?search=contact');
    assert.deepEqual(res.body.map((p: Obj) => [p.id, p.type]), [[form, 'designkit_form']]);
    assert.deepEqual((await get('kbpp/v1/post-select?search=contact&type=designkit_form')).body, [], 'kbpp offers public types only');
    assert.deepEqual((await get(`ktp/v1/post-select?type=post&include=${id('image')}`)).body, []);
    assert.equal((await get('ktp/v1/post-select', seeded.contributor.auth)).status, 200);
  });

  test('taxonomies and terms: taxonomies-select, term-select, tax-query, term-query', async () => {
    assert.deepEqual((await get('kbp/v1/taxonomies-select?source=all')).body, [{ value: 'category', label: 'Categories' }, { value: 'post_tag', label: 'Tags' }]);
    assert.deepEqual((await get('kbp/v1/taxonomies-select?source=page')).body, []);
    assert.deepEqual((await get(`kbp/v1/taxonomies-select?source=${id('alpha')}`)).body.map((t: Obj) => t.value), ['category', 'post_tag']);
    assert.equal((await get('kbp/v1/taxonomies-select?source=99999')).body, '');
    assert.equal((await get('kbp/v1/taxonomies-select')).status, 400, 'an empty source is refused, as validate_post_source_string does');
    assert.deepEqual((await get('kbp/v1/term-select?source=post_tag')).body, [{ value: `post_tag|${seeded.green}`, label: 'Green' }, { value: `post_tag|${seeded.red}`, label: 'Red' }]);
    const paged = await get('kbp/v1/term-select?source=post_tag&per_page=1&page=2');
    assert.deepEqual([paged.body, paged.headers.get('x-wp-total')], [[{ value: `post_tag|${seeded.red}`, label: 'Red' }], '2']);
    assert.deepEqual((await get('kbp/v1/term-select?source=category&search=spo')).body.map((t: Obj) => t.label), ['Sport']);
    // `page` is a number: one too large for an exact SQL OFFSET still answers a page of terms (a 500 once)
    for (const page of ['1e300', '1e308', '9007199254740993']) {
      const far = await get(`kbp/v1/term-select?source=category&page=${page}`);
      assert.equal(far.status, 200, `page=${page}: ${JSON.stringify(far.body)}`);
      assert.ok(Array.isArray(far.body), `page=${page}`);
    }
    assert.equal((await get('kbp/v1/term-select?source=nope')).status, 400);
    assert.deepEqual((await get('kbpp/v1/tax-query?type=post')).body, [{ value: 'category', label: 'Categories' }, { value: 'post_tag', label: 'Tags' }]);
    assert.deepEqual((await get('kbpp/v1/tax-query?type=all&per_page=1')).body, [{ value: 'category', label: 'Categories' }]);
    assert.equal((await get('kbpp/v1/tax-query?type=bogus')).status, 400);
    assert.deepEqual((await get('kbpp/v1/term-query?tax_type=category&source=all')).body, [{ value: seeded.news, label: 'News' }, { value: seeded.sport, label: 'Sport' }]);
    assert.deepEqual((await get(`kbpp/v1/term-query?tax_type=post_tag&source=${id('charlie')}`)).body, [{ value: seeded.green, label: 'Green' }, { value: seeded.red, label: 'Red' }]);
    assert.deepEqual((await get('kbpp/v1/term-query?tax_type=post_tag')).body, [], 'source=current names no post in a REST request');
    assert.deepEqual((await get(`kbpp/v1/term-query?tax_type=category&source=${id('draft')}`, seeded.contributor.auth)).body, [], "another's draft is not readable");
  });

  test('bad input is a 400, permissions as the plugins check them', async () => {
    const bad = await get('kbp/v1/post-query?query=category&type=nope');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'rest_invalid_param');
    assert.equal((await get('kbp/v1/post-query?query=category&type=post&custom_tax=true&tax_type=nope&category=1')).status, 400);
    assert.equal((await get('kbp/v1/post-query?query=category&allow_sticky=maybe')).status, 400);
    const several = await get('kbpp/v1/post-query?query=category&multiple=maybe&type_array=post');
    assert.deepEqual([several.status, several.body.code, several.body.data.params], [400, 'rest_invalid_param', { multiple: 'multiple is not of type boolean.' }]);
    for (const path of ['kbp/v1/post-query?query=category', 'kbp/v1/term-select?source=category', 'kbpp/v1/post-select', 'kbpp/v1/tax-query?type=post', 'ktp/v1/post-select']) {
      const anon = await site.call(path);
      assert.equal(anon.status, 401, path);
    }
    const subscriber = await userAuth(site, 'subscriber');
    assert.equal((await get('kbp/v1/post-query?query=category', subscriber.auth)).status, 403);
    assert.equal((await get('kbpp/v1/post-select?type=page', seeded.author.auth)).status, 403, 'pages need edit_pages');
    assert.equal((await get('kbpp/v1/post-select?type=post', seeded.author.auth)).status, 200);
    assert.equal((await get('kbpp/v1/post-query?query=category&type=page', seeded.contributor.auth)).status, 403);
    assert.equal((await get('kbpp/v1/post-query?query=category&type=page', seeded.editor.auth)).status, 200);
  });
});
