import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { useServer } from '../helpers/server.ts';

// The blocks that show the post of their context (post-title, post-date, post-excerpt, read-more,
// post-terms, post-author, post-content, loginout) and the block supports' wrapper attributes
// (get_block_wrapper_attributes), through block-renderer with a post_id (render_block with the
// global $post) and through a post's content.rendered. Every expected value is WordPress 6.1.9's
// output (do_blocks, and its block-renderer and content.rendered) for the same post, written
// through its REST API by an administrator (title `dynblocks: Hello & <em>world</em>`, published
// 2024-03-05 10:20:30, in category "Dyn Cat", tagged "Dyn Tag A" and "Dyn Tag B"), with its
// addresses and ids replaced by this site's.

type Obj = Record<string, any>;

describe('post blocks and the block supports of dynamic blocks', () => {
  const site = useServer();
  let post: Obj;
  let category: Obj;
  let tags: Obj[];

  const render = async (name: string, attributes: Record<string, unknown> = {}, postId = post.id) => {
    const body = await site.json(`cms/v2/block-renderer/${name}?context=edit`, { method: 'POST', json: { attributes, post_id: postId } });
    return body.rendered as string;
  };

  it('sets up the post', async () => {
    category = await site.json('cms/v2/categories', { method: 'POST', json: { name: 'Dyn Cat' } }, 201);
    tags = [await site.json('cms/v2/tags', { method: 'POST', json: { name: 'Dyn Tag A' } }, 201), await site.json('cms/v2/tags', { method: 'POST', json: { name: 'Dyn Tag B' } }, 201)];
    post = await site.json(
      'cms/v2/posts',
      {
        method: 'POST',
        json: {
          title: 'dynblocks: Hello & <em>world</em>',
          content: '<!-- wp:paragraph -->\n<p>Body text of the post.</p>\n<!-- /wp:paragraph -->',
          status: 'publish',
          date: '2024-03-05T10:20:30',
          categories: [category.id],
          tags: tags.map((t) => t.id),
        },
      },
      201,
    );
  });

  it('renders post-title from the context post, as a heading or a link', async () => {
    assert.equal(await render('core/post-title'), '<h2 class="wp-block-post-title">dynblocks: Hello &#038; <em>world</em></h2>');
    assert.equal(
      await render('core/post-title', { level: 0, isLink: true, rel: 'nofollow', linkTarget: '_blank', textAlign: 'right' }),
      `<p class="has-text-align-right wp-block-post-title"><a href="${post.link}" target="_blank" rel="nofollow">dynblocks: Hello &#038; <em>world</em></a></p>`,
    );
    // without a post, nothing (WordPress's block-renderer with no post_id has no postId context)
    assert.equal((await site.json('cms/v2/block-renderer/core/post-title?context=edit', { method: 'POST', json: {} })).rendered, '');
  });

  it('writes the colour, spacing and typography supports in WordPress 6.1’s order', async () => {
    assert.equal(
      await render('core/post-title', {
        style: {
          typography: { lineHeight: '1.5', letterSpacing: '2px', fontWeight: '700', fontStyle: 'italic', textDecoration: 'underline' },
          color: { text: '#ff0000' },
          spacing: { padding: { top: '10px', left: 'var:preset|spacing|20' }, margin: { top: '0' } },
        },
        backgroundColor: 'primary',
        fontSize: 'large',
        className: 'foo bar',
        align: 'wide',
        textAlign: 'center',
      }),
      '<h2 style="color:#ff0000; padding-top:10px;padding-left:var(--wp--preset--spacing--20);margin-top:0; font-style:italic;font-weight:700;line-height:1.5;text-decoration:underline;letter-spacing:2px;" ' +
        'class="has-text-align-center alignwide has-text-color has-background has-primary-background-color foo bar wp-block-post-title has-large-font-size">dynblocks: Hello &#038; <em>world</em></h2>',
    );
    assert.equal(
      await render('core/post-title', {
        style: { typography: { lineHeight: '1.5', textTransform: 'uppercase' }, color: { background: '#00ff00' }, spacing: { padding: '5px' } },
        textColor: 'vivid-red',
        fontFamily: 'system-font',
        gradient: 'cool-to-warm-spectrum',
        isLink: true,
        level: 3,
      }),
      '<h3 style="background-color:#00ff00; padding:5px; line-height:1.5;text-transform:uppercase;" class="has-text-color has-vivid-red-color has-background has-cool-to-warm-spectrum-gradient-background wp-block-post-title has-system-font-font-family">' +
        `<a href="${post.link}" target="_self" >dynblocks: Hello &#038; <em>world</em></a></h3>`,
    );
    // a preset written as a custom value is its class; a gradient passes safecss_filter_attr
    assert.equal(
      await render('core/post-date', { style: { typography: { fontStyle: 'var:preset|font-style|italic' }, color: { gradient: 'linear-gradient(red,blue)', text: 'var:preset|color|contrast' } }, className: 'x' }),
      '<div style="background:linear-gradient(red,blue); font-style:var(--wp--preset--font-style--italic);" class="has-text-color has-contrast-color has-background x wp-block-post-date"><time datetime="2024-03-05T10:20:30+00:00">March 5, 2024</time></div>',
    );
  });

  it('writes post-date’s datetime with the site’s offset at that time, whatever GMT time the post keeps', async () => {
    // WordPress 6.1.9: posts written at 10:20:30 on a UTC site, then timezone_string set to
    // America/New_York; get_the_date('c') reads the local time on the site's clock (get_post_datetime)
    const summer = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: summer', status: 'publish', date: '2024-07-05T10:20:30' } }, 201);
    await site.json('cms/v2/settings', { method: 'POST', json: { timezone: 'America/New_York' } });
    try {
      assert.equal(await render('core/post-date'), '<div class="wp-block-post-date"><time datetime="2024-03-05T10:20:30-05:00">March 5, 2024</time></div>');
      assert.equal(await render('core/post-date', {}, summer.id), '<div class="wp-block-post-date"><time datetime="2024-07-05T10:20:30-04:00">July 5, 2024</time></div>');
    } finally {
      await site.json('cms/v2/settings', { method: 'POST', json: { timezone: 'UTC' } });
      await site.json(`cms/v2/posts/${summer.id}?force=true`, { method: 'DELETE' });
    }
  });

  it('renders post-date, post-excerpt and read-more', async () => {
    assert.equal(await render('core/post-date'), '<div class="wp-block-post-date"><time datetime="2024-03-05T10:20:30+00:00">March 5, 2024</time></div>');
    assert.equal(
      await render('core/post-date', { format: 'Y-m-d H:i', isLink: true, textAlign: 'center' }),
      `<div class="has-text-align-center wp-block-post-date"><time datetime="2024-03-05T10:20:30+00:00"><a href="${post.link}">2024-03-05 10:20</a></time></div>`,
    );
    assert.equal(await render('core/post-excerpt'), '<div class="wp-block-post-excerpt"><p class="wp-block-post-excerpt__excerpt">Body text of the post. </p></div>');
    assert.equal(
      await render('core/post-excerpt', { moreText: 'Read <b>on</b>', textAlign: 'left' }),
      `<div class="has-text-align-left wp-block-post-excerpt"><p class="wp-block-post-excerpt__excerpt">Body text of the post.</p><p class="wp-block-post-excerpt__more-text"><a class="wp-block-post-excerpt__more-link" href="${post.link}">Read <b>on</b></a></p></div>`,
    );
    assert.equal(
      await render('core/post-excerpt', { moreText: 'More', showMoreOnNewLine: false }),
      `<div class="wp-block-post-excerpt"><p class="wp-block-post-excerpt__excerpt">Body text of the post. <a class="wp-block-post-excerpt__more-link" href="${post.link}">More</a></p></div>`,
    );
    assert.equal(await render('core/read-more'), `<a class="wp-block-read-more" href="${post.link}" target="_self">Read more</a>`);
    assert.equal(await render('core/read-more', { content: 'Continue', linkTarget: '_blank' }), `<a class="wp-block-read-more" href="${post.link}" target="_blank">Continue</a>`);
  });

  it('renders post-terms as get_the_term_list, and nothing for a taxonomy that is not viewable', async () => {
    assert.equal(await render('core/post-terms', { term: 'category' }), `<div class="taxonomy-category wp-block-post-terms"><a href="${category.link}" rel="tag">Dyn Cat</a></div>`);
    assert.equal(
      await render('core/post-terms', { term: 'post_tag', separator: ' | ', prefix: 'Tags: ', suffix: '.', textAlign: 'center' }),
      '<div class="taxonomy-post_tag has-text-align-center wp-block-post-terms"><span class="wp-block-post-terms__prefix">Tags: </span>' +
        `<a href="${tags[0].link}" rel="tag">Dyn Tag A</a><span class="wp-block-post-terms__separator"> | </span><a href="${tags[1].link}" rel="tag">Dyn Tag B</a><span class="wp-block-post-terms__suffix">.</span></div>`,
    );
    assert.equal(await render('core/post-terms', { term: 'nope' }), '');
    // the wrapper goes through wp_kses_post with the prefix, which rewrites its style as
    // safecss_filter_attr does (WordPress 6.1.9's do_blocks of the block test data's post-terms)
    assert.equal(
      await render('core/post-terms', { term: 'category', style: { typography: { fontStyle: 'italic', fontWeight: '200' }, color: { text: '#ff0000' } } }),
      `<div style="color:#ff0000;font-style:italic;font-weight:200" class="taxonomy-category has-text-color wp-block-post-terms"><a href="${category.link}" rel="tag">Dyn Cat</a></div>`,
    );
  });

  it('renders post-author with its avatar, byline and biography', async () => {
    const me = await site.json('cms/v2/users/me?context=edit');
    // WordPress links gravatar over http on a site served over http (get_avatar_url); this site always links secure.gravatar.com, as its avatar_urls do
    const avatar = (size: number) => me.avatar_urls['96'].replace('?s=96&', `?s=${size}&`).replace(/&/g, '&#038;');
    assert.equal(
      await render('core/post-author'),
      `<div class="wp-block-post-author"><div class="wp-block-post-author__avatar"><img alt='' src='${avatar(48)}' srcset='${avatar(96)} 2x' class='avatar avatar-48 photo' height='48' width='48' loading='lazy' decoding='async'/></div>` +
        `<div class="wp-block-post-author__content"><p class="wp-block-post-author__name">${me.name}</p></div></div>`,
    );
    assert.equal(
      await render('core/post-author', { showBio: true, byline: 'Written by', textAlign: 'center', showAvatar: false }),
      `<div class="has-text-align-center wp-block-post-author"><div class="wp-block-post-author__content"><p class="wp-block-post-author__byline">Written by</p><p class="wp-block-post-author__name">${me.name}</p><p class="wp-block-post-author__bio"></p></div></div>`,
    );
  });

  it('shows the author’s biography, as written', async () => {
    assert.equal(await render('core/post-author-biography'), '');
    const me = await site.json('cms/v2/users/me', { method: 'POST', json: { description: 'I write "things" -- often.\nSecond line.' } });
    assert.equal(await render('core/post-author-biography'), '<div class="wp-block-post-author-biography">I write "things" -- often.\nSecond line.</div>');
    assert.equal(
      await render('core/post-author', { showBio: true, showAvatar: false }),
      `<div class="wp-block-post-author"><div class="wp-block-post-author__content"><p class="wp-block-post-author__name">${me.name}</p><p class="wp-block-post-author__bio">I write "things" -- often.\nSecond line.</p></div></div>`,
    );
  });

  it('renders post-featured-image as get_the_post_thumbnail, its border, height and overlay as WordPress places them', async () => {
    assert.equal(await render('core/post-featured-image'), '');
    // an 800×600 PNG: WordPress makes its 300×225 (medium), 150×150 (thumbnail) and 768×576 (medium_large) sizes
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
    const upload = await fetch(`${site.api}cms/v2/media`, { method: 'POST', body: png, headers: { authorization: site.admin, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="dyn-feature.png"' } });
    assert.equal(upload.status, 201);
    const media = await upload.json();
    await site.json(`cms/v2/posts/${post.id}`, { method: 'POST', json: { featured_media: media.id } });
    const full = media.source_url as string;
    const sized = (w: number, h: number) => full.replace(/\.png$/, `-${w}x${h}.png`);
    assert.equal(
      await render('core/post-featured-image'),
      `<figure class="wp-block-post-featured-image"><img width="800" height="600" src="${full}" class="attachment-post-thumbnail size-post-thumbnail wp-post-image" alt="" decoding="async" loading="lazy" ` +
        `srcset="${full} 800w, ${sized(300, 225)} 300w, ${sized(768, 576)} 768w" sizes="(max-width: 800px) 100vw, 800px" /></figure>`,
    );
    assert.equal(
      await render('core/post-featured-image', { isLink: true, width: '200px', height: '100px', scale: 'cover', sizeSlug: 'medium', dimRatio: 50, overlayColor: 'primary', style: { border: { radius: '8px' } }, rel: 'nofollow' }),
      `<figure style="width:200px;" class="wp-block-post-featured-image"><a href="${post.link}" target="_self" rel="nofollow"><img width="300" height="225" src="${sized(300, 225)}" class="attachment-medium size-medium wp-post-image" alt="dynblocks: Hello &#038; world" decoding="async" loading="lazy" ` +
        `style="border-radius:8px;height:100px;object-fit:cover;" srcset="${sized(300, 225)} 300w, ${sized(768, 576)} 768w, ${full} 800w" sizes="(max-width: 300px) 100vw, 300px" />` +
        '<span class="wp-block-post-featured-image__overlay has-background-dim has-background-dim-50 has-primary-background-color" style="border-radius:8px" aria-hidden="true"></span></a></figure>',
    );
  });

  it('links the next and previous posts on the post’s own page, and nowhere else (is_singular)', async () => {
    const q2 = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: Q2', status: 'publish', date: '2024-04-02T09:00:00' } }, 201);
    const q3 = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: Q3', status: 'publish', date: '2024-04-03T09:00:00' } }, 201);
    const content =
      '<!-- wp:post-navigation-link {"type":"previous","showTitle":true,"linkLabel":true} /-->\n\n<!-- wp:post-navigation-link {"label":"Onward","textAlign":"right"} /-->\n\n' +
      '<!-- wp:post-navigation-link {"showTitle":true,"label":"Up next"} /-->';
    const between = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: between', status: 'publish', date: '2024-04-02T12:00:00', content } }, 201);
    // WordPress 6.1.9: REST's content.rendered is not singular, so the blocks print nothing; its page of the post prints them
    assert.equal((await site.json(`cms/v2/posts/${between.id}`)).content.rendered, '\n\n\n\n');
    const html = await (await fetch(between.link)).text();
    assert.ok(
      html.includes(
        `<div class="post-navigation-link-previous wp-block-post-navigation-link"><a href="${q2.link}" rel="prev"><span class="post-navigation-link__label">Previous:</span> <span class="post-navigation-link__title">dynblocks: Q2</span></a></div>\n\n` +
          `<div class="post-navigation-link-next has-text-align-right wp-block-post-navigation-link"><a href="${q3.link}" rel="next">Onward</a></div>\n\n` +
          `<div class="post-navigation-link-next wp-block-post-navigation-link"><span class="post-navigation-link__label">Up next</span> <a href="${q3.link}" rel="next">dynblocks: Q3</a></div>`,
      ),
      html,
    );
  });

  it('shows a logged-out visitor the login link back to the page, or the login form', async () => {
    const login = `${site.home}/cms-admin/login`;
    assert.equal(await render('core/loginout', { redirectToCurrent: false }), `<div class="logged-out wp-block-loginout"><a href="${login}">Log in</a></div>`);
    // the page's address: WordPress takes the request's (in a REST rendering, the REST route's own); this site the page the post is on
    assert.equal(await render('core/loginout'), `<div class="logged-out wp-block-loginout"><a href="${login}?redirect_to=${encodeURIComponent(post.link)}">Log in</a></div>`);
    assert.equal(
      await render('core/loginout', { displayLoginAsForm: true, redirectToCurrent: false }),
      `<div class="logged-out has-login-form wp-block-loginout"><form name="loginform" id="loginform" action="${login}" method="post"><p class="login-username">
				<label for="user_login">Username or Email Address</label>
				<input type="text" name="log" id="user_login" autocomplete="username" class="input" value="" size="20" />
			</p><p class="login-password">
				<label for="user_pass">Password</label>
				<input type="password" name="pwd" id="user_pass" autocomplete="current-password" class="input" value="" size="20" />
			</p><p class="login-remember"><label><input name="rememberme" type="checkbox" id="rememberme" value="forever" /> Remember Me</label></p><p class="login-submit">
				<input type="submit" name="wp-submit" id="wp-submit" class="button button-primary" value="Log In" />
				<input type="hidden" name="redirect_to" value="${post.link}" />
			</p></form></div>`,
    );
  });

  it('passes the post being rendered down to the blocks inside a post’s content', async () => {
    const holder = await site.json(
      'cms/v2/posts',
      {
        method: 'POST',
        json: {
          title: 'dynblocks: holder',
          status: 'publish',
          date: '2024-03-06T08:00:00',
          content: '<!-- wp:group -->\n<div class="wp-block-group"><!-- wp:post-title /--></div>\n<!-- /wp:group -->\n\n<!-- wp:post-content /-->',
        },
      },
      201,
    );
    // WordPress (REST content.rendered of the same post), the layout support's `is-layout-flow` on the group and
    // the post-content wrapper. The post-content block shows the post's own content, which holds the same block
    // again: the recursion guard renders that one as nothing.
    const rendered = (await site.json(`cms/v2/posts/${holder.id}`)).content.rendered as string;
    assert.equal(
      rendered,
      '\n<div class="is-layout-flow wp-block-group"><h2 class="wp-block-post-title">dynblocks: holder</h2></div>\n\n\n' +
        '<div class="is-layout-flow entry-content wp-block-post-content">\n<div class="is-layout-flow wp-block-group"><h2 class="wp-block-post-title">dynblocks: holder</h2></div>\n\n\n</div>',
    );
  });
});
