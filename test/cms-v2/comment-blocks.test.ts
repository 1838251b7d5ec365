import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

// The Comments block and its thread's blocks in a post's content.rendered. The expected value is
// WordPress 6.1.9's content.rendered of the same post asked for without credentials (a visitor,
// as every rendering here is made: an administrator's would also hold comment-edit-link's "Edit"
// links), the post written through its REST API by an administrator (`dynblocks: Hello &
// <em>world</em>`, 2024-03-05) with three approved comments by named visitors (Vee on 2030-03-07,
// Sue on 2030-03-08 and Ray's reply to Vee on 2030-03-09), its default discussion options
// (threaded five deep, not paged, oldest first); addresses and ids are this site's.

type Obj = Record<string, any>;

const MARKUP = `<!-- wp:comments -->
<div class="wp-block-comments"><!-- wp:comments-title /-->

<!-- wp:comment-template -->
<!-- wp:avatar {"size":40,"style":{"border":{"radius":"20px"}}} /-->
<!-- wp:comment-author-name {"fontSize":"small"} /-->
<!-- wp:comment-date {"fontSize":"small"} /-->
<!-- wp:comment-edit-link {"fontSize":"small"} /-->
<!-- wp:comment-content /-->
<!-- wp:comment-reply-link {"fontSize":"small"} /-->
<!-- /wp:comment-template -->

<!-- wp:comments-pagination -->
<!-- wp:comments-pagination-previous /-->
<!-- wp:comments-pagination-numbers /-->
<!-- wp:comments-pagination-next /-->
<!-- /wp:comments-pagination --></div>
<!-- /wp:comments -->`;

/** PHP's serialize() of a block as WP_Block_Parser parses it (its attributes and inner blocks given serialized), for wp_get_elements_class_name's md5. */
const s = (text: string) => `s:${Buffer.byteLength(text)}:"${text}";`;
const parsed = (name: string, attrs: string, inner: string, html: string, content: string) =>
  `a:5:{${s('blockName')}${s(name)}${s('attrs')}${attrs}${s('innerBlocks')}${inner}${s('innerHTML')}${s(html)}${s('innerContent')}${content}}`;
const linkColor = (preset: string) => `a:1:{${s('style')}a:1:{${s('elements')}a:1:{${s('link')}a:1:{${s('color')}a:1:{${s('text')}${s(`var:preset|color|${preset}`)}}}}}}`;
const elementsClass = (serialized: string) => `wp-elements-${createHash('md5').update(serialized).digest('hex')}`;

