import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

// The Query Loop (core/query providing queryId and query, post-template's loop, the pagination
// blocks, query-no-results) in a post's content.rendered. Expected values are WordPress 6.1.9's
// REST content.rendered of the same posts written through its REST API (three posts "dynblocks:
// Q1..Q3" holding the word zqloop, dated 2024-04-01..03, and the post holding the loop, dated
// 2024-05-01), with addresses and ids replaced by this site's. The layout support's classes
// (`is-layout-flow`, `is-layout-flex`) are WordPress's too. One difference: WordPress's REST request
// links the next page from the request's own path (`/wp-json/wp/v2/posts?query-3-page=2`), where
// this site links from the path of the page the post is rendered for (its permalink's), as
// WordPress does on the site's own page.

type Obj = Record<string, any>;

const LOOP = ({ author = '', inherit = false } = {}) =>
  `<!-- wp:query {"queryId":3,"query":{"perPage":2,"pages":0,"offset":0,"postType":"post","order":"desc","orderBy":"date","author":"${author}","search":"zqloop","exclude":[],"sticky":"","inherit":${inherit}},"displayLayout":{"type":"flex","columns":2}} -->
<div class="wp-block-query"><!-- wp:post-template -->
<!-- wp:post-title {"isLink":true} /-->
<!-- wp:post-excerpt /-->
<!-- /wp:post-template -->

<!-- wp:query-pagination {"paginationArrow":"arrow"} -->
<!-- wp:query-pagination-previous /-->
<!-- wp:query-pagination-numbers /-->
<!-- wp:query-pagination-next /-->
<!-- /wp:query-pagination -->

<!-- wp:query-no-results -->
<!-- wp:paragraph -->
<p>Nothing.</p>
<!-- /wp:paragraph -->
<!-- /wp:query-no-results --></div>
<!-- /wp:query -->`;

