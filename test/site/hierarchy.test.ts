import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

/**
 * Nested pages and categories as WordPress 6.1 links them (get_page_link with get_page_uri,
 * get_sample_permalink's `parent/%pagename%`, get_term_link's hierarchical category base) and
 * the site serves those URLs (get_page_by_path, the category rewrite with its nested path).
 */

type Obj = Record<string, any>;

const server = useServer();

async function created(path: string, json: Obj): Promise<Obj> {
  const res = await server.call(path, { json, auth: server.admin });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json();
}

async function edit(path: string): Promise<Obj> {
  const res = await server.call(`${path}?context=edit`, { auth: server.admin });
  assert.equal(res.status, 200);
  return res.json();
}

const site = (url: string) => fetch(url, { redirect: 'manual' });

describe('site: nested pages', () => {
  it('links a grandchild page under its ancestors and serves it there', async () => {
    const top = await created('cms/v2/pages', { title: 'About Us', status: 'publish', content: 'The top page.' });
    const middle = await created('cms/v2/pages', { title: 'Team', status: 'publish', parent: top.id, content: 'The team page.' });
    const leaf = await created('cms/v2/pages', { title: 'Founders', status: 'publish', parent: middle.id, content: 'Founders text here.' });
    assert.equal(middle.link, `${server.home}/about-us/team/`);
    assert.equal(leaf.link, `${server.home}/about-us/team/founders/`);
    // the editor's template has the parents' path before the placeholder
    assert.equal(top.permalink_template, `${server.home}/%pagename%/`);
    assert.equal(middle.permalink_template, `${server.home}/about-us/%pagename%/`);
    assert.equal(leaf.permalink_template, `${server.home}/about-us/team/%pagename%/`);
    assert.equal((await edit(`cms/v2/pages/${leaf.id}`)).generated_slug, 'founders');
    // view context answers the same link
    const viewed = (await (await server.call(`cms/v2/pages/${leaf.id}`)).json()) as Obj;
    assert.equal(viewed.link, `${server.home}/about-us/team/founders/`);

    const res = await site(leaf.link);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Founders text here\./);
    const mid = await site(middle.link);
    assert.equal(mid.status, 200);
    assert.match(await mid.text(), /The team page\./);
    // the leaf under the wrong parent is no page of the site
    assert.equal((await site(`${server.home}/team/about-us/founders/`)).status, 404);
  });

  it('moves a page’s link with its parent, and a renamed parent moves its children', async () => {
    const a = await created('cms/v2/pages', { title: 'Parent A', status: 'publish' });
    const b = await created('cms/v2/pages', { title: 'Parent B', status: 'publish' });
    const child = await created('cms/v2/pages', { title: 'Child', status: 'publish', parent: a.id });
    assert.equal(child.link, `${server.home}/parent-a/child/`);
    const moved = await server.call(`cms/v2/pages/${child.id}`, { json: { parent: b.id }, auth: server.admin });
    const movedBody = (await moved.json()) as Obj;
    assert.equal(movedBody.link, `${server.home}/parent-b/child/`);
    assert.equal(movedBody.permalink_template, `${server.home}/parent-b/%pagename%/`);
    await server.call(`cms/v2/pages/${b.id}`, { json: { slug: 'renamed-b' }, auth: server.admin });
    const again = await edit(`cms/v2/pages/${child.id}`);
    assert.equal(again.link, `${server.home}/renamed-b/child/`);
    assert.equal(again.permalink_template, `${server.home}/renamed-b/%pagename%/`);
    assert.equal((await site(`${server.home}/renamed-b/child/`)).status, 200);
  });
});

describe('site: nested categories', () => {
  it('links a child category under its parents’ slugs and serves its archive there', async () => {
    const parent = await created('cms/v2/categories', { name: 'Travel' });
    const child = await created('cms/v2/categories', { name: 'Europe', parent: parent.id });
    const grandchild = await created('cms/v2/categories', { name: 'Italy', parent: child.id });
    assert.equal(parent.link, `${server.home}/category/travel/`);
    assert.equal(child.link, `${server.home}/category/travel/europe/`);
    assert.equal(grandchild.link, `${server.home}/category/travel/europe/italy/`);
    const listed = (await (await server.call(`cms/v2/categories?include=${grandchild.id}`)).json()) as Obj[];
    assert.equal(listed[0].link, `${server.home}/category/travel/europe/italy/`);

    await created('cms/v2/posts', { title: 'Rome in spring', status: 'publish', categories: [grandchild.id] });
    const archive = await site(grandchild.link);
    assert.equal(archive.status, 200);
    assert.match(await archive.text(), /Rome in spring/);
    // the parent's archive lists its children's posts too, as WordPress's category query includes children
    const upper = await site(parent.link);
    assert.equal(upper.status, 200);
    assert.match(await upper.text(), /Rome in spring/);
  });
});
