import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';

const SECRET = /data-secret="([A-Za-z0-9]{10})"/;

describe('oembed/1.0/embed', () => {
  const server = useServer();
  let helloUrl: string;
  let helloId: number;
  const sampleUrl = () => `${server.home}/sample-page/`;
  const embed = (url: string, extra = '') => server.call(`oembed/1.0/embed?url=${encodeURIComponent(url)}${extra}`);

  before(async () => {
    const hello = await server.app.store.posts.findBySlug('hello-world', ['post']);
    assert.ok(hello, 'a new site has the Hello world post');
    helloId = hello.id;
    const [y, m, d] = hello.date.slice(0, 10).split('-');
    helloUrl = `${server.home}/${y}/${m}/${d}/hello-world/`;
  });

  it('answers WordPress oEmbed data for the Hello world post, keys in WordPress order', async () => {
    const res = await embed(helloUrl);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ['version', 'provider_name', 'provider_url', 'author_name', 'author_url', 'title', 'type', 'width', 'height', 'html']);
    assert.equal(body.version, '1.0');
    assert.equal(body.provider_name, 'cms-spec');
    assert.equal(body.provider_url, server.home);
    assert.equal(body.author_name, 'admin');
    assert.equal(body.author_url, `${server.home}/author/admin/`);
    assert.equal(body.title, 'Hello world!');
    assert.equal(body.type, 'rich');
    assert.equal(body.width, 600);
    assert.equal(body.height, 338);
    const secret = SECRET.exec(body.html)?.[1];
    assert.ok(secret, 'the html carries a 10-character secret');
    assert.equal(
      body.html,
      `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${helloUrl}">Hello world!</a></blockquote>` +
        `<iframe sandbox="allow-scripts" security="restricted" src="${helloUrl}embed/#?secret=${secret}" width="600" height="338" title="&#8220;Hello world!&#8221; &#8212; cms-spec" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`,
    );
  });

  it('makes a new secret for every answer', async () => {
    const [a, b] = await Promise.all([embed(helloUrl).then((r) => r.json()), embed(helloUrl).then((r) => r.json())]);
    assert.notEqual(SECRET.exec(a.html)?.[1], SECRET.exec(b.html)?.[1]);
  });

  it('resolves ?p=ID and the Sample Page permalink', async () => {
    const byId = await (await embed(`${server.home}/?p=${helloId}`)).json();
    assert.equal(byId.title, 'Hello world!');
    const page = await embed(sampleUrl());
    assert.equal(page.status, 200);
    const body = await page.json();
    assert.equal(body.title, 'Sample Page');
    assert.match(body.html, new RegExp(`src="${sampleUrl()}embed/#\\?secret=`));
  });

  it('clamps the width to 200–600 and derives the height as WordPress does', async () => {
    for (const [maxwidth, width, height] of [
      ['100', 200, 200],
      ['1000', 600, 338],
      ['400', 400, 225],
      ['abc', 200, 200],
    ] as const) {
      const body = await (await embed(sampleUrl(), `&maxwidth=${maxwidth}`)).json();
      assert.equal(body.width, width, `maxwidth=${maxwidth}`);
      assert.equal(body.height, height, `maxwidth=${maxwidth}`);
      assert.match(body.html, new RegExp(`width="${width}" height="${height}"`));
    }
  });

  it('answers XML for format=xml', async () => {
    const res = await embed(sampleUrl(), '&format=xml&maxwidth=100');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/xml; charset=UTF-8');
    const xml = await res.text();
    assert.ok(xml.startsWith('<?xml version="1.0"?>\n<oembed><version>1.0</version><provider_name>cms-spec</provider_name>'), xml.slice(0, 120));
    assert.match(xml, /<title>Sample Page<\/title><type>rich<\/type><width>200<\/width><height>200<\/height><html>&lt;blockquote class="wp-embedded-content"/);
    assert.ok(xml.trimEnd().endsWith('</html></oembed>'));
  });

  it('treats an unknown format as json', async () => {
    const res = await embed(sampleUrl(), '&format=yaml');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal((await res.json()).title, 'Sample Page');
  });

  it('answers 404 oembed_invalid_url for unknown, off-site and unpublished URLs', async () => {
    const draft = await server.app.store.posts.insert({ title: 'Secret plans', status: 'draft', type: 'post', author: 1 });
    for (const url of [`${server.home}/no-such-page/`, 'https://example.org/2020/01/01/hello-world/', `${server.home}/?p=${draft}`, `${server.home}/?p=999999`]) {
      const res = await embed(url);
      assert.equal(res.status, 404, url);
      assert.deepEqual(await res.json(), { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
    }
  });

  it('answers errors as XML too for format=xml', async () => {
    const res = await embed(`${server.home}/no-such-page/`, '&format=xml');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('content-type'), 'text/xml; charset=UTF-8');
    assert.equal(await res.text(), '<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n');
  });

  it('requires url', async () => {
    const res = await server.call('oembed/1.0/embed');
    assert.equal(res.status, 400);
    assert.equal((await res.json()).code, 'rest_missing_callback_param');
  });

  it('lists both routes with WordPress arg descriptors in the namespace index', async () => {
    const index = await (await server.call('oembed/1.0')).json();
    assert.deepEqual(Object.keys(index.routes), ['/oembed/1.0', '/oembed/1.0/embed', '/oembed/1.0/proxy']);
    const embedArgs = index.routes['/oembed/1.0/embed'].endpoints[0].args;
    assert.deepEqual(embedArgs.format, { default: 'json', required: false });
    assert.deepEqual(embedArgs.maxwidth, { default: 600, required: false });
    assert.equal(embedArgs.url.format, 'uri');
    assert.equal(embedArgs.url.required, true);
    const proxyArgs = index.routes['/oembed/1.0/proxy'].endpoints[0].args;
    assert.deepEqual(proxyArgs.format.enum, ['json', 'xml']);
    assert.equal(proxyArgs.maxwidth.type, 'integer');
    assert.equal(proxyArgs.discover.default, true);
  });

  it('announces the embed endpoints in the head of a post page, and they answer for that post', async () => {
    const html = await (await fetch(helloUrl)).text();
    const json = /<link rel="alternate" title="oEmbed \(JSON\)" type="application\/json\+oembed" href="([^"]+)">/.exec(html);
    const xml = /<link rel="alternate" title="oEmbed \(XML\)" type="text\/xml\+oembed" href="([^"]+)">/.exec(html);
    assert.ok(json && xml, 'both discovery links are in the page');
    assert.equal(json[1], `${server.api}oembed/1.0/embed?url=${encodeURIComponent(helloUrl)}`);
    const data = await (await fetch(json[1])).json();
    assert.equal(data.title, 'Hello world!');
    const xmlRes = await fetch(xml[1].replace(/&amp;/g, '&'));
    assert.equal(xmlRes.headers.get('content-type'), 'text/xml; charset=UTF-8');
  });
});
