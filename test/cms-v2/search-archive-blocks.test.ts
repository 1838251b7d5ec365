import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

/**
 * The core's widget blocks (search, archives, categories, tag cloud) as WordPress 6.1.9 renders
 * them: every expected value is WordPress's answer for the same markup or, where WordPress's
 * answer depends on its whole database, what its own functions give for the same terms and dates
 * (wp_generate_tag_cloud, MariaDB's WEEK() and get_weekstartend), written out here.
 */

const server = useServer();

type Obj = Record<string, any>;

const render = async (name: string, attributes: Record<string, unknown>): Promise<string> => {
  const res = await server.call(`cms/v2/block-renderer/${name}?context=edit`, { method: 'POST', json: { attributes }, auth: server.admin });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as Obj).rendered;
};
const create = async (path: string, json: Record<string, unknown>): Promise<Obj> => server.json(path, { method: 'POST', json }, 201);

describe('the core widget blocks as WordPress 6.1 renders them', () => {
  let home = '';
  before(async () => {
    home = server.home;
    // the installed site's first post would date the archives by today: only the posts made here are listed
    for (const p of (await server.json('cms/v2/posts?status=any&per_page=100')) as Obj[]) await server.json(`cms/v2/posts/${p.id}?force=true`, { method: 'DELETE' });
  });

  it('numbers the search forms of a page with the block supports (wp_unique_id), in WordPress 6.1’s markup', async () => {
    const content = CASE2;
    const post = await create('cms/v2/posts', { title: 'Searches', status: 'publish', date: '2019-02-02T12:00:00', content });
    // WordPress 6.1.9's content.rendered of the same content: the inner search is 1, the group 2, then 3 and 4
    assert.equal((await server.json(`cms/v2/posts/${post.id}`)).content.rendered, REST(home));
  });

  it('sizes the tag cloud by log10 of the counts and sorts it as strnatcasecmp does', async () => {
    const tag = async (name: string) => (await create('cms/v2/tags', { name })).id as number;
    const [cherry, banana, apple9, apple10, date2] = [await tag('Cherry'), await tag('banana'), await tag('Apple9'), await tag('apple10'), await tag('date 2')];
    const tagged = [[cherry, banana, apple9, apple10, date2], [cherry, banana, apple9], [cherry, banana], [cherry], [cherry]];
    for (const [i, tags] of tagged.entries()) await create('cms/v2/posts', { title: `Tagged ${i}`, status: 'publish', date: `2019-02-01T10:0${i}:00`, tags });
    // wp_generate_tag_cloud of these five tags (counts 5, 3, 2, 1, 1) with the block's defaults (8pt to 22pt)
    assert.equal(
      await render('core/tag-cloud', {}),
      '<p class="wp-block-tag-cloud">' +
        `<a href="${home}/tag/apple9/" class="tag-cloud-link tag-link-${apple9} tag-link-position-1" style="font-size: 13.25pt;" aria-label="Apple9 (2 items)">Apple9</a>\n` +
        `<a href="${home}/tag/apple10/" class="tag-cloud-link tag-link-${apple10} tag-link-position-2" style="font-size: 8pt;" aria-label="apple10 (1 item)">apple10</a>\n` +
        `<a href="${home}/tag/banana/" class="tag-cloud-link tag-link-${banana} tag-link-position-3" style="font-size: 16.75pt;" aria-label="banana (3 items)">banana</a>\n` +
        `<a href="${home}/tag/cherry/" class="tag-cloud-link tag-link-${cherry} tag-link-position-4" style="font-size: 22pt;" aria-label="Cherry (5 items)">Cherry</a>\n` +
        `<a href="${home}/tag/date-2/" class="tag-cloud-link tag-link-${date2} tag-link-position-5" style="font-size: 8pt;" aria-label="date 2 (1 item)">date 2</a></p>`,
    );
    // the same in em, with counts: the unit is the smallest size's
    assert.equal(
      await render('core/tag-cloud', { smallestFontSize: '1em', largestFontSize: '2.5em', showTagCounts: true }),
      '<p class="wp-block-tag-cloud">' +
        `<a href="${home}/tag/apple9/" class="tag-cloud-link tag-link-${apple9} tag-link-position-1" style="font-size: 1.5625em;" aria-label="Apple9 (2 items)">Apple9<span class="tag-link-count"> (2)</span></a>\n` +
        `<a href="${home}/tag/apple10/" class="tag-cloud-link tag-link-${apple10} tag-link-position-2" style="font-size: 1em;" aria-label="apple10 (1 item)">apple10<span class="tag-link-count"> (1)</span></a>\n` +
        `<a href="${home}/tag/banana/" class="tag-cloud-link tag-link-${banana} tag-link-position-3" style="font-size: 1.9375em;" aria-label="banana (3 items)">banana<span class="tag-link-count"> (3)</span></a>\n` +
        `<a href="${home}/tag/cherry/" class="tag-cloud-link tag-link-${cherry} tag-link-position-4" style="font-size: 2.5em;" aria-label="Cherry (5 items)">Cherry<span class="tag-link-count"> (5)</span></a>\n` +
        `<a href="${home}/tag/date-2/" class="tag-cloud-link tag-link-${date2} tag-link-position-5" style="font-size: 1em;" aria-label="date 2 (1 item)">date 2<span class="tag-link-count"> (1)</span></a></p>`,
    );
  });

  it('lists the categories by name whatever their case, nested with padded counts, and as a dropdown with its script', async () => {
    const category = async (name: string, parent = 0) => (await create('cms/v2/categories', { name, parent })).id as number;
    const zebra = await category('Zebra');
    const apple = await category('apple');
    const fruit = await category('Fruit');
    const pear = await category('pear', fruit);
    const quince = await category('quince', fruit);
    await create('cms/v2/posts', { title: 'Filed', status: 'publish', date: '2019-02-02T10:00:00', categories: [zebra, apple] });
    await create('cms/v2/posts', { title: 'Filed twice', status: 'publish', date: '2019-02-02T11:00:00', categories: [apple, pear, quince] });
    const item = (id: number, path: string, name: string, count = '', nested = '') => `\t<li class="cat-item cat-item-${id}"><a href="${home}/category/${path}/">${name}</a>${count}${nested}\n</li>\n`;
    // the posts of the tests before, filed in no category, are Uncategorized's (6)
    const uncategorized = (count = '') => item(1, 'uncategorized', 'Uncategorized', count);
    // wp_list_categories ordered by name as MySQL collates it (apple before Fruit before Uncategorized
    // before Zebra); the empty Fruit is left out of a flat list, its children listed on their own
    assert.equal(
      await render('core/categories', {}),
      `<ul class="wp-block-categories-list wp-block-categories">${item(apple, 'apple', 'apple')}${item(pear, 'fruit/pear', 'pear')}${item(quince, 'fruit/quince', 'quince')}${uncategorized()}${item(zebra, 'zebra', 'Zebra')}</ul>`,
    );
    // nested, an empty parent of a non-empty child is listed, its count padded with its children's
    // posts, each counted once (WordPress 6.1.9's wp_list_categories: pad_counts, _pad_term_counts)
    const fruitChildren = `\n<ul class='children'>\n${item(pear, 'fruit/pear', 'pear', ' (1)')}${item(quince, 'fruit/quince', 'quince', ' (1)')}</ul>`;
    assert.equal(
      await render('core/categories', { showHierarchy: true, showPostCounts: true }),
      `<ul class="wp-block-categories-list wp-block-categories">${item(apple, 'apple', 'apple', ' (2)')}${item(fruit, 'fruit', 'Fruit', ' (1)', fruitChildren)}${uncategorized(' (6)')}${item(zebra, 'zebra', 'Zebra', ' (1)')}</ul>`,
    );
    // wp_dropdown_categories and the block's script, as WordPress 6.1.9 prints them
    const option = (id: number, name: string, level = 0, count = '') => `\t<option class="level-${level}" value="${id}">${'&nbsp;'.repeat(3 * level)}${name}${count}</option>\n`;
    const script = (id: string) =>
      `\t<script type='text/javascript'>\n\t/* <![CDATA[ */\n\t( function() {\n\t\tvar dropdown = document.getElementById( '${id}' );\n\t\tfunction onCatChange() {\n\t\t\tif ( dropdown.options[ dropdown.selectedIndex ].value > 0 ) {\n\t\t\t\tlocation.href = "${home}/?cat=" + dropdown.options[ dropdown.selectedIndex ].value;\n\t\t\t}\n\t\t}\n\t\tdropdown.onchange = onCatChange;\n\t})();\n\t/* ]]> */\n\t</script>\n\t`;
    assert.equal(
      await render('core/categories', { displayAsDropdown: true, showHierarchy: true, showPostCounts: true }),
      `<div class="wp-block-categories-dropdown wp-block-categories"><label class="screen-reader-text" for="wp-block-categories-1">Categories</label><select  name='cat' id='wp-block-categories-1' class='postform'>\n\t<option value='-1'>Select Category</option>\n` +
        `${option(apple, 'apple', 0, '&nbsp;&nbsp;(2)')}${option(fruit, 'Fruit', 0, '&nbsp;&nbsp;(1)')}${option(pear, 'pear', 1, '&nbsp;&nbsp;(1)')}${option(quince, 'quince', 1, '&nbsp;&nbsp;(1)')}${option(1, 'Uncategorized', 0, '&nbsp;&nbsp;(6)')}${option(zebra, 'Zebra', 0, '&nbsp;&nbsp;(1)')}</select>${script('wp-block-categories-1')}\n</div>`,
    );
  });

  it('lists the archives by day and by week', async () => {
    for (const [i, date] of ['2019-02-04', '2019-02-03', '2018-12-31', '2019-01-01', '2019-01-06'].entries()) await create('cms/v2/posts', { title: `Dated ${i}`, status: 'publish', date: `${date}T09:00:00` });
    // the posts of the earlier tests are on 2019-02-01 (5) and 2019-02-02 (3)
    const daily = await render('core/archives', { type: 'daily', showPostCounts: true });
    const day = (path: string, text: string, n: number) => `\t<li><a href='${home}/${path}/'>${text}</a>&nbsp;(${n})</li>\n`;
    assert.equal(
      daily,
      '<ul class=" wp-block-archives-list wp-block-archives">' +
        day('2019/02/04', 'February 4, 2019', 1) + day('2019/02/03', 'February 3, 2019', 1) + day('2019/02/02', 'February 2, 2019', 3) + day('2019/02/01', 'February 1, 2019', 5) +
        day('2019/01/06', 'January 6, 2019', 1) + day('2019/01/01', 'January 1, 2019', 1) + day('2018/12/31', 'December 31, 2018', 1) + '</ul>',
    );
    // start_of_week 1 (Monday): WEEK(post_date, 1) and YEAR(post_date) group them, MariaDB giving
    // 6 for Feb 4, 5 for Feb 1 to 3, 1 for Jan 1 and 6, 53 for Dec 31 2018; get_weekstartend spans each
    const week = (year: number, w: number, text: string, n: number) => `\t<li><a href='${home}/?m=${year}&#038;w=${w}'>${text}</a>&nbsp;(${n})</li>\n`;
    assert.equal(
      await render('core/archives', { type: 'weekly', showPostCounts: true }),
      '<ul class=" wp-block-archives-list wp-block-archives">' +
        week(2019, 6, 'February 4, 2019&#8211;February 10, 2019', 1) + week(2019, 5, 'January 28, 2019&#8211;February 3, 2019', 9) +
        week(2019, 1, 'December 31, 2018&#8211;January 6, 2019', 2) + week(2018, 53, 'December 31, 2018&#8211;January 6, 2019', 1) + '</ul>',
    );
    // get_archives_link's option is "$before $text $after": a space either side of the text (WordPress 6.1.9's wp_get_archives with format option)
    const dropdown = await render('core/archives', { type: 'weekly', displayAsDropdown: true });
    assert.ok(dropdown.includes(`<option value="">Select Week</option>\t<option value='${home}/?m=2019&#038;w=6'> February 4, 2019&#8211;February 10, 2019 </option>\n`), dropdown);
    const counted = await render('core/archives', { type: 'weekly', displayAsDropdown: true, showPostCounts: true });
    assert.ok(counted.includes(`\t<option value='${home}/?m=2019&#038;w=6'> February 4, 2019&#8211;February 10, 2019 &nbsp;(1)</option>\n`), counted);
  });

  it('styles the archives with its typography supports (6.1’s block.json), as the test data’s Archives post sets them', async () => {
    // WordPress 6.1.9: get_block_wrapper_attributes puts the style first, and the supports' classes
    // (generated class name, then typography's preset font size) after the callback's own
    const year = (y: number) => `\t<li><a href='${home}/${y}/'>${y}</a></li>\n`;
    assert.equal(
      await render('core/archives', { type: 'yearly', fontSize: 'small', style: { typography: { fontStyle: 'italic', fontWeight: '200', letterSpacing: '7px', textTransform: 'uppercase' } } }),
      `<ul style="font-style:italic;font-weight:200;text-transform:uppercase;letter-spacing:7px;" class=" wp-block-archives-list wp-block-archives has-small-font-size">${year(2019)}${year(2018)}</ul>`,
    );
  });

  it('lists the latest posts of a category the block’s first versions saved as a string, as block_core_latest_posts_migrate_categories reads it', async () => {
    const filed = await create('cms/v2/categories', { name: 'Filed here' });
    const inside = await create('cms/v2/posts', { title: 'In the category', status: 'publish', date: '2019-03-01T10:00:00', categories: [filed.id] });
    await create('cms/v2/posts', { title: 'Not in it', status: 'publish', date: '2019-03-01T11:00:00' });
    const content = `<!-- wp:latest-posts {"categories":"${filed.id}","postsToShow":10} /-->`;
    const post = await create('cms/v2/posts', { title: 'Latest of one', status: 'publish', date: '2019-03-02T10:00:00', content });
    // WordPress 6.1.9's content.rendered of the same markup and posts
    assert.equal(
      (await server.json(`cms/v2/posts/${post.id}`)).content.rendered,
      `<ul class="wp-block-latest-posts__list wp-block-latest-posts"><li><a class="wp-block-latest-posts__post-title" href="${inside.link}">In the category</a></li>\n</ul>`,
    );
    // its date as get_the_date( 'c' ) gives it: the local date on the site's clock, whose zone has
    // changed since (WordPress 6.1.9, the same posts, the site's timezone then set to Europe/Paris)
    await server.json('cms/v2/settings', { method: 'POST', json: { timezone: 'Europe/Paris' } });
    try {
      const dated = await create('cms/v2/posts', { title: 'Latest of one, dated', status: 'publish', date: '2019-03-02T10:00:00', content: `<!-- wp:latest-posts {"categories":"${filed.id}","displayPostDate":true} /-->` });
      assert.equal(
        (await server.json(`cms/v2/posts/${dated.id}`)).content.rendered,
        `<ul class="wp-block-latest-posts__list has-dates wp-block-latest-posts"><li><a class="wp-block-latest-posts__post-title" href="${inside.link}">In the category</a><time datetime="2019-03-01T10:00:00+01:00" class="wp-block-latest-posts__post-date">March 1, 2019</time></li>\n</ul>`,
      );
    } finally {
      await server.json('cms/v2/settings', { method: 'POST', json: { timezone: 'UTC' } });
    }
  });
});

