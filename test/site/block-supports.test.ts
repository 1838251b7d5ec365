import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

/**
 * The block supports' render filters (wp-includes/block-supports/layout.php, elements.php,
 * duotone.php of WordPress 6.1) over REST and on the site's pages. Every expected value is what
 * WordPress 6.1.9 answered for the same markup (REST `content.rendered`, and
 * wp_style_engine_get_stylesheet_from_context('block-supports') for the stylesheet), with one
 * difference that is the theme's: twentytwentythree sets `useRootPaddingAwareAlignments`, so
 * WordPress adds `has-global-padding` before a constrained layout's classes; this site's theme
 * does not set it (nor `spacing.blockGap`), and WordPress run with those two settings as this
 * theme has them answers without it, as written here.
 */

const server = useServer();

type Obj = Record<string, any>;

const publish = async (title: string, content: string): Promise<number> => (await server.json('cms/v2/posts', { method: 'POST', json: { title, content, status: 'publish' } }, 201)).id;

/** A constrained group with a link colour inside, flex buttons, columns with a duotone image and a vertical flex group, a legacy `inherit` group with an unset duotone. */
const MIXED = `<!-- wp:group {"layout":{"type":"constrained","contentSize":"40rem","wideSize":"60rem","justifyContent":"left"},"style":{"spacing":{"padding":{"left":"var:preset|spacing|20","right":"1rem"}}}} -->
<div class="wp-block-group" style="padding-right:1rem;padding-left:var(--wp--preset--spacing--20)"><!-- wp:paragraph {"style":{"elements":{"link":{"color":{"text":"var:preset|color|accent"}}}}} -->
<p class="has-link-color">A <a href="#x">link</a></p>
<!-- /wp:paragraph -->

<!-- wp:buttons {"layout":{"type":"flex","justifyContent":"space-between","verticalAlignment":"center"}} -->
<div class="wp-block-buttons"><!-- wp:button -->
<div class="wp-block-button"><a class="wp-block-button__link wp-element-button">Go</a></div>
<!-- /wp:button --></div>
<!-- /wp:buttons --></div>
<!-- /wp:group -->

<!-- wp:columns {"verticalAlignment":"top"} -->
<div class="wp-block-columns are-vertically-aligned-top"><!-- wp:column {"verticalAlignment":"top","style":{"elements":{"link":{"color":{"text":"#0a5bb5"}}}}} -->
<div class="wp-block-column is-vertically-aligned-top"><!-- wp:image {"id":7,"style":{"color":{"duotone":["#000","rgb(255, 128, 0)"]}}} -->
<figure class="wp-block-image"><img src="https://example.org/a.jpg" alt="" class="wp-image-7"/></figure>
<!-- /wp:image --></div>
<!-- /wp:column -->

<!-- wp:column -->
<div class="wp-block-column"><!-- wp:group {"layout":{"type":"flex","orientation":"vertical","justifyContent":"center"}} -->
<div class="wp-block-group"><!-- wp:paragraph -->
<p>Stacked</p>
<!-- /wp:paragraph --></div>
<!-- /wp:group --></div>
<!-- /wp:column --></div>
<!-- /wp:columns -->

<!-- wp:group {"layout":{"inherit":true}} -->
<div class="wp-block-group"><!-- wp:image {"style":{"color":{"duotone":"unset"}}} -->
<figure class="wp-block-image"><img src="https://example.org/b.jpg" alt=""/></figure>
<!-- /wp:image --></div>
<!-- /wp:group -->
`;