describe('the Query Loop blocks', () => {
  const site = useServer();
  const create = (json: Obj) => site.json('cms/v2/posts', { method: 'POST', json: { status: 'publish', ...json } }, 201);
  const rendered = async (id: number) => (await site.json(`cms/v2/posts/${id}`)).content.rendered;
  let q3: Obj;

  it('sets up the posts', async () => {
    for (const i of [1, 2, 3]) {
      const p = await create({ title: `dynblocks: Q${i}`, content: `<!-- wp:paragraph -->\n<p>zqloop number ${i}</p>\n<!-- /wp:paragraph -->`, date: `2024-04-0${i}T09:00:00` });
      if (i === 3) q3 = p;
    }
  });

  it('renders each post of the query with its own context, the page numbers and the next link', async () => {
    const loop = await create({ title: 'dynblocks: loop', content: LOOP(), date: '2024-05-01T09:00:00' });
    // the loop's own post holds the word too, so it comes first; its excerpt is empty (excerpt_remove_blocks leaves nothing of a query)
    assert.equal(
      await rendered(loop.id),
      '\n<div class="is-layout-flow wp-block-query"><ul class="is-layout-flow is-flex-container columns-2 wp-block-post-template">' +
        `<li class="wp-block-post post-${loop.id} post type-post status-publish format-standard hentry category-uncategorized">\n` +
        `<h2 class="wp-block-post-title"><a href="${loop.link}" target="_self" >dynblocks: loop</a></h2>\n\n` +
        `</li><li class="wp-block-post post-${q3.id} post type-post status-publish format-standard hentry category-uncategorized">\n` +
        `<h2 class="wp-block-post-title"><a href="${q3.link}" target="_self" >dynblocks: Q3</a></h2>\n` +
        '<div class="wp-block-post-excerpt"><p class="wp-block-post-excerpt__excerpt">zqloop number 3 </p></div>\n' +
        '</li></ul>\n\n' +
        '<nav class="is-layout-flex wp-block-query-pagination" aria-label="Pagination">\n\n' +
        '<div class="wp-block-query-pagination-numbers"><span aria-current="page" class="page-numbers current">1</span>\n<a class="page-numbers" href="?query-3-page=2">2</a></div>\n' +
        `<a href="${new URL(loop.link).pathname}?query-3-page=2" class="wp-block-query-pagination-next">Next Page<span class='wp-block-query-pagination-next-arrow is-arrow-arrow' aria-hidden='true'>→</span></a>\n` +
        '</nav>\n\n' +
        '</div>\n',
    );
  });

  it('shows the page the site’s request asks for (`?query-3-page=2`), linking the others from the page’s path', async () => {
    const [loop] = (await site.json('cms/v2/posts?search=dynblocks%3A%20loop')) as Obj[];
    const path = new URL(loop.link).pathname;
    const html = await (await fetch(`${loop.link}?query-3-page=2`)).text();
    // WordPress 6.1.9's page 2 of the same loop on its site (do_blocks with $_GET['query-3-page'] = 2): the previous
    // page's link and the numbers as paginate_links writes them; page 2 is the last here, so no next link
    assert.ok(html.includes(`>dynblocks: Q2</a></h2>`) && html.includes(`>dynblocks: Q1</a></h2>`) && !html.includes('>dynblocks: Q3</a></h2>'), html);
    assert.ok(
      html.includes(
        // the pagination's flex layout class from the layout support, as WordPress adds it
        '<nav class="is-layout-flex wp-block-query-pagination" aria-label="Pagination">\n' +
          `<a href="${path}?query-3-page=1" class="wp-block-query-pagination-previous"><span class='wp-block-query-pagination-previous-arrow is-arrow-arrow' aria-hidden='true'>←</span>Previous Page</a>\n` +
          '<div class="wp-block-query-pagination-numbers"><a class="page-numbers" href="?cst">1</a>\n<span aria-current="page" class="page-numbers current">2</span></div>\n\n</nav>',
      ),
      html,
    );
  });

  it('is never kept: a post written after a rendering shows in the next one', async () => {
    const loop = await create({ title: 'dynblocks: kept loop', content: LOOP({ author: '' }).replace('"perPage":2', '"perPage":1'), date: '2024-05-02T09:00:00' });
    assert.match(await rendered(loop.id), /dynblocks: kept loop<\/a>/);
    const newer = await create({ title: 'dynblocks: newer', content: '<!-- wp:paragraph -->\n<p>zqloop newer</p>\n<!-- /wp:paragraph -->', date: '2024-06-01T09:00:00' });
    const again = await rendered(loop.id);
    assert.match(again, new RegExp(`post-${newer.id} `));
    assert.doesNotMatch(again, /dynblocks: kept loop<\/a>/);
  });

  it('shows query-no-results when nothing matches, and when it inherits the main query a REST rendering does not run', async () => {
    const expected = '\n<div class="is-layout-flow wp-block-query">\n\n\n\n<div class="wp-block-query-no-results">\n\n<p>Nothing.</p>\n\n</div></div>\n';
    const none = await create({ title: 'dynblocks: none', content: LOOP({ author: '9999' }) });
    assert.equal(await rendered(none.id), expected);
    const inherited = await create({ title: 'dynblocks: inherited', content: LOOP({ inherit: true }) });
    assert.equal(await rendered(inherited.id), expected);
  });

  it('puts the sticky posts on top of a first page of the home kind, in addition to its posts per page', async () => {
    // WordPress 6.1.9's the_content of the same loop over its newest post ("Hello world!" there) and
    // an old sticky post (WP_Query's is_home: the stickies not on the page are added before it;
    // post_class writes `sticky` only where is_home(), which a REST request is not)
    const [newest] = await site.json('cms/v2/posts?per_page=1');
    const pinned = await create({ title: 'dynblocks: pinned', date: '2001-01-01T09:00:00', sticky: true });
    const loop = await create({
      title: 'dynblocks: sticky loop',
      date: '2000-01-01T09:00:00',
      content: '<!-- wp:query {"queryId":7,"query":{"perPage":1,"pages":0,"offset":0,"postType":"post","order":"desc","orderBy":"date","author":"","search":"","exclude":[],"sticky":"","inherit":false}} -->\n<div class="wp-block-query"><!-- wp:post-template -->\n<!-- wp:post-title /-->\n<!-- /wp:post-template --></div>\n<!-- /wp:query -->',
    });
    assert.equal(
      await rendered(loop.id),
      '\n<div class="is-layout-flow wp-block-query"><ul class="is-layout-flow wp-block-post-template">' +
        `<li class="wp-block-post post-${pinned.id} post type-post status-publish format-standard hentry category-uncategorized">\n<h2 class="wp-block-post-title">dynblocks: pinned</h2>\n</li>` +
        `<li class="wp-block-post post-${newest.id} post type-post status-publish format-standard hentry category-uncategorized">\n<h2 class="wp-block-post-title">${newest.title.rendered}</h2>\n</li></ul></div>\n`,
    );
  });

  it('gives the first tag of each post a link-coloured template renders the elements class of its `core/null` copy', async () => {
    const linked = await create({ title: 'dynblocks: linked', content: 'zqlinked', date: '2001-01-01T09:00:00' });
    const loop = await create({
      title: 'dynblocks: linked loop',
      date: '2000-01-01T09:00:00',
      content: '<!-- wp:query {"queryId":9,"query":{"perPage":1,"pages":0,"offset":0,"postType":"post","order":"desc","orderBy":"date","author":"","search":"zqlinked","exclude":[],"sticky":"","inherit":false}} -->\n<div class="wp-block-query"><!-- wp:post-template {"style":{"elements":{"link":{"color":{"text":"var:preset|color|vivid-red"}}}}} -->\n<!-- wp:post-title /-->\n<!-- /wp:post-template --></div>\n<!-- /wp:query -->',
    });
    // wp_get_elements_class_name: md5 of PHP's serialize() of the block as WP_Block_Parser parses it
    const s = (text: string) => `s:${Buffer.byteLength(text)}:"${text}";`;
    const title = `a:5:{${s('blockName')}${s('core/post-title')}${s('attrs')}a:0:{}${s('innerBlocks')}a:0:{}${s('innerHTML')}${s('')}${s('innerContent')}a:0:{}}`;
    const attrs = `a:1:{${s('style')}a:1:{${s('elements')}a:1:{${s('link')}a:1:{${s('color')}a:1:{${s('text')}${s('var:preset|color|vivid-red')}}}}}}`;
    const template = (name: string) => `a:5:{${s('blockName')}${s(name)}${s('attrs')}${attrs}${s('innerBlocks')}a:1:{i:0;${title}}${s('innerHTML')}${s('\n\n')}${s('innerContent')}a:3:{i:0;${s('\n')}i:1;N;i:2;${s('\n')}}}`;
    const elements = (name: string) => `wp-elements-${createHash('md5').update(template(name)).digest('hex')}`;
    // WordPress 6.1.9: the template's own wrapper takes its class (and the page its link rule); each
    // post's `core/null` copy, rendered with `dynamic` false, meets the render_block filters too, and
    // wp_render_elements_support, asking no block type, puts that copy's class on the post's first tag
    assert.equal(
      await rendered(loop.id),
      `\n<div class="is-layout-flow wp-block-query"><ul class="is-layout-flow ${elements('core/post-template')} wp-block-post-template">` +
        `<li class="wp-block-post post-${linked.id} post type-post status-publish format-standard hentry category-uncategorized">\n<h2 class="${elements('core/null')} wp-block-post-title">dynblocks: linked</h2>\n</li></ul></div>\n`,
    );
  });
});
