import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basicAuth, startTestServer, useServer, type TestServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';

const { browser, label } = await launchBrowser();
after(() => browser.close());

/** The application's side: a local server whose pages record the query they were sent to. */
async function startCallbackServer(): Promise<{ url: string; hits: URL[]; close(): Promise<void> }> {
  const hits: URL[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!DOCTYPE html><title>Back in the app</title><p>done</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe(`the authorization page in ${label}`, () => {
  let server: TestServer;
  let app: Awaited<ReturnType<typeof startCallbackServer>>;
  let editor: TestUser;
  before(async () => {
    server = await startTestServer();
    app = await startCallbackServer();
    editor = await userAuth(server, 'editor');
  });
  after(async () => {
    await app?.close();
    await server?.close();
  });

  const authorizeUrl = async (query: Record<string, string>) => {
    const index = (await (await server.call('')).json()) as { authentication: Record<string, { endpoints: { authorization: string } }> };
    const url = new URL(index.authentication['application-passwords'].endpoints.authorization);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url.toString();
  };

  test('log in, approve, land on success_url with a password that works', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const appId = '4d3e2f1a-5b6c-4d7e-8f90-a1b2c3d4e5f6';
    await page.goto(await authorizeUrl({ app_name: 'Photo Uploader', app_id: appId, success_url: `${app.url}/connected`, reject_url: `${app.url}/declined` }));

    await page.fill('#log', editor.login);
    await page.fill('#pwd', 'not the password');
    await page.click('#wp-submit');
    assert.match(await page.textContent('[role=alert]') ?? '', /incorrect/);

    await page.fill('#pwd', editor.password);
    await page.click('#wp-submit');
    assert.match(await page.textContent('main') ?? '', /Would you like to give Photo Uploader access to your account\?/);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'cms_auth_session')!;
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');

    await Promise.all([page.waitForURL(`${app.url}/connected?**`), page.click('#approve')]);
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('user_login'), editor.login);
    assert.equal(landed.searchParams.get('site_url'), server.home);
    const password = landed.searchParams.get('password')!;
    assert.match(password, /^[A-Za-z0-9]{24}$/);

    const me = await server.call('cms/v2/users/me/application-passwords/introspect', { auth: basicAuth(editor.login, password) });
    assert.equal(me.status, 200);
    const item = (await me.json()) as { name: string; app_id: string };
    assert.equal(item.name, 'Photo Uploader');
    assert.equal(item.app_id, appId);
    await context.close();
  });

  test("at phone width it is WordPress's login: the site's name over a card with margins, a visible focus, the way back to the site", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    try {
      await page.goto(await authorizeUrl({ app_name: 'Photo Uploader' }));
      assert.equal(await page.title(), 'Log In ‹ cms-spec');
      assert.equal(await page.textContent('.site-name'), 'cms-spec');
      const card = (await page.locator('.login-card').boundingBox())!;
      assert.ok(card.x >= 16 && card.x + card.width <= 390 - 16, `a margin either side of the card at 390 px (${card.x}, ${card.width})`);
      assert.ok(card.width >= 300, 'the card keeps its width');
      const field = (await page.locator('#log').boundingBox())!;
      assert.ok(field.x > card.x && field.x + field.width < card.x + card.width, 'the fields sit inside the card');
      await page.focus('#log');
      assert.notEqual(await page.locator('#log').evaluate((el) => getComputedStyle(el).boxShadow), 'none', 'the focused field shows a ring');
      assert.equal(await page.getAttribute('.back-to-site a', 'href'), `${server.home}/`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'nothing wider than the screen');
      await screenshot(page, 'cms-spec-theme-screenshots/phone-login.png');
    } finally {
      await context.close();
    }
  });

  test('reject goes to reject_url with success=false and creates nothing', async () => {
    const before = (await (await server.call(`cms/v2/users/${editor.userId}/application-passwords`, { auth: editor.auth })).json()) as unknown[];
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(await authorizeUrl({ app_name: 'Unwanted', success_url: `${app.url}/connected`, reject_url: `${app.url}/declined` }));
    await page.fill('#log', `${editor.login}@example.test`);
    await page.fill('#pwd', editor.password);
    await page.click('#wp-submit');
    await Promise.all([page.waitForURL(`${app.url}/declined?**`), page.click('#reject')]);
    assert.equal(new URL(page.url()).searchParams.get('success'), 'false');
    assert.equal(new URL(page.url()).searchParams.get('password'), null);
    const afterList = (await (await server.call(`cms/v2/users/${editor.userId}/application-passwords`, { auth: editor.auth })).json()) as unknown[];
    assert.equal(afterList.length, before.length);
    await context.close();
  });
});

describe('the authorization page refuses what WordPress refuses', () => {
  const server = useServer();
  let page: string;
  before(async () => {
    page = server.home + server.app.site.authPath;
  });

  const get = async (query: Record<string, string>) => {
    const r = await fetch(`${page}?${new URLSearchParams(query)}`);
    return { status: r.status, text: await r.text(), headers: r.headers };
  };

  test('redirect URLs must be https, or http on this machine; javascript: and data: never', async () => {
    for (const [url, message] of [
      ['http://example.com/cb', 'The URL must be served over a secure connection.'],
      ['javascript:alert(1)', 'Invalid URL format.'],
      ['data:text/html,hi', 'Invalid URL format.'],
      ['not a url', 'Invalid URL format.'],
    ]) {
      for (const key of ['success_url', 'reject_url']) {
        const r = await get({ app_name: 'x', [key]: url });
        assert.equal(r.status, 400, `${key}=${url}`);
        assert.ok(r.text.includes(message), `${key}=${url}`);
      }
    }
    for (const url of ['https://example.com/cb', 'http://localhost:9/cb', 'http://127.0.0.1/cb', 'http://[::1]:8/cb', 'myapp://callback']) {
      assert.equal((await get({ app_name: 'x', success_url: url })).status, 200, url);
    }
  });

  test('app_id must be a UUID', async () => {
    const r = await get({ app_name: 'x', app_id: '1234' });
    assert.equal(r.status, 400);
    assert.ok(r.text.includes('The application ID must be a UUID.'));
  });

  test('the page cannot be framed and a POST without the session-bound token is refused', async () => {
    const r = await get({ app_name: 'x' });
    assert.equal(r.headers.get('x-frame-options'), 'DENY');
    const forged = await fetch(`${page}?app_name=x`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=login&log=admin&pwd=x&_token=abc', redirect: 'manual' });
    assert.equal(forged.status, 403);
    // the token of one browser does not work with another browser's cookie
    const cookie = r.headers.get('set-cookie')!.split(';')[0];
    const token = /name="_token" value="([^"]+)"/.exec(r.text)![1];
    const other = (await fetch(`${page}?app_name=x`)).headers.get('set-cookie')!.split(';')[0];
    const mixed = await fetch(`${page}?app_name=x`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: other }, body: `action=login&log=admin&pwd=x&_token=${token}`, redirect: 'manual' });
    assert.equal(mixed.status, 403);
    const matching = await fetch(`${page}?app_name=x`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: `action=login&log=admin&pwd=x&_token=${token}`, redirect: 'manual' });
    assert.equal(matching.status, 401); // the token passes; the password does not
  });
});
