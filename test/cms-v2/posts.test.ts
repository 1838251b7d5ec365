import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';

const server = useServer();

type Post = Record<string, any>;

async function create(path: string, body: Record<string, unknown>, auth = server.admin): Promise<Post> {
  const res = await server.call(path, { json: body, auth });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json();
}

async function ids(path: string, auth?: string): Promise<number[]> {
  const res = await server.call(path, { auth });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as Post[]).map((p) => p.id);
}


describe('cms/v2 posts: reading', () => {
  it('lists the installed Hello world! post in WordPress shape, without raw fields', async () => {
    const res = await server.call('cms/v2/posts');
    assert.equal(res.status, 200);
    const [post] = (await res.json()) as Post[];
    assert.equal(post.title.rendered, 'Hello world!');
    assert.equal(post.title.raw, undefined);
    assert.equal(post.content.raw, undefined);
    assert.equal(post.password, undefined);
    // WordPress's fields, then the active SEO plugin's own (register_rest_field appends a plugin's
    // fields after the schema's, as Yoast's `yoast_head` follows `tags`)
    assert.deepEqual(Object.keys(post), ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'content', 'excerpt', 'author', 'featured_media', 'comment_status', 'ping_status', 'sticky', 'template', 'format', 'meta', 'categories', 'tags', 'yoast_head', 'yoast_head_json', '_links']);
    assert.match(post.date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    assert.deepEqual(post.categories, [1]);
    assert.equal(post._links.author[0].embeddable, true);
    assert.deepEqual(post._links['wp:term'].map((l: Post) => l.taxonomy), ['category', 'post_tag']);
    // the link opens the post on the site
    const page = await fetch(post.link);
    assert.equal(page.status, 200);
  });

  it('gives raw fields only in the edit context, and refuses edit context to strangers', async () => {
    const edit = (await (await server.call('cms/v2/posts/1?context=edit', { auth: server.admin })).json()) as Post;
    assert.equal(edit.title.raw, 'Hello world!');
    assert.equal(typeof edit.content.raw, 'string');
    const anon = await server.call('cms/v2/posts/1?context=edit');
    assert.equal(anon.status, 401);
    assert.equal(((await anon.json()) as Post).code, 'rest_forbidden_context');
    const embed = (await (await server.call('cms/v2/posts/1?context=embed')).json()) as Post;
    // the SEO plugin's fields have no schema, so no context leaves them out (get_fields_for_response)
    assert.deepEqual(Object.keys(embed), ['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', 'yoast_head', 'yoast_head_json', '_links']);
  });

  it("opens a protected post's content in a list to the `password` the list is asked with, as WordPress's list does", async () => {
    const locked = await create('cms/v2/posts', { title: 'Locked list', content: 'Behind the door', status: 'publish', password: 'sesame' });
    const listed = async (query: string) => ((await (await server.call(`cms/v2/posts?include=${locked.id}${query}`)).json()) as Post[])[0];
    assert.deepEqual([(await listed('')).content.rendered, (await listed('')).content.protected], ['', true]);
    assert.equal((await listed('&password=wrong')).content.rendered, '');
    assert.equal((await listed('&password=sesame')).content.rendered, '<p>Behind the door</p>\n');
  });

  it('answers 404 rest_post_invalid_id for an unknown id or a page id under /posts', async () => {
    for (const path of ['cms/v2/posts/999999', 'cms/v2/posts/2']) {
      const res = await server.call(path);
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
    }
  });

  it('hides drafts from anonymous readers and forbids asking for them', async () => {
    const draft = await create('cms/v2/posts', { title: 'Secret draft' });
    assert.equal(draft.status, 'draft');
    assert.equal((await server.call(`cms/v2/posts/${draft.id}`)).status, 401);
    // WordPress reports sanitize_post_statuses' refusal as an invalid `status` (400), the refusal in its details
    const res = await server.call('cms/v2/posts?status=draft');
    assert.equal(res.status, 400);
    const refused = (await res.json()) as Post;
    assert.equal(refused.code, 'rest_invalid_param');
    assert.equal(refused.data.details.status.code, 'rest_forbidden_status');
    assert.ok((await ids('cms/v2/posts?status=draft', server.admin)).includes(draft.id));
    assert.ok(!(await ids('cms/v2/posts')).includes(draft.id));
  });
});

