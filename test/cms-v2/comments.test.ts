import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';

type Obj = Record<string, any>;

let subscriber: TestUser;
let editor: TestUser;
let author: TestUser;
let contributor: TestUser;
let postId: number;

const server = useServer({}, async (s) => {
  subscriber = await userAuth(s, 'subscriber');
  editor = await userAuth(s, 'editor');
  author = await userAuth(s, 'author');
  contributor = await userAuth(s, 'contributor');
  postId = (await post({ title: 'Talk about it', status: 'publish' }, s.admin, s)).id;
});

async function post(body: Obj, auth = server.admin, s = server): Promise<Obj> {
  const res = await s.call('cms/v2/posts', { json: body, auth });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json();
}

async function comment(body: Obj, auth?: string): Promise<Obj> {
  const res = await server.call('cms/v2/comments', { json: body, auth: auth ?? server.admin });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json();
}

async function refused(path: string, init: { method?: string; json?: unknown; auth?: string }, status: number, code: string, message: string) {
  const res = await server.call(path, init);
  const body = (await res.json()) as Obj;
  assert.equal(res.status, status, JSON.stringify(body));
  assert.deepEqual({ code: body.code, message: body.message, status: body.data?.status }, { code, message, status });
}

/** get_avatar_data's URL on a site served over http (the test server's): http://{0,1,2}.gravatar.com by the hash's first digit. */
const gravatar = (email: string, size: number) => {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `http://${parseInt(hash[0], 16) % 3}.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
};

/**
 * A visitor's POST from another loopback address: the flood check tells visitors apart by their
 * IP, and every other request of the file comes from 127.0.0.1.
 */
function postFrom(address: string, path: string, json: Obj): Promise<{ status: number; body: Obj }> {
  const url = new URL(server.api + path);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: address, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as Obj }));
    });
    req.on('error', reject).end(JSON.stringify(json));
  });
}

let counter = 0;
/** Words no other comment of the run has, so WordPress's duplicate check never trips by accident. */
const fresh = (text = 'A comment') => `${text} number ${++counter}`;

describe('cms/v2 comments: the index', () => {
  it('lists comments and comments/{id} with WordPress 6.1 methods and args', async () => {
    const index = (await (await server.call('')).json()) as Obj;
    const list = index.routes['/cms/v2/comments'];
    assert.deepEqual(list.methods, ['GET', 'POST']);
    assert.deepEqual(Object.keys(list.endpoints[0].args), ['context', 'page', 'per_page', 'search', 'after', 'author', 'author_exclude', 'author_email', 'before', 'exclude', 'include', 'offset', 'order', 'orderby', 'parent', 'parent_exclude', 'post', 'status', 'type', 'password']);
    assert.deepEqual(list.endpoints[0].args.orderby, { description: 'Sort collection by comment attribute.', type: 'string', default: 'date_gmt', enum: ['date', 'date_gmt', 'id', 'include', 'post', 'parent', 'type'], required: false });
    assert.deepEqual(list.endpoints[0].args.status, { default: 'approve', description: 'Limit result set to comments assigned a specific status. Requires authorization.', type: 'string', required: false });
    assert.deepEqual(Object.keys(list.endpoints[1].args), ['author', 'author_email', 'author_ip', 'author_name', 'author_url', 'author_user_agent', 'content', 'date', 'date_gmt', 'parent', 'post', 'status', 'meta']);
    assert.equal(list.endpoints[1].args.post.default, 0);
    const item = index.routes['/cms/v2/comments/(?P<id>[\\d]+)'];
    assert.deepEqual(item.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    assert.deepEqual(Object.keys(item.endpoints[0].args), ['id', 'context', 'password']);
    assert.deepEqual(Object.keys(item.endpoints[1].args), ['id', 'author', 'author_email', 'author_ip', 'author_name', 'author_url', 'author_user_agent', 'content', 'date', 'date_gmt', 'parent', 'post', 'status', 'meta']);
    assert.equal(item.endpoints[1].args.post.default, undefined);
    assert.deepEqual(Object.keys(item.endpoints[2].args), ['id', 'force', 'password']);
  });
});

describe('cms/v2 comments: creating', () => {
  it('creates a logged-in user\'s comment as theirs, approved for a moderator, in the edit context', async () => {
    const res = await server.call('cms/v2/comments', { json: { post: postId, content: 'First!' }, auth: server.admin });
    assert.equal(res.status, 201);
    const c = (await res.json()) as Obj;
    assert.equal(res.headers.get('location'), `${server.api}cms/v2/comments/${c.id}`);
    assert.deepEqual(Object.keys(c), ['id', 'post', 'parent', 'author', 'author_name', 'author_email', 'author_url', 'author_ip', 'author_user_agent', 'date', 'date_gmt', 'content', 'link', 'status', 'type', 'author_avatar_urls', 'meta', '_links']);
    assert.equal(c.post, postId);
    assert.equal(c.author, 1);
    assert.equal(c.author_name, 'admin');
    assert.equal(c.status, 'approved');
    assert.equal(c.type, 'comment');
    assert.equal(c.author_ip, '127.0.0.1');
    assert.deepEqual(c.content, { rendered: '<p>First!</p>\n', raw: 'First!' });
    assert.match(c.link, new RegExp(`/talk-about-it/#comment-${c.id}$`));
    assert.deepEqual(c.meta, []);
    assert.deepEqual(c.author_avatar_urls, { 24: gravatar(c.author_email, 24), 48: gravatar(c.author_email, 48), 96: gravatar(c.author_email, 96) });
    assert.deepEqual(c._links.self, [{ href: `${server.api}cms/v2/comments/${c.id}` }]);
    assert.deepEqual(c._links.collection, [{ href: `${server.api}cms/v2/comments` }]);
    assert.deepEqual(c._links.author, [{ href: `${server.api}cms/v2/users/1`, embeddable: true }]);
    assert.deepEqual(c._links.up, [{ href: `${server.api}cms/v2/posts/${postId}`, embeddable: true, post_type: 'post' }]);
    assert.equal(c._links['in-reply-to'], undefined);
  });

  it('holds a subscriber\'s first comment and answers it in the view context', async () => {
    const c = await comment({ post: postId, content: fresh('Nice post') }, subscriber.auth);
    assert.equal(c.status, 'hold');
    assert.equal(c.author, subscriber.userId);
    assert.equal(c.author_email, undefined);
    assert.equal(c.content.raw, undefined);
  });

  it('refuses anonymous comments with 401 rest_comment_login_required unless the option allows them', async () => {
    const body = { post: postId, content: fresh(), author_name: 'Visitor', author_email: 'visitor@example.com' };
    await refused('cms/v2/comments', { json: body }, 401, 'rest_comment_login_required', 'Sorry, you must be logged in to comment.');
    await server.app.store.options.set('rest_allow_anonymous_comments', '1');
    try {
      const { status, body: c } = await postFrom('127.0.0.2', 'cms/v2/comments', body);
      assert.equal(status, 201, JSON.stringify(c));
      assert.equal(c.author, 0);
      assert.equal(c.author_name, 'Visitor');
      assert.equal(c.author_url, '');
      assert.equal(c.status, 'hold');
      assert.deepEqual(c.author_avatar_urls['48'], gravatar('visitor@example.com', 48));
      // the same visitor again, with other words, 0 s later: a flood
      const again = await postFrom('127.0.0.2', 'cms/v2/comments', { ...body, content: fresh() });
      assert.deepEqual(again, { status: 400, body: { code: 'comment_flood', message: 'You are posting comments too quickly. Slow down.', data: { status: 400 } } });
      // a visitor's comment needs a name and an email while require_name_email is on
      await refused('cms/v2/comments', { json: { post: postId, content: fresh() } }, 400, 'rest_comment_author_data_required', 'Creating a comment requires valid author name and email values.');
      await server.app.store.options.set('comment_registration', '1');
      await refused('cms/v2/comments', { json: { ...body, content: fresh() } }, 401, 'rest_comment_login_required', 'Sorry, you must be logged in to comment.');
    } finally {
      await server.app.store.options.set('rest_allow_anonymous_comments', '0');
      await server.app.store.options.set('comment_registration', '0');
    }
  });

  it('answers WordPress\'s errors for a missing, draft, trashed or closed post', async () => {
    const without = 'Sorry, you are not allowed to create this comment without a post.';
    await refused('cms/v2/comments', { json: { content: fresh() }, auth: subscriber.auth }, 403, 'rest_comment_invalid_post_id', without);
    await refused('cms/v2/comments', { json: { post: 999999, content: fresh() }, auth: subscriber.auth }, 403, 'rest_comment_invalid_post_id', without);
    const draft = await post({ title: 'Draft', status: 'draft' });
    await refused('cms/v2/comments', { json: { post: draft.id, content: fresh() }, auth: server.admin }, 403, 'rest_comment_draft_post', 'Sorry, you are not allowed to create a comment on this post.');
    const trashed = await post({ title: 'Trashed', status: 'publish' });
    await server.call(`cms/v2/posts/${trashed.id}`, { method: 'DELETE', auth: server.admin });
    await refused('cms/v2/comments', { json: { post: trashed.id, content: fresh() }, auth: server.admin }, 403, 'rest_comment_trash_post', 'Sorry, you are not allowed to create a comment on this post.');
    const closed = await post({ title: 'Closed', status: 'publish', comment_status: 'closed' });
    await refused('cms/v2/comments', { json: { post: closed.id, content: fresh() }, auth: subscriber.auth }, 403, 'rest_comment_closed', 'Sorry, comments are closed for this item.');
    const priv = await post({ title: 'Private', status: 'private' });
    await refused('cms/v2/comments', { json: { post: priv.id, content: fresh() }, auth: subscriber.auth }, 403, 'rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.');
  });

  it('lets only moderators set author, author_ip or status', async () => {
    await refused('cms/v2/comments', { json: { post: postId, content: fresh(), author: 1 }, auth: subscriber.auth }, 403, 'rest_comment_invalid_author', "Sorry, you are not allowed to edit 'author' for comments.");
    await refused('cms/v2/comments', { json: { post: postId, content: fresh(), author_ip: '10.0.0.9' }, auth: subscriber.auth }, 403, 'rest_comment_invalid_author_ip', "Sorry, you are not allowed to edit 'author_ip' for comments.");
    await refused('cms/v2/comments', { json: { post: postId, content: fresh(), status: 'approved' }, auth: subscriber.auth }, 403, 'rest_comment_invalid_status', "Sorry, you are not allowed to edit 'status' for comments.");
    await refused('cms/v2/comments', { json: { post: postId, content: fresh(), author: 999999 }, auth: server.admin }, 400, 'rest_comment_author_invalid', 'Invalid comment author ID.');
    const c = await comment({ post: postId, content: fresh(), author: subscriber.userId, author_ip: '10.0.0.9', status: 'hold' });
    assert.equal(c.author, subscriber.userId);
    assert.equal(c.author_name, subscriber.login);
    assert.equal(c.author_ip, '10.0.0.9');
    assert.equal(c.status, 'hold');
  });

  it('approves someone with an approved comment already, unless every comment is moderated; trashes disallowed words', async () => {
    const returning = async () => {
      const u = await userAuth(server, 'subscriber');
      // an old approved comment of theirs, written by a moderator (old enough not to count as a flood)
      await comment({ post: postId, author: u.userId, content: fresh(), date: '2020-01-01T00:00:00', status: 'approved' });
      return u;
    };
    assert.equal((await comment({ post: postId, content: fresh() }, (await returning()).auth)).status, 'approved');
    await server.app.store.options.set('comment_moderation', '1');
    try {
      assert.equal((await comment({ post: postId, content: fresh() }, (await returning()).auth)).status, 'hold');
    } finally {
      await server.app.store.options.set('comment_moderation', '0');
    }
    // too many links hold a comment (comment_max_links: 2)
    assert.equal((await comment({ post: postId, content: `<a href="https://a.example">a</a> <a href="https://b.example">b</a> ${fresh()}` }, (await returning()).auth)).status, 'hold');
    await server.app.store.options.set('disallowed_keys', 'casino\ncheap pills');
    try {
      const c = await comment({ post: postId, content: `Visit my CASINO ${fresh()}` }, (await returning()).auth);
      assert.equal(c.status, 'trash');
    } finally {
      await server.app.store.options.set('disallowed_keys', '');
    }
  });

  it('refuses empty content, an existing id and over-long fields', async () => {
    await refused('cms/v2/comments', { json: { post: postId, content: '   ' }, auth: server.admin }, 400, 'rest_comment_content_invalid', 'Invalid comment content.');
    await refused('cms/v2/comments', { json: { post: postId }, auth: server.admin }, 400, 'rest_comment_content_invalid', 'Invalid comment content.');
    await refused('cms/v2/comments', { json: { post: postId, content: fresh(), author_name: 'x'.repeat(246), author_email: 'long@example.com' }, auth: server.admin }, 400, 'comment_author_column_length', 'Comment field exceeds maximum length allowed.');
    await refused('cms/v2/comments', { json: { post: postId, content: 'y'.repeat(65526) }, auth: server.admin }, 400, 'comment_content_column_length', 'Comment field exceeds maximum length allowed.');
  });

  it('detects a duplicate (409) and a flood from the same author within 15 s (400)', async () => {
    const text = fresh('Said once');
    await comment({ post: postId, content: text }, author.auth);
    await refused('cms/v2/comments', { json: { post: postId, content: text }, auth: author.auth }, 409, 'comment_duplicate', 'Duplicate comment detected; it looks as though you&#8217;ve already said that!');
    await refused('cms/v2/comments', { json: { post: postId, content: fresh() }, auth: author.auth }, 400, 'comment_flood', 'You are posting comments too quickly. Slow down.');
    // moderators are never throttled
    await comment({ post: postId, content: fresh() });
    await comment({ post: postId, content: fresh() });
  });

  it('threads replies through parent and links both ways', async () => {
    const top = await comment({ post: postId, content: fresh('Top') });
    const reply = await comment({ post: postId, parent: top.id, content: fresh('Reply') });
    assert.equal(reply.parent, top.id);
    assert.deepEqual(reply._links['in-reply-to'], [{ href: `${server.api}cms/v2/comments/${top.id}`, embeddable: true }]);
    const again = (await (await server.call(`cms/v2/comments/${top.id}`)).json()) as Obj;
    assert.deepEqual(again._links.children, [{ href: `${server.api}cms/v2/comments?parent=${top.id}`, embeddable: true }]);
    const children = (await (await server.call(`cms/v2/comments?parent=${top.id}`)).json()) as Obj[];
    assert.deepEqual(children.map((c) => c.id), [reply.id]);
    const other = await post({ title: 'Elsewhere', status: 'publish' });
    await refused('cms/v2/comments', { json: { post: other.id, parent: top.id, content: fresh() }, auth: server.admin }, 400, 'rest_comment_invalid_parent', 'Invalid parent comment ID.');
    await refused('cms/v2/comments', { json: { post: postId, parent: 999999, content: fresh() }, auth: server.admin }, 400, 'rest_comment_invalid_parent', 'Invalid parent comment ID.');
  });

  it('filters the content through kses for users without unfiltered_html', async () => {
    const c = await comment({ post: postId, content: `<strong>Bold</strong><script>alert(1)</script> ${fresh()}` }, editor.auth);
    // editors have unfiltered_html: what they write is kept
    assert.match(c.content.raw, /<script>/);
    const d = await comment({ post: postId, content: `<strong>Bold</strong><script>alert(1)</script><img src=x onerror=alert(1)> ${fresh()}` }, contributor.auth);
    const stored = await server.app.store.comments.get(d.id);
    assert.ok(stored!.content.startsWith('<strong>Bold</strong>alert(1) '), stored!.content);
    assert.doesNotMatch(stored!.content, /<script|<img|onerror/);
  });
});

