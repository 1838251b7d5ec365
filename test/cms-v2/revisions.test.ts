import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';
import { cmsBeside } from '../cli/run.ts';

const server = useServer();

type Obj = Record<string, any>;

const json = (path: string, init: { method?: string; json?: unknown; auth?: string } = {}, status = 200) => server.json(path, init, status);

const error = (path: string, init: { method?: string; json?: unknown; auth?: string | undefined }, status: number, code: string, message: string) => server.error(path, init, status, code, message);

const createPost = (body: Obj, auth = server.admin, base = 'posts') => json(`cms/v2/${base}`, { json: body, auth }, 201);
const update = (id: number, body: Obj, auth = server.admin, base = 'posts') => json(`cms/v2/${base}/${id}`, { method: 'POST', json: body, auth });

const VIEW_KEYS = ['author', 'date', 'date_gmt', 'id', 'modified', 'modified_gmt', 'parent', 'slug', 'guid', 'title', 'content', 'excerpt', '_links'];

describe('cms/v2 revisions: saved by every update that changes title, content or excerpt', () => {
  it('saves none on insert, one per changing update, none for an update that changes nothing revisioned', async () => {
    const post = await createPost({ title: 'Draft one', content: 'First words', status: 'publish' });
    assert.deepEqual(post._links['version-history'], [{ count: 0, href: `${server.api}cms/v2/posts/${post.id}/revisions` }]);
    assert.equal(post._links['predecessor-version'], undefined);

    const first = await update(post.id, { content: 'Second words' });
    assert.equal(first._links['version-history'][0].count, 1);
    const [revision] = (await json(`cms/v2/posts/${post.id}/revisions`)) as Obj[];
    assert.deepEqual(first._links['predecessor-version'], [{ id: revision.id, href: `${server.api}cms/v2/posts/${post.id}/revisions/${revision.id}` }]);
    // the revision is the post as saved, by the user who saved it
    assert.equal(revision.slug, `${post.id}-revision-v1`);
    assert.equal(revision.parent, post.id);
    assert.equal(revision.author, 1);
    assert.equal(revision.title.rendered, 'Draft one');
    assert.equal(revision.content.rendered, '<p>Second words</p>\n');
    assert.equal(revision.date, first.modified);

    // status and slug are not revisioned; whitespace differences are no change
    const same = await update(post.id, { status: 'private', slug: 'renamed', content: '  Second words\n' });
    assert.equal(same._links['version-history'][0].count, 1);

    const titled = await update(post.id, { title: 'Draft two' });
    assert.equal(titled._links['version-history'][0].count, 2);
    const excerpted = await update(post.id, { excerpt: 'A summary' });
    assert.equal(excerpted._links['version-history'][0].count, 3);
    const list = (await json(`cms/v2/posts/${post.id}/revisions`)) as Obj[];
    assert.deepEqual(list.map((r) => r.title.rendered), ['Draft two', 'Draft two', 'Draft one']);
    assert.equal(list[0].excerpt.rendered, '<p>A summary</p>\n');
    assert.equal(list[1].excerpt.rendered, '');
    assert.equal(excerpted._links['predecessor-version'][0].id, list[0].id);
  });

  it('saves a revision for updates made through batch/v1', async () => {
    const post = await createPost({ title: 'Batched', content: 'one', status: 'draft' });
    const res = await server.call('batch/v1', { json: { requests: [{ method: 'POST', path: `/cms/v2/posts/${post.id}`, body: { content: 'two' } }] }, auth: server.admin });
    assert.equal(res.status, 207);
    const list = (await json(`cms/v2/posts/${post.id}/revisions?context=edit`)) as Obj[];
    assert.deepEqual(list.map((r) => r.content.raw), ['two']);
  });

  it('saves a revision for updates made with the CLI (`post update`, through the API)', async () => {
    const post = await createPost({ title: 'From the shell', content: 'one', status: 'publish' });
    assert.equal((await cmsBeside(['post', 'update', String(post.id), '--post_content', 'two', '--db', server.dbPath])).status, 0);
    const list = (await json(`cms/v2/posts/${post.id}/revisions?context=edit`)) as Obj[];
    assert.deepEqual(list.map((r) => r.content.raw), ['two']);
  });

  it('keeps a page’s revisions, with the excerpt WordPress’s page schema has', async () => {
    const page = await createPost({ title: 'About', content: 'v1', status: 'publish' }, server.admin, 'pages');
    const updated = await update(page.id, { content: 'v2' }, server.admin, 'pages');
    assert.equal(updated._links['version-history'][0].href, `${server.api}cms/v2/pages/${page.id}/revisions`);
    const [revision] = (await json(`cms/v2/pages/${page.id}/revisions`)) as Obj[];
    assert.deepEqual(Object.keys(revision), VIEW_KEYS);
    assert.deepEqual(revision._links, { parent: [{ href: `${server.api}cms/v2/pages/${page.id}` }] });
  });
});