describe('cms/v2 posts: writing', () => {
  it('creates a post with 201, Location and the edit context, and it appears in the list', async () => {
    const res = await server.call('cms/v2/posts', { json: { title: 'Fresh', content: 'One\n\nTwo', status: 'publish' }, auth: server.admin });
    assert.equal(res.status, 201);
    const post = (await res.json()) as Post;
    assert.equal(res.headers.get('location'), `${server.api}cms/v2/posts/${post.id}`);
    assert.equal(post.title.raw, 'Fresh');
    assert.equal(post.content.rendered, '<p>One</p>\n<p>Two</p>\n');
    assert.equal(post.slug, 'fresh');
    assert.ok((await ids('cms/v2/posts')).includes(post.id));
  });

  it('refuses an empty post with empty_content and anonymous writes with 401', async () => {
    const empty = await server.call('cms/v2/posts', { json: { status: 'publish' }, auth: server.admin });
    assert.equal(empty.status, 400);
    assert.equal(((await empty.json()) as Post).code, 'empty_content');
    const anon = await server.call('cms/v2/posts', { json: { title: 'x' } });
    assert.equal(anon.status, 401);
    assert.deepEqual(await anon.json(), { code: 'rest_cannot_create', message: 'Sorry, you are not allowed to create posts as this user.', data: { status: 401 } });
  });

  it('refuses a template the theme does not have as check_template does (this theme has none to list)', async () => {
    const res = await server.call('cms/v2/posts', { json: { title: 'x', template: 'wide.php' }, auth: server.admin });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): template',
      data: { status: 400, params: { template: 'template is not one of .' }, details: { template: { code: 'rest_invalid_param', message: 'template is not one of .', data: null } } },
    });
  });

  it('updates with POST, PUT and PATCH and keeps what was not sent', async () => {
    const post = await create('cms/v2/posts', { title: 'Before', content: 'Body', status: 'publish' });
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const res = await server.call(`cms/v2/posts/${post.id}`, { method, json: { title: `After ${method}` }, auth: server.admin });
      assert.equal(res.status, 200);
      const updated = (await res.json()) as Post;
      assert.equal(updated.title.raw, `After ${method}`);
      assert.equal(updated.content.raw, 'Body');
    }
  });

  it('lets a contributor write drafts but not publish', async () => {
    const contributor: TestUser = await userAuth(server, 'contributor');
    const draft = await create('cms/v2/posts', { title: 'By contributor' }, contributor.auth);
    assert.equal(draft.author, contributor.userId);
    const publish = await server.call('cms/v2/posts', { json: { title: 'x', status: 'publish' }, auth: contributor.auth });
    assert.equal(publish.status, 403);
    assert.equal(((await publish.json()) as Post).code, 'rest_cannot_publish');
    const others = await server.call('cms/v2/posts/1', { method: 'POST', json: { title: 'taken over' }, auth: contributor.auth });
    assert.equal(others.status, 403);
    assert.equal(((await others.json()) as Post).code, 'rest_cannot_edit');
  });

  it('trashes by default, answers 410 on a second trash, and deletes for good with force=true', async () => {
    const post = await create('cms/v2/posts', { title: 'Doomed', status: 'publish' });
    const trash = await server.call(`cms/v2/posts/${post.id}`, { method: 'DELETE', auth: server.admin });
    assert.equal(trash.status, 200);
    assert.equal(((await trash.json()) as Post).status, 'trash');
    assert.ok(!(await ids('cms/v2/posts')).includes(post.id));
    assert.ok((await ids('cms/v2/posts?status=trash', server.admin)).includes(post.id));
    const again = await server.call(`cms/v2/posts/${post.id}`, { method: 'DELETE', auth: server.admin });
    assert.equal(again.status, 410);
    assert.equal(((await again.json()) as Post).code, 'rest_already_trashed');
    const force = await server.call(`cms/v2/posts/${post.id}?force=true`, { method: 'DELETE', auth: server.admin });
    assert.equal(force.status, 200);
    const body = (await force.json()) as Post;
    assert.equal(body.deleted, true);
    assert.equal(body.previous.id, post.id);
    assert.equal((await server.call(`cms/v2/posts/${post.id}`, { auth: server.admin })).status, 404);
  });

  it('answers every one of concurrent trashes, edits and deletions of one post with a REST answer, never a 500', async () => {
    // on PostgreSQL these run side by side: a trash or edit that read the post before a deletion
    // committed must not then write meta for a post that is gone
    for (let round = 0; round < 8; round++) {
      const post = await create('cms/v2/posts', { title: `Contested ${round}`, status: 'publish' });
      const at = `cms/v2/posts/${post.id}`;
      const answers = await Promise.all([
        server.call(at, { method: 'DELETE', auth: server.admin }),
        server.call(at, { method: 'POST', json: { title: 'Edited', meta: {} }, auth: server.admin }),
        server.call(`${at}?force=true`, { method: 'DELETE', auth: server.admin }),
        server.call(at, { method: 'DELETE', auth: server.admin }),
        server.call(at, { method: 'PATCH', json: { excerpt: 'Edited' }, auth: server.admin }),
      ]);
      for (const res of answers) assert.ok([200, 404, 410].includes(res.status), `${res.status} ${await res.text()}`);
      assert.equal((await server.call(at, { auth: server.admin })).status, 404, 'the forced deletion stands');
    }
  });

  it('creates posts through a batch request', async () => {
    const res = await server.call('batch/v1', {
      auth: server.admin,
      json: { requests: [{ path: '/cms/v2/posts', body: { title: 'Batch A', status: 'publish' } }, { path: '/cms/v2/posts', body: { title: 'Batch B' } }] },
    });
    assert.equal(res.status, 207);
    const { responses } = (await res.json()) as { responses: Post[] };
    assert.deepEqual(responses.map((r) => r.status), [201, 201]);
    assert.equal(responses[1].body.status, 'draft');
    const stored = await server.call(`cms/v2/posts/${responses[0].body.id}`);
    assert.equal(((await stored.json()) as Post).title.rendered, 'Batch A');
  });
});

describe('cms/v2 pages', () => {
  it('lists the Sample Page with parent and menu_order, and nests a child page', async () => {
    const [sample] = (await (await server.call('cms/v2/pages')).json()) as Post[];
    assert.equal(sample.title.rendered, 'Sample Page');
    assert.equal(sample.parent, 0);
    assert.equal(sample.menu_order, 0);
    assert.equal(sample.sticky, undefined);
    const child = await create('cms/v2/pages', { title: 'Child', status: 'publish', parent: sample.id, menu_order: 3 });
    assert.equal(child.parent, sample.id);
    assert.equal(child.link, `${server.home}/sample-page/child/`);
    assert.deepEqual(await ids(`cms/v2/pages?parent=${sample.id}`), [child.id]);
    assert.deepEqual(await ids('cms/v2/pages?menu_order=3'), [child.id]);
    assert.ok(!(await ids(`cms/v2/pages?parent_exclude=${sample.id}`)).includes(child.id));
    const bad = await server.call('cms/v2/pages', { json: { title: 'Orphan', parent: 999999 }, auth: server.admin });
    assert.equal(bad.status, 400);
  });
});
