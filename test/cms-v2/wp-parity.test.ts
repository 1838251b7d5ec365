import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';
import { logIn } from '../helpers/login.ts';
import { DATED_PERMALINKS, setOptions } from '../site/content.ts';

// The differences `scripts/wp-parity.ts` found between this server's /wp-json/wp/v2 and a real
// WordPress 6.1.9's (Debian's package, permalinks /%year%/%monthnum%/%day%/%postname%/), each with
// WordPress's answer written in it.

type Obj = Record<string, any>;

const server = useServer({}, async (s) => {
  await setOptions(s, { permalink_structure: DATED_PERMALINKS });
});

const wp = (path: string, init: { method?: string; json?: unknown } = {}) =>
  fetch(`${server.home}/wp-json/${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { authorization: server.admin, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
const created = async (path: string, json: Obj): Promise<Obj> => {
  const res = await wp(path, { json });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json();
};
/** `/YYYY/MM/DD/` of a post's site-local date, as the dated permalink structure writes it. */
const day = (post: Obj) => String(post.date).slice(0, 10).replaceAll('-', '/');

describe('the differences from WordPress 6.1.9 that the side-by-side probe found', () => {
  it('points an answer under /wp-json/ at /wp-json/ in its Link header, as WordPress points at the root it answers under', async () => {
    // WordPress 6.1.9, `curl -I /wp-json/wp/v2/types`: Link: <http://127.0.0.1:8061/wp-json/>; rel="https://api.w.org/"
    for (const path of ['wp/v2/types', 'wp/v2/posts/999999', '']) {
      const res = await fetch(`${server.home}/wp-json/${path}`);
      assert.equal(res.headers.get('link'), `<${server.home}/wp-json/>; rel="https://api.w.org/"`, path);
    }
    // twice: the second anonymous GET is answered from the headers kept for the route
    for (let i = 0; i < 2; i++) assert.equal((await fetch(`${server.api}cms/v2/types`)).headers.get('link'), `<${server.api}>; rel="https://api.w.org/"`);
    assert.equal((await wp('wp/v2/users/me')).headers.get('link'), `<${server.home}/wp-json/>; rel="https://api.w.org/"`);
  });

  it('gives a post published as it is created its permalink as guid, as wp_insert_post does; a draft keeps ?p=ID', async () => {
    // WordPress 6.1.9, POST wp/v2/posts {"title":"fidelity guid published","status":"publish"}:
    // guid {"rendered":"http://127.0.0.1:8061/2026/11/28/fidelity-guid-published/","raw":<the same>}, the link too
    const published = await created('wp/v2/posts', { title: 'fidelity guid published', status: 'publish' });
    const link = `${server.home}/${day(published)}/fidelity-guid-published/`;
    assert.equal(published.link, link);
    assert.deepEqual(published.guid, { rendered: link, raw: link });
    // … and keeps it once its slug changes, as a guid never changes
    const renamed = await (await wp(`wp/v2/posts/${published.id}`, { json: { slug: 'renamed' } })).json();
    assert.deepEqual(renamed.guid, { rendered: link, raw: link });
    // {"title":"fidelity guid draft","status":"draft"}: guid http://127.0.0.1:8061/?p=38, as its link
    const draft = await created('wp/v2/posts', { title: 'fidelity guid draft', status: 'draft' });
    assert.deepEqual(draft.guid, { rendered: `${server.home}/?p=${draft.id}`, raw: `${server.home}/?p=${draft.id}` });
    // POST wp/v2/pages {"title":"fidelity guid page","status":"publish"}: guid http://127.0.0.1:8061/fidelity-guid-page/
    const page = await created('wp/v2/pages', { title: 'fidelity guid page', status: 'publish' });
    assert.deepEqual(page.guid, { rendered: `${server.home}/fidelity-guid-page/`, raw: `${server.home}/fidelity-guid-page/` });
    const child = await created('wp/v2/pages', { title: 'fidelity child', status: 'publish', parent: page.id });
    assert.equal(child.guid.raw, `${server.home}/fidelity-guid-page/fidelity-child/`);
  });

  it("links a navigation post by the permalink structure, as get_permalink links WordPress's built-in wp_navigation", async () => {
    // WordPress 6.1.9, POST wp/v2/navigation {"title":"fidelity navigation","status":"publish","content":""}:
    // link and guid http://127.0.0.1:8061/2026/11/28/fidelity-navigation/; a draft's http://127.0.0.1:8061/?p=41
    const navigation = await created('wp/v2/navigation', { title: 'fidelity navigation', status: 'publish', content: '' });
    const link = `${server.home}/${day(navigation)}/fidelity-navigation/`;
    assert.equal(navigation.link, link);
    assert.deepEqual(navigation.guid, { rendered: link, raw: link });
    assert.equal((await (await wp(`wp/v2/navigation/${navigation.id}`)).json()).link, link);
    const draft = await created('wp/v2/navigation', { title: 'fidelity navigation draft', status: 'draft', content: '' });
    assert.equal(draft.link, `${server.home}/?p=${draft.id}`);
    // the same for the reusable blocks (wp_block is built in too)
    const block = await created('wp/v2/blocks', { title: 'fidelity block', status: 'publish', content: '<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->' });
    assert.equal(block.link, `${server.home}/${day(block)}/fidelity-block/`);
  });

  it("answers OPTIONS on the application passwords' routes with their resource's schema", async () => {
    // WordPress 6.1.9, OPTIONS wp/v2/users/me/application-passwords (and introspect, and one password):
    // WP_REST_Application_Passwords_Controller::get_public_item_schema, read into the fixture
    const schemas = JSON.parse(readFileSync(resolve(ROOT, 'test/fixtures/wordpress-6.1/schemas.json'), 'utf8'));
    const expected = schemas['/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords'].schema;
    assert.equal(expected.title, 'application-password');
    assert.deepEqual(Object.keys(expected.properties), ['uuid', 'app_id', 'name', 'password', 'created', 'last_used', 'last_ip']);
    for (const path of ['wp/v2/users/me/application-passwords', 'wp/v2/users/1/application-passwords/introspect', 'wp/v2/users/1/application-passwords/0b7e1e4a-4e6e-4b4e-9d6a-0e0e0e0e0e0e']) {
      const body = await (await wp(path, { method: 'OPTIONS' })).json();
      assert.equal(JSON.stringify(body.schema), JSON.stringify(expected), path);
    }
  });

  it("gives an autosave's preview_link the caller's preview_nonce, and the site shows the autosave to its author there", async () => {
    const author = await userAuth(server, 'author');
    const browser = await logIn(server.home, author.login, author.password);
    // the block editor's requests: the session cookie with its REST nonce
    const editor = async (path: string, json: Obj) => {
      const res = await fetch(`${server.home}/wp-json/${path}`, { method: 'POST', headers: { cookie: browser.cookie, 'x-wp-nonce': browser.nonce, 'content-type': 'application/json' }, body: JSON.stringify(json) });
      assert.ok(res.status === 200 || res.status === 201, await res.clone().text());
      return res.json();
    };
    const post = await editor('wp/v2/posts', { title: 'fidelity preview', content: '<p>Published words.</p>', status: 'publish' });
    const autosave = await editor(`wp/v2/posts/${post.id}/autosaves`, { title: 'fidelity preview', content: '<p>Autosaved words.</p>' });
    // WordPress 6.1.9, POST wp/v2/posts/{id}/autosaves of a published post: preview_link
    // http://127.0.0.1:8061/2026/11/28/<slug>/?preview_id={id}&preview_nonce=<wp_create_nonce('post_preview_{id}'), ten hex digits>&preview=true
    const m = new RegExp(`^${post.link.replace(/[.?]/g, '\\$&')}\\?preview_id=${post.id}&preview_nonce=([0-9a-f]{10})&preview=true$`).exec(autosave.preview_link);
    assert.ok(m, autosave.preview_link);
    const page = (url: string, cookie?: string) => fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
    const shown = await page(autosave.preview_link, browser.cookie);
    assert.equal(shown.status, 200);
    // nocache_headers(), as WordPress sends a logged-in viewer's pages
    assert.equal(shown.headers.get('cache-control'), 'no-cache, must-revalidate, max-age=0');
    assert.equal(shown.headers.get('expires'), 'Wed, 11 Jan 1984 05:00:00 GMT');
    // the article (the SEO plugin's head describes the post as stored)
    const article = (await shown.text()).split('<main')[1] ?? '';
    assert.ok(article.includes('Autosaved words.') && !article.includes('Published words.'), article);
    assert.ok((await (await page(post.link, browser.cookie)).text()).includes('Published words.'));
    // _show_post_preview: a nonce that is not the viewer's (no session, another user, a forged one) is
    // WordPress's wp_die( 'Sorry, you are not allowed to preview drafts.', 403 ), as 6.1.9 answers it
    const subscriber = await userAuth(server, 'subscriber');
    const other = await logIn(server.home, subscriber.login, subscriber.password);
    for (const [url, cookie] of [[autosave.preview_link, undefined], [autosave.preview_link, other.cookie], [autosave.preview_link.replace(m[1], '0123456789'), browser.cookie]] as const) {
      const denied = await page(url, cookie);
      assert.equal(denied.status, 403, url);
      assert.equal(denied.headers.get('cache-control'), 'no-cache, must-revalidate, max-age=0');
      assert.ok((await denied.text()).includes('<div class="wp-die-message">Sorry, you are not allowed to preview drafts.</div></body>'));
    }
    // an application password has no browser session: its nonce is made with an empty session token
    // (wp_get_session_token), so the browser's session does not accept it, as in WordPress
    const scripted = await (await fetch(`${server.home}/wp-json/wp/v2/posts/${post.id}/autosaves`, { method: 'POST', headers: { authorization: author.auth, 'content-type': 'application/json' }, body: JSON.stringify({ content: '<p>Scripted words.</p>' }) })).json();
    assert.match(scripted.preview_link, /\?preview_id=\d+&preview_nonce=[0-9a-f]{10}&preview=true$/);
    assert.equal((await page(scripted.preview_link, browser.cookie)).status, 403);

    // a draft: its author sees it at ?p=ID&preview=true (the draft's own preview_link); nobody else does
    const draft = await editor('wp/v2/posts', { title: 'fidelity draft preview', content: '<p>Draft words.</p>', status: 'draft' });
    const own = await editor(`wp/v2/posts/${draft.id}/autosaves`, { content: '<p>Draft words, saved.</p>' });
    assert.equal(own.preview_link, `${server.home}/?p=${draft.id}&preview=true`);
    const draftPage = await page(own.preview_link, browser.cookie);
    assert.equal(draftPage.status, 200);
    assert.ok((await draftPage.text()).includes('Draft words, saved.'));
    assert.equal((await page(own.preview_link)).status, 404);
    assert.equal((await page(own.preview_link, other.cookie)).status, 404);
    assert.equal((await page(`${server.home}/?p=${draft.id}`, browser.cookie)).status, 404);
  });

  it("gives the installed administrator the site's address as website, as wp_install does", async () => {
    // WordPress 6.1.9, GET wp/v2/users/1 after the install: "url": "http://127.0.0.1:8061" (wp_guess_url(), no trailing slash)
    const me = await (await wp('wp/v2/users/me')).json();
    assert.equal(me.url, server.home);
    assert.equal((await (await fetch(`${server.home}/wp-json/wp/v2/users/${me.id}`)).json()).url, server.home);
  });

  it("answers a small image's upload as WordPress 6.1.9 does: no sizes, wp_get_attachment_link's quotes, curies only beside wp: links", async () => {
    // a 1×1 PNG, as the probe uploads it
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const res = await fetch(`${server.home}/wp-json/wp/v2/media`, { method: 'POST', headers: { authorization: server.admin, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="fidelity-media.png"' }, body: png });
    assert.equal(res.status, 201);
    const media = await res.json();
    // WordPress 6.1.9, POST wp/v2/media of that file: "sizes": {} (no `full` when no size was made) and
    // description.rendered <p class="attachment"><a href='http://127.0.0.1:8061/wp-content/uploads/2026/11/fidelity-media.png'><img width="1" height="1"
    // src="http://127.0.0.1:8061/wp-content/uploads/2026/11/fidelity-media.png" class="attachment-medium size-medium" alt="" decoding="async" loading="lazy" /></a></p>\n
    assert.deepEqual(media.media_details.sizes, {});
    const src = media.source_url;
    assert.equal(media.description.rendered, `<p class="attachment"><a href='${src}'><img width="1" height="1" src="${src}" class="attachment-medium size-medium" alt="" decoding="async" loading="lazy" /></a></p>\n`);
    assert.deepEqual(Object.keys(media._links), ['self', 'collection', 'about', 'author', 'replies', 'wp:action-unfiltered-html', 'wp:action-assign-author', 'curies']);
    // GET wp/v2/media/{id} anonymously: _links self, collection, about, author, replies, and no curies
    const anonymous = await (await fetch(`${server.home}/wp-json/wp/v2/media/${media.id}`)).json();
    assert.deepEqual(Object.keys(anonymous._links), ['self', 'collection', 'about', 'author', 'replies']);
  });

  it("refuses a password that is not the post's, whoever asks, and does not prefix a protected post's rendered title", async () => {
    const open = await created('wp/v2/posts', { title: 'fidelity open', status: 'publish' });
    // WordPress 6.1.9, GET wp/v2/posts/{id}?password=x of a post without a password, as an administrator:
    // 403 {"code":"rest_post_incorrect_password","message":"Incorrect post password.","data":{"status":403}}, Allow: POST, PUT, PATCH, DELETE;
    // anonymously, the same without an Allow header (no method's permission passes)
    const expected = { code: 'rest_post_incorrect_password', message: 'Incorrect post password.', data: { status: 403 } };
    const asAdmin = await wp(`wp/v2/posts/${open.id}?password=x`);
    assert.equal(asAdmin.status, 403);
    assert.deepEqual(await asAdmin.json(), expected);
    assert.equal(asAdmin.headers.get('allow'), 'POST, PUT, PATCH, DELETE');
    const anonymous = await fetch(`${server.home}/wp-json/wp/v2/posts/${open.id}?password=x`);
    assert.equal(anonymous.status, 403);
    assert.deepEqual(await anonymous.json(), expected);
    assert.equal(anonymous.headers.get('allow'), null);
    // PHP's empty passwords ('' and '0') are not checked
    assert.equal((await fetch(`${server.home}/wp-json/wp/v2/posts/${open.id}?password=0`)).status, 200);
    // POST wp/v2/posts {"title":"fidelity protected","status":"publish","password":"pw",...}: title {"raw":"fidelity protected","rendered":"fidelity protected"}
    // (protected_title_format '%s'); {"title":"fidelity private","status":"private"}: rendered "Private: fidelity private"
    const protectedPost = await created('wp/v2/posts', { title: 'fidelity protected', status: 'publish', password: 'pw', content: '<p>Secret.</p>' });
    assert.deepEqual(protectedPost.title, { raw: 'fidelity protected', rendered: 'fidelity protected' });
    assert.equal((await (await fetch(`${server.home}/wp-json/wp/v2/posts/${protectedPost.id}`)).json()).title.rendered, 'fidelity protected');
    const privatePost = await created('wp/v2/posts', { title: 'fidelity private', status: 'private' });
    assert.deepEqual(privatePost.title, { raw: 'fidelity private', rendered: 'Private: fidelity private' });
    // {"title":"fidelity Locked","status":"private","password":"pw"}: password "" (wp_insert_post empties a private post's),
    // so the title is "Private: fidelity Locked" and the content is not protected; the same when a protected post is made private
    const locked = await created('wp/v2/posts', { title: 'fidelity Locked', status: 'private', password: 'pw' });
    assert.equal(locked.password, '');
    assert.equal(locked.title.rendered, 'Private: fidelity Locked');
    assert.equal(locked.content.protected, false);
    const madePrivate = await (await wp(`wp/v2/posts/${protectedPost.id}`, { json: { status: 'private' } })).json();
    assert.equal(madePrivate.password, '');
  });

  it('gives gravatar URLs on the host get_avatar_data picks for a site served over http', async () => {
    const me = await (await wp('wp/v2/users/me', { json: { email: 'admin@example.test' } })).json();
    // WordPress 6.1.9 over http, GET wp/v2/users/1 of admin@example.test: avatar_urls
    // {"24":"http://2.gravatar.com/avatar/51965088c5db83c3fd307f308d25198a?s=24&d=mm&r=g", "48": …s=48…, "96": …s=96…}
    assert.deepEqual(me.avatar_urls, {
      24: 'http://2.gravatar.com/avatar/51965088c5db83c3fd307f308d25198a?s=24&d=mm&r=g',
      48: 'http://2.gravatar.com/avatar/51965088c5db83c3fd307f308d25198a?s=48&d=mm&r=g',
      96: 'http://2.gravatar.com/avatar/51965088c5db83c3fd307f308d25198a?s=96&d=mm&r=g',
    });
  });
  it('orders titles and names case folded, as the database collation of WordPress 6.1.9 on MariaDB orders them', async () => {
    for (const title of ['banana split', 'Apple pie', 'cherry jam', 'Banana bread', '_under', 'Zebra']) await created('wp/v2/posts', { title, status: 'publish', categories: [] });
    for (const name of ['beta', 'Alpha', '_tag', 'Gamma']) await created('wp/v2/tags', { name });
    // WordPress 6.1.9 (its tables in MariaDB 10.11's utf8mb4_general_ci) with the same posts and tags:
    // `GET posts?orderby=title&order=asc`, `GET tags?orderby=name&hide_empty=false`
    const titles = (await (await wp('wp/v2/posts?orderby=title&order=asc&per_page=100&_fields=title')).json()).map((p: Obj) => p.title.rendered);
    const ours = titles.filter((t: string) => ['banana split', 'Apple pie', 'cherry jam', 'Banana bread', '_under', 'Zebra'].includes(t));
    assert.deepEqual(ours, ['Apple pie', 'Banana bread', 'banana split', 'cherry jam', 'Zebra', '_under']);
    const names = (await (await wp('wp/v2/tags?orderby=name&order=asc&hide_empty=false&per_page=100&_fields=name')).json()).map((t: Obj) => t.name);
    assert.deepEqual(names.filter((n: string) => ['beta', 'Alpha', '_tag', 'Gamma'].includes(n)), ['Alpha', 'beta', 'Gamma', '_tag']);
    const desc = (await (await wp('wp/v2/posts?orderby=title&order=desc&per_page=100&_fields=title')).json()).map((p: Obj) => p.title.rendered);
    assert.deepEqual(desc.filter((t: string) => ours.includes(t)), ['_under', 'Zebra', 'cherry jam', 'banana split', 'Banana bread', 'Apple pie']);
  });
  it('answers a plugin that is not installed 404 for every method, with no Allow, as its permission checks find no plugin', async () => {
    // WordPress 6.1.9: GET, DELETE and POST /wp-json/wp/v2/plugins/no-such/plugin as an administrator
    for (const method of ['GET', 'DELETE', 'POST']) {
      const res = await wp('wp/v2/plugins/no-such/plugin', method === 'POST' ? { json: { status: 'active' } } : { method });
      assert.equal(res.status, 404, method);
      assert.equal(res.headers.get('allow'), null, method);
      assert.deepEqual(await res.json(), { code: 'rest_plugin_not_found', message: 'Plugin not found.', data: { status: 404 } });
    }
    // an installed one still says what the administrator may do with it
    assert.equal((await wp('wp/v2/plugins/oembed/oembed')).headers.get('allow'), 'GET, POST, PUT, PATCH, DELETE');
  });
});
