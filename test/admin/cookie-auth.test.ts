import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';
import { hiddenField, logIn, openLoginScreen, postLogin, sessionCookieOf } from '../helpers/login.ts';
import { ensureAdminBundle } from '../../scripts/build.js';

const NO_CACHE = 'no-cache, must-revalidate, max-age=0';

describe('the login screen and cookie authentication of the REST API', () => {
  let editor: TestUser;
  let author: TestUser;
  const site = useServer({}, async (s) => {
    editor = await userAuth(s, 'editor');
    author = await userAuth(s, 'author');
  });

  test('the admin sends a visitor who is not logged in to the login screen, and back after it', async () => {
    const res = await fetch(`${site.home}/cms-admin/`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    const to = new URL(res.headers.get('location')!);
    assert.equal(to.pathname, '/cms-admin/login');
    assert.equal(to.searchParams.get('redirect_to'), `${site.home}/cms-admin/`);
    assert.equal(to.searchParams.get('reauth'), '1');
    const screen = await (await fetch(to)).text();
    assert.match(screen, /<p class="message" role="status">Please log in to continue\.<\/p>/);
    assert.equal(hiddenField(screen, 'redirect_to'), `${site.home}/cms-admin/`);
  });

  test('wrong, unknown and empty credentials answer wp-login.php’s errors and log nobody in', async () => {
    const screen = await openLoginScreen(site.home);
    const cases: [Record<string, string>, string][] = [
      [{ log: editor.login, pwd: 'not the password' }, `<strong>Error:</strong> The password you entered for the username <strong>${editor.login}</strong> is incorrect. <a href="${site.home}/cms-admin/login?action=lostpassword">Lost your password?</a>`],
      [{ log: `${editor.login}@example.test`, pwd: 'nope' }, `<strong>Error:</strong> The password you entered for the email address <strong>${editor.login}@example.test</strong> is incorrect. <a href="${site.home}/cms-admin/login?action=lostpassword">Lost your password?</a>`],
      [{ log: 'nobody-here', pwd: 'x' }, '<strong>Error:</strong> The username <strong>nobody-here</strong> is not registered on this site. If you are unsure of your username, try your email address instead.'],
      [{ log: 'nobody@example.test', pwd: 'x' }, '<strong>Error:</strong> Unknown email address. Check again or try your username.'],
      [{ log: '', pwd: 'x' }, '<strong>Error:</strong> The username field is empty.'],
      [{ log: editor.login, pwd: '' }, '<strong>Error:</strong> The password field is empty.'],
    ];
    for (const [fields, message] of cases) {
      const res = await postLogin(site.home, screen, fields);
      assert.equal(res.status, 401, JSON.stringify(fields));
      assert.equal(sessionCookieOf(res), screen.cookie, 'the anonymous session stays');
      const html = await res.text();
      assert.ok(html.includes(`<div id="login_error" class="error" role="alert"><p>${message}</p></div>`), html);
    }
  });

  test('a form without its token, or without the cookie it was served with, changes nothing', async () => {
    const screen = await openLoginScreen(site.home);
    const forged = await postLogin(site.home, { cookie: screen.cookie, token: 'forged' }, { log: editor.login, pwd: editor.password });
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /The link you followed has expired/);
    assert.equal(sessionCookieOf(forged), undefined);
    const cookieless = await postLogin(site.home, { cookie: '', token: screen.token }, { log: editor.login, pwd: editor.password });
    assert.equal(cookieless.status, 400);
    assert.match(await cookieless.text(), /Cookies are blocked or not supported by your browser/);
  });

  test('a login sets a new HttpOnly session cookie for the whole site and goes where it was asked, on this site only', async () => {
    const screen = await openLoginScreen(site.home);
    const res = await postLogin(site.home, screen, { log: editor.login, pwd: editor.password, redirect_to: `${site.home}/cms-admin/?page=comments` });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `${site.home}/cms-admin/?page=comments`);
    const set = res.headers.getSetCookie()[0];
    assert.match(set, /^cms_auth_session=[\w.-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    assert.notEqual(sessionCookieOf(res), screen.cookie, 'a session planted before the login is not the one after');

    for (const elsewhere of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const away = await postLogin(site.home, await openLoginScreen(site.home), { log: editor.login, pwd: editor.password, redirect_to: elsewhere });
      assert.equal(away.headers.get('location'), `${site.home}/cms-admin/`, elsewhere);
    }
    const remembered = await postLogin(site.home, await openLoginScreen(site.home), { log: `${editor.login}@example.test`, pwd: editor.password, rememberme: 'forever' });
    assert.equal(remembered.status, 303, 'the email address logs in too');
    assert.match(remembered.headers.getSetCookie()[0], /; Max-Age=1209600$/);

    const admin = await fetch(`${site.home}/cms-admin/`, { headers: { cookie: sessionCookieOf(res)! }, redirect: 'manual' });
    assert.equal(admin.status, 200);
    assert.match(await admin.text(), /<script type="application\/json" id="cms-admin-settings">\{"root":/);
  });

  test('REST: the cookie with its nonce is the user; without a nonce it is nobody; a bad nonce is 403 Cookie check failed', async () => {
    const { cookie, nonce } = await logIn(site.home, editor.login, editor.password);
    const me = await site.call('cms/v2/users/me', { headers: { cookie, 'x-wp-nonce': nonce } });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { id: number }).id, editor.userId);
    assert.match(me.headers.get('x-wp-nonce') ?? '', /^[0-9a-f]{10}$/, 'a refreshed nonce comes back');
    assert.equal(me.headers.get('cache-control'), NO_CACHE);

    const byParam = await fetch(`${site.home}/wp-json/wp/v2/users/me?_wpnonce=${nonce}`, { headers: { cookie } });
    assert.equal(byParam.status, 200, 'the _wpnonce param, at /wp-json/ too');

    await site.error('cms/v2/users/me', { headers: { cookie } }, 401, 'rest_not_logged_in', 'You are not currently logged in.');
    const anonymousList = await site.call('cms/v2/posts?status=draft', { headers: { cookie } });
    assert.equal(anonymousList.status, 400, 'without a nonce the cookie opens nothing: drafts stay out of reach');

    for (const [headers, why] of [
      [{ cookie, 'x-wp-nonce': '0123456789' }, 'a made-up nonce'],
      [{ cookie, 'x-wp-nonce': '' }, 'an empty nonce'],
      [{ 'x-wp-nonce': nonce }, 'the nonce without its cookie'],
    ] as const) {
      const res = await site.call('cms/v2/users/me', { headers });
      assert.equal(res.status, 403, why);
      assert.deepEqual(await res.json(), { code: 'rest_cookie_invalid_nonce', message: 'Cookie check failed', data: { status: 403 } }, why);
      assert.equal(res.headers.get('cache-control'), NO_CACHE, why);
    }
    // the param wins over the header, as $_REQUEST is read first
    const paramFirst = await site.call(`cms/v2/users/me?_wpnonce=bad`, { headers: { cookie, 'x-wp-nonce': nonce } });
    assert.equal(paramFirst.status, 403);
  });

  test('a nonce is bound to its user and to its session', async () => {
    const first = await logIn(site.home, editor.login, editor.password);
    const second = await logIn(site.home, editor.login, editor.password);
    const other = await logIn(site.home, author.login, author.password);
    assert.notEqual(first.nonce, second.nonce);
    for (const [cookie, nonce] of [
      [first.cookie, second.nonce],
      [first.cookie, other.nonce],
      [other.cookie, first.nonce],
    ]) {
      const res = await site.call('cms/v2/users/me', { headers: { cookie, 'x-wp-nonce': nonce } });
      assert.equal(res.status, 403);
    }
  });

  test('writes through the cookie are checked as the user’s own: an author publishes, cannot edit others’ posts', async () => {
    const { cookie, nonce } = await logIn(site.home, author.login, author.password);
    const headers = { cookie, 'x-wp-nonce': nonce };
    const created = await site.call('cms/v2/posts', { headers, json: { title: 'Written in the browser', status: 'publish' } });
    assert.equal(created.status, 201);
    const post = (await created.json()) as { author: number; status: string };
    assert.equal(post.author, author.userId);
    assert.equal(post.status, 'publish');
    const editors = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'The editor’s', status: 'publish' } }, 201);
    await site.error(`cms/v2/posts/${editors.id}`, { method: 'POST', headers, json: { title: 'Taken over' } }, 403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
  });

  test('an application password needs no nonce and gets none back', async () => {
    const res = await site.call('cms/v2/users/me', { auth: editor.auth });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-wp-nonce'), null);
  });

  test('the REST nonce endpoint answers a logged-in browser only', async () => {
    const { cookie } = await logIn(site.home, editor.login, editor.password);
    const fresh = await fetch(`${site.home}/cms-admin/rest-nonce`, { headers: { cookie } });
    assert.equal(fresh.status, 200);
    const nonce = await fresh.text();
    assert.equal((await site.call('cms/v2/users/me', { headers: { cookie, 'x-wp-nonce': nonce } })).status, 200);
    const anonymous = await fetch(`${site.home}/cms-admin/rest-nonce`);
    assert.equal(anonymous.status, 400);
    assert.equal(await anonymous.text(), '0');
  });

  test('logging out needs the session’s token, and ends the session for every copy of its cookie', async () => {
    const { cookie, nonce } = await logIn(site.home, editor.login, editor.password);
    const adminHtml = await (await fetch(`${site.home}/cms-admin/`, { headers: { cookie } })).text();
    const logoutHref = (JSON.parse(/id="cms-admin-settings">(.*?)<\/script>/.exec(adminHtml)![1]) as { logoutUrl: string }).logoutUrl;

    const forged = await fetch(`${site.home}/cms-admin/login?action=logout&_wpnonce=forged`, { headers: { cookie }, redirect: 'manual' });
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /You are attempting to log out of cms-spec<\/p><p>Do you really want to <a href="[^"]+">log out<\/a>\?/);
    assert.equal((await site.call('cms/v2/users/me', { headers: { cookie, 'x-wp-nonce': nonce } })).status, 200, 'still logged in');

    const out = await fetch(logoutHref, { headers: { cookie }, redirect: 'manual' });
    assert.equal(out.status, 302);
    assert.equal(out.headers.get('location'), `${site.home}/cms-admin/login?loggedout=true`);
    assert.match(out.headers.getSetCookie()[0], /^cms_auth_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/);
    assert.match(await (await fetch(out.headers.get('location')!)).text(), /You are now logged out\./);

    // a copy of the cookie kept from before opens nothing any more
    const replayed = await site.call('cms/v2/users/me', { headers: { cookie, 'x-wp-nonce': nonce } });
    assert.equal(replayed.status, 403);
    assert.equal((await fetch(`${site.home}/cms-admin/`, { headers: { cookie }, redirect: 'manual' })).status, 302);
  });

  test('the admin page hands its script the API and a working nonce; its bundle is served gzipped, revalidated, and nothing beside it', async () => {
    await ensureAdminBundle();
    const { cookie } = await logIn(site.home, editor.login, editor.password);
    const page = await fetch(`${site.home}/cms-admin/`, { headers: { cookie } });
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'; default-src 'self'/);
    const html = await page.text();
    const settings = JSON.parse(/<script type="application\/json" id="cms-admin-settings">(.*?)<\/script>/.exec(html)![1]) as Record<string, string>;
    assert.equal(settings.root, `${site.home}/wp-json/`);
    assert.equal(settings.nonceEndpoint, `${site.home}/cms-admin/rest-nonce`);
    assert.equal((await fetch(`${settings.root}wp/v2/users/me`, { headers: { cookie, 'x-wp-nonce': settings.nonce } })).status, 200);
    assert.match(html, new RegExp(`<script type="module" src="${site.home}/cms-admin/assets/admin.js"></script>`));

    const script = await fetch(`${site.home}/cms-admin/assets/admin.js`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(script.status, 200);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=UTF-8');
    assert.equal(script.headers.get('content-encoding'), 'gzip');
    assert.ok((await script.text()).length > 1000, 'fetch undoes the gzip');
    const again = await fetch(`${site.home}/cms-admin/assets/admin.js`, { headers: { 'if-none-match': script.headers.get('etag')! } });
    assert.equal(again.status, 304);
    for (const path of ['assets/../pages.js', 'assets/%2e%2e/pages.js', 'assets/admin.js.map', 'assets/chunks/../../package.json', 'nothing-here'])
      assert.equal((await fetch(`${site.home}/cms-admin/${path}`)).status, 404, path);
  });

  test('a reset-password cookie whose percent-encoding is malformed names no key: wp-login.php sends the visitor back with invalidkey', async () => {
    // PHP decodes any cookie; explode(':', "\xE0", 2) gives no key, and check_password_reset_key refuses it
    for (const value of ['%E0', '%', 'x%E0%A4%A:key']) {
      const res = await fetch(`${site.home}/cms-admin/login?action=rp`, { headers: { cookie: `cms_resetpass=${value}` }, redirect: 'manual' });
      assert.equal(res.status, 302, `${value}: ${await res.clone().text()}`);
      assert.equal(res.headers.get('location'), `${site.home}/cms-admin/login?action=lostpassword&error=invalidkey`);
    }
  });

  test('changing the password ends the user’s sessions', async () => {
    const user = await userAuth(site, 'author');
    const { cookie, nonce } = await logIn(site.home, user.login, user.password);
    assert.equal((await site.call('cms/v2/users/me', { headers: { cookie, 'x-wp-nonce': nonce } })).status, 200);
    await site.json(`cms/v2/users/${user.userId}`, { method: 'POST', json: { password: 'a whole new password' } });
    assert.equal((await site.call('cms/v2/users/me', { headers: { cookie, 'x-wp-nonce': nonce } })).status, 403);
  });
});

describe('failed logins on the login screen are throttled per address', () => {
  const site = useServer();

  test('the sixth wrong password within a minute is refused with 429 and Retry-After, the right one too', async () => {
    const user = await userAuth(site, 'editor');
    const screen = await openLoginScreen(site.home);
    for (let i = 0; i < 5; i++) assert.equal((await postLogin(site.home, screen, { log: user.login, pwd: `wrong ${i}` })).status, 401);
    const refused = await postLogin(site.home, screen, { log: user.login, pwd: user.password });
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    assert.match(await refused.text(), /Too many failed login attempts\. Please try again later\./);
    assert.equal(sessionCookieOf(refused), screen.cookie, 'nobody was logged in');
  });
});