describe('the Comments block', () => {
  const site = useServer();

  it('renders the thread with each comment’s blocks, replies nested, and its title', async () => {
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: Hello & <em>world</em>', status: 'publish', date: '2024-03-05T10:20:30', content: `${MARKUP}\n` } }, 201);
    const comment = (json: Obj): Promise<Obj> => site.json('cms/v2/comments', { method: 'POST', json: { post: post.id, status: 'approved', ...json } }, 201);
    const vee = await comment({ author_name: 'Visitor Vee', author_email: 'vee@example.test', content: 'First <b>line</b> of a comment\nthat has quite a few words in it, more than twenty words in total so it will be cut somewhere here', date: '2030-03-07T11:00:00' });
    const sue = await comment({ author_name: 'Site Sue', author_email: 'sue@example.test', author_url: 'https://sue.example/', content: 'Short &amp; sweet.', date: '2030-03-08T12:30:00' });
    const ray = await comment({ author_name: 'Replier Ray', author_email: 'ray@example.test', author_url: 'https://ray.example/', parent: vee.id, content: 'A reply.', date: '2030-03-09T09:00:00' });
    assert.equal(
      (await site.json(`cms/v2/posts/${post.id}`, { auth: undefined })).content.rendered,
      [
        ``,
        `<div class="wp-block-comments"><h2 id="comments" class="wp-block-comments-title">3 responses to &#8220;dynblocks: Hello &#038; <em>world</em>&#8221;</h2>`,
        ``,
        `<ol class="wp-block-comment-template"><li id="comment-${vee.id}" class="comment even thread-even depth-1">`,
        `<div class="wp-block-avatar"><img alt='Visitor Vee Avatar' src='http://1.gravatar.com/avatar/44ef0cb86c8facace482629a0d55f9d8?s=40&#038;d=mm&#038;r=g' srcset='http://1.gravatar.com/avatar/44ef0cb86c8facace482629a0d55f9d8?s=80&#038;d=mm&#038;r=g 2x' class='avatar avatar-40 photo wp-block-avatar__image ' height='40' width='40'  style="border-radius: 20px" loading='lazy' decoding='async'/></div>`,
        `<div class="wp-block-comment-author-name has-small-font-size">Visitor Vee</div>`,
        `<div class="wp-block-comment-date has-small-font-size"><time datetime="2030-03-07T11:00:00+00:00"><a href="${post.link}#comment-${vee.id}">March 7, 2030</a></time></div>`,
        ``,
        `<div class="wp-block-comment-content"><p>First <b>line</b> of a comment<br />`,
        `that has quite a few words in it, more than twenty words in total so it will be cut somewhere here</p>`,
        `</div>`,
        `<div class="wp-block-comment-reply-link has-small-font-size"><a rel='nofollow' class='comment-reply-link' href='${post.link}?replytocom=${vee.id}#respond' data-commentid="${vee.id}" data-postid="${post.id}" data-belowelement="comment-${vee.id}" data-respondelement="respond" data-replyto="Reply to Visitor Vee" aria-label='Reply to Visitor Vee'>Reply</a></div>`,
        `<ol><li id="comment-${ray.id}" class="comment odd alt depth-2">`,
        `<div class="wp-block-avatar"><img alt='Replier Ray Avatar' src='http://0.gravatar.com/avatar/3420fea007680343a9ca1125aca32f47?s=40&#038;d=mm&#038;r=g' srcset='http://0.gravatar.com/avatar/3420fea007680343a9ca1125aca32f47?s=80&#038;d=mm&#038;r=g 2x' class='avatar avatar-40 photo wp-block-avatar__image ' height='40' width='40'  style="border-radius: 20px" loading='lazy' decoding='async'/></div>`,
        `<div class="wp-block-comment-author-name has-small-font-size"><a rel="external nofollow ugc" href="https://ray.example/" target="_self" >Replier Ray</a></div>`,
        `<div class="wp-block-comment-date has-small-font-size"><time datetime="2030-03-09T09:00:00+00:00"><a href="${post.link}#comment-${ray.id}">March 9, 2030</a></time></div>`,
        ``,
        `<div class="wp-block-comment-content"><p>A reply.</p>`,
        `</div>`,
        `<div class="wp-block-comment-reply-link has-small-font-size"><a rel='nofollow' class='comment-reply-link' href='${post.link}?replytocom=${ray.id}#respond' data-commentid="${ray.id}" data-postid="${post.id}" data-belowelement="comment-${ray.id}" data-respondelement="respond" data-replyto="Reply to Replier Ray" aria-label='Reply to Replier Ray'>Reply</a></div>`,
        `</li></ol></li><li id="comment-${sue.id}" class="comment even thread-odd thread-alt depth-1">`,
        `<div class="wp-block-avatar"><img alt='Site Sue Avatar' src='http://0.gravatar.com/avatar/cfd0d09405493b6e81d57c34271ed255?s=40&#038;d=mm&#038;r=g' srcset='http://0.gravatar.com/avatar/cfd0d09405493b6e81d57c34271ed255?s=80&#038;d=mm&#038;r=g 2x' class='avatar avatar-40 photo wp-block-avatar__image ' height='40' width='40'  style="border-radius: 20px" loading='lazy' decoding='async'/></div>`,
        `<div class="wp-block-comment-author-name has-small-font-size"><a rel="external nofollow ugc" href="https://sue.example/" target="_self" >Site Sue</a></div>`,
        `<div class="wp-block-comment-date has-small-font-size"><time datetime="2030-03-08T12:30:00+00:00"><a href="${post.link}#comment-${sue.id}">March 8, 2030</a></time></div>`,
        ``,
        `<div class="wp-block-comment-content"><p>Short &amp; sweet.</p>`,
        `</div>`,
        `<div class="wp-block-comment-reply-link has-small-font-size"><a rel='nofollow' class='comment-reply-link' href='${post.link}?replytocom=${sue.id}#respond' data-commentid="${sue.id}" data-postid="${post.id}" data-belowelement="comment-${sue.id}" data-respondelement="respond" data-replyto="Reply to Site Sue" aria-label='Reply to Site Sue'>Reply</a></div>`,
        `</li></ol>`,
        ``,
        `</div>`,
        ``,
        ``,
      ].join('\n'),
    );
  });

  it('writes the elements class twice, as the static rendering render_block_core_comments returns meets the render filters before the callback’s output does', async () => {
    const markup = `<!-- wp:comments {"style":{"elements":{"link":{"color":{"text":"var:preset|color|vivid-purple"}}}}} -->\n<div class="wp-block-comments has-link-color"><!-- wp:comment-template --><!-- wp:comment-author-name /--><!-- /wp:comment-template --></div>\n<!-- /wp:comments -->`;
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: linked', status: 'publish', content: markup } }, 201);
    const vee = await site.json('cms/v2/comments', { method: 'POST', json: { post: post.id, status: 'approved', author_name: 'Vee', author_email: 'vee@example.test', content: 'x' } }, 201);
    const author = parsed('core/comment-author-name', 'a:0:{}', 'a:0:{}', '', 'a:0:{}');
    const template = parsed('core/comment-template', 'a:0:{}', `a:1:{i:0;${author}}`, '', 'a:1:{i:0;N;}');
    const attrs = linkColor('vivid-purple');
    const open = '\n<div class="wp-block-comments has-link-color">';
    const comments = parsed('core/comments', attrs, `a:1:{i:0;${template}}`, `${open}</div>\n`, `a:3:{i:0;${s(open)}i:1;N;i:2;${s('</div>\n')}}`);
    const elements = elementsClass(comments);
    // WordPress 6.1.9: the callback returns $block->render( array( 'dynamic' => false ) ), whose
    // render_block filters put the class on the wrapper; the callback's output meets them again
    assert.equal(
      (await site.json(`cms/v2/posts/${post.id}`, { auth: undefined })).content.rendered,
      `\n<div class="${elements} ${elements} wp-block-comments has-link-color"><ol class="wp-block-comment-template"><li id="comment-${vee.id}" class="comment even thread-even depth-1"><div class="wp-block-comment-author-name">Vee</div></li></ol></div>\n`,
    );
  });

  it('puts a link-coloured comment template’s elements class on its list and on the first tag of each comment, which renders a copy of the template', async () => {
    const markup = `<!-- wp:comments -->\n<div class="wp-block-comments"><!-- wp:comment-template {"style":{"elements":{"link":{"color":{"text":"var:preset|color|vivid-red"}}}}} --><!-- wp:comment-author-name /--><!-- /wp:comment-template --></div>\n<!-- /wp:comments -->`;
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: template linked', status: 'publish', content: markup } }, 201);
    const comment = (author_name: string) => site.json('cms/v2/comments', { method: 'POST', json: { post: post.id, status: 'approved', author_name, author_email: 'linked@example.test', content: 'x' } }, 201);
    const [vee, sue] = [await comment('Vee'), await comment('Sue')];
    const author = parsed('core/comment-author-name', 'a:0:{}', 'a:0:{}', '', 'a:0:{}');
    const elements = elementsClass(parsed('core/comment-template', linkColor('vivid-red'), `a:1:{i:0;${author}}`, '', 'a:1:{i:0;N;}'));
    // WordPress 6.1.9: block_core_comment_template_render_comments renders each comment with a
    // `new WP_Block( $block->parsed_block )` of the template itself (its name kept, unlike
    // post-template's `core/null`), whose render_block filters put the template's class on the comment's first tag
    const li = (c: Obj, classes: string, name: string) => `<li id="comment-${c.id}" class="${classes}"><div class="${elements} wp-block-comment-author-name">${name}</div></li>`;
    assert.equal(
      (await site.json(`cms/v2/posts/${post.id}`, { auth: undefined })).content.rendered,
      `\n<div class="wp-block-comments"><ol class="${elements} wp-block-comment-template">${li(vee, 'comment even thread-even depth-1', 'Vee')}${li(sue, 'comment odd alt thread-odd thread-alt depth-1', 'Sue')}</ol></div>\n`,
    );
  });

  it('renders nothing for a post closed to comments that has none', async () => {
    const closed = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: closed', status: 'publish', comment_status: 'closed', content: MARKUP } }, 201);
    assert.equal((await site.json(`cms/v2/posts/${closed.id}`)).content.rendered, '');
  });
});