// WordPress 6.1.9's content.rendered of MIXED (inner blocks are filtered first, so the buttons are
// wp-container-1 inside the group's 2; every layout block takes a number, with CSS of its own or not)
const MIXED_RENDERED =
  '\n<div class="is-content-justification-left is-layout-constrained wp-container-2 wp-block-group" style="padding-right:1rem;padding-left:var(--wp--preset--spacing--20)">\n<p class="wp-elements-0ed197a2177c21e2eacd4b8ca6017bfc has-link-color">A <a href="#x">link</a></p>\n\n\n\n<div class="is-content-justification-space-between is-layout-flex wp-container-1 wp-block-buttons">\n<div class="wp-block-button"><a class="wp-block-button__link wp-element-button">Go</a></div>\n</div>\n</div>\n\n\n\n<div class="is-layout-flex wp-container-7 wp-block-columns are-vertically-aligned-top">\n<div class="is-layout-flow wp-elements-598759adaceb0be56a2a623ea0bb21ec wp-block-column is-vertically-aligned-top">\n<figure class="wp-duotone-000-rgb2551280-3 wp-block-image"><img decoding="async" src="https://example.org/a.jpg" alt="" class="wp-image-7"/></figure>\n</div>\n\n\n\n<div class="is-layout-flow wp-block-column">\n<div class="is-vertical is-content-justification-center is-layout-flex wp-container-5 wp-block-group">\n<p>Stacked</p>\n</div>\n</div>\n</div>\n\n\n\n<div class="is-layout-constrained wp-block-group">\n<figure class="wp-duotone-unset-8 wp-block-image"><img decoding="async" src="https://example.org/b.jpg" alt=""/></figure>\n</div>\n\n';

// What WordPress 6.1.9 prints for MIXED in wp_footer: the duotone SVG filter (wp_get_duotone_filter_svg),
// then the late styles: each duotone's inline style, then the block-supports stylesheet
// (wp_enqueue_stored_styles' `core-block-supports`, its rules in the order the filters added them)
const MIXED_FOOTER =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 0" width="0" height="0" focusable="false" role="none" style="visibility: hidden; position: absolute; left: -9999px; overflow: hidden;" ><defs><filter id="wp-duotone-000-rgb2551280-3"><feColorMatrix color-interpolation-filters="sRGB" type="matrix" values=" .299 .587 .114 0 0 .299 .587 .114 0 0 .299 .587 .114 0 0 .299 .587 .114 0 0 " /><feComponentTransfer color-interpolation-filters="sRGB" ><feFuncR type="table" tableValues="0 1" /><feFuncG type="table" tableValues="0 0.50196078431373" /><feFuncB type="table" tableValues="0 0" /><feFuncA type="table" tableValues="1 1" /></feComponentTransfer><feComposite in2="SourceGraphic" operator="in" /></filter></defs></svg>' +
  "<style id='wp-duotone-000-rgb2551280-3-inline-css'>\n.wp-duotone-000-rgb2551280-3 img, .wp-duotone-000-rgb2551280-3 .components-placeholder{filter:url('#wp-duotone-000-rgb2551280-3') !important;}\n</style>\n" +
  "<style id='wp-duotone-unset-8-inline-css'>\n.wp-duotone-unset-8 img, .wp-duotone-unset-8 .components-placeholder{filter:none !important;}\n</style>\n" +
  "<style id='core-block-supports-inline-css'>\n" +
  '.wp-elements-0ed197a2177c21e2eacd4b8ca6017bfc a{color:var(--wp--preset--color--accent);}.wp-block-buttons.wp-container-1{justify-content:space-between;align-items:center;}.wp-block-group.wp-container-2 > :where(:not(.alignleft):not(.alignright):not(.alignfull)){max-width:40rem;margin-left:0 !important;margin-right:auto !important;}.wp-block-group.wp-container-2 > .alignwide{max-width:60rem;}.wp-block-group.wp-container-2 .alignfull{max-width:none;}.wp-block-group.wp-container-2 > .alignfull{margin-right:calc(1rem * -1);margin-left:calc(var(--wp--preset--spacing--20) * -1);}.wp-elements-598759adaceb0be56a2a623ea0bb21ec a{color:#0a5bb5;}.wp-block-group.wp-container-5{flex-direction:column;align-items:center;}.wp-block-columns.wp-container-7{flex-wrap:nowrap;}' +
  '\n</style>\n';

