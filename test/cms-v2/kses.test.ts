import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth, userAuth, type TestUser } from '../helpers/auth.ts';

// Authors (no unfiltered_html) have their titles, content and excerpts filtered by kses when they
// are saved, as WordPress filters them; administrators and editors keep what they write.

let server: TestServer;
let admin: string;
let author: TestUser;
type Obj = Record<string, any>;

const CONTENT = [
  '<p>Intro <script>document.title="owned"</script></p>',
  '<p><img src="/pic.png" alt="pic" onerror="alert(1)"></p>',
  '<p><a href="javascript:alert(2)">bad link</a> and <a href="https://example.org/" onclick="steal()">good link</a></p>',
  '<!--more-->',
  '<p style="color: red; background: url(javascript:alert(3))">styled</p>',
].join('\n');
const TITLE = 'Hello <script>alert(4)</script><b onmouseover="alert(5)">bold</b>';
const EXCERPT = '<em onmouseover="alert(6)">Short</em>';
const HOSTILE = ['<script', 'onerror', 'onclick', 'onmouseover', 'javascript:'];

/**
 * The page's own scripts are the ones allowed: the SEO plugin's JSON-LD (its JSON has every `<`
 * escaped, so a `<` inside it, a tag breaking out, keeps it from being set aside) and the theme's
 * menu toggle.
 */
const OWN_SCRIPTS = /<script type="application\/ld\+json"[^>]*>[^<]*<\/script>|<script id="theme-menu-toggle">[^<]*<\/script>/g;

const noneOf = (html: string, where: string) => {
  const rest = html.replace(OWN_SCRIPTS, '');
  for (const bad of HOSTILE) assert.ok(!rest.includes(bad), `${where} still has ${bad}: ${rest}`);
};

before(async () => {
  server = await startTestServer();
  admin = await adminAuth(server);
  author = await userAuth(server, 'author');
});
after(() => server.close());

describe('kses on what authors save', () => {
  it("an author's post comes back clean in the API and on the public page", async () => {
    const res = await server.call('cms/v2/posts', { json: { title: TITLE, content: CONTENT, excerpt: EXCERPT, status: 'publish' }, auth: author.auth });
    assert.equal(res.status, 201);
    const post = (await res.json()) as Obj;
    for (const field of ['title', 'content', 'excerpt']) {
      noneOf(post[field].raw, `${field}.raw`);
      noneOf(post[field].rendered, `${field}.rendered`);
    }
    assert.equal(post.title.raw, 'Hello alert(4)<b>bold</b>', 'title_save_pre keeps $allowedtags and the text of what it drops');
    // wp_filter_content_tags adds decoding="async" to every image (WordPress 6.1)
    assert.match(post.content.rendered, /<img decoding="async" src="\/pic.png" alt="pic" \/>/);
    assert.match(post.content.rendered, /<a href="https:\/\/example.org\/">good link<\/a>/);
    assert.match(post.content.rendered, /<p style="color:red">styled<\/p>/);
    assert.equal(post.content.raw.includes('<!--more-->'), true, 'comments such as <!--more--> stay');
    assert.equal(post.excerpt.raw, '<em>Short</em>');

    const viewed = (await (await server.call(`cms/v2/posts/${post.id}`)).json()) as Obj;
    noneOf(viewed.content.rendered, 'content.rendered');
    const page = await fetch(post.link);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.includes('good link') && html.includes('styled'), 'the page shows the post');
    noneOf(html, 'the public page');
  });

  it('an update by the author is filtered too', async () => {
    const created = (await (await server.call('cms/v2/posts', { json: { title: 'Plain', content: 'plain' }, auth: author.auth })).json()) as Obj;
    const res = await server.call(`cms/v2/posts/${created.id}`, { json: { content: CONTENT, title: TITLE }, auth: author.auth });
    assert.equal(res.status, 200);
    const post = (await res.json()) as Obj;
    noneOf(post.content.raw, 'content.raw');
    noneOf(post.title.raw, 'title.raw');
  });

  it("an administrator's post is kept as written (unfiltered_html)", async () => {
    const res = await server.call('cms/v2/posts', { json: { title: TITLE, content: CONTENT, excerpt: EXCERPT, status: 'publish' }, auth: admin });
    assert.equal(res.status, 201);
    const post = (await res.json()) as Obj;
    assert.equal(post.title.raw, TITLE);
    assert.equal(post.content.raw, CONTENT);
    assert.equal(post.excerpt.raw, EXCERPT);
    assert.match(post.content.rendered, /onerror="alert\(1\)"/);
  });
});
