import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { useServer } from '../helpers/server.ts';

// The blocks that show what the site keeps elsewhere: core/block (a reusable block), core/pattern,
// core/template-part and core/site-logo. Expected values are WordPress 6.1.9's content.rendered of a
// post of the same content (its reusable blocks, template part and logo made through its REST API
// by an administrator too; the_content's wp_filter_content_tags gives the logo its loading="lazy"
// first); addresses, ids, the site's name and its theme (WordPress's twentytwentythree, this
// site's `default`) are this site's.

type Obj = Record<string, any>;

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } } }).png().toBuffer();

describe('theme blocks: reusable block, pattern, template part, site logo', () => {
  const site = useServer();
  const post = async (content: string): Promise<Obj> => site.json('cms/v2/posts', { method: 'POST', json: { title: 'blocksfam post', status: 'publish', content } }, 201);
  const reusable = async (json: Obj): Promise<Obj> => site.json('cms/v2/blocks', { method: 'POST', json: { title: 'blocksfam', status: 'publish', ...json } }, 201);
  const rendered = async (content: string) => (await post(content)).content.rendered as string;

  it('renders a published reusable block in place, and nothing for a draft, another type or a block inside itself', async () => {
    const kept = await reusable({ content: '<!-- wp:paragraph -->\n<p>Reused &amp; kept</p>\n<!-- /wp:paragraph -->' });
    const draft = await reusable({ status: 'draft', content: '<!-- wp:paragraph -->\n<p>Draft</p>\n<!-- /wp:paragraph -->' });
    const self = await reusable({ content: 'x' });
    await site.json(`cms/v2/blocks/${self.id}`, { method: 'POST', json: { content: `<!-- wp:paragraph -->\n<p>Outer</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:block {"ref":${self.id}} /-->` } });
    const other = await post('<!-- wp:paragraph -->\n<p>A post</p>\n<!-- /wp:paragraph -->');
    const content = [kept.id, draft.id, self.id, other.id, 0].map((id) => `<!-- wp:block {"ref":${id}} /-->`).join('\n\n');
    assert.equal(await rendered(content), '\n<p>Reused &amp; kept</p>\n\n\n\n\n\n<p>Outer</p>\n\n\n\n\n\n\n');
  });

  it('renders a registered pattern’s blocks, and nothing for a slug nobody registered', async () => {
    // WordPress 6.1.9's do_blocks of this site's core/quote-with-citation pattern's content
    const quote = '\n<blockquote class="wp-block-quote"><p>A sentence worth repeating.</p><cite>Someone who said it</cite></blockquote>\n';
    assert.equal(await rendered('<!-- wp:pattern {"slug":"core/quote-with-citation"} /-->\n\n<!-- wp:pattern {"slug":"core/nothing"} /-->'), `${quote}\n\n`);
  });

  it('renders the site’s stored template part in its area’s element, texturized, smilies and all, not inside itself', async () => {
    const part = await site.json('cms/v2/template-parts', {
      method: 'POST',
      json: {
        slug: 'blocksfam-part', title: 'Blocksfam part', area: 'header',
        content: '<!-- wp:paragraph -->\n<p>It\'s a "part" :) [nothing_here]</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:template-part {"slug":"blocksfam-part","theme":"default"} /-->',
      },
    }, 201);
    assert.equal(part.id, 'default//blocksfam-part');
    // WordPress 6.1.9's block-types answer lists the theme's parts after the two areas, the stored ones
    // first, each described as "1" (6.1's `description || '&nbsp;'` is PHP's boolean `||`)
    const variation = (slug: string, title: string, area: string, icon: string) => {
      const attributes = { slug, theme: 'default', area };
      return { name: slug, title, description: '1', attributes, scope: ['inserter'], icon, example: { attributes } };
    };
    const type = await site.json('cms/v2/block-types/core/template-part');
    assert.deepEqual(type.variations.slice(2), [
      variation('blocksfam-part', 'Blocksfam part', 'header', 'header'),
      variation('footer', 'Footer', 'footer', 'footer'),
      variation('header', 'Header', 'header', 'header'),
      variation('sidebar', 'Sidebar', 'uncategorized', 'layout'),
    ]);
    const inner = '\n<p>It&#8217;s a &#8220;part&#8221; \u{1F642} [nothing_here]</p>\n\n\n';
    assert.equal(await rendered('<!-- wp:template-part {"slug":"blocksfam-part","theme":"default"} /-->'), `<header class="wp-block-template-part">${inner}</header>`);
    assert.equal(await rendered('<!-- wp:template-part {"slug":"blocksfam-part","theme":"default","tagName":"aside","className":"k"} /-->'), `<aside class="k wp-block-template-part">${inner}</aside>`);
    // a tag name tag_escape changes is not used: the area's element is
    assert.equal(await rendered('<!-- wp:template-part {"slug":"blocksfam-part","theme":"default","tagName":"Aside"} /-->'), `<header class="wp-block-template-part">${inner}</header>`);
  });

  it('renders an empty element for a part that is not found or of another theme', async () => {
    assert.equal(
      await rendered('<!-- wp:template-part {"slug":"nothing","theme":"default"} /-->\n\n<!-- wp:template-part {"slug":"header","theme":"other","tagName":"section"} /-->'),
      '<div class="wp-block-template-part"></div>\n\n<section class="wp-block-template-part"></section>',
    );
  });

  it('renders nothing without a logo, then the logo linked home, scaled to a width, unlinked or opening a new tab', async () => {
    assert.equal(await rendered('<!-- wp:site-logo /-->'), '');
    const res = await fetch(`${site.api}cms/v2/media`, { method: 'POST', body: await png(600, 400), headers: { authorization: site.admin, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="blocksfam-logo.png"' } });
    assert.equal(res.status, 201);
    const logo = (await res.json()) as Obj;
    await site.json('cms/v2/settings', { method: 'POST', json: { site_logo: logo.id } });
    const url = logo.source_url as string;
    const srcset = `srcset="${url} 600w, ${url.replace(/\.png$/, '-300x200.png')} 300w"`;
    const img = (width: number, height: number, alt = 'cms-spec') =>
      `<img loading="lazy" width="${width}" height="${height}" src="${url}" class="custom-logo" alt="${alt}" decoding="async" ${srcset} sizes="(max-width: ${width}px) 100vw, ${width}px" />`;
    const home = `${site.home}/`;
    assert.equal(await rendered('<!-- wp:site-logo /-->'), `<div class="is-default-size wp-block-site-logo"><a href="${home}" class="custom-logo-link" rel="home">${img(600, 400)}</a></div>`);
    assert.equal(await rendered('<!-- wp:site-logo {"width":120,"isLink":false,"className":"x"} /-->'), `<div class="x wp-block-site-logo">${img(120, 80)}</div>`);
    assert.equal(
      await rendered('<!-- wp:site-logo {"width":121,"linkTarget":"_blank","align":"center"} /-->'),
      `<div class="aligncenter wp-block-site-logo"><a href="${home}" class="custom-logo-link" rel="home" target="_blank"aria-label="(Home link, opens in a new tab)">${img(121, 80)}</a></div>`,
    );
    // the image's own alt text, without its markup, when it has one
    await site.json(`cms/v2/media/${logo.id}`, { method: 'POST', json: { alt_text: 'Our <logo>' } });
    assert.equal(await rendered('<!-- wp:site-logo /-->'), `<div class="is-default-size wp-block-site-logo"><a href="${home}" class="custom-logo-link" rel="home">${img(600, 400, 'Our')}</a></div>`);
  });

  it('answers the new blocks in block-types as WordPress 6.1 registers them', async () => {
    const logo = await site.json('cms/v2/block-types/core/site-logo');
    // WordPress 6.1.9's GET wp/v2/block-types/core/site-logo
    assert.deepEqual(logo.attributes, {
      width: { type: 'number' }, isLink: { type: 'boolean', default: true }, linkTarget: { type: 'string', default: '_self' }, shouldSyncIcon: { type: 'boolean' },
      lock: { type: 'object' }, align: { type: 'string', enum: ['left', 'center', 'right', 'wide', 'full', ''] }, className: { type: 'string' }, style: { type: 'object' },
    });
    assert.deepEqual([logo.is_dynamic, logo.api_version, logo.title, logo.category, logo.example], [true, 2, 'Site Logo', 'theme', { viewportWidth: 500, attributes: { width: 350, className: 'block-editor-block-types-list__site-logo-example' } }]);
    assert.deepEqual([logo.editor_style_handles, logo.style_handles, logo.editor_style, logo.style], [['wp-block-site-logo-editor'], ['wp-block-site-logo'], 'wp-block-site-logo-editor', 'wp-block-site-logo']);
    const reused = await site.json('cms/v2/block-types/core/block');
    // block.json's editorStyle `wp-block-editor` is a core block's first handle, so it is named after the block
    assert.deepEqual([reused.is_dynamic, reused.category, reused.supports, reused.editor_style_handles, reused.style_handles], [true, 'reusable', { customClassName: false, html: false, inserter: false }, ['wp-block-block-editor'], ['wp-block-block']]);
    assert.deepEqual(reused.attributes, { ref: { type: 'number' }, lock: { type: 'object' } });
    const part = await site.json('cms/v2/block-types/core/template-part');
    assert.deepEqual(part.variations.slice(0, 2), [
      { name: 'header', title: 'Header', description: 'The Header template defines a page area that typically contains a title, logo, and main navigation.', attributes: { area: 'header' }, scope: ['inserter'], icon: 'header' },
      { name: 'footer', title: 'Footer', description: 'The Footer template defines a page area that typically contains site credits, social links, or any other combination of blocks.', attributes: { area: 'footer' }, scope: ['inserter'], icon: 'footer' },
    ]);
  });
});