describe('cms/v2 revisions: reading and deleting', () => {
  let post: Obj;
  let revisions: Obj[];

  it('lists the revisions newest first, in each context’s fields', async () => {
    post = await createPost({ title: 'Listed', content: 'a', status: 'publish' });
    for (const content of ['b', 'c', 'd']) await update(post.id, { content });
    const res = await server.call(`cms/v2/posts/${post.id}/revisions`, { auth: server.admin });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-wp-total'), '3');
    assert.equal(res.headers.get('x-wp-totalpages'), '1');
    revisions = (await res.json()) as Obj[];
    assert.deepEqual(revisions.map((r) => r.content.rendered), ['<p>d</p>\n', '<p>c</p>\n', '<p>b</p>\n']);
    assert.deepEqual(Object.keys(revisions[0]), VIEW_KEYS);
    assert.deepEqual(Object.keys(revisions[0].title), ['rendered']);
    assert.deepEqual(Object.keys(revisions[0].guid), ['rendered']);

    const [edit] = (await json(`cms/v2/posts/${post.id}/revisions?context=edit`)) as Obj[];
    assert.deepEqual(Object.keys(edit), VIEW_KEYS);
    assert.deepEqual(edit.title, { raw: 'Listed', rendered: 'Listed' });
    assert.deepEqual(edit.content, { raw: 'd', rendered: '<p>d</p>\n' });
    assert.deepEqual(edit.excerpt, { raw: '', rendered: '' });
    assert.deepEqual(Object.keys(edit.guid), ['rendered', 'raw']);

    const [embed] = (await json(`cms/v2/posts/${post.id}/revisions?context=embed`)) as Obj[];
    assert.deepEqual(Object.keys(embed), ['author', 'date', 'id', 'parent', 'slug', 'title', 'excerpt', '_links']);
  });

  it('pages, offsets, searches and orders as WordPress’s revisions collection', async () => {
    const res = await server.call(`cms/v2/posts/${post.id}/revisions?per_page=1&page=2`, { auth: server.admin });
    assert.equal(res.headers.get('x-wp-totalpages'), '3');
    assert.deepEqual(((await res.json()) as Obj[]).map((r) => r.id), [revisions[1].id]);
    const base = `${server.api}cms/v2/posts/${post.id}/revisions`;
    assert.equal(res.headers.get('link'), `<${base}?per_page=1&page=1>; rel="prev", <${base}?per_page=1&page=3>; rel="next"`);
    await error(`cms/v2/posts/${post.id}/revisions?per_page=1&page=4`, { auth: server.admin }, 400, 'rest_revision_invalid_page_number', 'The page number requested is larger than the number of pages available.');
    await error(`cms/v2/posts/${post.id}/revisions?offset=3`, { auth: server.admin }, 400, 'rest_revision_invalid_offset_number', 'The offset number requested is larger than or equal to the number of available revisions.');
    assert.deepEqual(((await json(`cms/v2/posts/${post.id}/revisions?offset=1&per_page=1`)) as Obj[]).map((r) => r.id), [revisions[1].id]);
    assert.deepEqual(((await json(`cms/v2/posts/${post.id}/revisions?order=asc&orderby=id`)) as Obj[]).map((r) => r.id), revisions.map((r) => r.id).reverse());
    assert.deepEqual(((await json(`cms/v2/posts/${post.id}/revisions?include=${revisions[2].id},${revisions[0].id}&orderby=include`)) as Obj[]).map((r) => r.id), [revisions[2].id, revisions[0].id]);
    assert.deepEqual(((await json(`cms/v2/posts/${post.id}/revisions?exclude=${revisions[0].id}`)) as Obj[]).length, 2);
    assert.deepEqual(((await json(`cms/v2/posts/${post.id}/revisions?search=c`)) as Obj[]).map((r) => r.id), [revisions[1].id]);
    await error(`cms/v2/posts/${post.id}/revisions?orderby=relevance`, { auth: server.admin }, 400, 'rest_no_search_term_defined', 'You need to define a search term to order by relevance.');
    await error(`cms/v2/posts/${post.id}/revisions?orderby=include`, { auth: server.admin }, 400, 'rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.');
  });

  it('answers one revision, refusing unknown posts, unknown revisions and another post’s revision', async () => {
    const one = await json(`cms/v2/posts/${post.id}/revisions/${revisions[1].id}`);
    assert.deepEqual(one, revisions[1]);
    await error('cms/v2/posts/999999/revisions', { auth: server.admin }, 404, 'rest_post_invalid_parent', 'Invalid post parent ID.');
    const page = await createPost({ title: 'Not a post', status: 'publish' }, server.admin, 'pages');
    await error(`cms/v2/posts/${page.id}/revisions`, { auth: server.admin }, 404, 'rest_post_invalid_parent', 'Invalid post parent ID.');
    await error(`cms/v2/posts/${post.id}/revisions/999999`, { auth: server.admin }, 404, 'rest_post_invalid_id', 'Invalid revision ID.');
    await error(`cms/v2/posts/${post.id}/revisions/${post.id}`, { auth: server.admin }, 404, 'rest_post_invalid_id', 'Invalid revision ID.');
    const other = await createPost({ title: 'Other', content: 'x', status: 'publish' });
    await update(other.id, { content: 'y' });
    await error(`cms/v2/posts/${other.id}/revisions/${revisions[0].id}`, { auth: server.admin }, 404, 'rest_revision_parent_id_mismatch', `The revision does not belong to the specified parent with id of "${other.id}"`);
  });

  it('shows revisions only to those who may edit the post', async () => {
    await error(`cms/v2/posts/${post.id}/revisions`, {}, 401, 'rest_cannot_read', 'Sorry, you are not allowed to view revisions of this post.');
    const contributor = await userAuth(server, 'contributor');
    await error(`cms/v2/posts/${post.id}/revisions`, { auth: contributor.auth }, 403, 'rest_cannot_read', 'Sorry, you are not allowed to view revisions of this post.');
    await error(`cms/v2/posts/${post.id}/revisions/${revisions[0].id}`, { auth: contributor.auth }, 403, 'rest_cannot_read', 'Sorry, you are not allowed to view revisions of this post.');
    const editor = await userAuth(server, 'editor');
    assert.equal(((await json(`cms/v2/posts/${post.id}/revisions`, { auth: editor.auth })) as Obj[]).length, 3);
  });

  it('refuses deleting a revision to everyone, with or without force: WordPress 6.1 maps delete_post of a revision to do_not_allow', async () => {
    const path = `cms/v2/posts/${post.id}/revisions/${revisions[2].id}`;
    await error(path, { method: 'DELETE' }, 401, 'rest_cannot_delete', 'Sorry, you are not allowed to delete revisions of this post.');
    const author = await userAuth(server, 'author');
    await error(path, { method: 'DELETE', auth: author.auth }, 403, 'rest_cannot_delete', 'Sorry, you are not allowed to delete revisions of this post.');
    await error(path, { method: 'DELETE', auth: server.admin }, 403, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this revision.');
    await error(`${path}?force=true`, { method: 'DELETE', auth: server.admin }, 403, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this revision.');
    const read = await server.call(path, { auth: server.admin });
    assert.equal(read.status, 200);
    assert.equal(read.headers.get('allow'), 'GET');
    assert.equal(((await json(`cms/v2/posts/${post.id}/revisions`)) as Obj[]).length, 3);
  });

  it('deletes a post’s revisions with the post', async () => {
    await json(`cms/v2/posts/${post.id}?force=true`, { method: 'DELETE' });
    assert.equal(await server.app.store.posts.get(revisions[0].id), undefined);
    assert.equal(await server.app.store.posts.get(revisions[1].id), undefined);
  });
});

describe('cms/v2 autosaves', () => {
  it('keeps one autosave per user of a published post, leaving the post as it is', async () => {
    const post = await createPost({ title: 'Live', content: 'Published words', status: 'publish' });
    const autosave = await json(`cms/v2/posts/${post.id}/autosaves`, { method: 'POST', json: { content: 'Unsaved words' } });
    assert.deepEqual(Object.keys(autosave), [...VIEW_KEYS.slice(0, -1), 'preview_link', '_links']);
    assert.equal(autosave.slug, `${post.id}-autosave-v1`);
    assert.equal(autosave.parent, post.id);
    assert.deepEqual(autosave.title, { raw: 'Live', rendered: 'Live' });
    assert.equal(autosave.content.raw, 'Unsaved words');
    // with the caller's wp_create_nonce( 'post_preview_{id}' ), as WordPress 6.1's autosaves controller adds it
    assert.match(autosave.preview_link, new RegExp(`^${post.link.replace(/[.?]/g, '\\$&')}\\?preview_id=${post.id}&preview_nonce=[0-9a-f]{10}&preview=true$`));
    assert.equal((await json(`cms/v2/posts/${post.id}?context=edit`)).content.raw, 'Published words');

    // the same user's next autosave replaces it
    const again = await json(`cms/v2/posts/${post.id}/autosaves`, { method: 'POST', json: { title: 'Live!', content: 'Other words' } });
    assert.equal(again.id, autosave.id);
    assert.equal(again.title.raw, 'Live!');
    const editor = await userAuth(server, 'editor');
    const theirs = await json(`cms/v2/posts/${post.id}/autosaves`, { method: 'POST', json: { content: 'Editor words' }, auth: editor.auth });
    assert.notEqual(theirs.id, autosave.id);
    assert.equal(theirs.author, editor.userId);

    const list = (await json(`cms/v2/posts/${post.id}/autosaves`)) as Obj[];
    assert.deepEqual(list.map((a) => a.id).sort(), [autosave.id, theirs.id].sort());
    assert.equal(list[0].preview_link, undefined, 'preview_link is edit context only');
    assert.deepEqual(await json(`cms/v2/posts/${post.id}/autosaves/${autosave.id}?context=edit`), again);
    // autosaves count among the post's revisions, as WordPress counts them
    assert.equal((await json(`cms/v2/posts/${post.id}`))._links['version-history'][0].count, 2);

    // an autosave that repeats the post is dropped
    await error(`cms/v2/posts/${post.id}/autosaves`, { method: 'POST', json: { title: 'Live', content: 'Published words' }, auth: server.admin }, 400, 'rest_autosave_no_changes', 'There is nothing to save. The autosave and the post content are the same.');
    assert.deepEqual(((await json(`cms/v2/posts/${post.id}/autosaves`)) as Obj[]).map((a) => a.id), [theirs.id]);
  });

  it('saves the author’s own draft in place, with the revision wp_update_post saves (WordPress 6.1)', async () => {
    const draft = await createPost({ title: 'Mine', content: 'draft', status: 'draft' });
    await update(draft.id, { content: 'draft, edited' });
    const saved = await json(`cms/v2/posts/${draft.id}/autosaves`, { method: 'POST', json: { content: 'draft, autosaved' } });
    assert.equal(saved.id, draft.id);
    assert.equal(saved.parent, 0);
    assert.equal(saved.slug, '');
    assert.equal(saved.preview_link, `${server.home}/?p=${draft.id}&preview=true`);
    assert.equal(saved._links, undefined);
    const now = await json(`cms/v2/posts/${draft.id}?context=edit`);
    assert.equal(now.content.raw, 'draft, autosaved');
    // the update's revision, then the autosave's: create_post_autosave updates the draft with wp_update_post
    const revisions = (await json(`cms/v2/posts/${draft.id}/revisions?context=edit`)) as Obj[];
    assert.deepEqual(revisions.map((r) => r.content.raw), ['draft, autosaved', 'draft, edited']);
    assert.equal(now._links['version-history'][0].count, 2);
    assert.deepEqual(await json(`cms/v2/posts/${draft.id}/autosaves`), []);
    // another user's autosave of the same draft is a revision
    const editor = await userAuth(server, 'editor');
    const theirs = await json(`cms/v2/posts/${draft.id}/autosaves`, { method: 'POST', json: { content: 'editor' }, auth: editor.auth });
    assert.equal(theirs.parent, draft.id);
  });

  it('refuses what WordPress refuses', async () => {
    const post = await createPost({ title: 'Guarded', content: 'x', status: 'publish' });
    await error(`cms/v2/posts/${post.id}/autosaves`, { method: 'POST', json: { content: 'y' } }, 401, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
    const contributor = await userAuth(server, 'contributor');
    await error(`cms/v2/posts/${post.id}/autosaves`, { method: 'POST', json: { content: 'y' }, auth: contributor.auth }, 403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
    await error('cms/v2/posts/999999/autosaves', { method: 'POST', json: { content: 'y' }, auth: server.admin }, 404, 'rest_post_invalid_id', 'Invalid post ID.');
    await error(`cms/v2/posts/${post.id}/autosaves`, {}, 401, 'rest_cannot_read', 'Sorry, you are not allowed to view autosaves of this post.');
    await error(`cms/v2/posts/${post.id}/autosaves`, { auth: contributor.auth }, 403, 'rest_cannot_read', 'Sorry, you are not allowed to view autosaves of this post.');
    await error('cms/v2/posts/999999/autosaves', { auth: server.admin }, 404, 'rest_post_invalid_parent', 'Invalid post parent ID.');
    await update(post.id, { content: 'z' });
    const [revision] = (await json(`cms/v2/posts/${post.id}/revisions`)) as Obj[];
    await error(`cms/v2/posts/${post.id}/autosaves/${revision.id}`, { auth: server.admin }, 404, 'rest_post_no_autosave', 'There is no autosave revision for this post.');
    await error(`cms/v2/posts/${post.id}/autosaves/${revision.id}`, {}, 401, 'rest_cannot_read', 'Sorry, you are not allowed to view revisions of this post.');
  });
});

describe('cms/v2 revisions and autosaves routes in the index', () => {
  it('declares WordPress’s args for every revisioned type, autosaves only for menu items', async () => {
    const index = (await json('cms/v2')) as { routes: Record<string, { endpoints: { methods: string[]; args: Obj }[] }> };
    const r = index.routes;
    for (const base of ['posts', 'pages', 'blocks', 'templates', 'template-parts', 'navigation']) {
      const list = r[`/cms/v2/${base}/(?P<parent>[\\d]+)/revisions`];
      assert.deepEqual(Object.keys(list.endpoints[0].args), ['parent', 'context', 'page', 'per_page', 'search', 'exclude', 'include', 'offset', 'order', 'orderby'], base);
      const item = r[`/cms/v2/${base}/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)`];
      assert.deepEqual(item.endpoints.map((e) => [e.methods, Object.keys(e.args)]), [[['GET'], ['parent', 'id', 'context']], [['DELETE'], ['parent', 'id', 'force']]], base);
      assert.ok(r[`/cms/v2/${base}/(?P<id>[\\d]+)/autosaves`], base);
      assert.ok(r[`/cms/v2/${base}/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)`], base);
    }
    assert.equal(r['/cms/v2/menu-items/(?P<parent>[\\d]+)/revisions'], undefined);
    assert.deepEqual(Object.keys(r['/cms/v2/menu-items/(?P<id>[\\d]+)/autosaves'].endpoints[1].args), ['parent', 'title', 'type', 'status', 'attr_title', 'classes', 'description', 'menu_order', 'object', 'object_id', 'target', 'url', 'xfn', 'menus', 'meta']);
    assert.deepEqual(Object.keys(r['/cms/v2/posts/(?P<id>[\\d]+)/autosaves'].endpoints[1].args),
      ['parent', 'date', 'date_gmt', 'slug', 'status', 'password', 'title', 'content', 'author', 'excerpt', 'featured_media', 'comment_status', 'ping_status', 'format', 'meta', 'sticky', 'template', 'categories', 'tags']);
    assert.deepEqual(Object.keys(r['/cms/v2/pages/(?P<id>[\\d]+)/autosaves'].endpoints[1].args),
      ['parent', 'date', 'date_gmt', 'slug', 'status', 'password', 'title', 'content', 'author', 'excerpt', 'featured_media', 'comment_status', 'ping_status', 'menu_order', 'meta', 'template']);
    assert.deepEqual(Object.keys(r['/cms/v2/templates/(?P<id>[\\d]+)/autosaves'].endpoints[1].args), ['parent', 'slug', 'theme', 'type', 'content', 'title', 'description', 'status', 'author']);
    assert.deepEqual(r['/cms/v2/posts/(?P<parent>[\\d]+)/revisions'].endpoints[0].args.per_page, { description: 'Maximum number of items to be returned in result set.', type: 'integer', minimum: 1, maximum: 100, required: false });
  });
});
