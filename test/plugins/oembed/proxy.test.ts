import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useServer } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { LocalSite } from '../../helpers/local-site.ts';
import { setEnv } from '../../helpers/env.ts';

/** A third-party site with an oEmbed endpoint, pages that announce one, and misbehaving endpoints. */
class ProviderSite extends LocalSite {
  lastQuery = new URLSearchParams();
  protected answer(u: URL, _req: IncomingMessage, res: ServerResponse) {
    switch (u.pathname) {
      case '/oembed':
        this.lastQuery = u.searchParams;
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ version: '1.0', type: 'video', title: 'A test video', provider_name: 'Test Provider', width: Number(u.searchParams.get('maxwidth')), height: 180, html: '<iframe src="https://video.example/embed/1"></iframe>' }));
      case '/article':
        res.setHeader('content-type', 'text/html');
        return res.end(`<!DOCTYPE html><html><head><title>An article</title>
<link rel="alternate" type="application/json+oembed" href="${this.base}/discovered?url=${encodeURIComponent(`${this.base}/article`)}&amp;format=json">
</head><body><p>Hello</p></body></html>`);
      case '/discovered':
        this.lastQuery = u.searchParams;
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ version: '1.0', type: 'rich', title: 'An article', html: '<blockquote><a href="https://blog.example/article">An article</a></blockquote><script>alert(1)</script><iframe src="https://blog.example/embed" onload="steal()"></iframe>' }));
      case '/plain':
        res.setHeader('content-type', 'text/html');
        return res.end('<!DOCTYPE html><html><head><title>No oEmbed here</title></head><body></body></html>');
      case '/not-oembed':
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ hello: 'world' }));
      case '/slow':
        return; // never answers
      case '/huge':
        res.setHeader('content-type', 'application/json');
        res.write(`{"version":"1.0","type":"rich","html":"${'x'.repeat(400 * 1024)}`);
        return res.end('"}');
      default:
        res.statusCode = 404;
        return res.end('not found');
    }
  }
}

const provider = new ProviderSite();
let dir: string;
let providersFile: string;

