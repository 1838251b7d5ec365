import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strFromU8, unzipSync } from 'fflate';
import { useServer } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { setEnv } from '../../helpers/env.ts';
import { blockEditor } from '../../../src/plugins/block-editor/plugin.ts';

type Obj = Record<string, any>;

const NS = 'cms-block-editor/v1';
const ROUTES = [`/${NS}`, `/${NS}/url-details`, `/${NS}/export`, `/${NS}/navigation-fallback`];

/** A site whose pages the editor links to, counting what it is asked for. */
class PageSite {
  hits = new Map<string, number>();
  base = '';
  server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
    if (path === '/blog/post') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html><head><title>Tea &amp; Cake</title><link rel="icon" href="favicon.png">' +
          '<meta name="description" content="All about &lt;tea&gt;."><meta property="og:image" content="/images/tea.jpg"></head>' +
          '<body><title>Not the title</title></body></html>',
      );
    } else if (path === '/latin1') {
      res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
      res.end(Buffer.from('<title>Caf\xe9</title>', 'latin1'));
    } else if (path === '/empty') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<title>Not found</title>');
    }
  });
  start = () => new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => ((this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`), resolve())));
  stop = () => new Promise<void>((resolve) => (this.server.closeAllConnections(), this.server.close(() => resolve())));
}

/** `auth`: an Authorization value, null for an anonymous call. */
const details = (site: ReturnType<typeof useServer>, url: string, auth: string | null = site.admin) => site.call(`${NS}/url-details?url=${encodeURIComponent(url)}`, { auth: auth ?? undefined });

for (const variant of ['A', 'B'] as const) {
  describe(`cms-block-editor/v1 in the index of variant ${variant}`, () => {
    const site = useServer({ variant });

    test('the root index lists the namespace with its routes and args; the namespace index answers 200', async () => {
      const index = (await (await site.call('')).json()) as Obj;
      assert.ok(index.namespaces.includes(NS));
      assert.deepEqual(Object.keys(index.routes).filter((k) => k.startsWith(`/${NS}`)), ROUTES);
      assert.deepEqual(index.routes[`/${NS}/url-details`].endpoints, [{ methods: ['GET'], args: { url: { description: 'The URL to process.', type: 'string', format: 'uri', required: true } } }]);
      for (const key of [`/${NS}/export`, `/${NS}/navigation-fallback`]) assert.deepEqual(index.routes[key].endpoints, [{ methods: ['GET'], args: [] }], key);
      const ns = await site.call(NS);
      assert.equal(ns.status, 200);
      assert.deepEqual(Object.keys(((await ns.json()) as Obj).routes), ROUTES);
    });
  });
}

describe('url-details reads a page’s head through the guarded client', () => {
  const pages = new PageSite();
  let restoreEnv: () => void;
  before(async () => {
    await pages.start();
    restoreEnv = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' });
  });
  const site = useServer();
  after(async () => {
    restoreEnv();
    await pages.stop();
  });

  test('only those who edit posts may ask: 401 anonymous, 403 a subscriber, WordPress’s refusal', async () => {
    const anonymous = await details(site, `${pages.base}/blog/post`, null);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(await anonymous.json(), { code: 'rest_cannot_view_url_details', message: 'Sorry, you are not allowed to process remote URLs.', data: { status: 401 } });
    const subscriber = await userAuth(site, 'subscriber');
    assert.equal((await details(site, `${pages.base}/blog/post`, subscriber.auth)).status, 403);
    const contributor = await userAuth(site, 'contributor');
    assert.equal((await details(site, `${pages.base}/latin1`, contributor.auth)).status, 200);
  });

  test('title, icon, description and image from the head, URLs made absolute against the page; cached for a day', async () => {
    const res = await details(site, `${pages.base}/blog/post/`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { title: 'Tea & Cake', icon: `${pages.base}/blog/favicon.png`, description: 'All about .', image: `${pages.base}/images/tea.jpg` });
    assert.equal(pages.hits.get('/blog/post'), 1);
    assert.deepEqual(await (await details(site, `${pages.base}/blog/post`)).json(), (await (await details(site, `${pages.base}/blog/post`)).json()) as Obj);
    assert.equal(pages.hits.get('/blog/post'), 1, 'answered from the cache, not fetched again');
    const cache = site.app.store.plugin(blockEditor);
    assert.equal(await cache.clear(), 2, 'the two pages asked for so far are cached');
    await details(site, `${pages.base}/blog/post`);
    assert.equal(pages.hits.get('/blog/post'), 2, 'fetched again once the cache is empty');
    assert.equal(await cache.get('no-such-key'), undefined);
  });

  test('a page in another charset is decoded as its Content-Type says', async () => {
    assert.equal(((await (await details(site, `${pages.base}/latin1`)).json()) as Obj).title, 'Café');
  });

  test('failures: missing, not http, not found, empty; each a WordPress-style error and nothing cached', async () => {
    const missing = await site.call(`${NS}/url-details`, { auth: site.admin });
    assert.equal(missing.status, 400);
    assert.equal(((await missing.json()) as Obj).code, 'rest_missing_callback_param');
    const ftp = await details(site, 'ftp://example.com/file');
    assert.equal(ftp.status, 400);
    assert.deepEqual(await ftp.json(), { code: 'rest_invalid_param', message: 'Invalid parameter(s): url', data: { status: 400, params: { url: 'Invalid parameter.' }, details: [] } });
    const notFound = await details(site, `${pages.base}/gone`);
    assert.equal(notFound.status, 404);
    assert.deepEqual(await notFound.json(), { code: 'no_response', message: 'URL not found. Response returned a non-200 status code for this URL.', data: { status: 404 } });
    const empty = await details(site, `${pages.base}/empty`);
    assert.equal(empty.status, 404);
    assert.equal(((await empty.json()) as Obj).code, 'no_content');
    await details(site, `${pages.base}/gone`);
    assert.equal(pages.hits.get('/gone'), 2, 'a failure is not cached');
  });
});

describe('url-details refuses private addresses unless the allow-list names them', () => {
  const pages = new PageSite();
  let restoreEnv: () => void;
  before(async () => {
    await pages.start();
    restoreEnv = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: undefined });
  });
  const site = useServer();
  after(async () => {
    restoreEnv();
    await pages.stop();
  });

  test('a loopback address, by address or by name, is refused with 400 and never fetched', async () => {
    const port = new URL(pages.base).port;
    for (const url of [`${pages.base}/blog/post`, `http://localhost:${port}/blog/post`, 'http://169.254.169.254/latest/meta-data']) {
      const res = await details(site, url);
      assert.equal(res.status, 400, url);
      const body = (await res.json()) as Obj;
      assert.equal(body.code, 'url_details_forbidden_address', url);
      assert.match(body.message, /^The URL points to a non-public address \((127\.0\.0\.1|::1|169\.254\.169\.254)\), which this site does not fetch\.$/);
    }
    assert.equal(pages.hits.size, 0);
  });
});