/** Two flex groups, one with a paragraph block inside (which an excerpt renders alone) and one without (which it renders whole). */
const TWO_GROUPS = `<!-- wp:group {"layout":{"type":"flex","justifyContent":"center"}} -->
<div class="wp-block-group"><!-- wp:paragraph -->
<p>one</p>
<!-- /wp:paragraph --></div>
<!-- /wp:group -->

<!-- wp:group {"layout":{"type":"flex","justifyContent":"right"}} -->
<div class="wp-block-group"><p>two</p></div>
<!-- /wp:group -->`;

// WordPress 6.1.9's content.rendered of TWO_GROUPS, its containers numbered from `n`
const twoGroups = (n: number) =>
  `\n<div class="is-content-justification-center is-layout-flex wp-container-${n} wp-block-group">\n<p>one</p>\n</div>\n\n\n\n<div class="is-content-justification-right is-layout-flex wp-container-${n + 1} wp-block-group"><p>two</p></div>\n`;

describe('block supports: layout, elements and duotone (WordPress 6.1 render_block filters)', () => {
  let mixed = 0;

  it('renders the layout classes, the elements class and the duotone class in content.rendered, as WordPress does', async () => {
    mixed = await publish('Supports mixed', MIXED);
    for (let i = 0; i < 2; i++) {
      // the second answer is a kept rendering: the same numbers
      const post: Obj = await server.json(`cms/v2/posts/${mixed}`);
      assert.equal(post.content.rendered, MIXED_RENDERED);
      // the excerpt renders the paragraphs of the group and the columns, not the wrappers
      assert.equal(post.excerpt.rendered, '<p>A link Stacked</p>\n');
    }
  });

  it('numbers the containers of a list of posts on from one post to the next, the excerpt taking its own', async () => {
    const first = await publish('Supports list one', TWO_GROUPS);
    const second = await publish('Supports list two', TWO_GROUPS);
    // WordPress 6.1.9, GET /wp/v2/posts?include=…&orderby=id&order=asc: 1 and 2 for the first post's
    // content, 3 for the second group its excerpt renders (the first group's paragraph is rendered alone), then 4 and 5
    for (let i = 0; i < 2; i++) {
      const list: Obj[] = await server.json(`cms/v2/posts?include=${first},${second}&orderby=id&order=asc`);
      assert.deepEqual(list.map((p) => p.content.rendered), [twoGroups(1), twoGroups(4)]);
      assert.deepEqual(list.map((p) => p.excerpt.rendered), ['<p>one two</p>\n', '<p>one two</p>\n']);
    }
    // a request of its own starts again at 1
    assert.equal((await server.json(`cms/v2/posts/${second}`)).content.rendered, twoGroups(1));
  });

  it("prints the duotone filters and the block-supports stylesheet in the site page's footer, not in the content", async () => {
    for (let i = 0; i < 2; i++) {
      const page = await (await fetch(`${server.home}/?p=${mixed}`)).text();
      assert.ok(page.includes(MIXED_RENDERED.trim()), 'the page shows the content as REST renders it');
      assert.ok(page.includes(`${MIXED_FOOTER}</footer>`), 'the footer ends with the supports’ SVG and styles');
      assert.equal(page.split("id='core-block-supports-inline-css'").length, 2, 'one block-supports stylesheet');
    }
  });

  it('prints rules of the same declarations once, their selectors joined (the style engine’s combine_rules_selectors)', async () => {
    const id = await publish('Supports combined', `${TWO_GROUPS}\n\n<!-- wp:group {"layout":{"type":"flex","justifyContent":"center"}} -->\n<div class="wp-block-group"><p>three</p></div>\n<!-- /wp:group -->`);
    const page = await (await fetch(`${server.home}/?p=${id}`)).text();
    // WordPress 6.1.9's wp_style_engine_get_stylesheet_from_context('block-supports') for these three groups
    assert.ok(page.includes("<style id='core-block-supports-inline-css'>\n.wp-block-group.wp-container-2{justify-content:flex-end;}.wp-block-group.wp-container-1,.wp-block-group.wp-container-3{justify-content:center;}\n</style>\n"));
  });

  it('gives a gallery its own numbered class and gap style, and its images their data-id (block_core_gallery_render, render_block_core_image)', async () => {
    const id = await publish('Supports gallery', GALLERIES);
    // WordPress 6.1.9's content.rendered: the gallery takes its number (1) before its layout takes the next (2)
    assert.equal((await server.json(`cms/v2/posts/${id}`)).content.rendered, GALLERIES_RENDERED);
    const page = await (await fetch(`${server.home}/?p=${id}`)).text();
    // wp_enqueue_block_support_styles prints each gallery's gap in wp_footer at priority 11
    const gap = (n: number) => `<style>.wp-block-gallery.wp-block-gallery-${n}{ --wp--style--unstable-gallery-gap: var( --wp--style--gallery-gap-default, var( --gallery-block--gutter-size, var( --wp--style--block-gap, 0.5em ) ) ); gap: var( --wp--style--gallery-gap-default, var( --gallery-block--gutter-size, var( --wp--style--block-gap, 0.5em ) ) )}</style>\n`;
    assert.ok(page.includes(`${gap(1)}${gap(3)}</footer>`), 'the galleries’ gaps end the footer');
  });

  it('gives a table no elements class nor link rule: core/table skips serializing its colours (color.__experimentalSkipSerialization)', async () => {
    const id = await publish('Supports table', TABLE);
    // WordPress 6.1.9's content.rendered: the saved markup, wp_render_elements_support and
    // wp_render_elements_support_styles returning early for a block type that skips link colours
    assert.equal((await server.json(`cms/v2/posts/${id}`)).content.rendered, `\n${TABLE.split('\n')[1]}\n`);
    const page = await (await fetch(`${server.home}/?p=${id}`)).text();
    assert.ok(!page.includes('wp-elements-'), 'no elements class or rule on the page');
  });

  it('prints no markup from a layout value into the page’s style element (the style engine strips tags, as WordPress does)', async () => {
    const id = await publish('Supports hostile', '<!-- wp:group {"layout":{"type":"constrained","contentSize":"</style><script>alert`1`</script>"}} -->\n<div class="wp-block-group"><p>x</p></div>\n<!-- /wp:group -->');
    const page = await (await fetch(`${server.home}/?p=${id}`)).text();
    assert.ok(!page.includes('<script>alert'), 'no script from the attribute');
    // WordPress 6.1.9's stylesheet for it: filter_declaration's wp_strip_all_tags leaves the max-width empty, so it is dropped
    assert.ok(
      page.includes(
        "<style id='core-block-supports-inline-css'>\n.wp-block-group.wp-container-1 > :where(:not(.alignleft):not(.alignright):not(.alignfull)){margin-left:auto !important;margin-right:auto !important;}.wp-block-group.wp-container-1 .alignfull{max-width:none;}\n</style>\n",
      ),
    );
  });

  it('filters a cover’s background with its duotone and labels a file block’s PDF embed (render_block_core_file)', async () => {
    const id = await publish('Supports cover and file', COVER_AND_FILE);
    // WordPress 6.1.9's content.rendered, the file's label doubled as its render callback doubles a saved one
    assert.equal((await server.json(`cms/v2/posts/${id}`)).content.rendered, COVER_AND_FILE_RENDERED);
    const page = await (await fetch(`${server.home}/?p=${id}`)).text();
    // the cover's selectors of the duotone (its block.json's), filtered by the SVG the footer prints
    assert.ok(page.includes("<style id='wp-duotone-8c00b7-fcff41-1-inline-css'>\n.wp-duotone-8c00b7-fcff41-1 > .wp-block-cover__image-background, .wp-duotone-8c00b7-fcff41-1 > .wp-block-cover__video-background{filter:url('#wp-duotone-8c00b7-fcff41-1') !important;}\n</style>\n"));
    assert.ok(page.includes('<filter id="wp-duotone-8c00b7-fcff41-1">'));
  });

  it('lays the layout types out with the base styles WordPress 6.1’s global stylesheet prints for this theme’s settings', async () => {
    const page = await (await fetch(`${server.home}/`)).text();
    const href = /<link rel="stylesheet" id="theme-style" href="([^"]+)"/.exec(page)?.[1];
    assert.ok(href, 'the page links the theme’s stylesheet');
    const css = await (await fetch(href.replace(/&amp;/g, '&'))).text();
    // wp_get_global_stylesheet of WordPress 6.1.9 with this theme's layout settings (contentSize 44rem, no blockGap)
    for (const rule of [
      ':where(.is-layout-flex){gap: 0.5em;}',
      'body .is-layout-constrained > :where(:not(.alignleft):not(.alignright):not(.alignfull)){max-width: var(--wp--style--global--content-size);margin-left: auto !important;margin-right: auto !important;}',
      'body .is-layout-flex{display: flex;}',
      'body .is-layout-flex{flex-wrap: wrap;align-items: center;}',
      ':where(.wp-block-columns.is-layout-flex){gap: 2em;}',
    ])
      assert.ok(css.includes(rule), rule);
  });
});

