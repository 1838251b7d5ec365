import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { useServer } from '../helpers/server.ts';

/**
 * core/rss as WordPress 6.1's render_block_core_rss renders it, from a feed a local server
 * serves. The markup of the items is render_block_core_rss's (blocks/rss.php), written out here:
 * the reference WordPress's PHP has no XML extension, so every feed it fetches fails with
 * `XML or PCRE extensions not loaded!`. Its answer for the site's own address is its literal one.
 */

const server = useServer();

const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>Local news</title><link>https://news.example/</link>
<item><title>Older &amp; wiser</title><link>https://news.example/older/</link><pubDate>Mon, 01 Jan 2024 10:00:00 +0000</pubDate><dc:creator><![CDATA[Ada]]></dc:creator>
<description><![CDATA[<p>One two three four five six.</p>]]></description></item>
<item><title><![CDATA[Newer <em>one</em>]]></title><link>https://news.example/newer/</link><pubDate>Tue, 02 Jan 2024 23:30:00 -0200</pubDate><author>news@example.org</author><dc:creator>Bob</dc:creator>
<description>It&#8217;s here &amp; now [...]</description></item>
<item><title></title><link>https://news.example/untitled/</link><pubDate>Sun, 31 Dec 2023 08:00:00 +0000</pubDate><description>x</description></item>
</channel></rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom</title>
<entry><title type="html">Atom &lt;b&gt;entry&lt;/b&gt;</title><link rel="alternate" href="https://atom.example/1"/><updated>2024-02-03T04:05:06Z</updated><author><name>Cy</name></author><summary>Short summary here</summary></entry>
</feed>`;

describe('core/rss (render_block_core_rss)', () => {
  let feeds: Server;
  let base = '';
  let savedAllow: string | undefined;
  before(async () => {
    feeds = createServer((req, res) => {
      if (req.url === '/rss') return res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(FEED);
      if (req.url === '/atom') return res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(ATOM);
      if (req.url === '/empty') return res.writeHead(200, { 'content-type': 'application/rss+xml' }).end('<rss version="2.0"><channel><title>Empty</title></channel></rss>');
      res.writeHead(200, { 'content-type': 'text/plain' }).end('not < xml');
    });
    await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}`;
    savedAllow = process.env.CMS_SPEC_OUTBOUND_ALLOW;
    process.env.CMS_SPEC_OUTBOUND_ALLOW = '127.0.0.1';
  });
  after(() => {
    if (savedAllow === undefined) delete process.env.CMS_SPEC_OUTBOUND_ALLOW;
    else process.env.CMS_SPEC_OUTBOUND_ALLOW = savedAllow;
    feeds.close();
  });

  const render = async (attributes: Record<string, unknown>): Promise<string> => {
    const res = await server.call('cms/v2/block-renderer/core/rss?context=edit', { method: 'POST', json: { attributes }, auth: server.admin });
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { rendered: string }).rendered;
  };

  it('lists the newest items first, titled and linked, as a list by default', async () => {
    assert.equal(
      await render({ feedURL: `${base}/rss` }),
      '<ul class="wp-block-rss">' +
        "<li class='wp-block-rss__item'><div class='wp-block-rss__item-title'><a href='https://news.example/newer/'>Newer one</a></div></li>" +
        "<li class='wp-block-rss__item'><div class='wp-block-rss__item-title'><a href='https://news.example/older/'>Older &amp; wiser</a></div></li>" +
        "<li class='wp-block-rss__item'><div class='wp-block-rss__item-title'><a href='https://news.example/untitled/'>(no title)</a></div></li></ul>",
    );
  });

  it('shows the dates (date_i18n of the UTC time, an empty datetime as get_option( c ) gives), the first author and the trimmed excerpts, in a grid', async () => {
    assert.equal(
      await render({ feedURL: `${base}/rss`, itemsToShow: 2, displayDate: true, displayAuthor: true, displayExcerpt: true, excerptLength: 3, blockLayout: 'grid', columns: 3 }),
      '<ul class="is-grid columns-3 has-dates has-authors has-excerpts wp-block-rss">' +
        // an RSS 2.0 author is an e-mail, and the first author: its name is empty; html_entity_decode makes &#8217; a ’, which esc_attr leaves
        "<li class='wp-block-rss__item'><div class='wp-block-rss__item-title'><a href='https://news.example/newer/'>Newer one</a></div>" +
        '<time datetime="" class="wp-block-rss__item-publish-date">January 3, 2024</time> <span class="wp-block-rss__item-author">by </span>' +
        '<div class="wp-block-rss__item-excerpt">It’s here &amp; [&hellip;]</div></li>' +
        "<li class='wp-block-rss__item'><div class='wp-block-rss__item-title'><a href='https://news.example/older/'>Older &amp; wiser</a></div>" +
        '<time datetime="" class="wp-block-rss__item-publish-date">January 1, 2024</time> <span class="wp-block-rss__item-author">by Ada</span>' +
        '<div class="wp-block-rss__item-excerpt">One two three [&hellip;]</div></li></ul>',
    );
  });

  it('reads Atom entries too', async () => {
    assert.equal(
      await render({ feedURL: `${base}/atom`, displayAuthor: true, displayExcerpt: true }),
      '<ul class="has-authors has-excerpts wp-block-rss">' +
        "<li class='wp-block-rss__item'><div class='wp-block-rss__item-title'><a href='https://atom.example/1'>Atom entry</a></div>" +
        '<span class="wp-block-rss__item-author">by Cy</span><div class="wp-block-rss__item-excerpt">Short summary here</div></li></ul>',
    );
  });

  it('shows WordPress’s placeholders: the site’s own address, a feed with no items, a fetch or parse that fails', async () => {
    // WordPress 6.1.9's answer for a feed at the site's home URL
    assert.equal(
      await render({ feedURL: server.home }),
      '<div class="components-placeholder"><div class="notice notice-error">Adding an RSS feed to this site’s homepage is not supported, as it could lead to a loop that slows down your site. Try using another block, like the <strong>Latest Posts</strong> block, to list posts from the site.</div></div>',
    );
    assert.equal(await render({ feedURL: `${base}/empty` }), '<div class="components-placeholder"><div class="notice notice-error">An error has occurred, which probably means the feed is down. Try again later.</div></div>');
    // the error's words are the guarded client's and the parser's, where WordPress gives cURL's and libxml's
    const refused = await render({ feedURL: 'http://10.255.255.1/feed/' });
    assert.ok(refused.startsWith('<div class="components-placeholder"><div class="notice notice-error"><strong>RSS Error:</strong> WP HTTP Error: '), refused);
    const invalid = await render({ feedURL: `${base}/text` });
    assert.ok(invalid.startsWith('<div class="components-placeholder"><div class="notice notice-error"><strong>RSS Error:</strong> This XML document is invalid, likely due to invalid characters. XML error: '), invalid);
  });
});