describe('navigation-fallback and export', () => {
  const site = useServer();
  const page = async (title: string, extra: Obj = {}) => ((await (await site.call('cms/v2/pages', { json: { title, status: 'publish', ...extra }, auth: site.admin })).json()) as Obj).id as number;

  test('only those who edit theme options: 401 anonymous, 403 an editor', async () => {
    const editor = await userAuth(site, 'editor');
    for (const [path, code] of [['navigation-fallback', 'rest_cannot_create'], ['export', 'rest_cannot_export_templates']]) {
      const anonymous = await site.call(`${NS}/${path}`);
      assert.equal(anonymous.status, 401, path);
      assert.equal(((await anonymous.json()) as Obj).code, code);
      const refused = await site.call(`${NS}/${path}`, { auth: editor.auth });
      assert.equal(refused.status, 403, path);
      assert.equal(((await refused.json()) as Obj).code, code);
    }
  });

  test('the first call makes the fallback menu from the published pages; later calls answer the same menu', async () => {
    const about = await page('About', { menu_order: 2 });
    const team = await page('Team', { parent: about });
    const contact = await page('Contact & Help', { menu_order: 1 });
    await page('Draft page', { status: 'draft' });
    const res = await site.call(`${NS}/navigation-fallback`, { auth: site.admin });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Obj;
    assert.deepEqual(body, { id: body.id, _links: { self: [{ href: `${site.api}cms/v2/navigation/${body.id}`, embeddable: true }] } });
    const menu = (await site.app.store.posts.get(body.id))!;
    assert.deepEqual([menu.type, menu.status, menu.title, menu.slug], ['cms_navigation', 'publish', 'Navigation', 'navigation']);
    const link = (id: number, label: string, path: string) => `{"label":"${label}","type":"page","id":${id},"url":"${site.home}/${path}/","kind":"post-type"}`;
    // the install's sample page comes first (menu order 0), then Contact (1), then About (2) holding Team
    assert.ok(
      menu.content.endsWith(
        `<!-- wp:navigation-link ${link(contact, 'Contact \\u0026 Help', 'contact-help')} /-->` +
          `<!-- wp:navigation-submenu ${link(about, 'About', 'about')} --><!-- wp:navigation-link ${link(team, 'Team', 'about/team')} /--><!-- /wp:navigation-submenu -->`,
      ),
      menu.content,
    );
    assert.ok(!menu.content.includes('Draft page'));

    await page('Later page');
    const again = (await (await site.call(`${NS}/navigation-fallback`, { auth: site.admin })).json()) as Obj;
    assert.equal(again.id, body.id);
    const { total } = await site.app.store.posts.query({ types: ['cms_navigation'], offset: 0, limit: 0 });
    assert.equal(total, 1, 'made once');
  });

  test('export: the documented error without templates, then the published templates and parts as a zip', async () => {
    const none = await site.call(`${NS}/export`, { auth: site.admin });
    assert.equal(none.status, 404);
    assert.deepEqual(await none.json(), { code: 'rest_no_templates', message: 'The site has no templates or template parts to export.', data: { status: 404 } });

    const { posts } = site.app.store;
    await posts.insert({ type: 'cms_template', status: 'publish', title: 'Index', slug: 'index', content: '<!-- wp:template-part {"slug":"header"} /--><!-- wp:post-content /-->' });
    await posts.insert({ type: 'cms_template_part', status: 'publish', title: 'Header', slug: 'header', content: '<!-- wp:site-title /-->' });
    await posts.insert({ type: 'cms_template', status: 'draft', title: 'Unfinished', slug: 'single', content: 'draft' });
    const res = await site.call(`${NS}/export`, { auth: site.admin });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename=default.zip');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    assert.deepEqual(Object.keys(files).sort(), ['parts/', 'parts/header.html', 'templates/', 'templates/index.html']);
    assert.equal(strFromU8(files['templates/index.html']), '<!-- wp:template-part {"slug":"header"} /--><!-- wp:post-content /-->');
    assert.equal(strFromU8(files['parts/header.html']), '<!-- wp:site-title /-->');
  });
});