before(async () => {
  await provider.start();
  dir = mkdtempSync(join(tmpdir(), 'oembed-providers-'));
  providersFile = join(dir, 'providers.json');
  const host = provider.base.replace(/[.:/]/g, '\\$&');
  writeFileSync(
    providersFile,
    JSON.stringify([
      { name: 'Test videos', pattern: `${host}/videos/.*`, endpoint: `${provider.base}/oembed` },
      { name: 'Slow', pattern: `${host}/slow-videos/.*`, endpoint: `${provider.base}/slow` },
      { name: 'Huge', pattern: `${host}/huge-videos/.*`, endpoint: `${provider.base}/huge` },
      { name: 'Broken', pattern: `${host}/broken-videos/.*`, endpoint: `${provider.base}/not-oembed` },
    ]),
  );
});
after(async () => {
  await provider.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('oembed/1.0/proxy with the provider allowed', () => {
  let restoreEnv: () => void;
  // the settings are read when the server starts: set before its hook, restored after it closes
  before(() => {
    restoreEnv = setEnv({ CMS_SPEC_OEMBED_PROVIDERS: providersFile, CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1', CMS_SPEC_OUTBOUND_TIMEOUT_MS: '500' });
  });
  const server = useServer();
  after(() => restoreEnv());
  /** `as`: an Authorization value, null for an anonymous call. */
  const proxy = (url: string, extra = '', as: string | null = server.admin) => server.call(`oembed/1.0/proxy?url=${encodeURIComponent(url)}${extra}`, { auth: as ?? undefined });

  it('refuses anonymous callers with 401 and WordPress message', async () => {
    const res = await proxy(`${provider.base}/videos/1`, '', null);
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { code: 'rest_forbidden', message: 'Sorry, you are not allowed to make proxied oEmbed requests.', data: { status: 401 } });
  });

  it('refuses a user who cannot edit posts with 403', async () => {
    const subscriber = await userAuth(server, 'subscriber');
    const res = await proxy(`${provider.base}/videos/1`, '', subscriber.auth);
    assert.equal(res.status, 403);
    assert.equal((await res.json()).code, 'rest_forbidden');
  });

  it('asks the provider whose pattern matches and answers its data', async () => {
    const before = provider.hitsOf('/oembed');
    const res = await proxy(`${provider.base}/videos/1`, '&maxwidth=320&maxheight=240');
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.title, 'A test video');
    assert.equal(body.type, 'video');
    // a listed provider's markup is trusted: only the iframe's title is added (wp_filter_oembed_iframe_title_attribute)
    assert.equal(body.html, '<iframe title="A test video" src="https://video.example/embed/1"></iframe>');
    assert.equal(body.width, 320);
    assert.equal(provider.hitsOf('/oembed'), before + 1);
    assert.equal(provider.lastQuery.get('url'), `${provider.base}/videos/1`);
    assert.equal(provider.lastQuery.get('maxwidth'), '320');
    assert.equal(provider.lastQuery.get('maxheight'), '240');
    assert.equal(provider.lastQuery.get('format'), 'json');
  });

  it('answers a repeated request from the cache without reaching the provider', async () => {
    const url = `${provider.base}/videos/cached`;
    const first = await (await proxy(url, '&maxwidth=500')).json();
    const hits = provider.hitsOf('/oembed');
    const second = await proxy(url, '&maxwidth=500');
    assert.equal(second.status, 200);
    assert.deepEqual(await second.json(), first);
    assert.equal(provider.hitsOf('/oembed'), hits, 'the second call did not reach the provider');
    await proxy(url, '&maxwidth=400');
    assert.equal(provider.hitsOf('/oembed'), hits + 1, 'other args are another cache entry');
  });

  it('discovers the endpoint a page announces and keeps only sandboxed embed markup', async () => {
    const res = await proxy(`${provider.base}/article`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.title, 'An article');
    assert.equal(provider.lastQuery.get('url'), `${provider.base}/article`);
    assert.doesNotMatch(body.html, /<script|onload|alert/);
    // WordPress 6.1.9's WP_oEmbed::data2html of this answer for an unlisted URL (wp_filter_oembed_iframe_title_attribute, then wp_filter_oembed_result)
    const secret = /data-secret="([A-Za-z0-9]{10})"/.exec(body.html)?.[1];
    assert.equal(
      body.html,
      `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="https://blog.example/article">An article</a></blockquote><iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" style="position: absolute; clip: rect(1px, 1px, 1px, 1px);" title="An article" src="https://blog.example/embed#?secret=${secret}" data-secret="${secret}"></iframe>`,
    );
  });

  it('does not discover with discover=false', async () => {
    const pageHits = provider.hitsOf('/article');
    const res = await proxy(`${provider.base}/article`, '&discover=false&maxwidth=300');
    assert.equal(res.status, 404);
    assert.equal((await res.json()).code, 'oembed_invalid_url');
    assert.equal(provider.hitsOf('/article'), pageHits);
  });

  it('answers 404 oembed_invalid_url when nothing yields oEmbed data', async () => {
    for (const url of [`${provider.base}/plain`, `${provider.base}/missing`, `${provider.base}/broken-videos/1`]) {
      const res = await proxy(url);
      assert.equal(res.status, 404, url);
      assert.deepEqual(await res.json(), { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
    }
  });

  it('gives up on a provider that does not answer in time', async () => {
    const res = await proxy(`${provider.base}/slow-videos/1`);
    assert.equal(res.status, 504);
    const body = await res.json();
    assert.equal(body.code, 'oembed_timeout');
    assert.equal(body.data.status, 504);
  });

  it('refuses an answer larger than the size cap', async () => {
    const res = await proxy(`${provider.base}/huge-videos/1`);
    assert.equal(res.status, 502);
    assert.equal((await res.json()).code, 'oembed_response_too_large');
  });

  it('does not cache failures', async () => {
    const hits = provider.hitsOf('/slow');
    await proxy(`${provider.base}/slow-videos/again`);
    await proxy(`${provider.base}/slow-videos/again`);
    assert.equal(provider.hitsOf('/slow'), hits + 2);
  });

  it('answers this site’s own posts directly', async () => {
    const hello = await server.app.store.posts.findBySlug('hello-world', ['post']);
    const res = await proxy(`${server.home}/?p=${hello!.id}`, '&maxwidth=300');
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.provider_name, 'cms-spec');
    assert.equal(body.title, 'Hello world!');
    assert.equal(body.width, 300);
  });
});

describe('oembed/1.0/proxy without an allow-list', () => {
  let restoreEnv: () => void;
  before(() => {
    restoreEnv = setEnv({ CMS_SPEC_OEMBED_PROVIDERS: providersFile, CMS_SPEC_OUTBOUND_ALLOW: undefined, CMS_SPEC_OUTBOUND_TIMEOUT_MS: undefined });
  });
  const server = useServer();
  after(() => restoreEnv());

  it('refuses to fetch from loopback addresses, by address or by name', async () => {
    const port = new URL(provider.base).port;
    const hits = provider.hitsOf('/oembed') + provider.hitsOf('/article');
    for (const url of [`${provider.base}/videos/1`, `${provider.base}/article`, `http://localhost:${port}/article`]) {
      const res = await server.call(`oembed/1.0/proxy?url=${encodeURIComponent(url)}`, { auth: server.admin });
      assert.equal(res.status, 400, url);
      const body = await res.json();
      assert.equal(body.code, 'oembed_forbidden_address', url);
    }
    assert.equal(provider.hitsOf('/oembed') + provider.hitsOf('/article'), hits, 'the provider was never reached');
  });
});
