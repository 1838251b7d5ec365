import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

// A navigation's items (core/navigation-link, core/navigation-submenu) in a wp_navigation post's
// content.rendered. The expected value is WordPress 6.1.9's for the same content written through its
// REST API by an administrator (`/wp/v2/navigation`): a custom link, a link to a published post
// with its target, rel, title and description, a link to a page that does not exist and one without
// a label (both left out), and a submenu of two links; addresses and ids are this site's. Then
// Navigation blocks in a post: one with its own links, one naming a menu post (`ref`).

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

  it('renders a Navigation block: its own links in the responsive container, or the menu post it names', async () => {
    // the layout support's classes come first (its wp_unique_id after the callback's `modal-1`), as in WordPress
    const menu = await site.json('cms/v2/navigation', { method: 'POST', json: { title: 'dynblocks: menu', status: 'publish', content: '<!-- wp:navigation-link {"label":"Menu link","url":"https://example.com/m","kind":"custom","isTopLevelLink":true} /-->' } }, 201);
    const content = "<!-- wp:navigation {\"textColor\":\"primary\",\"overlayBackgroundColor\":\"base\",\"layout\":{\"type\":\"flex\",\"justifyContent\":\"right\"}} -->\n<!-- wp:navigation-link {\"label\":\"One\",\"url\":\"https://example.com/one\",\"kind\":\"custom\",\"isTopLevelLink\":true} /-->\n\n<!-- wp:navigation-submenu {\"label\":\"Two\",\"url\":\"https://example.com/two\",\"kind\":\"custom\"} -->\n<!-- wp:navigation-link {\"label\":\"Two A\",\"url\":\"https://example.com/two-a\",\"kind\":\"custom\",\"isTopLevelLink\":false} /-->\n<!-- /wp:navigation-submenu -->\n<!-- /wp:navigation -->\n\n<!-- wp:navigation {\"ref\":REF,\"overlayMenu\":\"never\",\"fontSize\":\"small\"} /-->\n".replace('REF', String(menu.id));
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: navblock', status: 'publish', content } }, 201);
    assert.equal(
      (await site.json(`cms/v2/posts/${post.id}`, { auth: undefined })).content.rendered,
      [
        "<nav class=\"is-content-justification-right is-layout-flex wp-container-2 has-text-color has-primary-color is-responsive items-justified-right wp-block-navigation\" aria-label=\"\"><button aria-haspopup=\"true\" aria-label=\"Open menu\" class=\"wp-block-navigation__responsive-container-open \" data-micromodal-trigger=\"modal-1\"><svg width=\"24\" height=\"24\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\" aria-hidden=\"true\" focusable=\"false\"><rect x=\"4\" y=\"7.5\" width=\"16\" height=\"1.5\" /><rect x=\"4\" y=\"15\" width=\"16\" height=\"1.5\" /></svg></button>",
        "\t\t\t<div class=\"wp-block-navigation__responsive-container  has-background has-base-background-color\" style=\"\" id=\"modal-1\">",
        "\t\t\t\t<div class=\"wp-block-navigation__responsive-close\" tabindex=\"-1\" data-micromodal-close>",
        "\t\t\t\t\t<div class=\"wp-block-navigation__responsive-dialog\" aria-label=\"Menu\">",
        "\t\t\t\t\t\t\t<button aria-label=\"Close menu\" data-micromodal-close class=\"wp-block-navigation__responsive-container-close\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\" width=\"24\" height=\"24\" aria-hidden=\"true\" focusable=\"false\"><path d=\"M13 11.8l6.1-6.3-1-1-6.1 6.2-6.1-6.2-1 1 6.1 6.3-6.5 6.7 1 1 6.5-6.6 6.5 6.6 1-1z\"></path></svg></button>",
        "\t\t\t\t\t\t<div class=\"wp-block-navigation__responsive-container-content\" id=\"modal-1-content\">",
        "\t\t\t\t\t\t\t<ul class=\"wp-block-navigation__container\"><li class=\"has-text-color has-primary-color wp-block-navigation-item wp-block-navigation-link\"><a class=\"wp-block-navigation-item__content\"  href=\"https://example.com/one\"><span class=\"wp-block-navigation-item__label\">One</span></a></li><li class=\"has-text-color has-primary-color wp-block-navigation-item has-child open-on-hover-click wp-block-navigation-submenu\"><a class=\"wp-block-navigation-item__content\" href=\"https://example.com/two\">Two</a><button aria-label=\"Two submenu\" class=\"wp-block-navigation__submenu-icon wp-block-navigation-submenu__toggle\" aria-expanded=\"false\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"12\" height=\"12\" viewBox=\"0 0 12 12\" fill=\"none\" aria-hidden=\"true\" focusable=\"false\"><path d=\"M1.50002 4L6.00002 8L10.5 4\" stroke-width=\"1.5\"></path></svg></button><ul class=\"wp-block-navigation__submenu-container\"><li class=\"has-text-color has-primary-color has-background has-base-background-color wp-block-navigation-item wp-block-navigation-link\"><a class=\"wp-block-navigation-item__content\"  href=\"https://example.com/two-a\"><span class=\"wp-block-navigation-item__label\">Two A</span></a></li></ul></li></ul>",
        "\t\t\t\t\t\t</div>",
        "\t\t\t\t\t</div>",
        "\t\t\t\t</div>",
        "\t\t\t</div></nav>",
        "",
        "<nav class=\"is-layout-flex has-small-font-size wp-block-navigation has-small-font-size\" aria-label=\"dynblocks: menu\"><ul class=\"wp-block-navigation__container\"><li class=\"has-small-font-size wp-block-navigation-item wp-block-navigation-link\"><a class=\"wp-block-navigation-item__content\"  href=\"https://example.com/m\"><span class=\"wp-block-navigation-item__label\">Menu link</span></a></li></ul></nav>",
        "",
      ].join('\n'),
    );
  });

  it('numbers a menu’s name in the label of each Navigation block showing it again in the same request', async () => {
    const menu = (title: string) => site.json('cms/v2/navigation', { method: 'POST', json: { title, status: 'publish', content: '<!-- wp:navigation-link {"label":"L","url":"https://example.com/l","kind":"custom","isTopLevelLink":true} /-->' } }, 201);
    const [twice, other] = [await menu('dynblocks: twice'), await menu('dynblocks: other')];
    const nav = (ref: number) => `<!-- wp:navigation {"ref":${ref},"overlayMenu":"never"} /-->`;
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: navs', status: 'publish', content: [nav(twice.id), nav(other.id), nav(twice.id), nav(twice.id)].join('\n\n') } }, 201);
    const labels = async () => [...((await site.json(`cms/v2/posts/${post.id}`, { auth: undefined })).content.rendered as string).matchAll(/<nav [^>]*aria-label="([^"]*)"/g)].map((m) => m[1]);
    // WordPress 6.1.9: `static $seen_menu_names` counts each published menu's title through the
    // request, and a count above one is written after the name; a request of its own starts again
    for (let i = 0; i < 2; i++) assert.deepEqual(await labels(), ['dynblocks: twice', 'dynblocks: other', 'dynblocks: twice 2', 'dynblocks: twice 3']);
  });

  it('renders a home link with the Navigation block’s colour and size, none without a label', async () => {
    const content = '<!-- wp:navigation {"overlayMenu":"never","textColor":"primary","style":{"typography":{"fontSize":"18px"}}} -->\n<!-- wp:home-link {"label":"Home \\u0026 away"} /-->\n\n<!-- wp:home-link /-->\n<!-- /wp:navigation -->';
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: home link', status: 'publish', content } }, 201);
    // WordPress's twentytwentythree turns on fluid typography: its answer writes both font sizes as
    // `font-size:clamp(14px, 0.875rem + ((1vw - 7.68px) * 0.481), 18px);`, where this site's theme keeps the size given
    assert.equal(
      (await site.json(`cms/v2/posts/${post.id}`)).content.rendered,
      '<nav style="font-size:18px;" class="is-layout-flex has-text-color has-primary-color wp-block-navigation" aria-label=""><ul class="wp-block-navigation__container">' +
        '<li style="font-size: 18px;" class="has-text-color has-primary-color wp-block-navigation-item wp-block-home-link">' +
        `<a class="wp-block-home-link__content wp-block-navigation-item__content" href="${site.home}" "rel="home">Home &amp; away</a></li></ul></nav>`,
    );
  });
});