describe('cms/v2 comments: reading', () => {
  it('lists approved comments to anyone, newest first, with the totals', async () => {
    const p = await post({ title: 'Listed', status: 'publish' });
    const a = await comment({ post: p.id, content: fresh(), date: '2024-01-01T10:00:00' });
    const b = await comment({ post: p.id, content: fresh(), date: '2024-01-02T10:00:00' });
    await comment({ post: p.id, content: fresh(), status: 'hold' });
    const res = await server.call(`cms/v2/comments?post=${p.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-wp-total'), '2');
    assert.equal(res.headers.get('x-wp-totalpages'), '1');
    const list = (await res.json()) as Obj[];
    assert.deepEqual(list.map((c) => c.id), [b.id, a.id]);
    assert.deepEqual(Object.keys(list[0]), ['id', 'post', 'parent', 'author', 'author_name', 'author_url', 'date', 'date_gmt', 'content', 'link', 'status', 'type', 'author_avatar_urls', 'meta', '_links']);
    assert.equal(list[0].date, '2024-01-02T10:00:00');
    const asc = (await (await server.call(`cms/v2/comments?post=${p.id}&order=asc&per_page=1`)).json()) as Obj[];
    assert.deepEqual(asc.map((c) => c.id), [a.id]);
    const embed = (await (await server.call(`cms/v2/comments/${a.id}?context=embed`)).json()) as Obj;
    assert.deepEqual(Object.keys(embed), ['id', 'parent', 'author', 'author_name', 'author_url', 'date', 'content', 'link', 'type', 'author_avatar_urls', '_links']);
  });

  it('keeps held comments and private filters from those without rights', async () => {
    const held = await comment({ post: postId, content: fresh(), status: 'hold' });
    await refused(`cms/v2/comments/${held.id}`, {}, 401, 'rest_cannot_read', 'Sorry, you are not allowed to read this comment.');
    await refused('cms/v2/comments?status=hold', {}, 401, 'rest_forbidden_param', 'Query parameter not permitted: status');
    await refused('cms/v2/comments?author=1&type=pingback', { auth: subscriber.auth }, 403, 'rest_forbidden_param', 'Query parameter not permitted: author, type');
    await refused('cms/v2/comments?context=edit', { auth: subscriber.auth }, 403, 'rest_forbidden_context', 'Sorry, you are not allowed to edit comments.');
    await refused('cms/v2/comments?post=0', {}, 401, 'rest_cannot_read', 'Sorry, you are not allowed to read comments without a post.');
    await refused('cms/v2/comments/999999', {}, 404, 'rest_comment_invalid_id', 'Invalid comment ID.');
    const asEditor = (await (await server.call('cms/v2/comments?status=hold&per_page=100', { auth: editor.auth })).json()) as Obj[];
    assert.ok(asEditor.some((c) => c.id === held.id));
    assert.ok(asEditor.every((c) => c.status === 'hold'));
  });

  it('shows a password-protected post\'s comments only with its password, asked for that post alone', async () => {
    const locked = await post({ title: 'Locked', status: 'publish', password: 'toomanysecrets' });
    const c = await comment({ post: locked.id, content: fresh() });
    const ids = async (query: string) => ((await (await server.call(`cms/v2/comments?${query}`)).json()) as Obj[]).map((x) => x.id);
    assert.ok(!(await ids('per_page=100')).includes(c.id));
    assert.deepEqual(await ids(`post=${locked.id}&password=toomanysecrets`), [c.id]);
    assert.deepEqual(await ids(`password=toomanysecrets&per_page=100`).then((l) => l.includes(c.id)), false);
    await refused(`cms/v2/comments?post=${locked.id},${postId}&password=toomanysecrets`, {}, 401, 'rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.');
    await refused(`cms/v2/comments/${c.id}`, {}, 401, 'rest_cannot_read', 'Sorry, you are not allowed to read this comment.');
    assert.equal((await server.call(`cms/v2/comments/${c.id}?password=toomanysecrets`)).status, 200);
  });

  it('gives posts a replies link whose _embed carries their comments', async () => {
    const p = await post({ title: 'Embedded', status: 'publish' });
    const c = await comment({ post: p.id, content: fresh() });
    const shown = (await (await server.call(`cms/v2/posts/${p.id}?_embed=replies`)).json()) as Obj;
    assert.deepEqual(shown._links.replies, [{ embeddable: true, href: `${server.api}cms/v2/comments?post=${p.id}` }]);
    assert.deepEqual(shown._embedded.replies[0].map((r: Obj) => r.id), [c.id]);
  });

  it('embeds replies with _embed=1 at /wp-json/ as WordPress 6.1 does: one list per link, each comment in embed context', async () => {
    const p = await post({ title: 'Embedded at wp-json', status: 'publish' });
    const first = await comment({ post: p.id, content: fresh() });
    const second = await comment({ post: p.id, content: fresh() });
    const quiet = await post({ title: 'No comments yet', status: 'publish' });
    const wp = async (path: string) => (await (await fetch(`${server.home}/wp-json/wp/v2/${path}`)).json()) as Obj;
    const shown = await wp(`posts/${p.id}?_embed=1`);
    // WP_REST_Server::embed_links dispatches GET comments?post=N with context=embed: the newest first
    const [replies] = shown._embedded.replies as Obj[][];
    assert.deepEqual(replies.map((r) => r.id), [second.id, first.id]);
    assert.deepEqual(replies, await wp(`comments?post=${p.id}&context=embed`));
    // the fields whose schema context includes embed, in the order prepare_item_for_response sets them
    assert.deepEqual(Object.keys(replies[0]), ['id', 'parent', 'author', 'author_name', 'author_url', 'date', 'content', 'link', 'type', 'author_avatar_urls', '_links']);
    assert.deepEqual(Object.keys(replies[0].content), ['rendered']);
    // a post without comments: the embed is empty, and embed_links leaves an all-empty rel out
    assert.equal('replies' in ((await wp(`posts/${quiet.id}?_embed=1`))._embedded ?? {}), false);
  });
});

describe('cms/v2 comments: moderating', () => {
  it('approves, holds, spams and trashes, keeping the post\'s comment_count to the approved ones', async () => {
    const p = await post({ title: 'Counted', status: 'publish' });
    const count = async () => (await server.app.store.posts.get(p.id))!.comment_count;
    const visitor = await userAuth(server, 'subscriber');
    const c = await comment({ post: p.id, content: fresh() }, visitor.auth);
    assert.equal(c.status, 'hold');
    assert.equal(await count(), 0);
    const status = async (s: string) => {
      const res = await server.call(`cms/v2/comments/${c.id}`, { method: 'PATCH', json: { status: s }, auth: editor.auth });
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as Obj).status;
    };
    assert.equal(await status('approve'), 'approved');
    assert.equal(await count(), 1);
    assert.equal(await status('unapprove'), 'approved'); // not a status WordPress knows: nothing changes
    assert.equal(await status('hold'), 'hold');
    assert.equal(await count(), 0);
    assert.equal(await status('1'), 'approved');
    assert.equal(await status('spam'), 'spam');
    assert.equal(await count(), 0);
    assert.equal(await status('unspam'), 'approved');
    assert.equal(await count(), 1);
    const trashed = (await (await server.call(`cms/v2/comments/${c.id}`, { method: 'DELETE', auth: editor.auth })).json()) as Obj;
    assert.equal(trashed.status, 'trash');
    assert.equal(await count(), 0);
    await refused(`cms/v2/comments/${c.id}`, { method: 'DELETE', auth: editor.auth }, 410, 'rest_already_trashed', 'The comment has already been trashed.');
    assert.equal(await status('untrash'), 'approved');
    const gone = (await (await server.call(`cms/v2/comments/${c.id}?force=true`, { method: 'DELETE', auth: editor.auth })).json()) as Obj;
    assert.equal(gone.deleted, true);
    assert.equal(gone.previous.id, c.id);
    assert.equal(gone.previous.status, 'approved');
    assert.equal(await count(), 0);
    await refused(`cms/v2/comments/${c.id}`, {}, 404, 'rest_comment_invalid_id', 'Invalid comment ID.');
  });

  it('edits content and author fields, and refuses those who may not', async () => {
    const c = await comment({ post: postId, content: fresh() });
    const res = await server.call(`cms/v2/comments/${c.id}`, { method: 'POST', json: { content: 'Edited text', author_name: 'Someone' }, auth: server.admin });
    assert.equal(res.status, 200);
    const edited = (await res.json()) as Obj;
    assert.deepEqual(edited.content, { rendered: '<p>Edited text</p>\n', raw: 'Edited text' });
    assert.equal(edited.author_name, 'Someone');
    await refused(`cms/v2/comments/${c.id}`, { method: 'PATCH', json: { content: 'x' } }, 401, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this comment.');
    await refused(`cms/v2/comments/${c.id}`, { method: 'PATCH', json: { content: 'x' }, auth: subscriber.auth }, 403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this comment.');
    // a contributor may edit posts, but not this post (someone else's, published)
    await refused(`cms/v2/comments/${c.id}`, { method: 'PATCH', json: { content: 'x' }, auth: contributor.auth }, 403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this comment.');
    await refused(`cms/v2/comments/${c.id}`, { method: 'DELETE', auth: contributor.auth }, 403, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this comment.');
    await refused(`cms/v2/comments/${c.id}`, { method: 'PATCH', json: { post: 999999 }, auth: server.admin }, 403, 'rest_comment_invalid_post_id', 'Invalid post ID.');
  });

  it('removes a post\'s comments with the post, and moves replies up when their parent is deleted', async () => {
    const p = await post({ title: 'Doomed', status: 'publish' });
    const top = await comment({ post: p.id, content: fresh() });
    const reply = await comment({ post: p.id, parent: top.id, content: fresh() });
    await server.call(`cms/v2/comments/${top.id}?force=true`, { method: 'DELETE', auth: server.admin });
    assert.equal((await server.app.store.comments.get(reply.id))!.parent, 0);
    await server.call(`cms/v2/posts/${p.id}?force=true`, { method: 'DELETE', auth: server.admin });
    assert.equal(await server.app.store.comments.get(reply.id), undefined);
  });
});
