import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';

/**
 * The Allow header of every route of WordPress 6.1's index, asked with OPTIONS at the site's
 * WordPress address (`/wp-json/`) by a visitor, a subscriber and an administrator. WordPress's
 * rule (rest_send_allow_header): the methods of the matched route whose permission_callback
 * returns true for this request. OPTIONS is answered before any handler is chosen
 * (rest_handle_options_request), so the callbacks see the URL's params and no defaults: the
 * comments list's callback, for one, refuses a caller without edit_posts because its `status` is
 * not 'approve'. Each row is what WordPress 6.1's callbacks answer for the fixtures below, worked
 * out from its controllers, not read off this server.
 */
const server = useServer();

// WordPress 6.1.9's index (test/fixtures/wordpress-6.1, its README names the source)
const REFERENCE = resolve(import.meta.dirname, '../fixtures/wordpress-6.1/index.json');
const wpRoutes = Object.keys((JSON.parse(readFileSync(REFERENCE, 'utf8')) as { routes: Record<string, unknown> }).routes);

const ALL = 'GET, POST, PUT, PATCH, DELETE';
const EDIT = 'GET, POST, PUT, PATCH';

/** WordPress 6.1's route, a path naming the fixtures in braces, then the Allow of a visitor, a subscriber and an administrator ('' for none). */
const TABLE: [route: string, path: string, visitor: string, subscriber: string, administrator: string][] = [
  ['/', '', 'GET', 'GET', 'GET'],
  ['/batch/v1', 'batch/v1', 'POST', 'POST', 'POST'],
  ['/oembed/1.0', 'oembed/1.0', 'GET', 'GET', 'GET'],
  ['/oembed/1.0/embed', 'oembed/1.0/embed', 'GET', 'GET', 'GET'],
  // get_proxy_item_permissions_check: edit_posts
  ['/oembed/1.0/proxy', 'oembed/1.0/proxy', '', '', 'GET'],
  ['/wp/v2', 'wp/v2', 'GET', 'GET', 'GET'],
  // posts: reading needs nothing without context=edit; creating create_posts; the item's update and delete edit_post and delete_post
  ['/wp/v2/posts', 'wp/v2/posts', 'GET', 'GET', 'GET, POST'],
  ['/wp/v2/posts/(?P<id>[\\d]+)', 'wp/v2/posts/{post}', 'GET', 'GET', ALL],
  // revisions: edit_post of the parent; a revision's DELETE then fails on delete_post of the revision (do_not_allow)
  ['/wp/v2/posts/(?P<parent>[\\d]+)/revisions', 'wp/v2/posts/{post}/revisions', '', '', 'GET'],
  ['/wp/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)', 'wp/v2/posts/{post}/revisions/{revision}', '', '', 'GET'],
  // autosaves: edit_post of the parent, the create through update_item_permissions_check
  ['/wp/v2/posts/(?P<id>[\\d]+)/autosaves', 'wp/v2/posts/{post}/autosaves', '', '', 'GET, POST'],
  ['/wp/v2/posts/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)', 'wp/v2/posts/{post}/autosaves/{autosave}', '', '', 'GET'],
  ['/wp/v2/pages', 'wp/v2/pages', 'GET', 'GET', 'GET, POST'],
  ['/wp/v2/pages/(?P<id>[\\d]+)', 'wp/v2/pages/{page}', 'GET', 'GET', ALL],
  ['/wp/v2/pages/(?P<parent>[\\d]+)/revisions', 'wp/v2/pages/{page}/revisions', '', '', 'GET'],
  // get_item_permissions_check is the list's (the parent only); DELETE looks the revision up, and 999999 is none
  ['/wp/v2/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)', 'wp/v2/pages/{page}/revisions/999999', '', '', 'GET'],
  ['/wp/v2/pages/(?P<id>[\\d]+)/autosaves', 'wp/v2/pages/{page}/autosaves', '', '', 'GET, POST'],
  ['/wp/v2/pages/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)', 'wp/v2/pages/{page}/autosaves/999999', '', '', 'GET'],
  // media: creating needs upload_files too; an attachment without a parent reads as published
  ['/wp/v2/media', 'wp/v2/media', 'GET', 'GET', 'GET, POST'],
  ['/wp/v2/media/(?P<id>[\\d]+)', 'wp/v2/media/{media}', 'GET', 'GET', ALL],
  ['/wp/v2/media/(?P<id>[\\d]+)/post-process', 'wp/v2/media/{media}/post-process', '', '', 'POST'],
  ['/wp/v2/media/(?P<id>[\\d]+)/edit', 'wp/v2/media/{media}/edit', '', '', 'POST'],
  // menu items: check_has_read_only_access after the posts controller's checks; writing edit_theme_options
  ['/wp/v2/menu-items', 'wp/v2/menu-items', '', '', 'GET, POST'],
  ['/wp/v2/menu-items/(?P<id>[\\d]+)', 'wp/v2/menu-items/{menuItem}', '', '', ALL],
  ['/wp/v2/menu-items/(?P<id>[\\d]+)/autosaves', 'wp/v2/menu-items/{menuItem}/autosaves', '', '', 'GET, POST'],
  ['/wp/v2/menu-items/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)', 'wp/v2/menu-items/{menuItem}/autosaves/999999', '', '', 'GET'],
  // reusable blocks: read_post is edit_posts
  ['/wp/v2/blocks', 'wp/v2/blocks', 'GET', 'GET', 'GET, POST'],
  ['/wp/v2/blocks/(?P<id>[\\d]+)', 'wp/v2/blocks/{block}', '', '', ALL],
  ['/wp/v2/blocks/(?P<parent>[\\d]+)/revisions', 'wp/v2/blocks/{block}/revisions', '', '', 'GET'],
  ['/wp/v2/blocks/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)', 'wp/v2/blocks/{block}/revisions/999999', '', '', 'GET'],
  ['/wp/v2/blocks/(?P<id>[\\d]+)/autosaves', 'wp/v2/blocks/{block}/autosaves', '', '', 'GET, POST'],
  ['/wp/v2/blocks/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)', 'wp/v2/blocks/{block}/autosaves/999999', '', '', 'GET'],
  // templates and template parts: every callback is edit_theme_options
  ['/wp/v2/templates', 'wp/v2/templates', '', '', 'GET, POST'],
  ['/wp/v2/templates/lookup', 'wp/v2/templates/lookup', '', '', 'GET'],
  ['/wp/v2/templates/(?P<id>([^\\/:<>\\*\\?"\\|]+(?:\\/[^\\/:<>\\*\\?"\\|]+)?)[\\/\\w-]+)', 'wp/v2/templates/{template}', '', '', ALL],
  ['/wp/v2/templates/(?P<parent>[\\d]+)/revisions', 'wp/v2/templates/{templatePost}/revisions', '', '', 'GET'],
  ['/wp/v2/templates/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)', 'wp/v2/templates/{templatePost}/revisions/999999', '', '', 'GET'],
  ['/wp/v2/templates/(?P<id>[\\d]+)/autosaves', 'wp/v2/templates/{templatePost}/autosaves', '', '', 'GET, POST'],
  ['/wp/v2/templates/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)', 'wp/v2/templates/{templatePost}/autosaves/999999', '', '', 'GET'],
  ['/wp/v2/template-parts', 'wp/v2/template-parts', '', '', 'GET, POST'],
  ['/wp/v2/template-parts/lookup', 'wp/v2/template-parts/lookup', '', '', 'GET'],
  ['/wp/v2/template-parts/(?P<id>([^\\/:<>\\*\\?"\\|]+(?:\\/[^\\/:<>\\*\\?"\\|]+)?)[\\/\\w-]+)', 'wp/v2/template-parts/{part}', '', '', ALL],
  ['/wp/v2/template-parts/(?P<parent>[\\d]+)/revisions', 'wp/v2/template-parts/{partPost}/revisions', '', '', 'GET'],
  ['/wp/v2/template-parts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)', 'wp/v2/template-parts/{partPost}/revisions/999999', '', '', 'GET'],
  ['/wp/v2/template-parts/(?P<id>[\\d]+)/autosaves', 'wp/v2/template-parts/{partPost}/autosaves', '', '', 'GET, POST'],
  ['/wp/v2/template-parts/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)', 'wp/v2/template-parts/{partPost}/autosaves/999999', '', '', 'GET'],
  // navigation: the posts controller with every capability edit_theme_options; a published one reads as published
  ['/wp/v2/navigation', 'wp/v2/navigation', 'GET', 'GET', 'GET, POST'],
  ['/wp/v2/navigation/(?P<id>[\\d]+)', 'wp/v2/navigation/{navigation}', 'GET', 'GET', ALL],
  ['/wp/v2/navigation/(?P<parent>[\\d]+)/revisions', 'wp/v2/navigation/{navigation}/revisions', '', '', 'GET'],
  ['/wp/v2/navigation/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)', 'wp/v2/navigation/{navigation}/revisions/999999', '', '', 'GET'],
  ['/wp/v2/navigation/(?P<id>[\\d]+)/autosaves', 'wp/v2/navigation/{navigation}/autosaves', '', '', 'GET, POST'],
  ['/wp/v2/navigation/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)', 'wp/v2/navigation/{navigation}/autosaves/999999', '', '', 'GET'],
  ['/wp/v2/types', 'wp/v2/types', 'GET', 'GET', 'GET'],
  ['/wp/v2/types/(?P<type>[\\w-]+)', 'wp/v2/types/post', 'GET', 'GET', 'GET'],
  ['/wp/v2/statuses', 'wp/v2/statuses', 'GET', 'GET', 'GET'],
  ['/wp/v2/statuses/(?P<status>[\\w-]+)', 'wp/v2/statuses/publish', 'GET', 'GET', 'GET'],
  ['/wp/v2/taxonomies', 'wp/v2/taxonomies', 'GET', 'GET', 'GET'],
  ['/wp/v2/taxonomies/(?P<taxonomy>[\\w-]+)', 'wp/v2/taxonomies/category', 'GET', 'GET', 'GET'],
  // terms: edit_terms to create, edit_term and delete_term of a category that is not the default one
  ['/wp/v2/categories', 'wp/v2/categories', 'GET', 'GET', 'GET, POST'],
  ['/wp/v2/categories/(?P<id>[\\d]+)', 'wp/v2/categories/{category}', 'GET', 'GET', ALL],
  ['/wp/v2/tags', 'wp/v2/tags', 'GET', 'GET', 'GET, POST'],
  ['/wp/v2/tags/(?P<id>[\\d]+)', 'wp/v2/tags/{tag}', 'GET', 'GET', ALL],
  // menus: check_has_read_only_access to read; edit_theme_options to write
  ['/wp/v2/menus', 'wp/v2/menus', '', '', 'GET, POST'],
  ['/wp/v2/menus/(?P<id>[\\d]+)', 'wp/v2/menus/{menu}', '', '', ALL],
  // users: user 1 has published posts, so anyone may read it; editing another account takes edit_users, deleting delete_users
  ['/wp/v2/users', 'wp/v2/users', 'GET', 'GET', 'GET, POST'],
  ['/wp/v2/users/(?P<id>[\\d]+)', 'wp/v2/users/1', 'GET', 'GET', ALL],
  // users/me: GET is __return_true; a visitor's update and delete look up user 0
  ['/wp/v2/users/me', 'wp/v2/users/me', 'GET', EDIT, ALL],
  // application passwords of user 1: edit_user of user 1
  ['/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords', 'wp/v2/users/1/application-passwords', '', '', 'GET, POST, DELETE'],
  ['/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/introspect', 'wp/v2/users/1/application-passwords/introspect', '', '', 'GET'],
  ['/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/(?P<uuid>[\\w\\-]+)', 'wp/v2/users/1/application-passwords/{uuid}', '', '', ALL],
  // comments: without edit_posts, a status that is not 'approve' (none, here) is a forbidden param; a create without a post is refused
  ['/wp/v2/comments', 'wp/v2/comments', '', '', 'GET'],
  ['/wp/v2/comments/(?P<id>[\\d]+)', 'wp/v2/comments/{comment}', 'GET', 'GET', ALL],
  ['/wp/v2/search', 'wp/v2/search', 'GET', 'GET', 'GET'],
  // edit_posts without a post_id
  ['/wp/v2/block-renderer/(?P<name>[a-z0-9-]+/[a-z0-9-]+)', 'wp/v2/block-renderer/core/archives', '', '', 'GET, POST'],
  // block types: edit_posts of some post type
  ['/wp/v2/block-types', 'wp/v2/block-types', '', '', 'GET'],
  ['/wp/v2/block-types/(?P<namespace>[a-zA-Z0-9_-]+)', 'wp/v2/block-types/core', '', '', 'GET'],
  ['/wp/v2/block-types/(?P<namespace>[a-zA-Z0-9_-]+)/(?P<name>[a-zA-Z0-9_-]+)', 'wp/v2/block-types/core/paragraph', '', '', 'GET'],
  // global styles: edit_theme_options, and edit_post of the user's global styles
  ['/wp/v2/global-styles/themes/(?P<stylesheet>[\\/\\s%\\w\\.\\(\\)\\[\\]\\@_\\-]+)/variations', 'wp/v2/global-styles/themes/{stylesheet}/variations', '', '', 'GET'],
  ['/wp/v2/global-styles/themes/(?P<stylesheet>[^\\/:<>\\*\\?"\\|]+(?:\\/[^\\/:<>\\*\\?"\\|]+)?)', 'wp/v2/global-styles/themes/{stylesheet}', '', '', 'GET'],
  ['/wp/v2/global-styles/(?P<id>[\\/\\w-]+)', 'wp/v2/global-styles/{globalStyles}', '', '', EDIT],
  ['/wp/v2/settings', 'wp/v2/settings', '', '', EDIT],
  // themes: switch_themes (the active theme by status=active or by name for whoever edits posts, neither asked here)
  ['/wp/v2/themes', 'wp/v2/themes', '', '', 'GET'],
  ['/wp/v2/themes/(?P<stylesheet>[^\\/:<>\\*\\?"\\|]+(?:\\/[^\\/:<>\\*\\?"\\|]+)?)', 'wp/v2/themes/{stylesheet}', '', '', 'GET'],
  // plugins: activate_plugins to read and change, install_plugins to install, delete_plugins to delete
  ['/wp/v2/plugins', 'wp/v2/plugins', '', '', 'GET, POST'],
  ['/wp/v2/plugins/(?P<plugin>[^.\\/]+(?:\\/[^.\\/]+)?)', 'wp/v2/plugins/{plugin}', '', '', ALL],
  // sidebars, widget types and widgets: edit_theme_options
  ['/wp/v2/sidebars', 'wp/v2/sidebars', '', '', 'GET'],
  ['/wp/v2/sidebars/(?P<id>[\\w-]+)', 'wp/v2/sidebars/{sidebar}', '', '', EDIT],
  ['/wp/v2/widget-types', 'wp/v2/widget-types', '', '', 'GET'],
  ['/wp/v2/widget-types/(?P<id>[a-zA-Z0-9_-]+)', 'wp/v2/widget-types/text', '', '', 'GET'],
  ['/wp/v2/widget-types/(?P<id>[a-zA-Z0-9_-]+)/encode', 'wp/v2/widget-types/text/encode', '', '', 'POST'],
  ['/wp/v2/widget-types/(?P<id>[a-zA-Z0-9_-]+)/render', 'wp/v2/widget-types/text/render', '', '', 'POST'],
  ['/wp/v2/widgets', 'wp/v2/widgets', '', '', 'GET, POST'],
  ['/wp/v2/widgets/(?P<id>[\\w\\-]+)', 'wp/v2/widgets/{widget}', '', '', ALL],
  // install_plugins and activate_plugins
  ['/wp/v2/block-directory/search', 'wp/v2/block-directory/search', '', '', 'GET'],
  // edit_posts of some post type
  ['/wp/v2/pattern-directory/patterns', 'wp/v2/pattern-directory/patterns', '', '', 'GET'],
  ['/wp/v2/block-patterns/patterns', 'wp/v2/block-patterns/patterns', '', '', 'GET'],
  ['/wp/v2/block-patterns/categories', 'wp/v2/block-patterns/categories', '', '', 'GET'],
  // site health: view_site_health_checks
  ['/wp-site-health/v1', 'cms-site-health/v1', 'GET', 'GET', 'GET'],
  ['/wp-site-health/v1/tests/background-updates', 'cms-site-health/v1/tests/background-updates', '', '', 'GET'],
  ['/wp-site-health/v1/tests/loopback-requests', 'cms-site-health/v1/tests/loopback-requests', '', '', 'GET'],
  ['/wp-site-health/v1/tests/https-status', 'cms-site-health/v1/tests/https-status', '', '', 'GET'],
  ['/wp-site-health/v1/tests/dotorg-communication', 'cms-site-health/v1/tests/dotorg-communication', '', '', 'GET'],
  ['/wp-site-health/v1/tests/authorization-header', 'cms-site-health/v1/tests/authorization-header', '', '', 'GET'],
  ['/wp-site-health/v1/directory-sizes', 'cms-site-health/v1/directory-sizes', '', '', 'GET'],
  ['/wp-site-health/v1/tests/page-cache', 'cms-site-health/v1/tests/page-cache', '', '', 'GET'],
  ['/wp-block-editor/v1', 'cms-block-editor/v1', 'GET', 'GET', 'GET'],
  // edit_posts; the export edit_theme_options
  ['/wp-block-editor/v1/url-details', 'cms-block-editor/v1/url-details', '', '', 'GET'],
  ['/wp/v2/menu-locations', 'wp/v2/menu-locations', '', '', 'GET'],
  ['/wp/v2/menu-locations/(?P<location>[\\w-]+)', 'wp/v2/menu-locations/{location}', '', '', 'GET'],
  ['/wp-block-editor/v1/export', 'cms-block-editor/v1/export', '', '', 'GET'],
];