/**
 * WordPress 6.1.9's render_block_core_post_comments_form for an open post, as a visitor who is not
 * logged in gets it (content.rendered of `wp-json/wp/v2/posts/216` asked for without credentials,
 * the post written over REST as `<!-- wp:post-comments-form /-->`, default discussion options):
 * comment_form with the block's wrapper attributes on its `comment-respond` container and the button
 * block's classes on the submit button (post_comments_form_block_form_defaults, a block theme).
 * The cancel-reply link goes back to the request's URI, which over REST is the REST route's; the
 * addresses and ids are this site's.
 */
const commentForm = (home: string, postId: number, wrapper: string, cancelHref: string) =>
  `\t<div id="respond" ${wrapper}>
\t\t<h3 id="reply-title" class="comment-reply-title">Leave a Reply <small><a rel="nofollow" id="cancel-comment-reply-link" href="${cancelHref}#respond" style="display:none;">Cancel reply</a></small></h3><form action="${home}/wp-comments-post.php" method="post" id="commentform" class="comment-form" novalidate><p class="comment-notes"><span id="email-notes">Your email address will not be published.</span> <span class="required-field-message">Required fields are marked <span class="required">*</span></span></p><p class="comment-form-comment"><label for="comment">Comment <span class="required">*</span></label> <textarea id="comment" name="comment" cols="45" rows="8" maxlength="65525" required></textarea></p><p class="comment-form-author"><label for="author">Name <span class="required">*</span></label> <input id="author" name="author" type="text" value="" size="30" maxlength="245" autocomplete="name" required /></p>
<p class="comment-form-email"><label for="email">Email <span class="required">*</span></label> <input id="email" name="email" type="email" value="" size="30" maxlength="100" aria-describedby="email-notes" autocomplete="email" required /></p>
<p class="comment-form-url"><label for="url">Website</label> <input id="url" name="url" type="url" value="" size="30" maxlength="200" autocomplete="url" /></p>
<p class="comment-form-cookies-consent"><input id="wp-comment-cookies-consent" name="wp-comment-cookies-consent" type="checkbox" value="yes" /> <label for="wp-comment-cookies-consent">Save my name, email, and website in this browser for the next time I comment.</label></p>
<p class="form-submit wp-block-button"><input name="submit" type="submit" id="submit" class="wp-block-button__link wp-element-button" value="Post Comment" /> <input type='hidden' name='comment_post_ID' value='${postId}' id='comment_post_ID' />
<input type='hidden' name='comment_parent' id='comment_parent' value='0' />
</p></form>\t</div><!-- #respond -->
\t`;

