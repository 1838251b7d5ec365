import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { useServer } from '../helpers/server.ts';

/** A solid PNG of that size (WordPress 6.1.9 was given the same two files). */
const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();

describe('the core shortcodes in content.rendered: [gallery] and [caption] as WordPress 6.1 renders them', () => {
  const site = useServer();

  const upload = async (name: string, width: number, height: number, post: number) => {
    const res = await site.call(`cms/v2/media?post=${post}`, {
      method: 'POST',
      body: await png(width, height),
      headers: { 'content-type': 'image/png', 'content-disposition': `attachment; filename="${name}.png"` },
      auth: site.admin,
    });
    assert.equal(res.status, 201);
    return (await res.json()) as { id: number; source_url: string };
  };

  it('renders galleries (attached images, ids, size, link, columns, orderby/order, tags, exclude, unknown ids) and captions', async () => {
    const post = (await site.json('cms/v2/posts', { method: 'POST', json: { title: 'Gallery host', status: 'publish', content: 'x' } }, 201)).id as number;
    const landImage = await upload('sc-land', 1200, 800, post);
    const land = landImage.id;
    const port = (await upload('sc-port', 600, 900, post)).id;
    await site.json(`cms/v2/media/${port}`, { method: 'POST', json: { caption: 'Tall "one"', title: 'Portrait' } });
    await site.json(`cms/v2/media/${land}`, { method: 'POST', json: { alt_text: 'A wide one' } });
    const u = landImage.source_url.slice(0, landImage.source_url.lastIndexOf('/') + 1);
    const content = `[gallery]

[gallery ids="${port},${land}" size="medium" link="file" columns="2"]

[gallery ids="${land},${port}" link="none" orderby="title" order="DESC" itemtag="div" icontag="span" captiontag="p"]

[gallery exclude="${land}" itemtag="script"]

[caption id="attachment_${land}" align="aligncenter" width="300"]<img class="size-medium wp-image-${land}" src="http://example.com/a.png" alt="" width="300" height="200" /> The caption[/caption]

[caption width="150" caption='Attr <em>caption</em> <script>x</script>']<a href="http://example.com/"><img src="http://example.com/b.png" /></a>[/caption]

[gallery include="999999"]`;
    const saved = await site.json(`cms/v2/posts/${post}`, { method: 'POST', json: { content } });
    // WordPress 6.1.9's content.rendered of the same post (twentytwentythree, an HTML5 theme: no
    // default gallery style). Its galleries link an image to its attachment page
    // (`{post permalink}/sc-land/`); this site has no attachment pages and links the file, as an
    // attachment's `link` does here.
    assert.equal(
      saved.content.rendered,
      `<div id='gallery-1' class='gallery galleryid-${post} gallery-columns-3 gallery-size-thumbnail'><figure class='gallery-item'>
			<div class='gallery-icon landscape'>
				<a href='${u}sc-land.png'><img width="150" height="150" src="${u}sc-land-150x150.png" class="attachment-thumbnail size-thumbnail" alt="A wide one" decoding="async" loading="lazy" /></a>
			</div></figure><figure class='gallery-item'>
			<div class='gallery-icon portrait'>
				<a href='${u}sc-port.png'><img width="150" height="150" src="${u}sc-port-150x150.png" class="attachment-thumbnail size-thumbnail" alt="" decoding="async" loading="lazy" aria-describedby="gallery-1-${port}" /></a>
			</div>
				<figcaption class='wp-caption-text gallery-caption' id='gallery-1-${port}'>
				Tall &#8220;one&#8221;
				</figcaption></figure>
		</div>

<div id='gallery-2' class='gallery galleryid-${post} gallery-columns-2 gallery-size-medium'><figure class='gallery-item'>
			<div class='gallery-icon portrait'>
				<a href='${u}sc-port.png'><img width="200" height="300" src="${u}sc-port-200x300.png" class="attachment-medium size-medium" alt="" decoding="async" loading="lazy" aria-describedby="gallery-2-${port}" srcset="${u}sc-port-200x300.png 200w, ${u}sc-port.png 600w" sizes="(max-width: 200px) 100vw, 200px" /></a>
			</div>
				<figcaption class='wp-caption-text gallery-caption' id='gallery-2-${port}'>
				Tall &#8220;one&#8221;
				</figcaption></figure><figure class='gallery-item'>
			<div class='gallery-icon landscape'>
				<a href='${u}sc-land.png'><img width="300" height="200" src="${u}sc-land-300x200.png" class="attachment-medium size-medium" alt="A wide one" decoding="async" loading="lazy" srcset="${u}sc-land-300x200.png 300w, ${u}sc-land-1024x683.png 1024w, ${u}sc-land-768x512.png 768w, ${u}sc-land.png 1200w" sizes="(max-width: 300px) 100vw, 300px" /></a>
			</div></figure>
		</div>

<div id='gallery-3' class='gallery galleryid-${post} gallery-columns-3 gallery-size-thumbnail'><div class='gallery-item'>
			<span class='gallery-icon landscape'>
				<img width="150" height="150" src="${u}sc-land-150x150.png" class="attachment-thumbnail size-thumbnail" alt="A wide one" decoding="async" loading="lazy" />
			</span></div><div class='gallery-item'>
			<span class='gallery-icon portrait'>
				<img width="150" height="150" src="${u}sc-port-150x150.png" class="attachment-thumbnail size-thumbnail" alt="" decoding="async" loading="lazy" aria-describedby="gallery-3-${port}" />
			</span>
				<p class='wp-caption-text gallery-caption' id='gallery-3-${port}'>
				Tall &#8220;one&#8221;
				</p></div>
		</div>

<div id='gallery-4' class='gallery galleryid-${post} gallery-columns-3 gallery-size-thumbnail'><dl class='gallery-item'>
			<div class='gallery-icon portrait'>
				<a href='${u}sc-port.png'><img width="150" height="150" src="${u}sc-port-150x150.png" class="attachment-thumbnail size-thumbnail" alt="" decoding="async" loading="lazy" aria-describedby="gallery-4-${port}" /></a>
			</div>
				<figcaption class='wp-caption-text gallery-caption' id='gallery-4-${port}'>
				Tall &#8220;one&#8221;
				</figcaption></dl>
		</div>

<figure id="attachment_${land}" aria-describedby="caption-attachment-${land}" style="width: 300px" class="wp-caption aligncenter"><img decoding="async" loading="lazy" class="size-medium wp-image-${land}" src="http://example.com/a.png" alt="" width="300" height="200" /><figcaption id="caption-attachment-${land}" class="wp-caption-text">The caption</figcaption></figure>
<figure style="width: 150px" class="wp-caption alignnone"><a href="http://example.com/"><img decoding="async" src="http://example.com/b.png" /></a><figcaption class="wp-caption-text">Attr <em>caption</em> x</figcaption></figure>

`,
    );
    // wp_trim_excerpt strips the shortcodes first: nothing is left to make an excerpt of
    assert.equal(saved.excerpt.rendered, '');
  });

  it('makes a generated excerpt from the first page up to <!--more-->, without shortcodes; content.rendered is the whole content', async () => {
    // WordPress 6.1.9's REST answers for the same two posts: the posts controller renders the
    // whole post_content (every page); wp_trim_excerpt reads get_the_content, the first page up to
    // the more tag with its tags balanced, strips the shortcodes (`[[gallery]]` becomes `[gallery]`,
    // which the_content then renders: no attached images, nothing)
    const classic = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'Paged', status: 'publish', content: "First [caption width=\"100\"]<img src=\"http://example.com/c.png\"> words inside[/caption] page <em>one <b>bold\n\n[[gallery]] kept\n<!--more Read on-->\nAfter more on page one.\n<!--nextpage-->\nPage two text.\n<!--nextpage-->\nPage three." } }, 201);
    assert.equal(classic.content.rendered, "<p>First <figure style=\"width: 100px\" class=\"wp-caption alignnone\"><img decoding=\"async\" src=\"http://example.com/c.png\"><figcaption class=\"wp-caption-text\">words inside</figcaption></figure> page <em>one <b>bold</p>\n<p>[gallery] kept<br />\n<!--more Read on--><br />\nAfter more on page one.<br />\n<!--nextpage--><br />\nPage two text.<br />\n<!--nextpage--><br />\nPage three.</p>\n");
    assert.equal(classic.excerpt.rendered, '<p>First page one bold kept</p>\n');
    const blocks = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'Paged blocks', status: 'publish', content: "<!-- wp:paragraph -->\n<p>Block one [gallery] x</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:more -->\n<!--more-->\n<!-- /wp:more -->\n\n<!-- wp:paragraph -->\n<p>After</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:nextpage -->\n<!--nextpage-->\n<!-- /wp:nextpage -->\n\n<!-- wp:paragraph -->\n<p>Two</p>\n<!-- /wp:paragraph -->" } }, 201);
    assert.equal(blocks.content.rendered, "\n<p>Block one  x</p>\n\n\n\n<!--more-->\n\n\n\n<p>After</p>\n\n\n\n<!--nextpage-->\n\n\n\n<p>Two</p>\n");
    assert.equal(blocks.excerpt.rendered, '<p>Block one x</p>\n');
  });
});
