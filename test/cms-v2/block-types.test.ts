import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';
import { routesOf } from '../helpers/route-index.ts';

// cms/v2's blocks routes against WordPress 6.1's controllers: block types, the block renderer,
// block patterns and their categories, and the block and pattern directories (which this server
// never reaches: WordPress's answers for a site whose requests to WordPress.org are blocked).

const BLOCK_TYPE_KEYS = [
  'attributes', 'is_dynamic', 'api_version', 'name', 'title', 'description', 'icon', 'category', 'keywords', 'parent', 'ancestor',
  'provides_context', 'uses_context', 'supports', 'styles', 'textdomain', 'example', 'editor_script_handles', 'script_handles',
  'view_script_handles', 'editor_style_handles', 'style_handles', 'variations', 'editor_script', 'script', 'view_script', 'editor_style', 'style', '_links',
];

const CONTEXT = { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view', 'embed', 'edit'], default: 'view', required: false };
const BLOCK_NAMESPACE = { description: 'Block namespace.', type: 'string', required: false };

const LOTTIE_DOT = {
  v: '5.7.4', fr: 30, ip: 0, op: 60, w: 200, h: 200, nm: 'Dot', ddd: 0, assets: [], markers: [],
  layers: [{
    ddd: 0, ind: 1, ty: 4, nm: 'Circle', sr: 1, ao: 0, ip: 0, op: 60, st: 0, bm: 0,
    ks: { o: { a: 0, k: 100 }, r: { a: 0, k: 0 }, p: { a: 0, k: [100, 100, 0] }, a: { a: 0, k: [0, 0, 0] }, s: { a: 0, k: [100, 100, 100] } },
    shapes: [{ ty: 'gr', nm: 'g', it: [
      { ty: 'el', d: 1, s: { a: 0, k: [40, 40] }, p: { a: 0, k: [0, 0] }, nm: 'e' },
      { ty: 'fl', c: { a: 0, k: [1, 0, 0, 1] }, o: { a: 0, k: 100 }, r: 1, nm: 'f' },
      { ty: 'tr', p: { a: 0, k: [0, 0] }, a: { a: 0, k: [0, 0] }, s: { a: 0, k: [100, 100] }, r: { a: 0, k: 0 }, o: { a: 0, k: 100 }, sk: { a: 0, k: 0 }, sa: { a: 0, k: 0 }, nm: 't' },
    ] }],
  }],
};

describe('cms/v2 blocks: WP_REST_Block_Types_Controller, block renderer, block patterns, directories', () => {
  const site = useServer();
  const url = (path: string) => `${site.api}cms/v2/${path}`;
  const json = async (res: Response) => res.json();
  const post = async (fields: Record<string, unknown>) => {
    const res = await site.call('cms/v2/posts', { json: { status: 'publish', ...fields }, auth: site.admin });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as { id: number; link: string };
  };
  const render = (name: string, attributes: Record<string, unknown> = {}, auth = site.admin, extra: Record<string, unknown> = {}) =>
    site.call(`cms/v2/block-renderer/${name}?context=edit`, { json: { attributes, ...extra }, auth });

  describe('the index', () => {
    it('lists the routes with WordPress 6.1’s methods and args', async () => {
      const routes = await routesOf(site, /^\/cms\/v2\/(block-|pattern-directory)/);
      assert.deepEqual(routes['/cms/v2/block-types'], { methods: ['GET'], endpoints: [{ methods: ['GET'], args: { context: CONTEXT, namespace: BLOCK_NAMESPACE } }] });
      assert.deepEqual(routes['/cms/v2/block-types/(?P<namespace>[a-zA-Z0-9_-]+)'], { methods: ['GET'], endpoints: [{ methods: ['GET'], args: { context: CONTEXT, namespace: BLOCK_NAMESPACE } }] });
      assert.deepEqual(routes['/cms/v2/block-types/(?P<namespace>[a-zA-Z0-9_-]+)/(?P<name>[a-zA-Z0-9_-]+)'], {
        methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: { name: { description: 'Block name.', type: 'string', required: false }, namespace: BLOCK_NAMESPACE, context: CONTEXT } }],
      });
      assert.deepEqual(routes['/cms/v2/block-renderer/(?P<name>[a-z0-9-]+/[a-z0-9-]+)'], {
        methods: ['GET', 'POST'],
        endpoints: [{
          methods: ['GET', 'POST'],
          args: {
            name: { description: 'Unique registered name for the block.', type: 'string', required: false },
            // WordPress 6.1 shows `default: view` here, which its own enum refuses
            context: { description: CONTEXT.description, type: 'string', enum: ['edit'], default: 'view', required: false },
            attributes: { description: 'Attributes for the block.', type: 'object', default: [], required: false },
            post_id: { description: 'ID of the post context.', type: 'integer', required: false },
          },
        }],
      });
      assert.deepEqual(routes['/cms/v2/block-directory/search'], {
        methods: ['GET'],
        endpoints: [{
          methods: ['GET'],
          args: {
            context: { description: CONTEXT.description, type: 'string', enum: ['view'], default: 'view', required: false },
            page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1, required: false },
            per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100, required: false },
            term: { description: 'Limit result set to blocks matching the search term.', type: 'string', minLength: 1, required: true },
          },
        }],
      });
      assert.deepEqual(routes['/cms/v2/pattern-directory/patterns'], {
        methods: ['GET'],
        endpoints: [{
          methods: ['GET'],
          args: {
            context: CONTEXT,
            search: { description: 'Limit results to those matching a string.', type: 'string', minLength: 1, required: false },
            category: { description: 'Limit results to those matching a category ID.', type: 'integer', minimum: 1, required: false },
            keyword: { description: 'Limit results to those matching a keyword ID.', type: 'integer', minimum: 1, required: false },
            slug: { description: 'Limit results to those matching a pattern (slug).', type: 'array', required: false },
          },
        }],
      });
      for (const path of ['/cms/v2/block-patterns/patterns', '/cms/v2/block-patterns/categories'])
        assert.deepEqual(routes[path], { methods: ['GET'], endpoints: [{ methods: ['GET'], args: [] }] }, path);
    });
  });

  describe('block-types', () => {
    it('refuses callers who edit no post type: 401 anonymous, 403 subscriber', async () => {
      const anonymous = await site.call('cms/v2/block-types');
      assert.equal(anonymous.status, 401);
      assert.deepEqual(await json(anonymous), { code: 'rest_block_type_cannot_view', message: 'Sorry, you are not allowed to manage block types.', data: { status: 401 } });
      const subscriber = await userAuth(site, 'subscriber');
      for (const path of ['cms/v2/block-types', 'cms/v2/block-types/core', 'cms/v2/block-types/core/paragraph', 'cms/v2/block-types/core/nothing']) {
        const res = await site.call(path, { auth: subscriber.auth });
        assert.equal(res.status, 403, path);
        assert.deepEqual(await json(res), { code: 'rest_block_type_cannot_view', message: 'Sorry, you are not allowed to manage block types.', data: { status: 403 } });
      }
    });

    it('lists the core blocks and the active plugins’ blocks to a contributor, each with every field', async () => {
      const contributor = await userAuth(site, 'contributor');
      const res = await site.call('cms/v2/block-types', { auth: contributor.auth });
      assert.equal(res.status, 200);
      const list = (await res.json()) as Record<string, unknown>[];
      const names = list.map((b) => b.name);
      for (const name of ['core/paragraph', 'core/heading', 'core/list', 'core/quote', 'core/image', 'core/latest-posts', 'core/archives', 'core/categories', 'core/tag-cloud', 'core/search', 'core/page-list', 'core/site-title', 'kadence/lottie', 'kadence/vector'])
        assert.ok(names.includes(name), name);
      assert.equal(new Set(names).size, names.length);
      for (const b of list) assert.deepEqual(Object.keys(b), BLOCK_TYPE_KEYS, String(b.name));
    });

    it('lists the 90 core blocks in the order WordPress 6.1 registers them', async () => {
      const core = (await json(await site.call('cms/v2/block-types/core', { auth: site.admin }))) as { name: string }[];
      // WordPress 6.1.9's GET wp/v2/block-types (its core blocks: legacy widget and widget group, the
      // dynamic blocks, the static ones, the legacy post comments block)
      assert.deepEqual(core.map((b) => b.name.slice('core/'.length)), [
        'legacy-widget', 'widget-group', 'archives', 'avatar', 'block', 'calendar', 'categories', 'comment-author-name', 'comment-content',
        'comment-date', 'comment-edit-link', 'comment-reply-link', 'comment-template', 'comments', 'comments-pagination', 'comments-pagination-next',
        'comments-pagination-numbers', 'comments-pagination-previous', 'comments-title', 'cover', 'file', 'gallery', 'home-link', 'image',
        'latest-comments', 'latest-posts', 'loginout', 'navigation', 'navigation-link', 'navigation-submenu', 'page-list', 'pattern', 'post-author',
        'post-author-biography', 'post-comments-form', 'post-content', 'post-date', 'post-excerpt', 'post-featured-image', 'post-navigation-link',
        'post-template', 'post-terms', 'post-title', 'query', 'query-no-results', 'query-pagination', 'query-pagination-next',
        'query-pagination-numbers', 'query-pagination-previous', 'query-title', 'read-more', 'rss', 'search', 'shortcode', 'site-logo',
        'site-tagline', 'site-title', 'social-link', 'tag-cloud', 'template-part', 'term-description', 'audio', 'button', 'buttons', 'code',
        'column', 'columns', 'embed', 'freeform', 'group', 'heading', 'html', 'list', 'list-item', 'media-text', 'missing', 'more', 'nextpage',
        'paragraph', 'preformatted', 'pullquote', 'quote', 'separator', 'social-links', 'spacer', 'table', 'text-columns', 'verse', 'video',
        'post-comments',
      ]);
    });

    it('filters by namespace, as a path segment or the namespace arg', async () => {
      const byPath = (await json(await site.call('cms/v2/block-types/kadence', { auth: site.admin }))) as { name: string }[];
      assert.deepEqual(byPath.map((b) => b.name), ['kadence/lottie', 'kadence/vector']);
      const byArg = (await json(await site.call('cms/v2/block-types?namespace=kadence', { auth: site.admin }))) as { name: string }[];
      assert.deepEqual(byArg.map((b) => b.name), ['kadence/lottie', 'kadence/vector']);
      const core = (await json(await site.call('cms/v2/block-types/core', { auth: site.admin }))) as { name: string }[];
      assert.ok(core.length >= 20 && core.every((b) => b.name.startsWith('core/')));
      assert.deepEqual(await json(await site.call('cms/v2/block-types/nothing', { auth: site.admin })), []);
    });

    it('answers a static block with its block.json metadata, the global lock attribute and its supports’ attributes', async () => {
      const res = await site.call('cms/v2/block-types/core/quote', { auth: site.admin });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), {
        attributes: {
          value: { type: 'string', source: 'html', selector: 'blockquote', multiline: 'p', default: '', __experimentalRole: 'content' },
          citation: { type: 'string', source: 'html', selector: 'cite', default: '', __experimentalRole: 'content' },
          align: { type: 'string' },
          lock: { type: 'object' },
          style: { type: 'object' },
          backgroundColor: { type: 'string' },
          textColor: { type: 'string' },
          gradient: { type: 'string' },
          className: { type: 'string' },
          fontSize: { type: 'string' },
          fontFamily: { type: 'string' },
        },
        is_dynamic: false,
        api_version: 2,
        name: 'core/quote',
        title: 'Quote',
        description: 'Give quoted text visual emphasis. "In quoting others, we cite ourselves." — Julio Cortázar',
        icon: null,
        category: 'text',
        keywords: ['blockquote', 'cite'],
        parent: null,
        ancestor: null,
        provides_context: [],
        uses_context: [],
        supports: {
          anchor: true,
          __experimentalOnEnter: true,
          typography: {
            fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true,
            __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true, fontAppearance: true },
          },
          color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } },
        },
        styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'plain', label: 'Plain' }],
        // WordPress 6.1: null for core blocks (their block.json's textdomain is not registered)
        textdomain: null,
        example: null,
        editor_script_handles: [],
        script_handles: [],
        view_script_handles: [],
        editor_style_handles: ['wp-block-quote-editor'],
        style_handles: ['wp-block-quote'],
        variations: [],
        editor_script: null,
        script: null,
        view_script: null,
        editor_style: 'wp-block-quote-editor',
        style: 'wp-block-quote',
        _links: {
          collection: [{ href: url('block-types') }],
          self: [{ href: url('block-types/core/quote') }],
          up: [{ href: url('block-types/core') }],
        },
      });
    });

    it('links a dynamic block to its renderer, and keeps every field in the embed context', async () => {
      const body = await json(await site.call('cms/v2/block-types/core/latest-posts?context=embed', { auth: site.admin }));
      assert.equal(body.is_dynamic, true);
      assert.deepEqual(Object.keys(body), BLOCK_TYPE_KEYS);
      assert.deepEqual(body.attributes.postsToShow, { type: 'number', default: 5 });
      assert.deepEqual(body.attributes.align, { type: 'string', enum: ['left', 'center', 'right', 'wide', 'full', ''] });
      assert.deepEqual(body._links, {
        collection: [{ href: url('block-types') }],
        self: [{ href: url('block-types/core/latest-posts') }],
        up: [{ href: url('block-types/core') }],
        'wp:render-block': [{ href: `${url('block-renderer/core/latest-posts')}?context=edit` }],
        curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
      });
    });

    it('answers 404 rest_block_type_invalid for a block nobody registered', async () => {
      const res = await site.call('cms/v2/block-types/core/nothing', { auth: site.admin });
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), { code: 'rest_block_type_invalid', message: 'Invalid block type.', data: { status: 404 } });
    });

    it('drops a plugin’s blocks while it is inactive', async () => {
      assert.equal((await site.call('cms/v2/plugins/lottie/lottie', { json: { status: 'inactive' }, auth: site.admin })).status, 200);
      try {
        const gone = await site.call('cms/v2/block-types/kadence/lottie', { auth: site.admin });
        assert.equal(gone.status, 404);
        assert.deepEqual((await json(await site.call('cms/v2/block-types/kadence', { auth: site.admin }))).map((b: { name: string }) => b.name), ['kadence/vector']);
      } finally {
        assert.equal((await site.call('cms/v2/plugins/lottie/lottie', { json: { status: 'active' }, auth: site.admin })).status, 200);
      }
      assert.equal((await site.call('cms/v2/block-types/kadence/lottie', { auth: site.admin })).status, 200);
    });
  });

  describe('block-renderer', () => {
    it('takes context=edit only: without it, the default (view) fails the enum, before any permission check', async () => {
      // WP_REST_Server::dispatch validates the args (defaults included) before respond_to_request checks permission
      for (const [path, auth] of [['cms/v2/block-renderer/core/archives', site.admin], ['cms/v2/block-renderer/core/archives?context=view', site.admin], ['cms/v2/block-renderer/core/archives', undefined]] as const) {
        const res = await site.call(path, { auth });
        assert.equal(res.status, 400, path);
        assert.deepEqual(await res.json(), {
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): context',
          data: { status: 400, params: { context: 'context is not edit.' }, details: { context: { code: 'rest_not_in_enum', message: 'context is not edit.', data: null } } },
        });
      }
    });

    it('refuses callers who cannot edit posts, and a post the caller may not edit', async () => {
      const anonymous = await site.call('cms/v2/block-renderer/core/archives?context=edit');
      assert.equal(anonymous.status, 401);
      assert.deepEqual(await anonymous.json(), { code: 'block_cannot_read', message: 'Sorry, you are not allowed to read blocks as this user.', data: { status: 401 } });
      const subscriber = await userAuth(site, 'subscriber');
      const refused = await site.call('cms/v2/block-renderer/core/archives?context=edit', { auth: subscriber.auth });
      assert.equal(refused.status, 403);
      assert.deepEqual(await refused.json(), { code: 'block_cannot_read', message: 'Sorry, you are not allowed to read blocks as this user.', data: { status: 403 } });
      const contributor = await userAuth(site, 'contributor');
      const others = await post({ title: 'Not the contributor’s' });
      for (const postId of [others.id, 999999]) {
        const res = await render('core/archives', {}, contributor.auth, { post_id: postId });
        assert.equal(res.status, 403, String(postId));
        assert.deepEqual(await res.json(), { code: 'block_cannot_read', message: 'Sorry, you are not allowed to read blocks of this post.', data: { status: 403 } });
      }
      const own = await site.call('cms/v2/posts', { json: { title: 'Own draft' }, auth: contributor.auth });
      const ok = await render('core/archives', {}, contributor.auth, { post_id: (await own.json()).id });
      assert.equal(ok.status, 200);
    });

    it('answers 404 block_invalid for a static block and for an unknown one', async () => {
      for (const name of ['core/paragraph', 'acme/nothing']) {
        const res = await render(name);
        assert.equal(res.status, 404, name);
        assert.deepEqual(await res.json(), { code: 'block_invalid', message: 'Invalid block.', data: { status: 404 } });
      }
    });

    it('checks the attributes against the block’s attribute schema, with no others allowed', async () => {
      const extra = await render('core/archives', { showPostCounts: true, color: 'red' });
      assert.equal(extra.status, 400);
      assert.deepEqual(await extra.json(), {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): attributes',
        data: {
          status: 400,
          params: { attributes: 'color is not a valid property of Object.' },
          details: { attributes: { code: 'rest_additional_properties_forbidden', message: 'color is not a valid property of Object.', data: null } },
        },
      });
      // the arg's validate_callback validates the value alone: WordPress 6.1 names `[postsToShow]`, not `attributes[postsToShow]`
      const wrongType = await render('core/latest-posts', { postsToShow: 'many' });
      assert.equal(wrongType.status, 400);
      assert.deepEqual((await wrongType.json()).data.params, { attributes: '[postsToShow] is not of type number.' });
      const notBoolean = await render('core/archives', { showPostCounts: 'maybe' });
      assert.deepEqual((await notBoolean.json()).data.details, {
        attributes: { code: 'rest_invalid_type', message: '[showPostCounts] is not of type boolean.', data: { param: '[showPostCounts]' } },
      });
      // the supports' attributes and the global lock are the block's own
      assert.equal((await render('core/archives', { className: 'mine', align: 'wide', lock: { move: true } })).status, 200);
    });

    it('renders the latest posts from the store, with the attributes given, by GET and by POST', async () => {
      const older = await post({ title: 'Older news', date: '2020-03-04T10:00:00' });
      const newer = await post({ title: 'Newer news', date: '2020-05-06T10:00:00', excerpt: 'The newer one, in short.' });
      await post({ title: 'Newest news', date: '2020-07-08T10:00:00', status: 'draft' });
      const res = await site.call(`cms/v2/block-renderer/core/latest-posts?context=edit&attributes[postsToShow]=2&attributes[order]=asc&attributes[className]=mine`, { auth: site.admin });
      assert.equal(res.status, 200);
      // get_block_wrapper_attributes (WordPress 6.1): the callback's class, then the custom class, then the generated one
      assert.deepEqual(await res.json(), {
        rendered:
          `<ul class="wp-block-latest-posts__list mine wp-block-latest-posts">` +
          `<li><a class="wp-block-latest-posts__post-title" href="${older.link}">Older news</a></li>\n` +
          `<li><a class="wp-block-latest-posts__post-title" href="${newer.link}">Newer news</a></li>\n</ul>`,
      });
      const dated = await render('core/latest-posts', { postsToShow: 1, order: 'asc', displayPostDate: true, displayPostContent: true, displayPostContentRadio: 'excerpt' });
      assert.deepEqual(await dated.json(), {
        rendered:
          `<ul class="wp-block-latest-posts__list has-dates wp-block-latest-posts"><li><a class="wp-block-latest-posts__post-title" href="${older.link}">Older news</a>` +
          `<time datetime="2020-03-04T10:00:00+00:00" class="wp-block-latest-posts__post-date">March 4, 2020</time>` +
          `<div class="wp-block-latest-posts__post-excerpt"></div></li>\n</ul>`,
      });
    });

    it('renders the archives, the categories and the tag cloud from what is stored', async () => {
      const cat = await (await site.call('cms/v2/categories', { json: { name: 'Block news' }, auth: site.admin })).json();
      const tagA = await (await site.call('cms/v2/tags', { json: { name: 'apples' }, auth: site.admin })).json();
      const tagB = await (await site.call('cms/v2/tags', { json: { name: 'bananas' }, auth: site.admin })).json();
      await post({ title: 'Fruit one', date: '2019-02-01T10:00:00', categories: [cat.id], tags: [tagA.id, tagB.id] });
      await post({ title: 'Fruit two', date: '2019-02-02T10:00:00', categories: [cat.id], tags: [tagB.id] });

      const archives = (await json(await render('core/archives', { type: 'yearly', showPostCounts: true }))).rendered as string;
      // WordPress 6.1's class starts with a space (`$class .= ' wp-block-archives-list'` on an empty one)
      assert.ok(archives.startsWith('<ul class=" wp-block-archives-list wp-block-archives">'), archives);
      assert.ok(archives.includes(`\t<li><a href='${site.home}/2019/'>2019</a>&nbsp;(2)</li>\n`), archives);
      const monthly = (await json(await render('core/archives'))).rendered as string;
      assert.ok(monthly.includes(`\t<li><a href='${site.home}/2019/02/'>February 2019</a></li>\n`), monthly);

      const categories = (await json(await render('core/categories', { showPostCounts: true }))).rendered as string;
      assert.ok(categories.startsWith('<ul class="wp-block-categories-list wp-block-categories">'), categories);
      assert.ok(categories.includes(`\t<li class="cat-item cat-item-${cat.id}"><a href="${site.home}/category/block-news/">Block news</a> (2)\n</li>\n`), categories);

      const cloud = (await json(await render('core/tag-cloud'))).rendered;
      assert.equal(
        cloud,
        `<p class="wp-block-tag-cloud">` +
          `<a href="${site.home}/tag/apples/" class="tag-cloud-link tag-link-${tagA.id} tag-link-position-1" style="font-size: 8pt;" aria-label="apples (1 item)">apples</a>\n` +
          `<a href="${site.home}/tag/bananas/" class="tag-cloud-link tag-link-${tagB.id} tag-link-position-2" style="font-size: 22pt;" aria-label="bananas (2 items)">bananas</a></p>`,
      );
      // the two most used categories, by name: Block news (2 posts, the fewest: smallest) before Uncategorized
      const byCategory = (await json(await render('core/tag-cloud', { taxonomy: 'category', numberOfTags: 2 }))).rendered as string;
      assert.ok(byCategory.includes(`tag-link-${cat.id} tag-link-position-1" style="font-size: 8pt;" aria-label="Block news (2 items)"`), byCategory);
      assert.ok(byCategory.includes('tag-link-position-2" style="font-size: 22pt;" aria-label="Uncategorized ('), byCategory);
    });

    it('renders the site title and the search form for the site', async () => {
      // WordPress 6.1.9's render_block_core_site_title: home_url() without its slash, target _self unless given
      assert.deepEqual(await json(await render('core/site-title', { level: 0 })), { rendered: `<p class="wp-block-site-title"><a href="${site.home}" target="_self" rel="home">cms-spec</a></p>` });
      assert.deepEqual(await json(await render('core/site-title', { linkTarget: '_blank' })), { rendered: `<h1 class="wp-block-site-title"><a href="${site.home}" target="_blank" rel="home">cms-spec</a></h1>` });
      const search = (await json(await render('core/search', { label: 'Find', buttonText: 'Go' }))).rendered as string;
      assert.equal(
        search,
        // WordPress 6.1.9's render_block of the same attributes, its doubled class and spaces included
        `<form role="search" method="get" action="${site.home}/" class="wp-block-search__button-outside wp-block-search__text-button wp-block-search">` +
          `<label for="wp-block-search__input-1" class="wp-block-search__label" >Find</label><div class="wp-block-search__inside-wrapper " >` +
          `<input type="search" id="wp-block-search__input-1" class="wp-block-search__input wp-block-search__input" name="s" value="" placeholder=""  required /><button type="submit" class="wp-block-search__button wp-element-button"  >Go</button></div></form>`,
      );
    });

    it('renders the page list by menu order, children nested, the page of post_id current', async () => {
      const page = async (fields: Record<string, unknown>) => (await (await site.call('cms/v2/pages', { json: { status: 'publish', ...fields }, auth: site.admin })).json()) as { id: number; link: string };
      const about = await page({ title: 'About', menu_order: 2 });
      const team = await page({ title: 'Team', parent: about.id });
      const contact = await page({ title: 'Contact', menu_order: 1 });
      await page({ title: 'Hidden draft', status: 'draft' });
      assert.equal(team.link, `${site.home}/about/team/`);
      const res = await render('core/page-list', { className: 'menu' }, site.admin, { post_id: team.id });
      assert.deepEqual(await res.json(), {
        rendered:
          // the custom class before the generated one, as get_block_wrapper_attributes orders them (WordPress 6.1.9)
          '<ul class="menu wp-block-page-list">' +
          // the installed site's Sample Page has menu order 0
          `<li class="wp-block-pages-list__item"><a class="wp-block-pages-list__item__link" href="${site.home}/sample-page/">Sample Page</a></li>` +
          `<li class="wp-block-pages-list__item"><a class="wp-block-pages-list__item__link" href="${contact.link}">Contact</a></li>` +
          // the current page's parent is its ancestor; the first level of submenus gets the overlay colours' classes after a space, even when there are none
          `<li class="wp-block-pages-list__item current-menu-ancestor has-child"><a class="wp-block-pages-list__item__link" href="${about.link}">About</a>` +
          `<ul class="submenu-container"><li class="wp-block-pages-list__item current-menu-item "><a class="wp-block-pages-list__item__link" href="${team.link}" aria-current="page">Team</a></li></ul></li>` +
          '</ul>',
      });

      // inside a Navigation block (which provides showSubmenuIcon): its item classes, the submenu
      // toggles, and the overlay colour on the first level of submenus; WordPress 6.1.9's do_blocks
      // of the same content over the same pages
      const inNavigation = async (attributes: string) => {
        const post = await json(await site.call('cms/v2/posts', { json: { status: 'publish', title: 'pages in a navigation', content: `<!-- wp:navigation ${attributes} --><!-- wp:page-list /--><!-- /wp:navigation -->` }, auth: site.admin }));
        await site.call(`cms/v2/posts/${post.id}?force=true`, { method: 'DELETE', auth: site.admin });
        return /<ul class="wp-block-page-list">.*?<\/ul><\/li><\/ul>/s.exec(post.content.rendered)?.[0];
      };
      const item = (link: string, title: string, open: string, extra = '') =>
        `<li class="wp-block-pages-list__item wp-block-navigation-item ${open}${extra}"><a class="wp-block-pages-list__item__link wp-block-navigation-item__content" href="${link}">${title}</a></li>`;
      const icon = '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="12" viewBox="0 0 12 12" fill="none" aria-hidden="true" focusable="false"><path d="M1.50002 4L6.00002 8L10.5 4" stroke-width="1.5"></path></svg>';
      assert.equal(
        await inNavigation('{"overlayMenu":"never","overlayTextColor":"primary"}'),
        '<ul class="wp-block-page-list">' +
          item(`${site.home}/sample-page/`, 'Sample Page', 'open-on-hover-click') +
          item(contact.link, 'Contact', 'open-on-hover-click') +
          `<li class="wp-block-pages-list__item has-child wp-block-navigation-item open-on-hover-click"><a class="wp-block-pages-list__item__link wp-block-navigation-item__content" href="${about.link}">About</a>` +
          `<button aria-label="About submenu" class="wp-block-navigation__submenu-icon wp-block-navigation-submenu__toggle" aria-expanded="false">${icon}</button>` +
          `<ul class="submenu-container wp-block-navigation__submenu-container">${item(team.link, 'Team', 'open-on-hover-click', ' has-text-color has-primary-color')}</ul></li></ul>`,
      );
      assert.equal(
        await inNavigation('{"overlayMenu":"never","openSubmenusOnClick":true}'),
        '<ul class="wp-block-page-list">' +
          item(`${site.home}/sample-page/`, 'Sample Page', 'open-on-click') +
          item(contact.link, 'Contact', 'open-on-click') +
          '<li class="wp-block-pages-list__item has-child wp-block-navigation-item open-on-click">' +
          `<button aria-label="About submenu" class=" wp-block-navigation-item__content wp-block-navigation-submenu__toggle" aria-expanded="false">About</button><span class="wp-block-page-list__submenu-icon wp-block-navigation__submenu-icon">${icon}</span>` +
          `<ul class="submenu-container wp-block-navigation__submenu-container">${item(team.link, 'Team', 'open-on-click', ' ')}</ul></li></ul>`,
      );
    });

    it('renders the plugins’ blocks from their stored animations and vectors', async () => {
      const editor = await userAuth(site, 'editor');
      const { value: animation } = await json(await site.call('kb-lottieanimation/v1/animations', { json: { title: 'Dot', lottieFile: LOTTIE_DOT }, auth: site.admin }));
      const lottie = await json(await render('kadence/lottie', { uniqueID: '_a1', fileSrc: 'file', localFile: [{ value: animation, label: 'Dot' }], loop: false }));
      assert.deepEqual(lottie, {
        rendered: `<div class="kb-lottie-container kb-lottie-container_a1"><lottie-player src="${site.api}kb-lottieanimation/v1/animations/${animation}.json" background="transparent" speed="1" autoplay></lottie-player></div>`,
      });
      assert.deepEqual(await json(await render('kadence/lottie', { fileSrc: 'file', localFile: [{ value: 987654 }] })), { rendered: '' });

      const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';
      const { value: vector } = await json(await site.call('kb-vector/v1/vectors', { json: { title: 'Square', vectorSVG: svg }, auth: editor.auth }));
      const stored = await json(await site.call(`cms/v2/designkit_vector/${vector}?context=edit`, { auth: site.admin }));
      assert.deepEqual(await json(await render('kadence/vector', { uniqueID: '_v', id: vector })), { rendered: `<div class="kb-vector-container kb-vector-container_v">${stored.content.raw}</div>` });
      assert.deepEqual(await json(await render('kadence/vector', { id: 987654 })), { rendered: '' });
    });
  });

  describe('the site renders blocks through the same registry', () => {
    it('renders a dynamic block in a post’s content, on the API and on the page; static blocks keep their markup', async () => {
      await post({ title: 'Listed one', date: '2018-01-01T10:00:00' });
      const page = await post({
        title: 'With blocks',
        date: '2017-01-01T10:00:00',
        content: '<!-- wp:paragraph -->\n<p>Before the list.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:latest-posts {"postsToShow":1,"className":"in-post"} /-->\n\n<!-- wp:html --><em>kept</em><!-- /wp:html -->',
      });
      const latest = (await json(await site.call('cms/v2/posts?per_page=1'))).at(0) as { title: { rendered: string }; link: string };
      // do_blocks keeps what block serialisation leaves: the newlines inside a static block, the blank lines between blocks
      const expected =
        '\n<p>Before the list.</p>\n\n\n' +
        `<ul class="wp-block-latest-posts__list in-post wp-block-latest-posts"><li><a class="wp-block-latest-posts__post-title" href="${latest.link}">${latest.title.rendered}</a></li>\n</ul>\n\n` +
        '<em>kept</em>';
      const got = await json(await site.call(`cms/v2/posts/${page.id}`));
      assert.equal(got.content.rendered, expected);
      const html = await (await fetch(page.link)).text();
      assert.ok(html.includes(expected), html);
    });

    it('leaves classic content to wpautop and unknown blocks as saved', async () => {
      const classic = await post({ title: 'Classic', content: 'one\n\ntwo' });
      assert.equal((await json(await site.call(`cms/v2/posts/${classic.id}`))).content.rendered, '<p>one</p>\n<p>two</p>\n');
      const unknown = await post({ title: 'Unknown block', content: '<!-- wp:acme/widget {"a":1} -->\n<div>saved</div>\n<!-- /wp:acme/widget -->' });
      assert.equal((await json(await site.call(`cms/v2/posts/${unknown.id}`))).content.rendered, '\n<div>saved</div>\n');
      const nested = await post({ title: 'Nested', content: '<!-- wp:group -->\n<div class="wp-block-group"><!-- wp:site-title {"level":0} /--></div>\n<!-- /wp:group -->' });
      assert.equal(
        (await json(await site.call(`cms/v2/posts/${nested.id}`))).content.rendered,
        // the group's layout class comes from the layout support's render filter (WordPress 6.1.9's do_blocks of the same markup)
        `\n<div class="is-layout-flow wp-block-group"><p class="wp-block-site-title"><a href="${site.home}" target="_self" rel="home">cms-spec</a></p></div>\n`,
      );
    });
  });

  describe('block-patterns', () => {
    it('refuses callers who edit no post type', async () => {
      const subscriber = await userAuth(site, 'subscriber');
      for (const [path, message] of [
        ['cms/v2/block-patterns/patterns', 'Sorry, you are not allowed to view the registered block patterns.'],
        ['cms/v2/block-patterns/categories', 'Sorry, you are not allowed to view the registered block pattern categories.'],
      ]) {
        const anonymous = await site.call(path);
        assert.equal(anonymous.status, 401);
        assert.deepEqual(await anonymous.json(), { code: 'rest_cannot_view', message, data: { status: 401 } });
        const refused = await site.call(path, { auth: subscriber.auth });
        assert.equal(refused.status, 403);
        assert.deepEqual(await refused.json(), { code: 'rest_cannot_view', message, data: { status: 403 } });
      }
    });

    it('lists the core’s patterns with the fields they set, in WordPress’s order', async () => {
      const contributor = await userAuth(site, 'contributor');
      const patterns = (await json(await site.call('cms/v2/block-patterns/patterns', { auth: contributor.auth }))) as Record<string, unknown>[];
      assert.deepEqual(patterns.map((p) => p.name), ['core/heading-paragraph', 'core/text-two-columns', 'core/two-buttons', 'core/quote-with-citation', 'core/latest-posts-with-heading']);
      assert.deepEqual(patterns[0], {
        name: 'core/heading-paragraph',
        title: 'Heading and paragraph',
        description: 'A heading followed by a paragraph of text.',
        categories: ['text'],
        keywords: ['heading', 'paragraph', 'intro'],
        content: '<!-- wp:heading -->\n<h2>Start with a heading</h2>\n<!-- /wp:heading -->\n\n<!-- wp:paragraph -->\n<p>Follow it with a paragraph that says what the section is about.</p>\n<!-- /wp:paragraph -->',
      });
      assert.deepEqual(Object.keys(patterns[1]), ['name', 'title', 'description', 'viewport_width', 'categories', 'keywords', 'content']);
      assert.deepEqual(Object.keys(patterns[4]), ['name', 'title', 'description', 'block_types', 'categories', 'keywords', 'content']);
    });

    it('lists the pattern categories', async () => {
      assert.deepEqual(await json(await site.call('cms/v2/block-patterns/categories', { auth: site.admin })), [
        { name: 'buttons', label: 'Buttons' },
        { name: 'columns', label: 'Columns' },
        { name: 'featured', label: 'Featured' },
        { name: 'footer', label: 'Footers' },
        { name: 'gallery', label: 'Gallery' },
        { name: 'header', label: 'Headers' },
        { name: 'text', label: 'Text' },
        { name: 'query', label: 'Query' },
      ]);
    });
  });

  describe('the directories', () => {
    it('block-directory/search: install_plugins and activate_plugins, a term, then plugins_api’s failure', async () => {
      const anonymous = await site.call('cms/v2/block-directory/search?term=gallery');
      assert.equal(anonymous.status, 401);
      assert.deepEqual(await anonymous.json(), { code: 'rest_block_directory_cannot_view', message: 'Sorry, you are not allowed to browse the block directory.', data: { status: 401 } });
      const editor = await userAuth(site, 'editor');
      const refused = await site.call('cms/v2/block-directory/search?term=gallery', { auth: editor.auth });
      assert.equal(refused.status, 403);
      assert.equal((await refused.json()).code, 'rest_block_directory_cannot_view');
      const missing = await site.call('cms/v2/block-directory/search', { auth: site.admin });
      assert.equal(missing.status, 400);
      assert.deepEqual(await missing.json(), { code: 'rest_missing_callback_param', message: 'Missing parameter(s): term', data: { status: 400, params: ['term'] } });
      const tooBig = await site.call('cms/v2/block-directory/search?term=x&per_page=101', { auth: site.admin });
      assert.equal(tooBig.status, 400);
      const res = await site.call('cms/v2/block-directory/search?term=gallery', { auth: site.admin });
      assert.equal(res.status, 500);
      assert.deepEqual(await res.json(), {
        code: 'plugins_api_failed',
        message:
          'An unexpected error occurred. Something may be wrong with WordPress.org or this server&#8217;s configuration. If you continue to have problems, please try the <a href="https://wordpress.org/support/forums/">support forums</a>.',
        data: { status: 500 },
        additional_data: ['User has blocked requests through HTTP.'],
      });
    });

    it('pattern-directory/patterns: editors of any type, valid filters, then the blocked request’s error', async () => {
      const anonymous = await site.call('cms/v2/pattern-directory/patterns');
      assert.equal(anonymous.status, 401);
      assert.deepEqual(await anonymous.json(), { code: 'rest_pattern_directory_cannot_view', message: 'Sorry, you are not allowed to browse the local block pattern directory.', data: { status: 401 } });
      const badCategory = await site.call('cms/v2/pattern-directory/patterns?category=0', { auth: site.admin });
      assert.equal(badCategory.status, 400);
      assert.deepEqual((await badCategory.json()).data.params, { category: 'category must be greater than or equal to 1' });
      const contributor = await userAuth(site, 'contributor');
      const res = await site.call('cms/v2/pattern-directory/patterns?search=hero&category=2', { auth: contributor.auth });
      assert.equal(res.status, 500);
      assert.deepEqual(await res.json(), { code: 'http_request_not_executed', message: 'User has blocked requests through HTTP.', data: { status: 500 } });
    });
  });
});