/** A table with a link colour, as the block test data's (its colours saved on the table element). */
const TABLE = '<!-- wp:table {"style":{"elements":{"link":{"color":{"text":"var:preset|color|vivid-red"}}}},"textColor":"vivid-red"} -->\n<figure class="wp-block-table"><table class="has-vivid-red-color has-text-color has-link-color"><tbody><tr><td><a href="#x">Cell</a></td></tr></tbody></table></figure>\n<!-- /wp:table -->';

/** A gallery of image blocks (WordPress 5.9 on) and one of the older markup, with `ids`. */
const GALLERIES = "<!-- wp:gallery {\"linkTo\":\"none\",\"className\":\"mine\"} -->\n<figure class=\"wp-block-gallery has-nested-images columns-default is-cropped mine\"><!-- wp:image {\"id\":7,\"sizeSlug\":\"large\",\"linkDestination\":\"none\"} -->\n<figure class=\"wp-block-image size-large\"><img src=\"https://example.org/a.jpg\" alt=\"\" class=\"wp-image-7\"/></figure>\n<!-- /wp:image -->\n\n<!-- wp:image {\"id\":8,\"sizeSlug\":\"large\",\"linkDestination\":\"none\"} -->\n<figure class=\"wp-block-image size-large\"><img src=\"https://example.org/b.jpg\" alt=\"\" class=\"wp-image-8\"/></figure>\n<!-- /wp:image --></figure>\n<!-- /wp:gallery -->\n\n<!-- wp:gallery {\"ids\":[7,8],\"columns\":2} -->\n<figure class=\"wp-block-gallery columns-2 is-cropped\"><ul class=\"blocks-gallery-grid\"><li class=\"blocks-gallery-item\"><figure><img src=\"https://example.org/a.jpg\" alt=\"\" data-id=\"7\" class=\"wp-image-7\"/></figure></li><li class=\"blocks-gallery-item\"><figure><img src=\"https://example.org/b.jpg\" alt=\"\" data-id=\"8\" class=\"wp-image-8\"/></figure></li></ul></figure>\n<!-- /wp:gallery -->\n";

