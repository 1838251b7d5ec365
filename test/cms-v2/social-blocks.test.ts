import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

// The Social Icons block (static, providing its colours, new-tab switch and labels as context) and
// its links (core/social-link) in a post's content.rendered. The expected value is WordPress 6.1.9's
// content.rendered of the same post written through its REST API by an administrator, the layout
// support's `is-layout-flex` class on each list.

const MARKUP = "<!-- wp:social-links {\"iconColor\":\"vivid-red\",\"iconColorValue\":\"#cf2e2e\",\"openInNewTab\":true,\"className\":\"is-style-pill-shape\"} -->\n<ul class=\"wp-block-social-links has-icon-color is-style-pill-shape\"><!-- wp:social-link {\"url\":\"https://example.bandcamp.com\",\"service\":\"bandcamp\"} /-->\n\n<!-- wp:social-link {\"url\":\"someone@example.com\",\"service\":\"mail\"} /-->\n\n<!-- wp:social-link {\"url\":\"example.com/me\",\"service\":\"nosuch\",\"label\":\"Me & co\"} /-->\n\n<!-- wp:social-link {\"service\":\"twitter\"} /--></ul>\n<!-- /wp:social-links -->\n\n<!-- wp:social-links {\"showLabels\":true} -->\n<ul class=\"wp-block-social-links has-visible-labels\"><!-- wp:social-link {\"url\":\"https://example.com/feed/?a=1&b=2\",\"service\":\"feed\"} /--></ul>\n<!-- /wp:social-links -->\n";

describe('the Social Icons blocks', () => {
  const site = useServer();

  it('renders each link with its service’s icon and label, an address as mailto:, a bare host as https://, none without a URL', async () => {
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: social', status: 'publish', content: MARKUP } }, 201);
    assert.equal(
      (await site.json(`cms/v2/posts/${post.id}`)).content.rendered,
      [
        "",
        "<ul class=\"is-layout-flex wp-block-social-links has-icon-color is-style-pill-shape\"><li style=\"color: #cf2e2e; \" class=\"wp-social-link wp-social-link-bandcamp wp-block-social-link\"><a href=\"https://example.bandcamp.com\" rel=\"noopener nofollow\" target=\"_blank\" class=\"wp-block-social-link-anchor\"><svg width=\"24\" height=\"24\" viewBox=\"0 0 24 24\" version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" aria-hidden=\"true\" focusable=\"false\"><path d=\"M15.27 17.289 3 17.289 8.73 6.711 21 6.711 15.27 17.289\"></path></svg><span class=\"wp-block-social-link-label screen-reader-text\">Bandcamp</span></a></li>",
        "",
        "<li style=\"color: #cf2e2e; \" class=\"wp-social-link wp-social-link-mail wp-block-social-link\"><a href=\"mailto:someone@example.com\" rel=\"noopener nofollow\" target=\"_blank\" class=\"wp-block-social-link-anchor\"><svg width=\"24\" height=\"24\" viewBox=\"0 0 24 24\" version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" aria-hidden=\"true\" focusable=\"false\"><path d=\"M20,4H4C2.895,4,2,4.895,2,6v12c0,1.105,0.895,2,2,2h16c1.105,0,2-0.895,2-2V6C22,4.895,21.105,4,20,4z M20,8.236l-8,4.882 L4,8.236V6h16V8.236z\"></path></svg><span class=\"wp-block-social-link-label screen-reader-text\">Mail</span></a></li>",
        "",
        "<li style=\"color: #cf2e2e; \" class=\"wp-social-link wp-social-link-nosuch wp-block-social-link\"><a href=\"https://example.com/me\" rel=\"noopener nofollow\" target=\"_blank\" class=\"wp-block-social-link-anchor\"><svg width=\"24\" height=\"24\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\"><path d=\"M9 11.8l6.1-4.5c.1.4.4.7.9.7h2c.6 0 1-.4 1-1V5c0-.6-.4-1-1-1h-2c-.6 0-1 .4-1 1v.4l-6.4 4.8c-.2-.1-.4-.2-.6-.2H6c-.6 0-1 .4-1 1v2c0 .6.4 1 1 1h2c.2 0 .4-.1.6-.2l6.4 4.8v.4c0 .6.4 1 1 1h2c.6 0 1-.4 1-1v-2c0-.6-.4-1-1-1h-2c-.5 0-.8.3-.9.7L9 12.2v-.4z\"/></svg><span class=\"wp-block-social-link-label screen-reader-text\">Me &amp; co</span></a></li>",
        "",
        "</ul>",
        "",
        "",
        "",
        "<ul class=\"is-layout-flex wp-block-social-links has-visible-labels\"><li class=\"wp-social-link wp-social-link-feed wp-block-social-link\"><a href=\"https://example.com/feed/?a=1&#038;b=2\"  class=\"wp-block-social-link-anchor\"><svg width=\"24\" height=\"24\" viewBox=\"0 0 24 24\" version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" aria-hidden=\"true\" focusable=\"false\"><path d=\"M2,8.667V12c5.515,0,10,4.485,10,10h3.333C15.333,14.637,9.363,8.667,2,8.667z M2,2v3.333 c9.19,0,16.667,7.477,16.667,16.667H22C22,10.955,13.045,2,2,2z M4.5,17C3.118,17,2,18.12,2,19.5S3.118,22,4.5,22S7,20.88,7,19.5 S5.882,17,4.5,17z\"></path></svg><span class=\"wp-block-social-link-label\">RSS Feed</span></a></li></ul>",
        "",
        "",
      ].join('\n'),
    );
  });
});
