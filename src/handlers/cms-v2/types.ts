import type { Ctx } from '../../core/context.ts';
import { cap, capabilitiesOf, type PostTypeInfo, type TaxonomyInfo } from '../../core/content-types.ts';
import { contextOf, CURIES, denied, NS, nsUrl, pick, type Context } from '../../core/rest.ts';
import { addRestFields } from '../../core/rest-fields.ts';

const TYPE_FIELDS: Record<Context, string[]> = {
  view: ['description', 'hierarchical', 'has_archive', 'name', 'slug', 'icon', 'taxonomies', 'rest_base', 'rest_namespace'],
  edit: ['capabilities', 'description', 'hierarchical', 'has_archive', 'viewable', 'labels', 'name', 'slug', 'supports', 'icon', 'taxonomies', 'rest_base', 'rest_namespace', 'visibility'],
  embed: ['name', 'slug', 'icon', 'rest_base', 'rest_namespace'],
};
const TAX_FIELDS: Record<Context, string[]> = {
  view: ['description', 'hierarchical', 'name', 'slug', 'types', 'rest_base', 'rest_namespace'],
  edit: ['capabilities', 'description', 'hierarchical', 'labels', 'name', 'slug', 'show_cloud', 'types', 'rest_base', 'rest_namespace', 'visibility'],
  embed: ['name', 'slug', 'rest_base', 'rest_namespace'],
};

/** get_post_type_labels' defaults, [non-hierarchical, hierarchical] (WordPress 6.1's WP_Post_Type::get_default_labels, and menu_name as name). */
const TYPE_LABELS: Record<string, readonly [string | null, string | null]> = {
  name: ['Posts', 'Pages'], singular_name: ['Post', 'Page'], add_new: ['Add New', 'Add New'], add_new_item: ['Add New Post', 'Add New Page'],
  edit_item: ['Edit Post', 'Edit Page'], new_item: ['New Post', 'New Page'], view_item: ['View Post', 'View Page'], view_items: ['View Posts', 'View Pages'],
  search_items: ['Search Posts', 'Search Pages'], not_found: ['No posts found.', 'No pages found.'], not_found_in_trash: ['No posts found in Trash.', 'No pages found in Trash.'],
  parent_item_colon: [null, 'Parent Page:'], all_items: ['All Posts', 'All Pages'], archives: ['Post Archives', 'Page Archives'], attributes: ['Post Attributes', 'Page Attributes'],
  insert_into_item: ['Insert into post', 'Insert into page'], uploaded_to_this_item: ['Uploaded to this post', 'Uploaded to this page'],
  featured_image: ['Featured image', 'Featured image'], set_featured_image: ['Set featured image', 'Set featured image'], remove_featured_image: ['Remove featured image', 'Remove featured image'],
  use_featured_image: ['Use as featured image', 'Use as featured image'], filter_items_list: ['Filter posts list', 'Filter pages list'], filter_by_date: ['Filter by date', 'Filter by date'],
  items_list_navigation: ['Posts list navigation', 'Pages list navigation'], items_list: ['Posts list', 'Pages list'], item_published: ['Post published.', 'Page published.'],
  item_published_privately: ['Post published privately.', 'Page published privately.'], item_reverted_to_draft: ['Post reverted to draft.', 'Page reverted to draft.'],
  item_scheduled: ['Post scheduled.', 'Page scheduled.'], item_updated: ['Post updated.', 'Page updated.'], item_link: ['Post Link', 'Page Link'],
  item_link_description: ['A link to a post.', 'A link to a page.'], menu_name: ['Posts', 'Pages'],
};