// WordPress 6.1.9's content.rendered of GALLERIES
const GALLERIES_RENDERED =
  "\n<figure class=\"is-layout-flex wp-block-gallery-1 wp-block-gallery has-nested-images columns-default is-cropped mine\">\n<figure class=\"wp-block-image size-large\"><img decoding=\"async\" data-id=\"7\"  src=\"https://example.org/a.jpg\" alt=\"\" class=\"wp-image-7\"/></figure>\n\n\n\n<figure class=\"wp-block-image size-large\"><img decoding=\"async\" data-id=\"8\"  src=\"https://example.org/b.jpg\" alt=\"\" class=\"wp-image-8\"/></figure>\n</figure>\n\n\n\n<figure class=\"is-layout-flex wp-block-gallery-3 wp-block-gallery columns-2 is-cropped\"><ul class=\"blocks-gallery-grid\"><li class=\"blocks-gallery-item\"><figure><img decoding=\"async\" src=\"https://example.org/a.jpg\" alt=\"\" data-id=\"7\" class=\"wp-image-7\"/></figure></li><li class=\"blocks-gallery-item\"><figure><img decoding=\"async\" src=\"https://example.org/b.jpg\" alt=\"\" data-id=\"8\" class=\"wp-image-8\"/></figure></li></ul></figure>\n\n";

