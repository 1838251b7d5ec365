import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useServer } from '../helpers/server.ts';
import { LocalSite } from '../helpers/local-site.ts';
import { setEnv } from '../helpers/env.ts';

/*
 * WP_Embed in the_content (priority 8): `[embed]`, a URL alone on its line or in its paragraph, and
 * core/embed blocks. Every expected rendering is what WordPress 6.1.9 printed for the same content
 * (apply_filters('the_content') with the post set up, /tmp harness: `pre_http_request` answering
 * exactly as the provider below does, its URL patterns added through `oembed_providers`; the
 * real WordPress's outbound HTTP is blocked, so its failures are the offline case as it is).
 */

/** A third-party site: listed oEmbed endpoints (video, photo, link, one that 404s) and a page that announces one for discovery. */
class ProviderSite extends LocalSite {
  protected answer(u: URL, _req: IncomingMessage, res: ServerResponse) {
    const json = (data: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(data));
    };
    const width = u.searchParams.get('maxwidth');
    switch (u.pathname) {
      case '/oembed':
        return json({ version: '1.0', type: 'video', title: 'A test video', provider_name: 'Test Provider', width: Number(width), height: 180, html: `<iframe src="https://video.example/embed/1" width="${width}" height="180"\nframeborder="0" allowfullscreen></iframe>` });
      case '/photo-oembed':
        return json({ version: '1.0', type: 'photo', url: 'https://img.example/p.jpg', width: 640, height: 480, title: 'A "photo" & more' });
      case '/link-oembed':
        return json({ version: '1.0', type: 'link', title: 'A <b>link</b> & more' });
      case '/article':
        res.setHeader('content-type', 'text/html');
        return res.end(`<!DOCTYPE html><html><head><title>An article</title>
<link rel="alternate" type="application/json+oembed" href="${this.base}/discovered?url=${encodeURIComponent(`${this.base}/article`)}&amp;format=json">
</head><body><p>Hello</p></body></html>`);
      case '/discovered':
        return json({ version: '1.0', type: 'rich', title: 'An article', html: '<blockquote><a href="https://blog.example/article">An article</a></blockquote><script>alert(1)</script><iframe src="https://blog.example/embed" width="400" height="225" onload="steal()"></iframe>' });
      default:
        res.statusCode = 404;
        return res.end('not found');
    }
  }
}

/** serialize( wp_embed_defaults() ) in WordPress 6.1.9 (no $content_width: 500 wide, a float 750 high). */
const DEFAULT_ATTRIBUTES = 'a:2:{s:5:"width";i:500;s:6:"height";d:750;}';
/** The suffix of WP_Embed::shortcode's meta keys: md5( $url . serialize( $attr ) ). */
const cacheKey = (url: string, serializedAttributes = DEFAULT_ATTRIBUTES) => createHash('md5').update(url + serializedAttributes).digest('hex');
const SECRET = '([A-Za-z0-9]{10})';
/** A literal made a pattern, with `(SECRET)` standing for wp_generate_password( 10, false ). */
const withSecrets = (literal: string) => new RegExp(`^${literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').split('\\(SECRET\\)').join(SECRET)}$`);

const provider = new ProviderSite();
let dir: string;
let restoreEnv: () => void;