/** What this server still answers otherwise, each with its reason (docs/routes.md lists them too). */
const KNOWN_DIFFERENCES: [difference: string, reason: string][] = [];

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

type Obj = Record<string, any>;

/** The objects the paths name, made as the administrator. */
async function fixtures(): Promise<Record<string, string | number>> {
  const made = (path: string, json: Obj) => server.json(`cms/v2/${path}`, { method: 'POST', json }, 201) as Promise<Obj>;
  const post = await made('posts', { title: 'Allowed', content: 'First words', status: 'publish' });
  await server.json(`cms/v2/posts/${post.id}`, { method: 'POST', json: { content: 'Second words' } });
  const [revision] = (await server.json(`cms/v2/posts/${post.id}/revisions`)) as Obj[];
  const autosave = (await server.json(`cms/v2/posts/${post.id}/autosaves`, { method: 'POST', json: { content: 'Unsaved words' } })) as Obj;
  const page = await made('pages', { title: 'A page', status: 'publish' });
  const upload = await server.call('cms/v2/media', { method: 'POST', body: PNG, headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="dot.png"' }, auth: server.admin });
  assert.equal(upload.status, 201, await upload.clone().text());
  const media = (await upload.json()) as Obj;
  const category = await made('categories', { name: 'Allowed things' });
  const tag = await made('tags', { name: 'allowed' });
  const comment = await made('comments', { post: post.id, content: 'A comment' });
  const menu = await made('menus', { name: 'Allowed menu' });
  const menuItem = await made('menu-items', { title: 'Home', url: 'https://example.com/', menus: menu.id, status: 'publish' });
  const block = await made('blocks', { title: 'A block', content: '<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->', status: 'publish' });
  const template = await made('templates', { slug: 'allowed', title: 'Allowed', content: 'x' });
  const part = await made('template-parts', { slug: 'allowed-part', title: 'Allowed part', content: 'x', area: 'uncategorized' });
  const navigation = await made('navigation', { title: 'Nav', content: '', status: 'publish' });
  const uuid = (await made('users/1/application-passwords', { name: 'allowed' })).uuid;
  const [theme] = (await server.json('cms/v2/themes?status=active')) as Obj[];
  const globalStyles = String(theme._links['wp:user-global-styles'][0].href).split('/').pop()!;
  const [sidebar] = (await server.json('cms/v2/sidebars')) as Obj[];
  const widget = await made('widgets', { id_base: 'block', sidebar: sidebar.id, instance: { raw: { content: '<p>w</p>' } } });
  const [location] = Object.keys(await server.json('cms/v2/menu-locations'));
  const [plugin] = (await server.json('cms/v2/plugins')) as Obj[];
  return {
    post: post.id, revision: revision.id, autosave: autosave.id, page: page.id, media: media.id, category: category.id, tag: tag.id,
    comment: comment.id, menu: menu.id, menuItem: menuItem.id, block: block.id, template: template.id, templatePost: template.wp_id,
    part: part.id, partPost: part.wp_id, navigation: navigation.id, uuid, stylesheet: theme.stylesheet, globalStyles,
    sidebar: sidebar.id, widget: widget.id, location, plugin: plugin.plugin,
  };
}

describe('Allow on every route of WordPress 6.1’s index, as its permission callbacks answer', () => {
  it('has a row for every route of the index', () => {
    assert.deepEqual(TABLE.map(([route]) => route).sort(), [...wpRoutes].sort());
  });

  it('sends each caller the methods whose permission callback passes (OPTIONS, at /wp-json/)', async () => {
    const names = await fixtures();
    const subscriber = (await userAuth(server, 'subscriber')).auth;
    const callers: [string, string | undefined][] = [['visitor', undefined], ['subscriber', subscriber], ['administrator', server.admin]];
    const home = server.home.replace(/\/$/, '');
    const differences: string[] = [];
    for (const [route, template, ...expected] of TABLE) {
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(names[name])).replaceAll('%2F', '/'));
      for (const [i, [who, auth]] of callers.entries()) {
        const res = await fetch(`${home}/wp-json/${path}`, { method: 'OPTIONS', headers: auth ? { authorization: auth } : {} });
        await res.arrayBuffer();
        const allow = res.headers.get('allow') ?? '';
        if (res.status !== 200 || allow !== expected[i]) differences.push(`${route} as ${who}: ${res.status} Allow '${allow}', WordPress '${expected[i]}'`);
      }
    }
    // each known difference must still be one: one fixed leaves the list
    assert.deepEqual(differences, KNOWN_DIFFERENCES.map(([difference]) => difference));
  });
});