/** get_taxonomy_labels' defaults, [non-hierarchical, hierarchical] (WordPress 6.1's WP_Taxonomy::get_default_labels, and menu_name as name). */
const SLUG_HELP = 'The &#8220;slug&#8221; is the URL-friendly version of the name. It is usually all lowercase and contains only letters, numbers, and hyphens.';
const DESC_HELP = 'The description is not prominent by default; however, some themes may show it.';
const TAX_LABELS: Record<string, readonly [string | null, string | null]> = {
  name: ['Tags', 'Categories'], singular_name: ['Tag', 'Category'], search_items: ['Search Tags', 'Search Categories'], popular_items: ['Popular Tags', null],
  all_items: ['All Tags', 'All Categories'], parent_item: [null, 'Parent Category'], parent_item_colon: [null, 'Parent Category:'],
  name_field_description: ['The name is how it appears on your site.', 'The name is how it appears on your site.'], slug_field_description: [SLUG_HELP, SLUG_HELP],
  parent_field_description: [null, 'Assign a parent term to create a hierarchy. The term Jazz, for example, would be the parent of Bebop and Big Band.'], desc_field_description: [DESC_HELP, DESC_HELP],
  edit_item: ['Edit Tag', 'Edit Category'], view_item: ['View Tag', 'View Category'], update_item: ['Update Tag', 'Update Category'], add_new_item: ['Add New Tag', 'Add New Category'],
  new_item_name: ['New Tag Name', 'New Category Name'], separate_items_with_commas: ['Separate tags with commas', null], add_or_remove_items: ['Add or remove tags', null],
  choose_from_most_used: ['Choose from the most used tags', null], not_found: ['No tags found.', 'No categories found.'], no_terms: ['No tags', 'No categories'],
  filter_by_item: [null, 'Filter by category'], items_list_navigation: ['Tags list navigation', 'Categories list navigation'], items_list: ['Tags list', 'Categories list'],
  most_used: ['Most Used', 'Most Used'], back_to_items: ['&larr; Go to Tags', '&larr; Go to Categories'], item_link: ['Tag Link', 'Category Link'],
  item_link_description: ['A link to a tag.', 'A link to a category.'], menu_name: ['Tags', 'Categories'],
};

/**
 * _get_custom_object_labels: the registered labels over the defaults of the object's kind, where a
 * registered name also stands for menu_name, all_items and archives, and name_admin_bar is the
 * singular name, else the object's slug (why 6.1 answers `"name_admin_bar": "category"`).
 */
function objectLabels(slug: string, hierarchical: boolean, given: Readonly<Record<string, string>>, defaults: typeof TYPE_LABELS): Record<string, string | null> {
  const l: Record<string, string> = { ...given };
  if (l.singular_name === undefined && l.name !== undefined) l.singular_name = l.name;
  l.name_admin_bar ??= l.singular_name ?? slug;
  if (l.menu_name === undefined && l.name !== undefined) l.menu_name = l.name;
  if (l.all_items === undefined && l.menu_name !== undefined) l.all_items = l.menu_name;
  if (l.archives === undefined && l.all_items !== undefined) l.archives = l.all_items;
  const out: Record<string, string | null> = Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, v[hierarchical ? 1 : 0]]));
  return Object.assign(out, l);
}

async function prepareType(ctx: Ctx, t: PostTypeInfo, context: Context): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {
    capabilities: capabilitiesOf(t),
    description: t.description,
    hierarchical: t.hierarchical,
    has_archive: t.hasArchive,
    viewable: t.viewable,
    labels: objectLabels(t.slug, t.hierarchical, t.labels ?? { name: t.name, singular_name: t.singular }, TYPE_LABELS),
    name: t.name,
    slug: t.slug,
    supports: Object.fromEntries(t.supports.map((s) => [s, true])),
    icon: t.icon,
    taxonomies: t.taxonomies,
    rest_base: t.restBase,
    // the namespace as the address the client came in on names it (`wp/v2` at /wp-json/): clients build their routes from it
    rest_namespace: ctx.api.namespace(NS),
    visibility: { show_in_nav_menus: t.showInNavMenus ?? t.viewable, show_ui: t.showUi ?? true },
  };
  const out = pick(data, TYPE_FIELDS[context]);
  await addRestFields(ctx, { kind: 'type', type: t }, out);
  out._links = { collection: [{ href: nsUrl(ctx, 'types') }], 'wp:items': [{ href: nsUrl(ctx, t.restBase) }], curies: CURIES };
  return out;
}

