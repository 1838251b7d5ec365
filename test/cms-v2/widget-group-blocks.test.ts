import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

// The widget blocks render/widget-blocks.ts renders: core/shortcode, core/widget-group and
// core/legacy-widget (for a widget type nobody registered, or none named). The expected value is
// WordPress 6.1.9's content.rendered of the same post written through its REST API by an administrator.

const CONTENT = `<!-- wp:shortcode -->
[nothing_here]
second line

next
<!-- /wp:shortcode -->

<!-- wp:widget-group {"title":"<b>Hi</b> & bye","className":"k"} -->
<!-- wp:paragraph -->
<p>x</p>
<!-- /wp:paragraph -->

<!-- wp:separator -->
<hr class="wp-block-separator has-alpha-channel-opacity"/>
<!-- /wp:separator -->
<!-- /wp:widget-group -->

<!-- wp:widget-group {"title":"0"} /-->

<!-- wp:legacy-widget {"idBase":"nothing"} /-->

<!-- wp:legacy-widget /-->`;

describe('widget blocks: shortcode, widget group, legacy widget', () => {
  const site = useServer();

  it('gives a shortcode block paragraphs, a group its escaped title and its blocks, an unknown legacy widget nothing', async () => {
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'blocksfam widgets', status: 'publish', content: CONTENT } }, 201);
    assert.equal(
      post.content.rendered,
      '<p>[nothing_here]<br />\nsecond line</p>\n<p>next</p>\n\n\n' +
        '<h2 class="widget-title">&lt;b&gt;Hi&lt;/b&gt; &amp; bye</h2><div class="wp-widget-group__inner-blocks">\n<p>x</p>\n\n<hr class="wp-block-separator has-alpha-channel-opacity"/>\n</div>\n\n' +
        '<div class="wp-widget-group__inner-blocks"></div>\n\n\n\n',
    );
  });

  it('leaves only the paragraph’s newline of a shortcode block whose [gallery] prints nothing, as the test data’s Shortcode post', async () => {
    const content = '<!-- wp:paragraph -->\n<p>Before</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:shortcode -->\n[gallery columns=2 ids="987654,987653"]\n<!-- /wp:shortcode -->\n\n<!-- wp:paragraph -->\n<p>After</p>\n<!-- /wp:paragraph -->';
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'blocksfam empty gallery', status: 'publish', content } }, 201);
    // WordPress 6.1.9: render_block_core_shortcode's wpautop gives `<p>[gallery …]</p>\n`,
    // shortcode_unautop takes the paragraph off, gallery_shortcode prints '' for ids that are no
    // attachments: the two blocks' "\n\n\n" around the one "\n" wpautop left
    assert.equal(post.content.rendered, '\n<p>Before</p>\n\n\n\n\n\n\n<p>After</p>\n');
  });

  it('answers them in block-types as dynamic blocks, the widget group without a title', async () => {
    const group = await site.json('cms/v2/block-types/core/widget-group');
    // WordPress 6.1.9's GET wp/v2/block-types/core/widget-group
    assert.deepEqual(
      [group.is_dynamic, group.title, group.description, group.category, group.attributes, group.supports, group.style_handles],
      [true, '', '', 'widgets', { title: { type: 'string' }, lock: { type: 'object' }, className: { type: 'string' } }, { html: false, inserter: true, customClassName: true, reusable: false }, ['wp-block-widget-group']],
    );
    const legacy = await site.json('cms/v2/block-types/core/legacy-widget');
    assert.deepEqual([legacy.is_dynamic, legacy.attributes], [true, { id: { type: 'string', default: null }, idBase: { type: 'string', default: null }, instance: { type: 'object', default: null }, lock: { type: 'object' } }]);
  });
});