describe('the Post Comments Form block', () => {
  const site = useServer();

  it('prints the comment form WordPress prints, without a token: REST has no visitor', async () => {
    // WordPress's wrapper for these attributes (do_blocks in the loop of an open post)
    const markup = '<!-- wp:post-comments-form {"textAlign":"right","backgroundColor":"vivid-red","fontSize":"large","style":{"typography":{"letterSpacing":"2px"}}} /-->';
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'commentform: open', status: 'publish', content: markup } }, 201);
    const res = await fetch(`${site.home}/wp-json/wp/v2/posts/${post.id}`);
    // the form token the site's page adds (a hidden `_token` bound to the browser's cookie) is not
    // here: a REST rendering has no visitor, so it is every anonymous visitor's form, as WordPress's
    assert.equal(
      ((await res.json()) as Obj).content.rendered,
      commentForm(site.home, post.id, 'style="letter-spacing:2px;" class="comment-respond has-text-align-right has-background has-vivid-red-background-color wp-block-post-comments-form has-large-font-size"', `/wp-json/wp/v2/posts/${post.id}`),
    );
  });

  it('renders through block-renderer as a visitor who is not logged in', async () => {
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'commentform: renderer', status: 'publish' } }, 201);
    const res = await fetch(`${site.home}/wp-json/wp/v2/block-renderer/core/post-comments-form?context=edit&post_id=${post.id}`, { headers: { authorization: site.admin } });
    // WordPress prints its "Logged in as admin" form (and the unfiltered-HTML nonce) to the
    // administrator asking; a rendering here knows no one, so it is the anonymous visitor's form
    assert.equal(
      ((await res.json()) as Obj).rendered,
      commentForm(site.home, post.id, 'class="comment-respond wp-block-post-comments-form"', `/wp-json/wp/v2/block-renderer/core/post-comments-form?context=edit&amp;post_id=${post.id}`),
    );
  });

  it('prints nothing for a post closed to comments or protected by a password', async () => {
    // WordPress 6.1.9: comment_form prints nothing when comments_open is false (its
    // comment_form_comments_closed action has nothing hooked), and the block returns early on post_password_required
    for (const extra of [{ comment_status: 'closed' }, { password: 'pw' }]) {
      const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'commentform: none', status: 'publish', content: '<!-- wp:post-comments-form /-->', ...extra } }, 201);
      const res = await fetch(`${site.home}/wp-json/wp/v2/block-renderer/core/post-comments-form?context=edit&post_id=${post.id}`, { headers: { authorization: site.admin } });
      assert.equal(((await res.json()) as Obj).rendered, '', JSON.stringify(extra));
    }
  });

  it('runs comment_class’s even/odd and thread alternation on through a second thread of the same page', async () => {
    const thread = '<!-- wp:comments --><div class="wp-block-comments"><!-- wp:comment-template --><!-- wp:comment-author-name /--><!-- /wp:comment-template --></div><!-- /wp:comments -->';
    const post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: two threads', status: 'publish', date: '2024-03-05T10:20:30', content: `${thread}\n\n${thread}` } }, 201);
    const comment = (json: Obj): Promise<Obj> => site.json('cms/v2/comments', { method: 'POST', json: { post: post.id, status: 'approved', content: 'x', author_email: 'thread@example.test', ...json } }, 201);
    const vee = await comment({ author_name: 'Vee', date: '2030-03-07T11:00:00' });
    const sue = await comment({ author_name: 'Sue', date: '2030-03-08T11:00:00' });
    const ray = await comment({ author_name: 'Ray', parent: vee.id, date: '2030-03-09T11:00:00' });
    const rendered = (await site.json(`cms/v2/posts/${post.id}`, { auth: undefined })).content.rendered as string;
    // WordPress 6.1.9's the_content of the same two threads: $comment_alt and $comment_thread_alt are globals
    assert.deepEqual(
      [...rendered.matchAll(/<li id="comment-(\d+)" class="([^"]*)"/g)].map((m) => [Number(m[1]), m[2]]),
      [
        [vee.id, 'comment even thread-even depth-1'],
        [ray.id, 'comment odd alt depth-2'],
        [sue.id, 'comment even thread-odd thread-alt depth-1'],
        [vee.id, 'comment odd alt thread-even depth-1'],
        [ray.id, 'comment even depth-2'],
        [sue.id, 'comment odd alt thread-odd thread-alt depth-1'],
      ],
    );
  });
});