function prepareTaxonomy(ctx: Ctx, t: TaxonomyInfo, context: Context): Record<string, unknown> {
  const data: Record<string, unknown> = {
    capabilities: t.metaCapabilities ?? t.capabilities,
    description: t.description,
    hierarchical: t.hierarchical,
    labels: objectLabels(t.slug, t.hierarchical, t.labels ?? { name: t.name, singular_name: t.singular }, TAX_LABELS),
    name: t.name,
    slug: t.slug,
    // show_tagcloud defaults to show_ui, which only the viewable taxonomies have here (categories included)
    show_cloud: t.viewable,
    types: t.types,
    rest_base: t.restBase,
    // the namespace as the address the client came in on names it (`wp/v2` at /wp-json/): clients build their routes from it
    rest_namespace: ctx.api.namespace(NS),
    visibility: { public: t.viewable, publicly_queryable: t.viewable, show_admin_column: t.viewable, show_in_nav_menus: t.viewable, show_in_quick_edit: t.viewable, show_ui: t.viewable },
  };
  const out = pick(data, TAX_FIELDS[context]);
  out._links = { collection: [{ href: nsUrl(ctx, 'taxonomies') }], 'wp:items': [{ href: nsUrl(ctx, t.restBase) }], curies: CURIES };
  return out;
}

/** The types /types shows (show_in_rest). */
const restTypes = (ctx: Ctx) => ctx.site.types.postTypes.filter((t) => t.showInRest !== false);

/** In edit context WordPress lists only the types the user may edit, and refuses a caller who may edit none. */
export async function listTypes(ctx: Ctx<'cms-v2:types.listTypes'>) {
  const context = contextOf(ctx);
  const listed = restTypes(ctx).filter((t) => context !== 'edit' || ctx.can(cap(t, 'edit_posts')));
  if (context === 'edit' && !listed.length) throw denied(ctx, 'rest_cannot_view', { action: 'edit posts in this post type' });
  return Object.fromEntries(await Promise.all(listed.map(async (t) => [t.slug, await prepareType(ctx, t, context)] as const)));
}

export async function getType(ctx: Ctx<'cms-v2:types.getType'>) {
  const t = ctx.site.types.postType(String(ctx.args.type));
  if (!t) throw ctx.fail('rest_type_invalid');
  if (t.showInRest === false) throw denied(ctx, 'rest_cannot_read_type');
  const context = contextOf(ctx);
  if (context === 'edit' && !ctx.can(cap(t, 'edit_posts'))) throw denied(ctx, 'rest_forbidden_context', { action: 'edit posts in this post type' });
  return prepareType(ctx, t, context);
}

/** In edit context WordPress lists only the taxonomies whose terms the user may assign, and refuses when there is none. */
export function listTaxonomies(ctx: Ctx<'cms-v2:types.listTaxonomies'>) {
  const context = contextOf(ctx);
  const forType = typeof ctx.args.type === 'string' ? ctx.args.type : undefined;
  const listed = ctx.site.types.taxonomies.filter((t) => (!forType || t.types.includes(forType)) && (context !== 'edit' || ctx.can(t.capabilities.assign_terms)));
  if (context === 'edit' && !listed.length)
    throw denied(ctx, 'rest_cannot_view', { action: 'manage terms in this taxonomy' });
  const out: Record<string, ReturnType<typeof prepareTaxonomy>> = {};
  for (const t of listed) out[t.slug] = prepareTaxonomy(ctx, t, context);
  return out;
}

export function getTaxonomy(ctx: Ctx<'cms-v2:types.getTaxonomy'>) {
  const t = ctx.site.types.taxonomy(String(ctx.args.taxonomy));
  if (!t) throw ctx.fail('rest_taxonomy_invalid');
  const context = contextOf(ctx);
  if (context === 'edit' && !ctx.can(t.capabilities.assign_terms)) throw denied(ctx, 'rest_forbidden_context', { action: 'manage terms in this taxonomy' });
  return prepareTaxonomy(ctx, t, context);
}
