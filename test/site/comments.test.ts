import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { useServer } from '../helpers/server.ts';
import { filterComment } from '../../src/core/comments.ts';

type Obj = Record<string, any>;

let post: Obj;

const server = useServer({}, async (s) => {
  const res = await s.call('cms/v2/posts', { json: { title: 'Open for talk', content: 'Say something.', status: 'publish' }, auth: s.admin });
  post = (await res.json()) as Obj;
});

/** A visitor's browser: keeps the comment cookie the post page sets, as a browser does. */
class Visitor {
  cookie = '';

  async page(url: string): Promise<{ status: number; html: string }> {
    const res = await fetch(url, { headers: this.cookie ? { cookie: this.cookie } : {} });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0];
    return { status: res.status, html: await res.text() };
  }

  /** The form's hidden fields as the page gives them. */
  static fields(html: string): Record<string, string> {
    const out: Record<string, string> = {};
    // get_comment_id_fields quotes its attributes with ' , the token's field with "
    for (const m of html.matchAll(/<input type=(["'])hidden\1 name=\1([^"']+)\1 (?:id=\1[^"']*\1 )?value=\1([^"']*)\1/g)) out[m[2]] = m[3];
    return out;
  }

  async submit(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${server.home}/wp-comments-post.php`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/** The form posted from another loopback address: the flood check tells visitors apart by their IP. */
function postFrom(address: string, cookie: string, fields: Record<string, string>): Promise<{ status: number; headers: Record<string, any> }> {
  const url = new URL(`${server.home}/wp-comments-post.php`);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: address, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie } }, (res) => {
      res.resume().on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject).end(new URLSearchParams(fields).toString());
  });
}

describe('comments on the site', () => {
  it('shows the form on an open post, with a token bound to the browser\'s cookie', async () => {
    const v = new Visitor();
    const { status, html } = await v.page(post.link);
    assert.equal(status, 200);
    // WordPress 6.1.9's comment_form (html5): the cancel link hidden, back to the request's URI
    assert.ok(html.includes(`<h3 id="reply-title" class="comment-reply-title">Leave a Reply <small><a rel="nofollow" id="cancel-comment-reply-link" href="${new URL(post.link).pathname}#respond" style="display:none;">Cancel reply</a></small></h3><form action="${server.home}/wp-comments-post.php" method="post" id="commentform" class="comment-form" novalidate>`));
    // the token goes where the comment_form action's hidden fields go, after the submit field
    assert.match(html, /<\/p><input type="hidden" name="_token" value="[\w-]+" \/>\n<\/form>\t<\/div><!-- #respond -->/);
    assert.match(v.cookie, /^cms_comment_nonce=/);
    const f = Visitor.fields(html);
    assert.equal(f.comment_post_ID, String(post.id));
    assert.equal(f.comment_parent, '0');
    assert.ok(f._token);
  });

  it('refuses a post without the token, with another browser\'s token, or from another origin', async () => {
    const v = new Visitor();
    const f = Visitor.fields((await v.page(post.link)).html);
    const body = { ...f, author: 'Mallory', email: 'mallory@example.com', comment: 'Forged' };
    const stranger = new Visitor();
    await stranger.page(post.link);
    for (const res of [await new Visitor().submit(body), await stranger.submit(body), await v.submit({ ...body, _token: '' }), await v.submit(body, { origin: 'https://evil.example' })]) {
      assert.equal(res.status, 403);
      assert.match(await res.text(), /The link you followed has expired\./);
    }
    assert.equal((await server.app.store.comments.query({ search: 'Forged', offset: 0, limit: 10 })).total, 0);
  });

  it('holds a first-time commenter, shows them their comment awaiting moderation, and nobody else', async () => {
    const v = new Visitor();
    const f = Visitor.fields((await v.page(post.link)).html);
    const res = await v.submit({ ...f, author: 'Ada', email: 'ada@example.com', url: 'https://ada.example', comment: 'Held for now' }, { origin: server.home });
    assert.equal(res.status, 302);
    const location = res.headers.get('location')!;
    const [stored] = (await server.app.store.comments.query({ search: 'Held for now', offset: 0, limit: 1 })).rows;
    assert.equal(stored.approved, '0');
    assert.equal(stored.author_name, 'Ada');
    assert.equal(stored.author_ip, '127.0.0.1');
    assert.match(location, new RegExp(`^${post.link.replace(/[?]/g, '\\?')}\\?unapproved=${stored.id}&moderation-hash=[\\w-]+#comment-${stored.id}$`));
    const own = (await v.page(location)).html;
    assert.match(own, /<em class="comment-awaiting-moderation">Your comment is awaiting moderation\. This is a preview; your comment will be visible after it has been approved\.<\/em>/);
    assert.match(own, /Held for now/);
    const others = (await new Visitor().page(post.link)).html;
    assert.doesNotMatch(others, /Held for now/);
    // a forged hash shows nothing
    assert.doesNotMatch((await new Visitor().page(`${post.link}?unapproved=${stored.id}&moderation-hash=forged`)).html, /Held for now/);
  });

  it('remembers a commenter who asks for it: their details in the form, their held comment with the short note', async () => {
    const v = new Visitor();
    const f = Visitor.fields((await v.page(post.link)).html);
    // from another address, so that the test before (127.0.0.1, a moment ago) does not make this a flood
    const res = await postFrom('127.0.0.3', v.cookie, { ...f, author: 'Hal', email: 'hal@example.com', url: 'hal.example', comment: 'Remember me', 'wp-comment-cookies-consent': 'yes' });
    assert.equal(res.status, 302);
    const [stored] = (await server.app.store.comments.query({ search: 'Remember me', offset: 0, limit: 1 })).rows;
    assert.equal(stored.approved, '0');
    assert.equal(stored.author_url, 'http://hal.example');
    assert.equal(res.headers.location, `${post.link}#comment-${stored.id}`);
    const remembered = res.headers['set-cookie']![0].split(';')[0];
    assert.match(remembered, /^cms_commenter=[\w-]+\.[\w-]+$/);
    v.cookie = `${v.cookie}; ${remembered}`;
    const { html } = await v.page(post.link);
    assert.match(html, new RegExp(`<li id="comment-${stored.id}" class="comment unapproved depth-1">[\\s\\S]*?<em class="comment-awaiting-moderation">Your comment is awaiting moderation\\.</em>`));
    assert.match(html, /<input id="author" name="author" type="text" value="Hal"/);
    assert.match(html, /<input id="email" name="email" type="email" value="hal@example.com"/);
    assert.match(html, /name="wp-comment-cookies-consent" type="checkbox" value="yes" checked \/>/);
    // a cookie made up by someone else shows nothing
    const forged = new Visitor();
    forged.cookie = `cms_commenter=${Buffer.from(JSON.stringify({ name: 'Hal', email: 'hal@example.com', url: '' })).toString('base64url')}.forged`;
    assert.doesNotMatch((await forged.page(post.link)).html, /Remember me/);
  });

  it('answers WordPress\'s messages for missing fields, a duplicate and a flood', async () => {
    const v = new Visitor();
    const f = Visitor.fields((await v.page(post.link)).html);
    let res = await v.submit({ ...f, comment: 'No name' });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<p><strong>Error<\/strong>: Please fill the required fields\.<\/p>/);
    res = await v.submit({ ...f, author: 'Bo', email: 'not-an-email', comment: 'Bad email' });
    assert.match(await res.text(), /<strong>Error<\/strong>: Please enter a valid email address\./);
    res = await v.submit({ ...f, author: 'Bo', email: 'bo@example.com', comment: '' });
    assert.match(await res.text(), /<strong>Error<\/strong>: Please type your comment text\./);
    // the visitor of the test before posted from this address a moment ago: a flood, as WordPress answers it
    res = await v.submit({ ...f, author: 'Bo', email: 'bo@example.com', comment: 'Too fast' });
    assert.equal(res.status, 429);
    assert.match(await res.text(), /You are posting comments too quickly\. Slow down\./);
    assert.match(await (await v.submit({ ...f, author: 'Ada', email: 'ada@example.com', url: 'https://ada.example', comment: 'Held for now' })).text(), /Duplicate comment detected; it looks as though you&#8217;ve already said that!/);
  });

  it('shows approved comments threaded, with reply links, and carries them in the comments feed', async () => {
    const top = (await (await server.call('cms/v2/comments', { json: { post: post.id, content: 'Top level words', author_name: 'Cy', author_email: 'cy@example.com' }, auth: server.admin })).json()) as Obj;
    const reply = (await (await server.call('cms/v2/comments', { json: { post: post.id, parent: top.id, content: 'A reply below', author_name: 'Di', author_email: 'di@example.com' }, auth: server.admin })).json()) as Obj;
    const { html } = await new Visitor().page(post.link);
    assert.match(html, /<h2 class="comments-title">2 thoughts on &ldquo;Open for talk&rdquo;<\/h2>/);
    const thread = new RegExp(`<li id="comment-${top.id}" class="comment depth-1 parent">[\\s\\S]*Top level words[\\s\\S]*<ol class="children">\\s*<li id="comment-${reply.id}" class="comment depth-2">[\\s\\S]*A reply below`);
    assert.match(html, thread);
    assert.match(html, new RegExp(`href="${post.link.replace(/[?]/g, '\\?')}\\?replytocom=${top.id}#respond"`));
    const replyForm = (await new Visitor().page(`${post.link}?replytocom=${top.id}`)).html;
    // comment_form_title links the name to the comment; the cancel link, shown, goes back to the URI without replytocom
    assert.ok(replyForm.includes(`Leave a Reply to <a href="#comment-${top.id}">Cy</a> <small><a rel="nofollow" id="cancel-comment-reply-link" href="${new URL(post.link).pathname}#respond">Cancel reply</a></small>`));
    assert.equal(Visitor.fields(replyForm).comment_parent, String(top.id));
    const feed = await (await fetch(`${server.home}/comments/feed/`)).text();
    assert.match(feed, /<title><!\[CDATA\[Comment on Open for talk by Di\]\]><\/title>|<title>Comment on Open for talk by Di<\/title>/);
    assert.match(feed, new RegExp(`#comment-${reply.id}`));
    assert.doesNotMatch(feed, /Held for now/);
    // the post's own comments feed, announced in its head
    assert.match(html, new RegExp(`<link rel="alternate" type="application/rss\\+xml" title="[^"]+ » Open for talk Comments Feed" href="${post.link}feed/">`));
    const own = await fetch(`${post.link}feed/`);
    assert.equal(own.status, 200);
    const ownFeed = await own.text();
    assert.match(ownFeed, /Comments on: Open for talk/);
    assert.match(ownFeed, /By: Di/);
    assert.match(ownFeed, /By: Cy/);
    assert.equal((await fetch(`${server.home}/?p=${post.id}&feed=rss2`, { redirect: 'manual' })).headers.get('location'), `${post.link}feed/`);
  });

  it('keeps only a safe website address and no markup in the name (wp_filter_comment)', async () => {
    assert.deepEqual(await filterComment({ author_name: '<b>Bo</b> Smith', author_url: 'javascript:alert(1)', content: '<em>hi</em><script>x</script>' }, false, server.home), {
      author_name: 'Bo Smith',
      author_url: '',
      content: '<em>hi</em>x',
    });
    assert.equal((await filterComment({ author_url: 'grace.example/about' }, false, server.home)).author_url, 'http://grace.example/about');
    assert.equal((await filterComment({ author_url: 'https://grace.example' }, false, server.home)).author_url, 'https://grace.example');
  });

  it('says comments are closed, and refuses a post to a closed thread', async () => {
    const closed = (await (await server.call('cms/v2/posts', { json: { title: 'Shut', status: 'publish', comment_status: 'open' }, auth: server.admin })).json()) as Obj;
    await server.call('cms/v2/comments', { json: { post: closed.id, content: 'Before closing' }, auth: server.admin });
    const v = new Visitor();
    const f = Visitor.fields((await v.page(closed.link)).html);
    await server.call(`cms/v2/posts/${closed.id}`, { json: { comment_status: 'closed' }, auth: server.admin });
    const { html } = await v.page(closed.link);
    assert.match(html, /<p class="no-comments">Comments are closed\.<\/p>/);
    assert.doesNotMatch(html, /commentform/);
    const res = await v.submit({ ...f, author: 'Ed', email: 'ed@example.com', comment: 'Too late' });
    assert.equal(res.status, 403);
    assert.match(await res.text(), /Sorry, comments are closed for this item\./);
  });

  it('gives a Post Comments Form block in the content the visitor\'s token, and prints no second form below it', async () => {
    const withBlock = (await (await server.call('cms/v2/posts', { json: { title: 'Form inside', status: 'publish', content: '<!-- wp:paragraph -->\n<p>Talk below.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:post-comments-form {"textAlign":"center"} /-->' }, auth: server.admin })).json()) as Obj;
    const v = new Visitor();
    const { html } = await v.page(withBlock.link);
    // the block's form (its wrapper attributes on the container, the button block's classes) and
    // only it: the theme's comments section leaves its own out, so the ids stay unique
    assert.equal(html.split('id="respond"').length, 2);
    assert.ok(html.includes('<div id="respond" class="comment-respond has-text-align-center wp-block-post-comments-form">'));
    assert.ok(html.includes('<p class="form-submit wp-block-button"><input name="submit" type="submit" id="submit" class="wp-block-button__link wp-element-button" value="Post Comment" />'));
    assert.match(v.cookie, /^cms_comment_nonce=/);
    const f = Visitor.fields(html);
    assert.equal(f.comment_post_ID, String(withBlock.id));
    assert.ok(f._token);
    // from an address of its own: the other tests' comments from 127.0.0.1 would make this one a flood
    const res = await postFrom('127.0.0.7', v.cookie, { ...f, author: 'Bo', email: 'bo@example.com', comment: 'Through the block' });
    assert.equal(res.status, 302);
    const [stored] = (await server.app.store.comments.query({ search: 'Through the block', offset: 0, limit: 1 })).rows;
    assert.equal(stored.post, withBlock.id);
    assert.equal(stored.author_name, 'Bo');
    // a list page prints the block of each post it shows in full, its form the visitor's too
    const reader = new Visitor();
    const listed = Visitor.fields((await reader.page(`${server.home}/`)).html);
    assert.equal(listed.comment_post_ID, String(withBlock.id));
    assert.match(reader.cookie, /^cms_comment_nonce=/);
    assert.equal((await postFrom('127.0.0.8', reader.cookie, { ...listed, author: 'Cid', email: 'cid@example.com', comment: 'From the list' })).status, 302);
  });
});

