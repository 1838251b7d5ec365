import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';

type Obj = Record<string, any>;

/**
 * GET /wp/v2/types and /wp/v2/taxonomies as WordPress 6.1 answers them (wp/v2 read as cms/v2):
 * create_initial_post_types / create_initial_taxonomies run through get_post_type_labels,
 * get_taxonomy_labels and get_post_type_capabilities, then WP_REST_Post_Types_Controller and
 * WP_REST_Taxonomies_Controller.
 */
describe('types and taxonomies field for field (WordPress 6.1)', () => {
  // WordPress 6.1 alone: no plugin adds its fields (the SEO plugin's yoast_head) or its types
  const site = useServer({ compose: { plugins: [] } });
  const get = async (path: string, auth?: string) => {
    const res = await site.call(path, { auth });
    return { status: res.status, body: (await res.json()) as Obj };
  };
  const curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
  const links = (collection: string, items: string) => ({ collection: [{ href: `${site.api}cms/v2/${collection}` }], 'wp:items': [{ href: `${site.api}cms/v2/${items}` }], curies });

  const POST_LABELS = {
    name: 'Posts', singular_name: 'Post', add_new: 'Add New', add_new_item: 'Add New Post', edit_item: 'Edit Post', new_item: 'New Post', view_item: 'View Post',
    view_items: 'View Posts', search_items: 'Search Posts', not_found: 'No posts found.', not_found_in_trash: 'No posts found in Trash.', parent_item_colon: null,
    all_items: 'All Posts', archives: 'Post Archives', attributes: 'Post Attributes', insert_into_item: 'Insert into post', uploaded_to_this_item: 'Uploaded to this post',
    featured_image: 'Featured image', set_featured_image: 'Set featured image', remove_featured_image: 'Remove featured image', use_featured_image: 'Use as featured image',
    filter_items_list: 'Filter posts list', filter_by_date: 'Filter by date', items_list_navigation: 'Posts list navigation', items_list: 'Posts list',
    item_published: 'Post published.', item_published_privately: 'Post published privately.', item_reverted_to_draft: 'Post reverted to draft.',
    item_scheduled: 'Post scheduled.', item_updated: 'Post updated.', item_link: 'Post Link', item_link_description: 'A link to a post.', menu_name: 'Posts', name_admin_bar: 'Post',
  };
  const capsOf = (s: string, over: Obj = {}) => {
    const caps: Obj = {
      edit_post: `edit_${s}`, read_post: `read_${s}`, delete_post: `delete_${s}`, edit_posts: `edit_${s}s`, edit_others_posts: `edit_others_${s}s`, delete_posts: `delete_${s}s`,
      publish_posts: `publish_${s}s`, read_private_posts: `read_private_${s}s`, read: 'read', delete_private_posts: `delete_private_${s}s`,
      delete_published_posts: `delete_published_${s}s`, delete_others_posts: `delete_others_${s}s`, edit_private_posts: `edit_private_${s}s`, edit_published_posts: `edit_published_${s}s`,
      ...over,
    };
    caps.create_posts ??= caps.edit_posts;
    return caps;
  };
  const THEME = Object.fromEntries(['edit_posts', 'edit_others_posts', 'delete_posts', 'publish_posts', 'read_private_posts', 'delete_private_posts', 'delete_published_posts', 'delete_others_posts', 'edit_private_posts', 'edit_published_posts', 'create_posts'].map((c) => [c, 'edit_theme_options']));

  it('lists the show_in_rest types in registration order, wp_global_styles not among them', async () => {
    const { status, body } = await get('cms/v2/types');
    assert.equal(status, 200);
    // the core's types first, the active plugins' after them
    assert.deepEqual(Object.keys(body).slice(0, 8), ['post', 'page', 'attachment', 'nav_menu_item', 'cms_block', 'cms_template', 'cms_template_part', 'cms_navigation']);
    for (const hidden of ['cms_global_styles', 'cms_font_family', 'cms_font_face']) assert.ok(!(hidden in body), hidden);
    assert.deepEqual(body.post, {
      description: '', hierarchical: false, has_archive: false, name: 'Posts', slug: 'post', icon: 'dashicons-admin-post', taxonomies: ['category', 'post_tag'],
      rest_base: 'posts', rest_namespace: 'cms/v2', _links: links('types', 'posts'),
    });
    assert.deepEqual(body.nav_menu_item, {
      description: '', hierarchical: false, has_archive: false, name: 'Navigation Menu Items', slug: 'nav_menu_item', icon: null, taxonomies: ['nav_menu'],
      rest_base: 'menu-items', rest_namespace: 'cms/v2', _links: links('types', 'menu-items'),
    });
    // a registered type that is not shown in REST is refused, an unknown one not found
    assert.deepEqual(await get('cms/v2/types/cms_global_styles'), { status: 401, body: { code: 'rest_cannot_read_type', message: 'Cannot view post type.', data: { status: 401 } } });
    assert.deepEqual(await get('cms/v2/types/cms_global_styles', site.admin), { status: 403, body: { code: 'rest_cannot_read_type', message: 'Cannot view post type.', data: { status: 403 } } });
    assert.deepEqual(await get('cms/v2/types/nope'), { status: 404, body: { code: 'rest_type_invalid', message: 'Invalid post type.', data: { status: 404 } } });
    assert.deepEqual((await get('cms/v2/types/post?context=embed')).body, { name: 'Posts', slug: 'post', icon: 'dashicons-admin-post', rest_base: 'posts', rest_namespace: 'cms/v2', _links: links('types', 'posts') });
  });

  it('answers post in edit context with every label, capability, support and visibility', async () => {
    const { body } = await get('cms/v2/types/post?context=edit', site.admin);
    assert.deepEqual(body, {
      capabilities: capsOf('post'), description: '', hierarchical: false, has_archive: false, viewable: true, labels: POST_LABELS, name: 'Posts', slug: 'post',
      supports: { title: true, editor: true, author: true, thumbnail: true, excerpt: true, trackbacks: true, 'custom-fields': true, comments: true, revisions: true, 'post-formats': true },
      icon: 'dashicons-admin-post', taxonomies: ['category', 'post_tag'], rest_base: 'posts', rest_namespace: 'cms/v2', visibility: { show_in_nav_menus: true, show_ui: true },
      _links: links('types', 'posts'),
    });
  });

  it('answers page with the hierarchical labels and page capabilities', async () => {
    const { body } = await get('cms/v2/types/page?context=edit', site.admin);
    assert.deepEqual(body.labels, {
      name: 'Pages', singular_name: 'Page', add_new: 'Add New', add_new_item: 'Add New Page', edit_item: 'Edit Page', new_item: 'New Page', view_item: 'View Page',
      view_items: 'View Pages', search_items: 'Search Pages', not_found: 'No pages found.', not_found_in_trash: 'No pages found in Trash.', parent_item_colon: 'Parent Page:',
      all_items: 'All Pages', archives: 'Page Archives', attributes: 'Page Attributes', insert_into_item: 'Insert into page', uploaded_to_this_item: 'Uploaded to this page',
      featured_image: 'Featured image', set_featured_image: 'Set featured image', remove_featured_image: 'Remove featured image', use_featured_image: 'Use as featured image',
      filter_items_list: 'Filter pages list', filter_by_date: 'Filter by date', items_list_navigation: 'Pages list navigation', items_list: 'Pages list',
      item_published: 'Page published.', item_published_privately: 'Page published privately.', item_reverted_to_draft: 'Page reverted to draft.',
      item_scheduled: 'Page scheduled.', item_updated: 'Page updated.', item_link: 'Page Link', item_link_description: 'A link to a page.', menu_name: 'Pages', name_admin_bar: 'Page',
    });
    assert.deepEqual(body.capabilities, capsOf('page'));
    assert.deepEqual(body.supports, { title: true, editor: true, author: true, thumbnail: true, 'page-attributes': true, 'custom-fields': true, comments: true, revisions: true });
    assert.deepEqual(body.visibility, { show_in_nav_menus: true, show_ui: true });
    assert.equal(body.icon, 'dashicons-admin-page');
  });

  it('answers attachment with its own labels over the post defaults, upload_files to create, and no nav menus', async () => {
    const { body } = await get('cms/v2/types/attachment?context=edit', site.admin);
    assert.deepEqual(body.labels, {
      ...POST_LABELS, name: 'Media', singular_name: 'Media', add_new: 'Add New', edit_item: 'Edit Media', view_item: 'View Attachment Page', all_items: 'Media', archives: 'Media',
      attributes: 'Attachment Attributes', menu_name: 'Media', name_admin_bar: 'Media',
    });
    assert.deepEqual(body.capabilities, capsOf('post', { create_posts: 'upload_files' }));
    assert.deepEqual(body.supports, { title: true, author: true, comments: true });
    assert.deepEqual(body.visibility, { show_in_nav_menus: false, show_ui: true });
    assert.equal(body.viewable, true);
  });

  it('answers the block-editor types: reusable blocks, templates, template parts, navigation, menu items', async () => {
    const block = (await get('cms/v2/types/cms_block?context=edit', site.admin)).body;
    assert.deepEqual(block.labels, {
      ...POST_LABELS, name: 'Reusable blocks', singular_name: 'Reusable block', add_new: 'Add New', add_new_item: 'Add new Reusable block', new_item: 'New Reusable block',
      edit_item: 'Edit Reusable block', view_item: 'View Reusable block', all_items: 'All Reusable blocks', search_items: 'Search Reusable blocks', not_found: 'No reusable blocks found.',
      not_found_in_trash: 'No reusable blocks found in Trash.', archives: 'All Reusable blocks', filter_items_list: 'Filter reusable blocks list',
      items_list_navigation: 'Reusable blocks list navigation', items_list: 'Reusable blocks list', item_published: 'Reusable block published.',
      item_published_privately: 'Reusable block published privately.', item_reverted_to_draft: 'Reusable block reverted to draft.', item_scheduled: 'Reusable block scheduled.',
      item_updated: 'Reusable block updated.', menu_name: 'Reusable blocks', name_admin_bar: 'Reusable block',
    });
    assert.deepEqual(block.capabilities, capsOf('block', {
      read: 'edit_posts', create_posts: 'publish_posts', edit_posts: 'edit_posts', edit_published_posts: 'edit_published_posts', delete_published_posts: 'delete_published_posts',
      edit_others_posts: 'edit_others_posts', delete_others_posts: 'delete_others_posts',
    }));
    assert.deepEqual(block.supports, { title: true, editor: true, revisions: true });
    assert.deepEqual(block.visibility, { show_in_nav_menus: false, show_ui: true });
    assert.equal(block.viewable, false);

    const template = (await get('cms/v2/types/cms_template?context=edit', site.admin)).body;
    assert.deepEqual(template.capabilities, capsOf('template', { ...THEME, read: 'edit_theme_options' }));
    assert.equal(template.description, 'Templates to include in your theme.');
    assert.equal(template.icon, null);
    assert.deepEqual(template.supports, { title: true, slug: true, excerpt: true, editor: true, revisions: true, author: true });
    assert.deepEqual(template.visibility, { show_in_nav_menus: false, show_ui: false });
    assert.deepEqual(template.labels, {
      ...POST_LABELS, name: 'Templates', singular_name: 'Template', add_new: 'Add New', add_new_item: 'Add New Template', new_item: 'New Template', edit_item: 'Edit Template',
      view_item: 'View Template', all_items: 'Templates', search_items: 'Search Templates', parent_item_colon: 'Parent Template:', not_found: 'No templates found.',
      not_found_in_trash: 'No templates found in Trash.', archives: 'Template archives', insert_into_item: 'Insert into template', uploaded_to_this_item: 'Uploaded to this template',
      filter_items_list: 'Filter templates list', items_list_navigation: 'Templates list navigation', items_list: 'Templates list', menu_name: 'Templates', name_admin_bar: 'Template',
    });

    const part = (await get('cms/v2/types/cms_template_part?context=edit', site.admin)).body;
    assert.deepEqual(part.capabilities, capsOf('post', { ...THEME, read: 'edit_theme_options' }));
    assert.equal(part.description, 'Template parts to include in your templates.');
    assert.equal(part.labels.archives, 'Template part archives');
    assert.equal(part.labels.items_list, 'Template parts list');
    assert.equal(part.labels.add_new_item, 'Add New Template Part');

    const navigation = (await get('cms/v2/types/cms_navigation?context=edit', site.admin)).body;
    assert.deepEqual(navigation.capabilities, capsOf('post', THEME));
    assert.equal(navigation.description, 'Navigation menus that can be inserted into your site.');
    assert.deepEqual(navigation.supports, { title: true, editor: true, revisions: true });
    assert.deepEqual(navigation.visibility, { show_in_nav_menus: false, show_ui: true });
    assert.deepEqual([navigation.labels.not_found, navigation.labels.filter_items_list, navigation.labels.items_list, navigation.labels.archives],
      ['No Navigation Menu found.', 'Filter Navigation Menu list', 'Navigation Menus list', 'Navigation Menu archives']);

    const items = (await get('cms/v2/types/nav_menu_item?context=edit', site.admin)).body;
    assert.deepEqual(items.capabilities, capsOf('post', THEME));
    assert.deepEqual(items.supports, { title: true, editor: true });
    assert.deepEqual(items.visibility, { show_in_nav_menus: false, show_ui: false });
    assert.deepEqual([items.labels.name, items.labels.all_items, items.labels.archives, items.labels.menu_name, items.labels.name_admin_bar, items.labels.add_new_item],
      ['Navigation Menu Items', 'Navigation Menu Items', 'Navigation Menu Items', 'Navigation Menu Items', 'Navigation Menu Item', 'Add New Post']);
  });

  it('lists in edit context only the types the caller may edit, and refuses one who may edit none', async () => {
    const editor = await userAuth(site, 'editor');
    const editable = Object.keys((await get('cms/v2/types?context=edit', editor.auth)).body);
    assert.deepEqual(editable.slice(0, 4), ['post', 'page', 'attachment', 'cms_block']);
    for (const themeType of ['nav_menu_item', 'cms_template', 'cms_template_part', 'cms_navigation']) assert.ok(!editable.includes(themeType), themeType);
    const subscriber = await userAuth(site, 'subscriber');
    assert.deepEqual(await get('cms/v2/types?context=edit', subscriber.auth), {
      status: 403, body: { code: 'rest_cannot_view', message: 'Sorry, you are not allowed to edit posts in this post type.', data: { status: 403 } },
    });
    assert.deepEqual(await get('cms/v2/types?context=edit'), {
      status: 401, body: { code: 'rest_cannot_view', message: 'Sorry, you are not allowed to edit posts in this post type.', data: { status: 401 } },
    });
  });

  const SLUG_HELP = 'The &#8220;slug&#8221; is the URL-friendly version of the name. It is usually all lowercase and contains only letters, numbers, and hyphens.';
  const DESC_HELP = 'The description is not prominent by default; however, some themes may show it.';
  const VISIBLE = { public: true, publicly_queryable: true, show_admin_column: true, show_in_nav_menus: true, show_in_quick_edit: true, show_ui: true };

  it('answers category and post_tag in edit context with every label and their meta capabilities', async () => {
    const category = (await get('cms/v2/taxonomies/category?context=edit', site.admin)).body;
    assert.deepEqual(category, {
      capabilities: { manage_terms: 'manage_categories', edit_terms: 'edit_categories', delete_terms: 'delete_categories', assign_terms: 'assign_categories' },
      description: '', hierarchical: true,
      labels: {
        name: 'Categories', singular_name: 'Category', search_items: 'Search Categories', popular_items: null, all_items: 'All Categories', parent_item: 'Parent Category',
        parent_item_colon: 'Parent Category:', name_field_description: 'The name is how it appears on your site.', slug_field_description: SLUG_HELP,
        parent_field_description: 'Assign a parent term to create a hierarchy. The term Jazz, for example, would be the parent of Bebop and Big Band.', desc_field_description: DESC_HELP,
        edit_item: 'Edit Category', view_item: 'View Category', update_item: 'Update Category', add_new_item: 'Add New Category', new_item_name: 'New Category Name',
        separate_items_with_commas: null, add_or_remove_items: null, choose_from_most_used: null, not_found: 'No categories found.', no_terms: 'No categories',
        filter_by_item: 'Filter by category', items_list_navigation: 'Categories list navigation', items_list: 'Categories list', most_used: 'Most Used',
        back_to_items: '&larr; Go to Categories', item_link: 'Category Link', item_link_description: 'A link to a category.', menu_name: 'Categories', name_admin_bar: 'category',
      },
      name: 'Categories', slug: 'category', show_cloud: true, types: ['post'], rest_base: 'categories', rest_namespace: 'cms/v2', visibility: VISIBLE,
      _links: links('taxonomies', 'categories'),
    });
    const tag = (await get('cms/v2/taxonomies/post_tag?context=edit', site.admin)).body;
    assert.deepEqual(tag.capabilities, { manage_terms: 'manage_post_tags', edit_terms: 'edit_post_tags', delete_terms: 'delete_post_tags', assign_terms: 'assign_post_tags' });
    assert.deepEqual(tag.labels, {
      name: 'Tags', singular_name: 'Tag', search_items: 'Search Tags', popular_items: 'Popular Tags', all_items: 'All Tags', parent_item: null, parent_item_colon: null,
      name_field_description: 'The name is how it appears on your site.', slug_field_description: SLUG_HELP, parent_field_description: null, desc_field_description: DESC_HELP,
      edit_item: 'Edit Tag', view_item: 'View Tag', update_item: 'Update Tag', add_new_item: 'Add New Tag', new_item_name: 'New Tag Name',
      separate_items_with_commas: 'Separate tags with commas', add_or_remove_items: 'Add or remove tags', choose_from_most_used: 'Choose from the most used tags',
      not_found: 'No tags found.', no_terms: 'No tags', filter_by_item: null, items_list_navigation: 'Tags list navigation', items_list: 'Tags list', most_used: 'Most Used',
      back_to_items: '&larr; Go to Tags', item_link: 'Tag Link', item_link_description: 'A link to a tag.', menu_name: 'Tags', name_admin_bar: 'post_tag',
    });
    assert.equal(tag.show_cloud, true);
    assert.deepEqual(tag.visibility, VISIBLE);
  });

  it('answers nav_menu with its registered names standing for menu_name, all_items and archives', async () => {
    const menu = (await get('cms/v2/taxonomies/nav_menu?context=edit', site.admin)).body;
    assert.equal(menu.show_cloud, false);
    assert.deepEqual(
      [menu.labels.name, menu.labels.singular_name, menu.labels.menu_name, menu.labels.all_items, menu.labels.archives, menu.labels.name_admin_bar, menu.labels.search_items],
      ['Navigation Menus', 'Navigation Menu', 'Navigation Menus', 'Navigation Menus', 'Navigation Menus', 'Navigation Menu', 'Search Tags'],
    );
  });
});
