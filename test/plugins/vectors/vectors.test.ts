import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useServer } from '../../helpers/server.ts';
import { userAuth, type TestUser } from '../../helpers/auth.ts';
import { namespaceIndexRoute, routesOf } from '../../helpers/route-index.ts';

const CLEAN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs><path d="M0 0h24v24H0z" fill="url(#g)"/><use href="#g"/></svg>';

/** SVGs that try everything the sanitiser must take out. */
const MALICIOUS = [
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" viewBox="0 0 10 10"><rect width="10" height="10" onclick="alert(2)" onmouseover="alert(3)"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><a xlink:href="http://evil.example/"><rect width="10" height="10"/></a><use xlink:href="http://evil.example/sprite.svg#i"/><a href="javascript:alert(1)"><circle r="3"/></a></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+" width="10" height="10"/><rect width="10" height="10" fill="url(http://evil.example/p.svg#x)" style="background:url(data:text/html,x)"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="http://evil.example"></iframe></body></foreignObject><style>@import url(http://evil.example/x.css);</style><rect width="10" height="10"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><a href="#a"><set attributeName="href" to="javascript:alert(1)"/><animate attributeName="href" values="javascript:alert(1)"/><rect width="10" height="10"/></a></svg>',
];

/** What must not survive in any of them. */
const FORBIDDEN = [/<script/i, /\son\w+=/i, /evil\.example/i, /data:/i, /javascript:/i, /foreignObject/i, /<style/i, /<set/i, /<animate\b/i, /iframe/i];

function assertNothingForbidden(text: string) {
  for (const bad of FORBIDDEN) assert.doesNotMatch(text, bad, text);
}