const CASE2 = `<!-- wp:group -->
<div class="wp-block-group"><!-- wp:search {"label":"Search","buttonText":"Search","width":75,"widthUnit":"%","buttonPosition":"button-inside"} /--></div>
<!-- /wp:group -->

<!-- wp:search {"label":"Find","showLabel":false,"placeholder":"Words…","buttonText":"Go","buttonUseIcon":true,"query":{"post_type":"page"}} /-->

<!-- wp:search {"label":"Nothing","buttonPosition":"no-button","className":"mine","align":"right"} /-->
`;

const REST = (home: string) => `
<div class="is-layout-flow wp-block-group"><form role="search" method="get" action="${home}/" class="wp-block-search__button-inside wp-block-search__text-button wp-block-search"><label for="wp-block-search__input-1" class="wp-block-search__label" >Search</label><div class="wp-block-search__inside-wrapper "  style="width: 75%"><input type="search" id="wp-block-search__input-1" class="wp-block-search__input wp-block-search__input " name="s" value="" placeholder=""  required /><button type="submit" class="wp-block-search__button wp-element-button"  >Search</button></div></form></div>


<form role="search" method="get" action="${home}/" class="wp-block-search__button-outside wp-block-search__icon-button wp-block-search"><label for="wp-block-search__input-3" class="wp-block-search__label screen-reader-text">Find</label><div class="wp-block-search__inside-wrapper " ><input type="search" id="wp-block-search__input-3" class="wp-block-search__input wp-block-search__input" name="s" value="" placeholder="Words…"  required /><input type="hidden" name="post_type" value="page" /><button type="submit" class="wp-block-search__button has-icon wp-element-button"  aria-label="Go"><svg class="search-icon" viewBox="0 0 24 24" width="24" height="24">
					<path d="M13.5 6C10.5 6 8 8.5 8 11.5c0 1.1.3 2.1.9 3l-3.4 3 1 1.1 3.4-2.9c1 .9 2.2 1.4 3.6 1.4 3 0 5.5-2.5 5.5-5.5C19 8.5 16.5 6 13.5 6zm0 9.5c-2.2 0-4-1.8-4-4s1.8-4 4-4 4 1.8 4 4-1.8 4-4 4z"></path>
				</svg></button></div></form>

<form role="search" method="get" action="${home}/" class="wp-block-search__no-button alignright mine wp-block-search"><label for="wp-block-search__input-4" class="wp-block-search__label" >Nothing</label><div class="wp-block-search__inside-wrapper " ><input type="search" id="wp-block-search__input-4" class="wp-block-search__input wp-block-search__input" name="s" value="" placeholder=""  required /></div></form>
`;
