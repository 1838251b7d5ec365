import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

// core/latest-comments, core/calendar and core/avatar through block-renderer. Expected values are
// WordPress 6.1.9's do_blocks output for the same content: the post `dynblocks: Hello &
// <em>world</em>` (2024-03-05), two comments on it by named visitors, dated 2030, and posts on 1999-02-10,
// 1999-02-20 and 1999-04-02, written through its REST API by an administrator; addresses and ids
// are this site's. Gravatar is linked as WordPress 6.1 links it on a site served over http:
// http://N.gravatar.com, N the md5's first hex digit modulo 3 (get_avatar_data).

type Obj = Record<string, any>;

describe('widget blocks: latest comments, calendar, avatar', () => {
  const site = useServer();
  let post: Obj;
  let me: Obj;
  const render = async (name: string, attributes: Record<string, unknown> = {}, extra: Obj = {}) =>
    (await site.json(`cms/v2/block-renderer/${name}?context=edit`, { method: 'POST', json: { attributes, ...extra } })).rendered as string;
  const gravatar = (md5: string, size: number) => `http://${parseInt(md5[0], 16) % 3}.gravatar.com/avatar/${md5}?s=${size}&#038;d=mm&#038;r=g`;

  it('sets up the posts and comments', async () => {
    me = await site.json('cms/v2/users/me?context=edit');
    post = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: Hello & <em>world</em>', status: 'publish', date: '2024-03-05T10:20:30' } }, 201);
    for (const date of ['1999-02-10', '1999-02-20', '1999-04-02']) await site.json('cms/v2/posts', { method: 'POST', json: { title: `dynblocks: cal ${date}`, status: 'publish', date: `${date}T10:00:00` } }, 201);
    const comment = (json: Obj) => site.json('cms/v2/comments', { method: 'POST', json: { post: post.id, status: 'approved', ...json } }, 201);
    await comment({ author_name: 'Visitor Vee', author_email: 'vee@example.test', content: 'First <b>line</b> of a comment\nthat has quite a few words in it, more than twenty words in total so it will be cut somewhere here', date: '2030-03-07T11:00:00' });
    await comment({ author_name: 'Site Sue', author_email: 'sue@example.test', author_url: 'https://sue.example/', content: 'Short and sweet.', date: '2030-03-08T12:30:00' });
  });

  it('lists the latest comments with avatars, dates and excerpts, or without', async () => {
    // written through REST with an author name and address, so by no user (user_id 0): each avatar is its address's
    const sue = 'cfd0d09405493b6e81d57c34271ed255';
    const vee = '44ef0cb86c8facace482629a0d55f9d8';
    const link = (id: string) => `${post.link}#comment-${id}`;
    const comments = (await site.json(`cms/v2/comments?post=${post.id}&orderby=date&order=desc`)) as Obj[];
    const [sueId, veeId] = comments.map((c) => String(c.id));
    assert.equal(
      await render('core/latest-comments', { commentsToShow: 2 }),
      '<ol class="has-avatars has-dates has-excerpts wp-block-latest-comments"><li class="wp-block-latest-comments__comment">' +
        `<img alt='' src='${gravatar(sue, 48)}' srcset='${gravatar(sue, 96)} 2x' class='avatar avatar-48 photo wp-block-latest-comments__comment-avatar' height='48' width='48' loading='lazy' decoding='async'/>` +
        '<article><footer class="wp-block-latest-comments__comment-meta"><a class="wp-block-latest-comments__comment-author" href="https://sue.example/">Site Sue</a> on ' +
        `<a class="wp-block-latest-comments__comment-link" href="${link(sueId)}">dynblocks: Hello &#038; <em>world</em></a>` +
        '<time datetime="2030-03-08T12:30:00+00:00" class="wp-block-latest-comments__comment-date">March 8, 2030</time></footer>' +
        '<div class="wp-block-latest-comments__comment-excerpt"><p>Short and sweet.</p>\n</div></article></li><li class="wp-block-latest-comments__comment">' +
        `<img alt='' src='${gravatar(vee, 48)}' srcset='${gravatar(vee, 96)} 2x' class='avatar avatar-48 photo wp-block-latest-comments__comment-avatar' height='48' width='48' loading='lazy' decoding='async'/>` +
        '<article><footer class="wp-block-latest-comments__comment-meta"><span class="wp-block-latest-comments__comment-author">Visitor Vee</span> on ' +
        `<a class="wp-block-latest-comments__comment-link" href="${link(veeId)}">dynblocks: Hello &#038; <em>world</em></a>` +
        '<time datetime="2030-03-07T11:00:00+00:00" class="wp-block-latest-comments__comment-date">March 7, 2030</time></footer>' +
        '<div class="wp-block-latest-comments__comment-excerpt"><p>First line of a comment that has quite a few words in it, more than twenty words in total so&hellip;</p>\n</div></article></li></ol>',
    );
    assert.equal(
      await render('core/latest-comments', { commentsToShow: 1, displayAvatar: false, displayDate: false, displayExcerpt: false, className: 'k' }),
      '<ol class="k wp-block-latest-comments"><li class="wp-block-latest-comments__comment"><article><footer class="wp-block-latest-comments__comment-meta">' +
        `<a class="wp-block-latest-comments__comment-author" href="https://sue.example/">Site Sue</a> on <a class="wp-block-latest-comments__comment-link" href="${link(sueId)}">dynblocks: Hello &#038; <em>world</em></a></footer></article></li></ol>`,
    );
  });

  it('lists the comments on a post behind a password too, under its Protected: title (get_comments keeps them)', async () => {
    const secret = await site.json('cms/v2/posts', { method: 'POST', json: { title: 'dynblocks: secret', status: 'publish', password: 'pw', date: '2024-03-06T10:00:00' } }, 201);
    const c = await site.json('cms/v2/comments', { method: 'POST', json: { post: secret.id, status: 'approved', author_name: 'Pat', author_email: 'pat@example.test', content: 'Behind a password.', date: '2030-03-09T09:00:00' } }, 201);
    try {
      assert.equal(
        await render('core/latest-comments', { commentsToShow: 1, displayAvatar: false, displayDate: false, displayExcerpt: false }),
        '<ol class="wp-block-latest-comments"><li class="wp-block-latest-comments__comment"><article><footer class="wp-block-latest-comments__comment-meta"><span class="wp-block-latest-comments__comment-author">Pat</span> on ' +
          `<a class="wp-block-latest-comments__comment-link" href="${secret.link}#comment-${c.id}">Protected: dynblocks: secret</a></footer></article></li></ol>`,
      );
    } finally {
      await site.json(`cms/v2/posts/${secret.id}?force=true`, { method: 'DELETE' });
    }
  });

  it('gives a pingback no avatar (get_avatar answers false for a comment type other than comment)', async () => {
    const id = await site.app.store.comments.insert({ post: post.id, type: 'pingback', author_name: 'Other blog', author_url: 'https://other.example/', content: 'Pinged.', approved: '1', date: '2030-03-10 08:00:00', date_gmt: '2030-03-10 08:00:00' });
    try {
      // WordPress 6.1.9's do_blocks of the same block over its pingback (Other blog, no address)
      assert.equal(
        await render('core/latest-comments', { commentsToShow: 1, displayDate: false, displayExcerpt: false }),
        '<ol class="has-avatars wp-block-latest-comments"><li class="wp-block-latest-comments__comment"><article><footer class="wp-block-latest-comments__comment-meta">' +
          `<a class="wp-block-latest-comments__comment-author" href="https://other.example/">Other blog</a> on <a class="wp-block-latest-comments__comment-link" href="${post.link}#comment-${id}">dynblocks: Hello &#038; <em>world</em></a></footer></article></li></ol>`,
      );
    } finally {
      await site.app.store.comments.delete(id);
    }
  });

  it('draws the calendar of the month asked for, its days with posts linked, with the nearest months with posts', async () => {
    const head =
      '<table id="wp-calendar" class="wp-calendar-table">\n\t<caption>%s</caption>\n\t<thead>\n\t<tr>' +
      '\n\t\t<th scope="col" title="Monday">M</th>\n\t\t<th scope="col" title="Tuesday">T</th>\n\t\t<th scope="col" title="Wednesday">W</th>\n\t\t<th scope="col" title="Thursday">T</th>' +
      '\n\t\t<th scope="col" title="Friday">F</th>\n\t\t<th scope="col" title="Saturday">S</th>\n\t\t<th scope="col" title="Sunday">S</th>\n\t</tr>\n\t</thead>\n\t<tbody>\n\t<tr>';
    const day = (d: string, n: number, label: string) => `<td><a href="${site.home}/1999/${d}/" aria-label="Posts published on ${label}">${n}</a></td>`;
    assert.equal(
      await render('core/calendar', { month: 2, year: 1999 }),
      `<div class="wp-block-calendar">${head.replace('%s', 'February 1999')}<td>1</td><td>2</td><td>3</td><td>4</td><td>5</td><td>6</td><td>7</td>\n\t</tr>\n\t<tr>\n\t\t` +
        `<td>8</td><td>9</td>${day('02/10', 10, 'February 10, 1999')}<td>11</td><td>12</td><td>13</td><td>14</td>\n\t</tr>\n\t<tr>\n\t\t` +
        `<td>15</td><td>16</td><td>17</td><td>18</td><td>19</td>${day('02/20', 20, 'February 20, 1999')}<td>21</td>\n\t</tr>\n\t<tr>\n\t\t` +
        '<td>22</td><td>23</td><td>24</td><td>25</td><td>26</td><td>27</td><td>28</td>\n\t</tr>\n\t</tbody>\n\t</table>' +
        '<nav aria-label="Previous and next months" class="wp-calendar-nav">\n\t\t<span class="wp-calendar-nav-prev">&nbsp;</span>\n\t\t<span class="pad">&nbsp;</span>' +
        `\n\t\t<span class="wp-calendar-nav-next"><a href="${site.home}/1999/04/">Apr &raquo;</a></span>\n\t</nav></div>`,
    );
    assert.equal(
      await render('core/calendar', { month: 4, year: 1999, className: 'c' }),
      `<div class="c wp-block-calendar">${head.replace('%s', 'April 1999')}\n\t\t<td colspan="3" class="pad">&nbsp;</td><td>1</td>${day('04/02', 2, 'April 2, 1999')}<td>3</td><td>4</td>\n\t</tr>\n\t<tr>\n\t\t` +
        '<td>5</td><td>6</td><td>7</td><td>8</td><td>9</td><td>10</td><td>11</td>\n\t</tr>\n\t<tr>\n\t\t' +
        '<td>12</td><td>13</td><td>14</td><td>15</td><td>16</td><td>17</td><td>18</td>\n\t</tr>\n\t<tr>\n\t\t' +
        '<td>19</td><td>20</td><td>21</td><td>22</td><td>23</td><td>24</td><td>25</td>\n\t</tr>\n\t<tr>\n\t\t' +
        '<td>26</td><td>27</td><td>28</td><td>29</td><td>30</td>\n\t\t<td class="pad" colspan="2">&nbsp;</td>\n\t</tr>\n\t</tbody>\n\t</table>' +
        `<nav aria-label="Previous and next months" class="wp-calendar-nav">\n\t\t<span class="wp-calendar-nav-prev"><a href="${site.home}/1999/02/">&laquo; Feb</a></span>\n\t\t<span class="pad">&nbsp;</span>` +
        `\n\t\t<span class="wp-calendar-nav-next"><a href="${site.home}/2024/03/">Mar &raquo;</a></span>\n\t</nav></div>`,
    );
  });

  it('shows the avatar of the post’s author or of a user, its border on the image', async () => {
    const hash = /avatar\/([0-9a-f]+)/.exec(me.avatar_urls['96'])![1];
    const img = (size: number, classes: string, style: string) =>
      `<img alt='${me.name} Avatar' src='${gravatar(hash, size)}' srcset='${gravatar(hash, size * 2)} 2x' class='avatar avatar-${size} photo wp-block-avatar__image ${classes}' height='${size}' width='${size}'  style="${style}" loading='lazy' decoding='async'/>`;
    assert.equal(await render('core/avatar', {}, { post_id: post.id }), `<div class="wp-block-avatar">${img(96, ' ', '')}</div>`);
    assert.equal(
      await render('core/avatar', { size: 48, isLink: true, linkTarget: '_blank', style: { border: { radius: '10px', width: '2px', color: '#f00' } }, align: 'center' }, { post_id: post.id }),
      `<div class="aligncenter wp-block-avatar"><a href="${me.link}" target="_blank" aria-label="(${me.name} author archive, opens in a new tab)" class="wp-block-avatar__link">` +
        `${img(48, 'has-border-color ', 'border-width: 2px;border-radius: 10px;border-color: #f00')}</a></div>`,
    );
    assert.equal(await render('core/avatar', { borderColor: 'primary', userId: me.id }), `<div class="wp-block-avatar">${img(96, 'has-border-color has-primary-border-color ', '')}</div>`);
  });
});
