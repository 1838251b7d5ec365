import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';

type Obj = Record<string, any>;

const post = async (path: string, json: Obj): Promise<Obj> => {
  const res = await server.call(path, { json, auth: server.admin });
  assert.ok(res.status < 300, await res.clone().text());
  return res.json();
};
const ids = async (path: string, auth?: string): Promise<number[]> => {
  const res = await server.call(path, { auth });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as Obj[]).map((p) => p.id);
};

// A small fixed world: 2 categories, 1 tag, 2 authors, 5 published posts on known dates.
const w: Obj = {};

const server = useServer({}, async () => {
  w.news = await post('cms/v2/categories', { name: 'News' });
  w.sport = await post('cms/v2/categories', { name: 'Sport', parent: w.news.id });
  w.hot = await post('cms/v2/tags', { name: 'Hot' });
  w.author = await userAuth(server, 'author');
  w.p = [];
  for (let i = 1; i <= 5; i++) {
    w.p.push(await post('cms/v2/posts', {
      title: `Item ${i} ${i === 3 ? 'zebra' : ''}`.trim(),
      content: `Body ${i}`,
      status: 'publish',
      date: `2020-01-0${i}T10:00:00`,
      categories: i <= 2 ? [w.news.id] : [w.sport.id],
      tags: i % 2 ? [w.hot.id] : [],
      sticky: i === 4,
      author: i === 5 ? w.author.userId : undefined,
    }));
  }
});