/** An icon cloud: a search API that echoes what it was asked, and SVG files. */
class IconCloud {
  server!: Server;
  base = '';
  searches: URLSearchParams[] = [];
  async start() {
    this.server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', this.base);
      if (u.pathname === '/svg-api') {
        this.searches.push(u.searchParams);
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ icons: [{ title: `${u.searchParams.get('search')} icon`, url: `${this.base}/icons/star.svg` }], page: Number(u.searchParams.get('page')) }));
      }
      if (u.pathname === '/icons/star.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(MALICIOUS[1]);
      if (u.pathname === '/icons/huge.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(`<svg xmlns="http://www.w3.org/2000/svg"><desc>${'x'.repeat(600 * 1024)}</desc></svg>`);
      if (u.pathname === '/broken') return res.writeHead(200, { 'content-type': 'application/json' }).end('{not json');
      res.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

describe('kb-vector/v1 and kb-custom-svg/v1', () => {
  const cloud = new IconCloud();
  let savedAllow: string | undefined;
  const site = useServer({}, async (s) => {
    await cloud.start();
    await s.app.store.options.set('designkit_svg_search_url', `${cloud.base}/svg-api`);
    await s.app.store.options.set('designkit_svg_license_key', 'LICENSE-123');
  });
  before(() => {
    savedAllow = process.env.CMS_SPEC_OUTBOUND_ALLOW;
    process.env.CMS_SPEC_OUTBOUND_ALLOW = '127.0.0.1';
  });
  after(() => {
    if (savedAllow === undefined) delete process.env.CMS_SPEC_OUTBOUND_ALLOW;
    else process.env.CMS_SPEC_OUTBOUND_ALLOW = savedAllow;
    cloud.server.close();
  });
  let editor: TestUser;

  it('are in the Variant A index exactly as the interface lists them', async () => {
    assert.deepEqual(await routesOf(site, /^\/kb-(vector|custom-svg)\//), {
      '/kb-vector/v1': namespaceIndexRoute('kb-vector/v1'),
      '/kb-vector/v1/vectors': { methods: ['POST'], endpoints: [{ methods: ['POST'], args: [] }] },
      '/kb-custom-svg/v1': namespaceIndexRoute('kb-custom-svg/v1'),
      '/kb-custom-svg/v1/manage': { methods: ['POST'], endpoints: [{ methods: ['POST'], args: [] }] },
      '/kb-custom-svg/v1/search': { methods: ['GET'], endpoints: [{ methods: ['GET'], args: [] }] },
      '/kb-custom-svg/v1/search/add': { methods: ['POST'], endpoints: [{ methods: ['POST'], args: [] }] },
    });
  });

  it('stores a vector as sanitised SVG, readable through cms/v2/designkit_vector', async () => {
    editor = await userAuth(site, 'editor');
    const res = await site.call('kb-vector/v1/vectors', { json: { title: 'Gradient square', vectorSVG: CLEAN }, auth: editor.auth });
    assert.equal(res.status, 200);
    const { value, label } = await res.json();
    assert.equal(label, 'Gradient square');
    const post = await (await site.call(`cms/v2/designkit_vector/${value}?context=edit`, { auth: editor.auth })).json();
    const svg: string = post.content.raw;
    // what is safe is kept: the gradient, its fragment reference, the viewBox
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 24 24">/);
    assert.match(svg, /fill="url\(#g\)"/);
    // DOMPurify drops <use> altogether (it can pull in other documents' markup)
    assert.doesNotMatch(svg, /<use/);
  });

  it('takes every script, handler, external reference, data URI and foreignObject out of malicious SVGs', async () => {
    for (const [i, markup] of MALICIOUS.entries()) {
      const res = await site.call('kb-vector/v1/vectors', { json: { title: `evil ${i}`, vectorSVG: markup }, auth: editor.auth });
      assert.equal(res.status, 200, markup);
      const { value } = await res.json();
      const post = await (await site.call(`cms/v2/designkit_vector/${value}?context=edit`, { auth: editor.auth })).json();
      assertNothingForbidden(post.content.raw);
      assert.match(post.content.raw, /<rect|<circle/, 'the drawing itself is kept');
    }
  });

  it('refuses what is not an SVG with 400 invalid_svg, and stores nothing', async () => {
    const stored = async () => Number((await site.call('cms/v2/designkit_vector?status=any&per_page=1', { auth: editor.auth })).headers.get('x-wp-total'));
    const before = await stored();
    for (const vectorSVG of ['', '<p>hello</p>', 'not markup at all', '<script>alert(1)</script>', undefined]) {
      const res = await site.call('kb-vector/v1/vectors', { json: { title: 'x', vectorSVG }, auth: editor.auth });
      assert.equal(res.status, 400, String(vectorSVG));
      assert.equal((await res.json()).code, 'invalid_svg');
    }
    assert.equal(await stored(), before);
  });

  it('converts a custom SVG to the JSON tree, clean, and keeps it as a designkit_custom_svg post', async () => {
    const res = await site.call('kb-custom-svg/v1/manage', { json: { file: MALICIOUS[2].replace('viewBox="0 0 10 10"', 'viewBox="0 0 10 10" width="10"') }, auth: editor.auth });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.success, true);
    assert.match(body.label, /^SVG \d{4}-\d{2}-\d{2}$/);
    const post = await (await site.call(`cms/v2/designkit_custom_svg/${body.value}?context=edit`, { auth: editor.auth })).json();
    const tree = JSON.parse(post.content.raw);
    assert.equal(tree.vB, '0 0 10 10');
    assert.deepEqual(tree.cD.map((n: { nE: string }) => n.nE), ['a', 'a']);
    assert.deepEqual(tree.cD[0].aBs, {});
    assert.deepEqual(tree.cD[0].children, [{ nE: 'rect', aBs: { width: '10', height: '10' }, children: [] }]);
    assertNothingForbidden(JSON.stringify(tree));
    for (const [json, code] of [[{}, 'missing_file'], [{ file: '<div/>' }, 'invalid_svg'], [{ file: '<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>' }, 'invalid_svg_json']] as const) {
      const bad = await site.call('kb-custom-svg/v1/manage', { json, auth: editor.auth });
      assert.equal(bad.status, 400);
      assert.equal((await bad.json()).code, code);
    }
  });

  it('searches the configured icon cloud with the license key, and says when a search is missing', async () => {
    const res = await site.call('kb-custom-svg/v1/search?search=star&page=2', { auth: editor.auth });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { icons: [{ title: 'star icon', url: `${cloud.base}/icons/star.svg` }], page: 2 });
    const asked = cloud.searches.at(-1)!;
    assert.equal(asked.get('key'), 'LICENSE-123');
    assert.equal(asked.get('site'), site.home);
    const empty = await site.call('kb-custom-svg/v1/search', { auth: editor.auth });
    assert.equal(empty.status, 400);
    assert.equal((await empty.json()).code, 'missing_search');
    await site.app.store.options.set('designkit_svg_search_url', `${cloud.base}/broken`);
    const broken = await site.call('kb-custom-svg/v1/search?search=star', { auth: editor.auth });
    assert.equal(broken.status, 502);
    const body = await broken.text();
    assert.doesNotMatch(body, /LICENSE-123/);
    await site.app.store.options.set('designkit_svg_search_url', `${cloud.base}/svg-api`);
  });

  it('adds an SVG from the cloud through the outbound guard: sanitised, capped, no private addresses', async () => {
    const res = await site.call('kb-custom-svg/v1/search/add', { json: { svgUrl: `${cloud.base}/icons/star.svg`, title: 'Star' }, auth: editor.auth });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.label, 'Star');
    const post = await (await site.call(`cms/v2/designkit_custom_svg/${body.value}?context=edit`, { auth: editor.auth })).json();
    assert.doesNotMatch(post.content.raw, /onload|onclick|onmouseover/);
    const huge = await site.call('kb-custom-svg/v1/search/add', { json: { svgUrl: `${cloud.base}/icons/huge.svg` }, auth: editor.auth });
    assert.equal(huge.status, 502);
    assert.equal((await huge.json()).code, 'response_too_large');
    const port = new URL(cloud.base).port;
    const privateUrl = await site.call('kb-custom-svg/v1/search/add', { json: { svgUrl: `http://127.0.0.2:${port}/icons/star.svg` }, auth: editor.auth });
    assert.equal(privateUrl.status, 400);
    assert.equal((await privateUrl.json()).code, 'invalid_url');
    const missing = await site.call('kb-custom-svg/v1/search/add', { json: { svgUrl: `${cloud.base}/icons/none.svg` }, auth: editor.auth });
    assert.equal(missing.status, 502);
  });

  it('needs edit_others_pages everywhere; the stored types are deleted by those who may', async () => {
    const author = await userAuth(site, 'author');
    for (const [path, json] of [['kb-vector/v1/vectors', { vectorSVG: CLEAN }], ['kb-custom-svg/v1/manage', { file: CLEAN }], ['kb-custom-svg/v1/search/add', { svgUrl: `${cloud.base}/icons/star.svg` }]] as const) {
      assert.equal((await site.call(path, { json })).status, 401, path);
      assert.equal((await site.call(path, { json, auth: author.auth })).status, 403, path);
    }
    assert.equal((await site.call('kb-custom-svg/v1/search?search=x', { auth: author.auth })).status, 403);
    const { value } = await (await site.call('kb-vector/v1/vectors', { json: { vectorSVG: CLEAN }, auth: editor.auth })).json();
    assert.equal((await site.call(`cms/v2/designkit_vector/${value}?force=true`, { method: 'DELETE', auth: author.auth })).status, 403);
    assert.equal((await site.call(`cms/v2/designkit_vector/${value}?force=true`, { method: 'DELETE', auth: editor.auth })).status, 200);
    assert.equal((await site.call(`cms/v2/designkit_vector/${value}`)).status, 404);
  });
});
