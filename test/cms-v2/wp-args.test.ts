import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

/**
 * The args WordPress 6.1 declares, as it honours them: the term filters' object form
 * (WP_REST_Posts_Controller::prepare_tax_query), tax_relation, title/content/excerpt taken as a
 * string or {raw} (their checks nulled by arg_options), and the settings site_logo and site_icon.
 */
describe('cms/v2 args as WordPress declares them', () => {
  const ids: Record<string, number> = {};
  const site = useServer({}, async (s) => {
    const make = async (path: string, json: unknown) => (await (await s.call(path, { json, auth: s.admin })).json()).id as number;
    ids.parent = await make('cms/v2/categories', { name: 'Parent' });
    ids.child = await make('cms/v2/categories', { name: 'Child', parent: ids.parent });
    ids.grandchild = await make('cms/v2/categories', { name: 'Grandchild', parent: ids.child });
    ids.tag = await make('cms/v2/tags', { name: 'Tagged' });
    ids.inParent = await make('cms/v2/posts', { title: 'In parent', status: 'publish', categories: [ids.parent] });
    ids.inGrandchild = await make('cms/v2/posts', { title: 'In grandchild', status: 'publish', categories: [ids.grandchild], tags: [ids.tag] });
    ids.inBoth = await make('cms/v2/posts', { title: 'In both', status: 'publish', categories: [ids.parent, ids.child] });
  });

  /** Only this suite's posts (the site's first post belongs to none of its terms). */
  const mine = () => `include=${ids.inParent},${ids.inGrandchild},${ids.inBoth}`;
  const titles = async (query: string) => {
    const res = await site.call(`cms/v2/posts?${query}&orderby=title&order=asc`);
    assert.equal(res.status, 200, query);
    return ((await res.json()) as { title: { rendered: string } }[]).map((p) => p.title.rendered);
  };

  it('takes a list of term ids, any of them, without their children', async () => {
    assert.deepEqual(await titles(`categories=${ids.parent}`), ['In both', 'In parent']);
    assert.deepEqual(await titles(`categories[]=${ids.child}&categories[]=${ids.grandchild}`), ['In both', 'In grandchild']);
  });

  it('looks up a term id no term can have (past 64 bits, in either form) and finds nothing, on every store', async () => {
    assert.deepEqual(await titles(`${mine()}&categories=9223372036854776000`), []);
    assert.deepEqual(await titles(`${mine()}&tags[terms]=1e308`), []);
    assert.deepEqual(await titles(`${mine()}&categories_exclude=1e308`), ['In both', 'In grandchild', 'In parent']);
  });

  it('takes {terms, include_children, operator}: children at any depth, and AND for all of the terms', async () => {
    assert.deepEqual(await titles(`categories[terms]=${ids.parent}&categories[include_children]=true`), ['In both', 'In grandchild', 'In parent']);
    assert.deepEqual(await titles(`categories[terms]=${ids.parent}&categories[include_children]=false`), ['In both', 'In parent']);
    assert.deepEqual(await titles(`categories[terms][]=${ids.parent}&categories[terms][]=${ids.child}&categories[operator]=AND`), ['In both']);
    assert.deepEqual(await titles(`categories[terms][]=${ids.parent}&categories[terms][]=${ids.child}&categories[operator]=OR`), ['In both', 'In parent']);
    assert.deepEqual(await titles(`tags[terms]=${ids.tag}&tags[operator]=AND`), ['In grandchild']);
    // an empty term list filters nothing, as PHP's empty() skips it
    assert.deepEqual(await titles(`categories[operator]=AND&${mine()}`), ['In both', 'In grandchild', 'In parent']);
  });

  it('excludes with _exclude, children included when asked', async () => {
    assert.deepEqual(await titles(`categories_exclude=${ids.parent}&${mine()}`), ['In grandchild']);
    assert.deepEqual(await titles(`categories_exclude[terms]=${ids.parent}&categories_exclude[include_children]=1&${mine()}`), []);
  });

  it('joins the taxonomies with tax_relation, AND unless it says OR', async () => {
    assert.deepEqual(await titles(`categories=${ids.parent}&tags=${ids.tag}`), []);
    assert.deepEqual(await titles(`categories=${ids.parent}&tags=${ids.tag}&tax_relation=AND`), []);
    assert.deepEqual(await titles(`categories=${ids.parent}&tags=${ids.tag}&tax_relation=OR`), ['In both', 'In grandchild', 'In parent']);
  });

  it('refuses a bogus tax_relation, operator or term query key with WordPress’s 400', async () => {
    const res = await site.call('cms/v2/posts?tax_relation=XOR');
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): tax_relation',
      data: { status: 400, params: { tax_relation: 'tax_relation is not one of AND and OR.' }, details: { tax_relation: { code: 'rest_not_in_enum', message: 'tax_relation is not one of AND and OR.', data: null } } },
    });
    // rest_get_combining_operation_error: the one alternative whose failure is not the value's own type, named by its title
    const cases: [string, string, string][] = [
      [`categories[terms]=${ids.parent}&categories[operator]=XOR`, 'categories', 'categories is not a valid Term ID Taxonomy Query. Reason: categories[operator] is not one of AND and OR.'],
      ['tags_exclude[terms]=1&tags_exclude[include_children]=1', 'tags_exclude', 'tags_exclude is not a valid Term ID Taxonomy Query. Reason: include_children is not a valid property of Object.'],
    ];
    for (const [query, param, message] of cases) {
      const bad = await site.call(`cms/v2/posts?${query}`);
      assert.equal(bad.status, 400, query);
      assert.deepEqual(await bad.json(), {
        code: 'rest_invalid_param',
        message: `Invalid parameter(s): ${param}`,
        data: { status: 400, params: { [param]: message }, details: { [param]: { code: 'rest_no_matching_schema', message, data: { position: 1 } } } },
      });
    }
    const notIds = await site.call('cms/v2/posts?categories[]=abc');
    assert.equal(notIds.status, 400);
    assert.equal((await notIds.json()).data.details.categories.code, 'rest_no_matching_schema');
  });

  it('takes title, content and excerpt as a string or {raw}, and ignores anything else', async () => {
    const res = await site.call('cms/v2/posts', { json: { title: { raw: 'Raw title' }, content: 'As a string', excerpt: 5 }, auth: site.admin });
    assert.equal(res.status, 201);
    const post = await res.json();
    assert.equal(post.title.raw, 'Raw title');
    assert.equal(post.content.raw, 'As a string');
    assert.equal(post.excerpt.raw, '');
    const update = await site.call(`cms/v2/posts/${post.id}`, { json: { title: ['not', 'a', 'title'], excerpt: { raw: 'Now an excerpt' } }, auth: site.admin });
    assert.equal(update.status, 200);
    const updated = await update.json();
    assert.equal(updated.title.raw, 'Raw title');
    assert.equal(updated.excerpt.raw, 'Now an excerpt');
    // nothing to store at all is WordPress's empty_content
    const empty = await site.call('cms/v2/posts', { json: { title: 5, content: { rendered: 'read-only' } }, auth: site.admin });
    assert.equal(empty.status, 400);
    assert.deepEqual(await empty.json(), { code: 'empty_content', message: 'Content, title, and excerpt are empty.', data: { status: 400 } });
  });

  it('lists and stores site_logo and site_icon among the settings: site_logo null until stored (registered without a default), site_icon 0 as installed', async () => {
    const before = await (await site.call('cms/v2/settings', { auth: site.admin })).json();
    // WordPress 6.1.9 just installed: GET wp/v2/settings answers site_logo null, site_icon 0 (populate_options writes site_icon 0)
    assert.equal(before.site_logo, null);
    assert.equal(before.site_icon, 0);
    const res = await site.call('cms/v2/settings', { json: { site_logo: 12, site_icon: '7' }, auth: site.admin });
    assert.equal(res.status, 200);
    const after = await res.json();
    assert.deepEqual([after.site_logo, after.site_icon], [12, 7]);
    const bad = await site.call('cms/v2/settings', { json: { site_icon: 'an icon' }, auth: site.admin });
    assert.equal(bad.status, 400);
    assert.deepEqual((await bad.json()).data.params, { site_icon: 'site_icon is not of type integer.' });
  });

  it('limits users to authors of the post types WordPress lists, and refuses others', async () => {
    const authors = await (await site.call('cms/v2/users?has_published_posts[]=post', { auth: site.admin })).json();
    assert.deepEqual(authors.map((u: { slug: string }) => u.slug), ['admin']);
    const none = await (await site.call('cms/v2/users?has_published_posts[]=cms_block', { auth: site.admin })).json();
    assert.deepEqual(none, []);
    const bad = await site.call('cms/v2/users?has_published_posts[]=wp_block', { auth: site.admin });
    assert.equal(bad.status, 400);
    assert.deepEqual((await bad.json()).data.params, {
      has_published_posts: 'has_published_posts[0] is not one of post, page, attachment, nav_menu_item, cms_block, cms_template, cms_template_part, and cms_navigation.',
    });
  });
});