describe('cms/v2 posts collection arguments', () => {
  it('pages with X-WP-Total, X-WP-TotalPages and prev/next Link headers', async () => {
    const res = await server.call('cms/v2/posts?per_page=2&page=2&search=Item');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-wp-total'), '5');
    assert.equal(res.headers.get('x-wp-totalpages'), '3');
    const link = res.headers.get('link')!;
    // add_query_arg('page', n) keeps `page` where the request had it
    assert.match(link, /<[^>]*cms\/v2\/posts\?per_page=2&page=1&search=Item>; rel="prev", <[^>]*cms\/v2\/posts\?per_page=2&page=3&search=Item>; rel="next"/);
    assert.deepEqual(((await res.json()) as Obj[]).map((p) => p.id), [w.p[2].id, w.p[1].id]);
    const beyond = await server.call('cms/v2/posts?per_page=2&page=4&search=Item');
    assert.equal(beyond.status, 400);
    assert.equal(((await beyond.json()) as Obj).code, 'rest_post_invalid_page_number');
    assert.equal((await server.call('cms/v2/posts?per_page=101')).status, 400);
    assert.equal((await server.call('cms/v2/posts?page=0')).status, 400);
  });

  it('filters by search, include, exclude, slug, author, author_exclude, offset', async () => {
    assert.deepEqual(await ids('cms/v2/posts?search=zebra'), [w.p[2].id]);
    assert.deepEqual(await ids(`cms/v2/posts?include=${w.p[0].id},${w.p[1].id}&orderby=id&order=asc`), [w.p[0].id, w.p[1].id]);
    assert.ok(!(await ids(`cms/v2/posts?exclude=${w.p[0].id}`)).includes(w.p[0].id));
    assert.deepEqual(await ids(`cms/v2/posts?slug=${w.p[3].slug}`), [w.p[3].id]);
    assert.deepEqual(await ids(`cms/v2/posts?author=${w.author.userId}`), [w.p[4].id]);
    assert.ok(!(await ids(`cms/v2/posts?author_exclude=${w.author.userId}`)).includes(w.p[4].id));
    assert.deepEqual(await ids('cms/v2/posts?search=Item&offset=4'), [w.p[0].id]);
  });

  it('filters by dates, categories, tags and sticky', async () => {
    assert.deepEqual(await ids('cms/v2/posts?after=2020-01-03T12:00:00&before=2020-01-05T00:00:00'), [w.p[3].id]);
    assert.deepEqual((await ids(`cms/v2/posts?categories=${w.news.id}`)).sort(), [w.p[0].id, w.p[1].id].sort());
    assert.ok(!(await ids(`cms/v2/posts?categories_exclude=${w.news.id}`)).includes(w.p[0].id));
    assert.deepEqual((await ids(`cms/v2/posts?tags=${w.hot.id}`)).sort(), [w.p[0].id, w.p[2].id, w.p[4].id].sort());
    assert.ok(!(await ids(`cms/v2/posts?tags_exclude=${w.hot.id}`)).includes(w.p[0].id));
    assert.deepEqual(await ids('cms/v2/posts?sticky=true'), [w.p[3].id]);
    const modified = await ids('cms/v2/posts?modified_after=2000-01-01T00:00:00&search=Item');
    assert.equal(modified.length, 5);
    assert.deepEqual(await ids('cms/v2/posts?modified_before=2000-01-01T00:00:00'), []);
  });

  it('ignores the filters a collection does not offer, as WordPress does', async () => {
    // revisions offer neither dates nor authors
    const revised = await post('cms/v2/posts', { title: 'Revised', content: 'First', status: 'publish' });
    await post(`cms/v2/posts/${revised.id}`, { content: 'Second' });
    const revisions = await ids(`cms/v2/posts/${revised.id}/revisions`, server.admin);
    assert.equal(revisions.length, 1);
    assert.deepEqual(await ids(`cms/v2/posts/${revised.id}/revisions?after=2999-01-01T00:00:00&author[]=999&slug[]=none`, server.admin), revisions);
    // media offers no sticky, menu_order nor category filter
    const upload = await fetch(`${server.api}cms/v2/media`, {
      method: 'POST',
      body: 'plain words',
      headers: { authorization: server.admin, 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="words.txt"' },
    });
    assert.equal(upload.status, 201, await upload.clone().text());
    const media = ((await upload.json()) as Obj).id;
    assert.deepEqual(await ids(`cms/v2/media?include=${media}&categories[]=${w.news.id}&tax_relation=OR&sticky=1&menu_order=0`), [media]);
    // search pages by page and per_page only
    const firstTwo = await ids('cms/v2/search?search=Item&per_page=2');
    assert.equal(firstTwo.length, 2);
    assert.deepEqual(await ids('cms/v2/search?search=Item&per_page=2&offset=2'), firstTwo);
  });

  it('orders by title, id, include, slug and refuses relevance without a search', async () => {
    assert.deepEqual(await ids('cms/v2/posts?search=Item&orderby=title&order=asc&per_page=2'), [w.p[0].id, w.p[1].id]);
    assert.deepEqual(await ids('cms/v2/posts?search=Item&orderby=id&order=desc&per_page=1'), [w.p[4].id]);
    assert.deepEqual(await ids(`cms/v2/posts?include=${w.p[2].id},${w.p[0].id}&orderby=include`), [w.p[2].id, w.p[0].id]);
    const rel = await server.call('cms/v2/posts?orderby=relevance');
    assert.equal(rel.status, 400);
    assert.equal(((await rel.json()) as Obj).code, 'rest_no_search_term_defined');
    assert.equal((await server.call('cms/v2/posts?order=sideways')).status, 400);
  });

  it('embeds the author and the terms with _embed', async () => {
    const [item] = (await (await server.call(`cms/v2/posts?include=${w.p[4].id}&_embed`)).json()) as Obj[];
    assert.equal(item._embedded.author[0].id, w.author.userId);
    const [cats, tags] = item._embedded['wp:term'];
    assert.deepEqual(cats.map((t: Obj) => t.name), ['Sport']);
    assert.deepEqual(tags.map((t: Obj) => t.name), ['Hot']);
  });
});

describe('cms/v2 categories and tags', () => {
  it('lists terms with their counts, parents and filters', async () => {
    const res = await server.call('cms/v2/categories?per_page=1');
    assert.equal(res.headers.get('x-wp-total'), '3');
    const all = (await (await server.call('cms/v2/categories?orderby=id')).json()) as Obj[];
    assert.deepEqual(all.map((t) => t.name), ['Uncategorized', 'News', 'Sport']);
    assert.equal(all[1].count, 2);
    assert.equal(all[2].parent, w.news.id);
    assert.deepEqual(await ids(`cms/v2/categories?parent=${w.news.id}`), [w.sport.id]);
    assert.deepEqual(await ids(`cms/v2/categories?post=${w.p[0].id}`), [w.news.id]);
    assert.deepEqual(await ids('cms/v2/categories?search=spo'), [w.sport.id]);
    assert.deepEqual(await ids('cms/v2/categories?slug=news'), [w.news.id]);
    assert.deepEqual(await ids('cms/v2/categories?hide_empty=true&orderby=name&order=desc&exclude=1'), [w.sport.id, w.news.id]);
    assert.deepEqual(await ids(`cms/v2/tags?include=${w.hot.id}&offset=0`), [w.hot.id]);
    assert.equal(((await (await server.call('cms/v2/tags')).json()) as Obj[])[0].parent, undefined);
  });

  it('updates terms, refuses duplicates, and deletes only with force=true', async () => {
    const temp = await post('cms/v2/tags', { name: 'Temp' });
    const dup = await server.call('cms/v2/tags', { json: { name: 'Temp' }, auth: server.admin });
    assert.equal(dup.status, 400);
    assert.equal(((await dup.json()) as Obj).code, 'term_exists');
    const renamed = await post(`cms/v2/tags/${temp.id}`, { name: 'Renamed', description: 'D' });
    assert.equal(renamed.name, 'Renamed');
    assert.equal(renamed.description, 'D');
    const soft = await server.call(`cms/v2/tags/${temp.id}`, { method: 'DELETE', auth: server.admin });
    assert.equal(soft.status, 501);
    assert.equal(((await soft.json()) as Obj).code, 'rest_trash_not_supported');
    const hard = await server.call(`cms/v2/tags/${temp.id}?force=true`, { method: 'DELETE', auth: server.admin });
    assert.deepEqual(((await hard.json()) as Obj).deleted, true);
    assert.equal((await server.call(`cms/v2/tags/${temp.id}`)).status, 404);
    const anon = await server.call('cms/v2/categories', { json: { name: 'Nope' } });
    assert.equal(anon.status, 401);
    assert.equal(((await anon.json()) as Obj).code, 'rest_cannot_create');
  });
});

describe('cms/v2 types, taxonomies, users, search, settings', () => {
  it('describes the registered post types and taxonomies', async () => {
    const types = (await (await server.call('cms/v2/types')).json()) as Obj;
    for (const slug of ['post', 'page', 'attachment', 'cms_template', 'cms_navigation']) assert.ok(types[slug], slug);
    assert.equal(types.page.rest_base, 'pages');
    assert.equal(types.page.hierarchical, true);
    assert.equal((await server.call('cms/v2/types/nope')).status, 404);
    const page = (await (await server.call('cms/v2/types/page?context=edit', { auth: server.admin })).json()) as Obj;
    assert.equal(page.viewable, true);
    const taxes = (await (await server.call('cms/v2/taxonomies?type=post')).json()) as Obj;
    assert.deepEqual(Object.keys(taxes), ['category', 'post_tag']);
    assert.equal(((await (await server.call('cms/v2/taxonomies/post_tag')).json()) as Obj).rest_base, 'tags');
    assert.equal((await server.call('cms/v2/taxonomies/nope')).status, 404);
  });

  it('shows published authors to anyone and needs list_users for the rest', async () => {
    const subscriber = await userAuth(server, 'subscriber');
    const publicIds = await ids('cms/v2/users');
    assert.ok(publicIds.includes(w.author.userId));
    assert.ok(!publicIds.includes(subscriber.userId));
    assert.ok((await ids('cms/v2/users?per_page=100', server.admin)).includes(subscriber.userId));
    assert.equal((await server.call(`cms/v2/users/${subscriber.userId}`)).status, 401);
    assert.equal((await server.call('cms/v2/users?context=edit')).status, 401);
    const me = await server.call('cms/v2/users/me');
    assert.equal(me.status, 401);
    assert.equal(((await me.json()) as Obj).code, 'rest_not_logged_in');
    const mine = (await (await server.call('cms/v2/users/me?context=edit', { auth: subscriber.auth })).json()) as Obj;
    assert.equal(mine.username, subscriber.login);
    assert.deepEqual(mine.roles, ['subscriber']);
    assert.deepEqual(await ids(`cms/v2/users?slug=${w.author.login}`), [w.author.userId]);
  });

  it('searches posts and terms', async () => {
    const posts = (await (await server.call('cms/v2/search?search=zebra')).json()) as Obj[];
    assert.deepEqual(posts.map((r) => [r.id, r.type, r.subtype]), [[w.p[2].id, 'post', 'post']]);
    const terms = (await (await server.call('cms/v2/search?type=term&search=spo')).json()) as Obj[];
    assert.deepEqual(terms.map((r) => [r.id, r.type]), [[w.sport.id, 'category']]);
    assert.deepEqual(await ids('cms/v2/search?search=sample&subtype=page'), [2]);
    assert.equal((await server.call('cms/v2/search?page=9')).status, 400);
  });

  it('changes the site title and tagline in the root index at once', async () => {
    assert.equal((await server.call('cms/v2/settings')).status, 401);
    const res = await server.call('cms/v2/settings', { json: { title: 'Renamed Site', description: 'New tagline', posts_per_page: 7 }, auth: server.admin });
    assert.equal(res.status, 200);
    const settings = (await res.json()) as Obj;
    assert.equal(settings.title, 'Renamed Site');
    assert.equal(settings.posts_per_page, 7);
    const index = (await (await server.call('')).json()) as Obj;
    assert.equal(index.name, 'Renamed Site');
    assert.equal(index.description, 'New tagline');
    const bad = await server.call('cms/v2/settings', { json: { timezone: 'Mars/Olympus' }, auth: server.admin });
    assert.equal(bad.status, 400);
    assert.equal(((await (await server.call('cms/v2/settings', { auth: server.admin })).json()) as Obj).timezone, '');
  });
});
