import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

// A navigation's items (core/navigation-link, core/navigation-submenu) in a wp_navigation post's
// content.rendered. The expected value is WordPress 6.1.9's for the same content written through its
// REST API by an administrator (`/wp/v2/navigation`): a custom link, a link to a published post
// with its target, rel, title and description, a link to a page that does not exist and one without
// a label (both left out), and a submenu of two links; addresses and ids are this site's.

describe('navigation links and submenus', () => {
  const site = useServer();

  it('renders a navigation’s links, leaving out those to unpublished posts and those without a label', async () => {
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: Hello & <em>world</em>', status: 'publish', date: '2024-03-05T10:20:30' } }, 201);
    const content = "<!-- wp:navigation-link {\"label\":\"Home \\u0026 <b>more</b>\",\"url\":\"https://example.com/?a=1\\u0026b=2\",\"kind\":\"custom\",\"isTopLevelLink\":true} /-->\n\n<!-- wp:navigation-link {\"label\":\"Hello post\",\"type\":\"post\",\"id\":28,\"url\":\"http://127.0.0.1:8061/2024/03/05/dynblocks-hello-world/\",\"kind\":\"post-type\",\"opensInNewTab\":true,\"rel\":\"me\",\"title\":\"T\",\"description\":\"Desc\"} /-->\n\n<!-- wp:navigation-link {\"label\":\"Draft\",\"type\":\"page\",\"id\":999999,\"kind\":\"post-type\",\"url\":\"https://example.com/x\"} /-->\n\n<!-- wp:navigation-link {\"url\":\"https://example.com/nolabel\"} /-->\n\n<!-- wp:navigation-submenu {\"label\":\"More\",\"url\":\"https://example.com/more\",\"kind\":\"custom\"} -->\n<!-- wp:navigation-link {\"label\":\"Child\",\"url\":\"https://example.com/child\",\"kind\":\"custom\",\"isTopLevelLink\":false} /-->\n\n<!-- wp:navigation-link {\"label\":\"Child 2\",\"url\":\"https://example.com/child2\",\"nofollow\":true} /-->\n<!-- /wp:navigation-submenu -->\n".replace('"id":28,"url":"http://127.0.0.1:8061/2024/03/05/dynblocks-hello-world/"', `"id":${post.id},"url":"${post.link}"`);
    const navigation = await site.json('cms/v2/navigation', { method: 'POST', json: { title: 'dynblocks: nav', status: 'publish', content } }, 201);
    assert.equal(
      navigation.content.rendered,
      [
        `<li class=" wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content"  href="https://example.com/?a=1&#038;b=2"><span class="wp-block-navigation-item__label">Home &amp; <b>more</b></span></a></li>`,
        ``,
        `<li class=" wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content"  href="${post.link}" target="_blank"   rel="me" title="T"><span class="wp-block-navigation-item__label">Hello post</span><span class="wp-block-navigation-item__description">Desc</span></a></li>`,
        ``,
        ``,
        ``,
        ``,
        ``,
        `<li class=" wp-block-navigation-item has-child wp-block-navigation-submenu"><a class="wp-block-navigation-item__content" href="https://example.com/more">More</a><ul class="wp-block-navigation__submenu-container"><li class=" wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content"  href="https://example.com/child"><span class="wp-block-navigation-item__label">Child</span></a></li><li class=" wp-block-navigation-item wp-block-navigation-link"><a class="wp-block-navigation-item__content"  href="https://example.com/child2" rel="nofollow"><span class="wp-block-navigation-item__label">Child 2</span></a></li></ul></li>`,
        ``,
      ].join('\n'),
    );
  });
});