/** A cover with a duotone and a file block with its PDF preview, as the editor saves them. */
const COVER_AND_FILE = "<!-- wp:cover {\"url\":\"https://example.org/c.jpg\",\"id\":616,\"dimRatio\":50,\"style\":{\"color\":{\"duotone\":[\"#8c00b7\",\"#fcff41\"]}}} -->\n<div class=\"wp-block-cover\"><span aria-hidden=\"true\" class=\"wp-block-cover__background has-background-dim\"></span><img class=\"wp-block-cover__image-background wp-image-616\" alt=\"\" src=\"https://example.org/c.jpg\" data-object-fit=\"cover\"/><div class=\"wp-block-cover__inner-container\"><!-- wp:paragraph {\"align\":\"center\",\"placeholder\":\"Write title…\",\"fontSize\":\"large\"} -->\n<p class=\"has-text-align-center has-large-font-size\">Cover</p>\n<!-- /wp:paragraph --></div></div>\n<!-- /wp:cover -->\n\n<!-- wp:file {\"id\":1690,\"href\":\"https://example.org/file_block.pdf\",\"displayPreview\":true} -->\n<div class=\"wp-block-file\"><object class=\"wp-block-file__embed\" data=\"https://example.org/file_block.pdf\" type=\"application/pdf\" style=\"width:100%;height:600px\" aria-label=\"Embed of file_block.\"></object><a id=\"wp-block-file--media-1\" href=\"https://example.org/file_block.pdf\">file_block</a><a href=\"https://example.org/file_block.pdf\" class=\"wp-block-file__button\" download aria-describedby=\"wp-block-file--media-1\">Download</a></div>\n<!-- /wp:file -->\n";

// WordPress 6.1.9's content.rendered of COVER_AND_FILE
const COVER_AND_FILE_RENDERED =
  "\n<div class=\"wp-duotone-8c00b7-fcff41-1 wp-block-cover\"><span aria-hidden=\"true\" class=\"wp-block-cover__background has-background-dim\"></span><img decoding=\"async\" class=\"wp-block-cover__image-background wp-image-616\" alt=\"\" src=\"https://example.org/c.jpg\" data-object-fit=\"cover\"/><div class=\"wp-block-cover__inner-container\">\n<p class=\"has-text-align-center has-large-font-size\">Cover</p>\n</div></div>\n\n\n\n<div class=\"wp-block-file\"><object class=\"wp-block-file__embed\" data=\"https://example.org/file_block.pdf\" type=\"application/pdf\" style=\"width:100%;height:600px\" aria-label=\"Embed of Embed of file_block..\"></object><a id=\"wp-block-file--media-1\" href=\"https://example.org/file_block.pdf\">file_block</a><a href=\"https://example.org/file_block.pdf\" class=\"wp-block-file__button\" download aria-describedby=\"wp-block-file--media-1\">Download</a></div>\n\n";
