import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';

/**
 * `_links` as WordPress 6.1 builds them: WP_REST_Posts_Controller::prepare_links and
 * get_available_actions, the attachments', terms', search results' links, the root index's
 * `wp:active-theme` (WP_REST_Server::add_active_theme_link_to_index), and a DELETE's `previous`
 * as the prepared response's get_data(), without links.
 */
const server = useServer();

type Obj = Record<string, any>;

const json = (path: string, init: { method?: string; json?: unknown; auth?: string } = {}, status = 200) => server.json(path, init, status);

const url = (path: string) => `${server.api}cms/v2/${path}`;
const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

/** WP_REST_Response::get_response_links writes a link's attributes, then its href: the JSON keys in that order. */
function hrefLast(links: Obj): void {
  for (const [rel, list] of Object.entries(links)) {
    if (rel === 'curies') continue;
    for (const link of list as Obj[]) assert.equal(Object.keys(link).at(-1), 'href', `${rel}: ${JSON.stringify(link)}`);
  }
}

describe('posts: prepare_links and the wp:action-* rels of get_available_actions', () => {
  it("an administrator's post in edit context: every link in WordPress's order, then each action, then curies", async () => {
    const post = await json('cms/v2/posts', { method: 'POST', json: { title: 'Linked', content: 'One', status: 'publish' } }, 201);
    const id = post.id;
    const self = url(`posts/${id}`);
    assert.deepEqual(post._links, {
      self: [{ href: self }],
      collection: [{ href: url('posts') }],
      about: [{ href: url('types/post') }],
      author: [{ embeddable: true, href: url('users/1') }],
      replies: [{ embeddable: true, href: `${url('comments')}?post=${id}` }],
      'version-history': [{ count: 0, href: url(`posts/${id}/revisions`) }],
      'wp:attachment': [{ href: `${url('media')}?parent=${id}` }],
      'wp:term': [
        { taxonomy: 'category', embeddable: true, href: `${url('categories')}?post=${id}` },
        { taxonomy: 'post_tag', embeddable: true, href: `${url('tags')}?post=${id}` },
      ],
      'wp:action-publish': [{ href: self }],
      'wp:action-unfiltered-html': [{ href: self }],
      'wp:action-sticky': [{ href: self }],
      'wp:action-assign-author': [{ href: self }],
      'wp:action-create-categories': [{ href: self }],
      'wp:action-assign-categories': [{ href: self }],
      'wp:action-create-tags': [{ href: self }],
      'wp:action-assign-tags': [{ href: self }],
      curies: CURIES,
    });
    assert.deepEqual(Object.keys(post._links), [
      'self', 'collection', 'about', 'author', 'replies', 'version-history', 'wp:attachment', 'wp:term',
      'wp:action-publish', 'wp:action-unfiltered-html', 'wp:action-sticky', 'wp:action-assign-author',
      'wp:action-create-categories', 'wp:action-assign-categories', 'wp:action-create-tags', 'wp:action-assign-tags', 'curies',
    ]);

    hrefLast(post._links);

    // an update that changes the content saves a revision: the count and the predecessor
    const updated = await json(`cms/v2/posts/${id}`, { method: 'POST', json: { content: 'Two' } });
    const [revision] = (await json(`cms/v2/posts/${id}/revisions`)) as Obj[];
    assert.deepEqual(updated._links['version-history'], [{ count: 1, href: url(`posts/${id}/revisions`) }]);
    assert.deepEqual(updated._links['predecessor-version'], [{ id: revision.id, href: url(`posts/${id}/revisions/${revision.id}`) }]);
    assert.deepEqual(Object.keys(updated._links).slice(5, 8), ['version-history', 'predecessor-version', 'wp:attachment']);

    // view context: the same links, no actions
    const viewed = await json(`cms/v2/posts/${id}`, { auth: undefined });
    assert.deepEqual(Object.keys(viewed._links), ['self', 'collection', 'about', 'author', 'replies', 'version-history', 'predecessor-version', 'wp:attachment', 'wp:term', 'curies']);
  });

  it('only the actions the user may take: a contributor, an author, an editor', async () => {
    const actionsOf = (links: Obj) => Object.keys(links).filter((rel) => rel.startsWith('wp:action-'));
    const contributor = await userAuth(server, 'contributor');
    const draft = await json('cms/v2/posts', { method: 'POST', json: { title: 'By a contributor' }, auth: contributor.auth }, 201);
    // no publish_posts, unfiltered_html, edit_others_posts or manage_categories: tags may be created by assigning them
    assert.deepEqual(actionsOf(draft._links), ['wp:action-assign-categories', 'wp:action-create-tags', 'wp:action-assign-tags']);
    const again = await json(`cms/v2/posts/${draft.id}?context=edit`, { auth: contributor.auth });
    assert.deepEqual(actionsOf(again._links), ['wp:action-assign-categories', 'wp:action-create-tags', 'wp:action-assign-tags']);

    const author = await userAuth(server, 'author');
    const own = await json('cms/v2/posts', { method: 'POST', json: { title: 'By an author' }, auth: author.auth }, 201);
    assert.deepEqual(actionsOf(own._links), ['wp:action-publish', 'wp:action-assign-categories', 'wp:action-create-tags', 'wp:action-assign-tags']);

    const editor = await userAuth(server, 'editor');
    const page = await json('cms/v2/pages', { method: 'POST', json: { title: 'By an editor' }, auth: editor.auth }, 201);
    // a page: no sticky (posts only), no terms
    assert.deepEqual(actionsOf(page._links), ['wp:action-publish', 'wp:action-unfiltered-html', 'wp:action-assign-author']);
  });

  it("pages: `up` to the parent, attachments, no terms; the featured image's link", async () => {
    const parent = await json('cms/v2/pages', { method: 'POST', json: { title: 'Parent', status: 'publish' } }, 201);
    const child = await json('cms/v2/pages', { method: 'POST', json: { title: 'Child', status: 'publish', parent: parent.id } }, 201);
    const links = (await json(`cms/v2/pages/${child.id}`, { auth: undefined }))._links;
    assert.deepEqual(Object.keys(links), ['self', 'collection', 'about', 'author', 'replies', 'version-history', 'up', 'wp:attachment', 'curies']);
    assert.deepEqual(links.up, [{ embeddable: true, href: url(`pages/${parent.id}`) }]);

    const png = await sharp({ create: { width: 20, height: 10, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
    const res = await fetch(url('media'), { method: 'POST', body: png as unknown as BodyInit, headers: { authorization: server.admin, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="pic.png"' } });
    assert.equal(res.status, 201);
    const media = (await res.json()) as Obj;
    // an attachment: the posts controller's links, with replies and no attachments, terms or revisions; in edit context the actions it has
    const mediaSelf = url(`media/${media.id}`);
    assert.deepEqual(media._links, {
      self: [{ href: mediaSelf }],
      collection: [{ href: url('media') }],
      about: [{ href: url('types/attachment') }],
      author: [{ embeddable: true, href: url('users/1') }],
      replies: [{ embeddable: true, href: `${url('comments')}?post=${media.id}` }],
      'wp:action-unfiltered-html': [{ href: mediaSelf }],
      'wp:action-assign-author': [{ href: mediaSelf }],
      curies: CURIES,
    });
    hrefLast(media._links);
    const post = await json('cms/v2/posts', { method: 'POST', json: { title: 'Illustrated', featured_media: media.id } }, 201);
    assert.deepEqual(post._links['wp:featuredmedia'], [{ embeddable: true, href: mediaSelf }]);
    assert.deepEqual(Object.keys(post._links).slice(5, 8), ['version-history', 'wp:featuredmedia', 'wp:attachment']);
  });
});

describe('search results, the root index, DELETE answers', () => {
  it('a search result links to itself, its type and the search collection', async () => {
    await json('cms/v2/posts', { method: 'POST', json: { title: 'Findable zebra', status: 'publish' } }, 201);
    const [hit] = (await json('cms/v2/search?search=zebra', { auth: undefined })) as Obj[];
    assert.deepEqual(hit._links, {
      self: [{ embeddable: true, href: url(`posts/${hit.id}`) }],
      about: [{ href: url('types/post') }],
      collection: [{ href: url('search') }],
    });
    hrefLast(hit._links);
  });

  it("a reply's links: author, the post it is on, the comment it answers, each attribute before its href", async () => {
    const post = await json('cms/v2/posts', { method: 'POST', json: { title: 'Discussed', status: 'publish' } }, 201);
    const first = await json('cms/v2/comments', { method: 'POST', json: { post: post.id, content: 'First' } }, 201);
    const reply = await json('cms/v2/comments', { method: 'POST', json: { post: post.id, parent: first.id, content: 'Reply' } }, 201);
    assert.deepEqual(reply._links, {
      self: [{ href: url(`comments/${reply.id}`) }],
      collection: [{ href: url('comments') }],
      author: [{ embeddable: true, href: url('users/1') }],
      up: [{ embeddable: true, post_type: 'post', href: url(`posts/${post.id}`) }],
      'in-reply-to': [{ embeddable: true, href: url(`comments/${first.id}`) }],
    });
    hrefLast(reply._links);
    const parent = await json(`cms/v2/comments/${first.id}`);
    assert.deepEqual(parent._links.children, [{ embeddable: true, href: `${url('comments')}?parent=${first.id}` }]);
    hrefLast(parent._links);
  });

  it('the root index links to the active theme for those who may switch themes or edit posts', async () => {
    const HELP = [{ href: 'https://developer.wordpress.org/rest-api/' }];
    const THEME = { help: HELP, 'wp:active-theme': [{ href: url('themes/default') }], curies: CURIES };
    const index = async (auth?: string) => ((await json('?_fields=name', { auth })) as Obj)._links;
    assert.deepEqual(await index(undefined), { help: HELP });
    assert.deepEqual(await index(server.admin), THEME);
    assert.deepEqual(await index((await userAuth(server, 'contributor')).auth), THEME);
    assert.deepEqual(await index((await userAuth(server, 'subscriber')).auth), { help: HELP });
  });

  it("a forced DELETE's `previous` is the object without its links; a trashed post keeps them", async () => {
    const post = await json('cms/v2/posts', { method: 'POST', json: { title: 'Doomed' } }, 201);
    const trashed = await json(`cms/v2/posts/${post.id}`, { method: 'DELETE' });
    assert.equal(trashed.status, 'trash');
    assert.ok(trashed._links.self);
    const deleted = await json(`cms/v2/posts/${post.id}?force=true`, { method: 'DELETE' });
    assert.deepEqual(Object.keys(deleted), ['deleted', 'previous']);
    assert.equal(deleted.deleted, true);
    assert.equal(deleted.previous.id, post.id);
    assert.equal('_links' in deleted.previous, false);

    const tag = await json('cms/v2/tags', { method: 'POST', json: { name: 'Gone soon' } }, 201);
    const gone = await json(`cms/v2/tags/${tag.id}?force=true`, { method: 'DELETE' });
    assert.equal(gone.previous.name, 'Gone soon');
    assert.equal('_links' in gone.previous, false);

    const user = await userAuth(server, 'subscriber');
    const removed = await json(`cms/v2/users/${user.userId}?force=true&reassign=1`, { method: 'DELETE' });
    assert.equal(removed.previous.id, user.userId);
    assert.equal('_links' in removed.previous, false);
  });
});