before(async () => {
  await provider.start();
  dir = mkdtempSync(join(tmpdir(), 'embeds-providers-'));
  const host = provider.base.replace(/[.:/]/g, '\\$&');
  const providersFile = join(dir, 'providers.json');
  writeFileSync(
    providersFile,
    JSON.stringify([
      { name: 'Test videos', pattern: `${host}/videos/.*`, endpoint: `${provider.base}/oembed` },
      { name: 'Test photos', pattern: `${host}/photos/.*`, endpoint: `${provider.base}/photo-oembed` },
      { name: 'Test links', pattern: `${host}/links/.*`, endpoint: `${provider.base}/link-oembed` },
      { name: 'Gone', pattern: `${host}/gone/.*`, endpoint: `${provider.base}/missing` },
      // YouTube's watch URLs answered here (WordPress's harness answered www.youtube.com/oembed the same way)
      { name: 'YouTube here', pattern: 'https?://youtube\\.com/watch.*', endpoint: `${provider.base}/oembed` },
    ]),
  );
  // the provider is on the loopback: allowed, as the oembed plugin's tests allow it; 192.168.0.1 stays refused
  restoreEnv = setEnv({ CMS_SPEC_OEMBED_PROVIDERS: providersFile, CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1', CMS_SPEC_OUTBOUND_TIMEOUT_MS: '2000' });
});
after(async () => {
  restoreEnv();
  await provider.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('embeds in the_content', () => {
  const server = useServer();
  const meta = (id: number, key: string) => server.app.store.posts.meta.get(id, key);
  const create = (json: Record<string, unknown>) => server.json('cms/v2/posts', { method: 'POST', json: { status: 'publish', ...json } }, 201);
  const rendered = async (id: number): Promise<string> => (await server.json(`cms/v2/posts/${id}`)).content.rendered;

  const classic = (base: string) => `Before

${base}/videos/1

[embed width="400" height="300"]${base}/videos/2[/embed]

${base}/article

${base}/photos/1

<p>${base}/links/1</p>

${base}/gone/1

[embed]http://192.168.0.1/a?b=1&amp;c=2[/embed]

Text and http://192.168.0.1/alone
http://192.168.0.1/alone

[embed src="https://no-such-host.invalid/src"]

After`;

  /** WordPress 6.1.9's the_content of `classic`: the listed provider's markup with its iframe titled, the discovered one cut down by wp_filter_oembed_result, what failed left as written (autoembed) or linked ([embed]). */
  const classicRendered = (base: string) => `<p>Before</p>
<p><iframe loading="lazy" title="A test video" src="https://video.example/embed/1" width="500" height="180"frameborder="0" allowfullscreen></iframe></p>
<p><iframe loading="lazy" title="A test video" src="https://video.example/embed/1" width="400" height="180"frameborder="0" allowfullscreen></iframe></p>
<blockquote class="wp-embedded-content" data-secret="(SECRET)"><p><a href="https://blog.example/article">An article</a></p></blockquote>
<p><iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" style="position: absolute; clip: rect(1px, 1px, 1px, 1px);" title="An article" src="https://blog.example/embed#?secret=(SECRET)" data-secret="(SECRET)" width="400" height="225"></iframe></p>
<p><a href="${base}/photos/1"><img decoding="async" loading="lazy" src="https://img.example/p.jpg" alt="A &quot;photo&quot; &amp; more" width="640" height="480" /></a></p>
<p><a href="${base}/links/1">A &lt;b&gt;link&lt;/b&gt; &amp; more</a></p>
<p>${base}/gone/1</p>
<p><a href="http://192.168.0.1/a?b=1&#038;c=2">http://192.168.0.1/a?b=1&amp;c=2</a></p>
<p>Text and http://192.168.0.1/alone<br />
http://192.168.0.1/alone</p>
<p><a href="https://no-such-host.invalid/src">https://no-such-host.invalid/src</a></p>
<p>After</p>
`;

  let classicId = 0;

  it('embeds URLs alone on their line or paragraph and [embed] as WordPress 6.1 does, and leaves what fails as WordPress leaves it', async () => {
    const base = provider.base;
    classicId = (await create({ title: 'Embeds', content: classic(base) })).id;
    const html = await rendered(classicId);
    assert.match(html, withSecrets(classicRendered(base)));
    const [, s1, s2, s3] = /data-secret="(\w+)".*secret=(\w+)" data-secret="(\w+)"/s.exec(html)!;
    assert.ok(s1 === s2 && s2 === s3, 'one secret pairs the blockquote and the iframe');
    // the provider is asked with wp_embed_defaults() (and the [embed]'s own size) as maxwidth and maxheight
    assert.equal(provider.hitsOf('/oembed'), 2);
    assert.equal(provider.hitsOf('/article'), 1);
    assert.equal(provider.hitsOf('/discovered'), 1);
  });

  it('keeps each answer in the post meta under the keys WordPress names, failures as {{unknown}} without a time', async () => {
    const now = Math.floor(Date.now() / 1000);
    const video = cacheKey(`${provider.base}/videos/1`);
    // WordPress 6.1.9's cached value: data2html with the iframe's title, its line breaks taken out
    assert.equal(await meta(classicId, `_oembed_${video}`), '<iframe title="A test video" src="https://video.example/embed/1" width="500" height="180"frameborder="0" allowfullscreen></iframe>');
    const time = Number(await meta(classicId, `_oembed_time_${video}`));
    assert.ok(time <= now && time > now - 600, `_oembed_time_ holds when it was asked (${time})`);
    const sized = cacheKey(`${provider.base}/videos/2`, 'a:2:{s:5:"width";s:3:"400";s:6:"height";s:3:"300";}');
    assert.match((await meta(classicId, `_oembed_${sized}`))!, /width="400"/);
    // the URL as the shortcode reads it: kses's &amp; made & again
    for (const failed of [`${provider.base}/gone/1`, 'http://192.168.0.1/a?b=1&c=2', 'http://192.168.0.1/alone']) {
      assert.equal(await meta(classicId, `_oembed_${cacheKey(failed)}`), '{{unknown}}', failed);
      assert.equal(await meta(classicId, `_oembed_time_${cacheKey(failed)}`), undefined, failed);
    }
    // [embed src=…]: the src is one of the attributes the key is made of
    assert.equal(await meta(classicId, `_oembed_${cacheKey('https://no-such-host.invalid/src', 'a:3:{s:5:"width";i:500;s:6:"height";d:750;s:3:"src";s:32:"https://no-such-host.invalid/src";}')}`), '{{unknown}}');
  });

  it('renders from the post meta afterwards, without asking the provider again, whatever its age', async () => {
    const hits = provider.hitsOf('/oembed');
    const anonymous = async () => (await server.json(`cms/v2/posts/${classicId}`, { auth: undefined })).content.rendered;
    const first = await rendered(classicId);
    assert.equal(await anonymous(), first);
    const video = cacheKey(`${provider.base}/videos/1`);
    // older than oembed_ttl (a day): a rendering still serves it (WP_Embed::$usecache), only a save refreshes it
    await server.app.store.posts.meta.set(classicId, `_oembed_${video}`, '<p>an old answer</p>');
    await server.app.store.posts.meta.set(classicId, `_oembed_time_${video}`, String(Math.floor(Date.now() / 1000) - 2 * 86400));
    // a rendering with an embed reads the meta every time (it is never kept, src/core/kept-renderings.ts),
    // and an anonymous answer that read it is stale once the meta is written: no rendering made before
    // an answer was cached, or refreshed, outlives it
    const second = await rendered(classicId);
    assert.equal(second, first.replace(/<p><iframe loading="lazy" title="A test video"[^\n]*width="500"[^\n]*\n/, '<p>an old answer</p>\n'));
    assert.equal(await anonymous(), second);
    assert.equal(provider.hitsOf('/oembed'), hits);
  });

  it('asks again, when the post is saved, for answers older than a day and for URLs that gave nothing (WP_Embed::cache_oembed)', async () => {
    const video = cacheKey(`${provider.base}/videos/1`);
    const sized = cacheKey(`${provider.base}/videos/2`, 'a:2:{s:5:"width";s:3:"400";s:6:"height";s:3:"300";}');
    await server.app.store.posts.meta.set(classicId, `_oembed_${sized}`, '<p>a recent answer</p>');
    const hits = { video: provider.hitsOf('/oembed'), missing: provider.hitsOf('/missing'), article: provider.hitsOf('/article') };
    await server.json(`cms/v2/posts/${classicId}`, { method: 'POST', json: { title: 'Embeds, saved again' } });
    // the old one asked again; the recent one (and the discovered one, asked a moment ago) kept
    assert.equal(provider.hitsOf('/oembed'), hits.video + 1);
    assert.equal(await meta(classicId, `_oembed_${video}`), '<iframe title="A test video" src="https://video.example/embed/1" width="500" height="180"frameborder="0" allowfullscreen></iframe>');
    assert.ok(Number(await meta(classicId, `_oembed_time_${video}`)) > Math.floor(Date.now() / 1000) - 600);
    assert.equal(await meta(classicId, `_oembed_${sized}`), '<p>a recent answer</p>');
    assert.equal(provider.hitsOf('/article'), hits.article);
    // {{unknown}} has no time: asked again, still nothing
    assert.equal(provider.hitsOf('/missing'), hits.missing + 1);
    assert.equal(await meta(classicId, `_oembed_${cacheKey(`${provider.base}/gone/1`)}`), '{{unknown}}');
  });

  it('leaves hostile and broken URLs as WordPress 6.1 does: escaped, linked by [embed] only to what esc_url keeps', async () => {
    const content = `[embed width="1e300" height="NaN"]http://127.0.0.1:9/%E0[/embed]

[embed]javascript:alert(1)[/embed]

[embed][/embed]

https://

[embed]http://192.168.0.1/a b[/embed]

http://192.168.0.1/x?y=<script>

[embed]http://192.168.0.1/"onmouseover="x[/embed]

http://192.168.0.1/&#039;x`;
    const id = (await create({ title: 'Hostile embeds', content })).id;
    assert.equal(
      await rendered(id),
      `<p><a href="http://127.0.0.1:9/%E0">http://127.0.0.1:9/%E0</a></p>
<p><a href="">javascript:alert(1)</a></p>
<p>https://</p>
<p><a href="http://192.168.0.1/a%20b">http://192.168.0.1/a b</a></p>
<p>http://192.168.0.1/x?y=<script></p>
<p><a href="http://192.168.0.1/onmouseover=x">http://192.168.0.1/&quot;onmouseover=&quot;x</a></p>
<p>http://192.168.0.1/&#039;x</p>
`,
    );
  });

  it('renders content made to make the embed regexes backtrack as WordPress does a short one of it: every empty [embed] gone, no URL alone', async () => {
    // PCRE stops such a match at its backtracking limit, JavaScript never: the scans must stay linear
    const content = `${'[embed]'.repeat(20_000)}${'\n'.repeat(50_000)}x https://a${' \n'.repeat(20_000)}`;
    const id = (await create({ title: 'Many embeds', content })).id;
    assert.equal(await rendered(id), '<p>x https://a </p>\n');
  });

  it('embeds a YouTube embed URL as its watch URL, at the default size whatever the [embed] says (wp_embed_handler_youtube)', async () => {
    const hits = provider.hitsOf('/oembed');
    const id = (await create({ title: 'YouTube', content: 'Watch:\n\nhttps://www.youtube.com/embed/abc123\n\n[embed width="320"]https://www.youtube.com/embed/abc123[/embed]\n' })).id;
    const iframe = '<iframe loading="lazy" title="A test video" src="https://video.example/embed/1" width="500" height="180"frameborder="0" allowfullscreen></iframe>';
    assert.equal(await rendered(id), `<p>Watch:</p>\n<p>${iframe}</p>\n<p>${iframe}</p>\n`);
    assert.equal(provider.hitsOf('/oembed'), hits + 1, 'one answer, kept under the watch URL');
    assert.match((await meta(id, `_oembed_${cacheKey('https://youtube.com/watch?v=abc123')}`))!, /^<iframe title="A test video"/);
  });

  it('embeds core/embed blocks and this site’s own posts as the wp-embedded-content card', async () => {
    const own = await create({ title: 'Embedded post', content: 'Shown elsewhere.' });
    const link = own.link as string;
    const base = provider.base;
    const blocks = `<!-- wp:embed {"url":"${base}/videos/3","type":"video","providerNameSlug":"test-provider","responsive":true,"className":"wp-embed-aspect-16-9 wp-has-aspect-ratio"} -->
<figure class="wp-block-embed is-type-video is-provider-test-provider wp-block-embed-test-provider wp-embed-aspect-16-9 wp-has-aspect-ratio"><div class="wp-block-embed__wrapper">
${base}/videos/3
</div><figcaption class="wp-element-caption">A caption</figcaption></figure>
<!-- /wp:embed -->

<!-- wp:embed {"url":"http://192.168.0.1/offline","type":"rich"} -->
<figure class="wp-block-embed is-type-rich"><div class="wp-block-embed__wrapper">
http://192.168.0.1/offline
</div></figure>
<!-- /wp:embed -->

<!-- wp:paragraph -->
<p>${base}/links/2</p>
<!-- /wp:paragraph -->

<!-- wp:embed {"url":"${link}","type":"wp-embed","providerNameSlug":"cms-spec"} -->
<figure class="wp-block-embed is-type-wp-embed is-provider-cms-spec wp-block-embed-cms-spec"><div class="wp-block-embed__wrapper">
${link}
</div></figure>
<!-- /wp:embed -->`;
    const id = (await create({ title: 'Blocks with embeds', content: blocks })).id;
    const siteName = (await server.json('')).name as string;
    // WordPress 6.1.9's do_blocks after autoembed; this site's post: get_post_embed_html (500 wide, 282 high)
    // through data2html's filters, so the iframe's src carries two secrets as WordPress's does
    const expected = `
<figure class="wp-block-embed is-type-video is-provider-test-provider wp-block-embed-test-provider wp-embed-aspect-16-9 wp-has-aspect-ratio"><div class="wp-block-embed__wrapper">
<iframe loading="lazy" title="A test video" src="https://video.example/embed/1" width="500" height="180"frameborder="0" allowfullscreen></iframe>
</div><figcaption class="wp-element-caption">A caption</figcaption></figure>



<figure class="wp-block-embed is-type-rich"><div class="wp-block-embed__wrapper">
http://192.168.0.1/offline
</div></figure>



<p><a href="${base}/links/2">A &lt;b&gt;link&lt;/b&gt; &amp; more</a></p>



<figure class="wp-block-embed is-type-wp-embed is-provider-cms-spec wp-block-embed-cms-spec"><div class="wp-block-embed__wrapper">
<blockquote class="wp-embedded-content" data-secret="(SECRET)"><a href="${link}">Embedded post</a></blockquote><iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" style="position: absolute; clip: rect(1px, 1px, 1px, 1px);" title="&#8220;Embedded post&#8221; &#8212; ${siteName}" src="${link}embed/#?secret=(SECRET)#?secret=(SECRET)" data-secret="(SECRET)" width="500" height="282" frameborder="0" marginwidth="0" marginheight="0" scrolling="no"></iframe>
</div></figure>
`;
    const html = await rendered(id);
    assert.match(html, withSecrets(expected));
    // the card, as cached: the same secrets at every rendering
    assert.equal(await rendered(id), html);
    const card = await meta(id, `_oembed_${cacheKey(link)}`);
    assert.ok(card && html.includes(card), 'the card shown is the one kept in the meta');
  });

  it('sizes the card of an [embed width] of this site’s post as get_oembed_response_data does (at least 200 high)', async () => {
    const own = await create({ title: 'Small card', content: 'x' });
    const id = (await create({ title: 'Small', content: `[embed width="300"]${own.link}[/embed]` })).id;
    const html = await rendered(id);
    assert.match(html, /^<blockquote class="wp-embedded-content" data-secret="\w{10}"><p><a href="[^"]+">Small card<\/a><\/p><\/blockquote>\n<p><iframe [^>]* width="300" height="200" frameborder="0" marginwidth="0" marginheight="0" scrolling="no"><\/iframe><\/p>\n$/);
  });
});
