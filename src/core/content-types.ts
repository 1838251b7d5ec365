import { compileArgs, type CompiledArgs } from '../engine/args.ts';
import type { ArgDescriptor } from '../engine/spec.ts';

/**
 * The registered post types, taxonomies and post meta (register_post_type, register_taxonomy,
 * register_post_meta), as data: WordPress's own types here, the plugins' from their definitions
 * (`postTypes`, `taxonomies`, `postMeta`) while they are active.
 */

export interface PostTypeInfo {
  slug: string;
  name: string;
  singular: string;
  description: string;
  hierarchical: boolean;
  hasArchive: boolean;
  icon: string | null;
  taxonomies: string[];
  restBase: string;
  viewable: boolean;
  /** capability_type: 'post' gives edit_posts, 'page' gives edit_pages... */
  capType: string;
  /** register_post_type's `capabilities`: the primitive capabilities mapped otherwise than capType gives them (`edit_posts: 'edit_theme_options'`). */
  capabilities?: Readonly<Record<string, string>>;
  supports: string[];
  /** The labels register_post_type is given; get_post_type_labels fills in the others. Without them: `name` and `singular`. */
  labels?: Readonly<Record<string, string>>;
  /** capability_type as WordPress names the capabilities the type reports (wp_block's `block`), where it differs from capType, which the checks here go by. */
  capabilityName?: string;
  /** show_ui (default true) and show_in_nav_menus (default: viewable), as the edit context's `visibility` reports them. */
  showUi?: boolean;
  showInNavMenus?: boolean;
  /** show_in_rest: false keeps a type out of /types (WordPress 6.1 registers wp_global_styles so). */
  showInRest?: boolean;
  /**
   * WP_REST_Blocks_Controller's types: title and content are shown raw in every context and never
   * rendered, as a reusable block renders only inside the post that uses it.
   */
  rawMarkup?: boolean;
}

export interface TaxonomyInfo {
  slug: string;
  name: string;
  singular: string;
  description: string;
  hierarchical: boolean;
  types: string[];
  restBase: string;
  /** Where a term's archive lives under the site (`{home}/{archiveBase}/{slug}/`). */
  archiveBase: string;
  /** Query var of the plain (no permalink structure) archive URL, and whether it takes the id. */
  plainVar: { name: string; byId: boolean };
  /** is_taxonomy_viewable: its terms have archive pages (and sitemaps, and SEO); nav_menu's do not. */
  viewable: boolean;
  /** The taxonomy's `cap`: manage_terms, edit_terms, delete_terms, assign_terms. */
  capabilities: Readonly<Record<'manage_terms' | 'edit_terms' | 'delete_terms' | 'assign_terms', string>>;
  /** The `cap` WordPress reports where it names meta capabilities (category's edit_categories...) that map_meta_cap resolves to `capabilities`. */
  metaCapabilities?: Readonly<Record<'manage_terms' | 'edit_terms' | 'delete_terms' | 'assign_terms', string>>;
  /** The labels register_taxonomy is given; get_taxonomy_labels fills in the others. Without them: `name` and `singular`. */
  labels?: Readonly<Record<string, string>>;
}

const POST_SUPPORTS = ['title', 'editor', 'author', 'thumbnail', 'excerpt', 'trackbacks', 'custom-fields', 'comments', 'revisions', 'post-formats'];
const PAGE_SUPPORTS = ['title', 'editor', 'author', 'thumbnail', 'page-attributes', 'custom-fields', 'comments', 'revisions'];
const TEMPLATE_SUPPORTS = ['title', 'slug', 'excerpt', 'editor', 'revisions', 'author'];

/** A block-editor type: not viewable on its own, edited like posts. Plugins declare theirs with it too. */
export const editorType = (slug: string, name: string, singular: string, restBase = slug, icon: string | null = null): PostTypeInfo => ({
  slug, name, singular, description: '', hierarchical: false, hasArchive: false, icon, taxonomies: [], restBase, viewable: false, capType: 'post', supports: ['title', 'editor', 'revisions', 'custom-fields'],
});

/** The capabilities of the types only a theme editor may change (nav_menu_item, wp_navigation): every primitive one is edit_theme_options. */
const THEME_OPTIONS_CAPS: Readonly<Record<string, string>> = Object.fromEntries(
  ['edit_posts', 'edit_others_posts', 'edit_published_posts', 'edit_private_posts', 'delete_posts', 'delete_others_posts', 'delete_published_posts', 'delete_private_posts', 'publish_posts', 'read_private_posts', 'create_posts'].map((c) => [c, 'edit_theme_options']),
);

const ucfirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The labels WordPress 6.1 registers its site-editor types with (wp_template, wp_template_part, wp_navigation), from their names in title and lower case. */
const themeTypeLabels = (singular: string, plural: string, lower: string, lowerPlural: string): Record<string, string> => ({
  name: plural, singular_name: singular, add_new: 'Add New', add_new_item: `Add New ${singular}`, new_item: `New ${singular}`, edit_item: `Edit ${singular}`,
  view_item: `View ${singular}`, all_items: plural, search_items: `Search ${plural}`, parent_item_colon: `Parent ${singular}:`,
  not_found: `No ${lowerPlural} found.`, not_found_in_trash: `No ${lowerPlural} found in Trash.`, archives: `${ucfirst(lower)} archives`,
  insert_into_item: `Insert into ${lower}`, uploaded_to_this_item: `Uploaded to this ${lower}`, filter_items_list: `Filter ${lowerPlural} list`,
  items_list_navigation: `${ucfirst(lowerPlural)} list navigation`, items_list: `${ucfirst(lowerPlural)} list`,
});

const CORE_POST_TYPES: readonly PostTypeInfo[] = [
  { slug: 'post', name: 'Posts', singular: 'Post', description: '', hierarchical: false, hasArchive: false, icon: 'dashicons-admin-post', taxonomies: ['category', 'post_tag'], restBase: 'posts', viewable: true, capType: 'post', supports: POST_SUPPORTS, labels: { name_admin_bar: 'Post' } },
  { slug: 'page', name: 'Pages', singular: 'Page', description: '', hierarchical: true, hasArchive: false, icon: 'dashicons-admin-page', taxonomies: [], restBase: 'pages', viewable: true, capType: 'page', supports: PAGE_SUPPORTS, labels: { name_admin_bar: 'Page' } },
  {
    slug: 'attachment', name: 'Media', singular: 'Media', description: '', hierarchical: false, hasArchive: false, icon: 'dashicons-admin-media', taxonomies: [], restBase: 'media', viewable: true, capType: 'post', supports: ['title', 'author', 'comments'],
    capabilities: { create_posts: 'upload_files' }, showInNavMenus: false,
    labels: { name: 'Media', name_admin_bar: 'Media', add_new: 'Add New', edit_item: 'Edit Media', view_item: 'View Attachment Page', attributes: 'Attachment Attributes' },
  },
  { ...editorType('nav_menu_item', 'Navigation Menu Items', 'Navigation Menu Item', 'menu-items'), taxonomies: ['nav_menu'], capabilities: THEME_OPTIONS_CAPS, supports: ['title', 'editor'], showUi: false },
  // wp_block (6.1's "Reusable blocks"): reading one in raw form takes edit_posts, creating one publish_posts; WordPress names its other capabilities after `block`, checked here as the posts'
  {
    ...editorType('cms_block', 'Reusable blocks', 'Reusable block', 'blocks'), capabilityName: 'block', supports: ['title', 'editor', 'revisions'], rawMarkup: true,
    capabilities: { read: 'edit_posts', create_posts: 'publish_posts', edit_posts: 'edit_posts', edit_published_posts: 'edit_published_posts', delete_published_posts: 'delete_published_posts', edit_others_posts: 'edit_others_posts', delete_others_posts: 'delete_others_posts' },
    labels: {
      name: 'Reusable blocks', singular_name: 'Reusable block', add_new: 'Add New', add_new_item: 'Add new Reusable block', new_item: 'New Reusable block', edit_item: 'Edit Reusable block',
      view_item: 'View Reusable block', all_items: 'All Reusable blocks', search_items: 'Search Reusable blocks', not_found: 'No reusable blocks found.', not_found_in_trash: 'No reusable blocks found in Trash.',
      filter_items_list: 'Filter reusable blocks list', items_list_navigation: 'Reusable blocks list navigation', items_list: 'Reusable blocks list', item_published: 'Reusable block published.',
      item_published_privately: 'Reusable block published privately.', item_reverted_to_draft: 'Reusable block reverted to draft.', item_scheduled: 'Reusable block scheduled.', item_updated: 'Reusable block updated.',
    },
  },
  // templates, template parts and global styles: every capability, reading included, is edit_theme_options
  {
    ...editorType('cms_template', 'Templates', 'Template', 'templates'), description: 'Templates to include in your theme.', capabilities: { ...THEME_OPTIONS_CAPS, read: 'edit_theme_options' },
    capabilityName: 'template', supports: TEMPLATE_SUPPORTS, showUi: false, labels: themeTypeLabels('Template', 'Templates', 'template', 'templates'),
  },
  {
    ...editorType('cms_template_part', 'Template Parts', 'Template Part', 'template-parts'), description: 'Template parts to include in your templates.', capabilities: { ...THEME_OPTIONS_CAPS, read: 'edit_theme_options' },
    supports: TEMPLATE_SUPPORTS, showUi: false, labels: themeTypeLabels('Template Part', 'Template Parts', 'template part', 'template parts'),
  },
  { ...editorType('cms_global_styles', 'Global Styles', 'Global Styles', 'global-styles'), description: 'Global styles to include in themes.', capabilities: { ...THEME_OPTIONS_CAPS, read: 'edit_theme_options' }, showUi: false, showInRest: false },
  {
    ...editorType('cms_navigation', 'Navigation Menus', 'Navigation Menu', 'navigation'), description: 'Navigation menus that can be inserted into your site.', capabilities: THEME_OPTIONS_CAPS, supports: ['title', 'editor', 'revisions'],
    labels: { ...themeTypeLabels('Navigation Menu', 'Navigation Menus', 'Navigation Menu', 'Navigation Menu'), items_list_navigation: 'Navigation Menus list navigation', items_list: 'Navigation Menus list' },
  },
  // WordPress 6.1 has no font types: kept out of /types until their routes exist
  { ...editorType('cms_font_family', 'Font Families', 'Font Family', 'font-families'), showInRest: false },
  { ...editorType('cms_font_face', 'Font Faces', 'Font Face', 'font-faces'), showInRest: false },
];

/**
 * The core's own types besides pages and attachments (WordPress's `_builtin` ones: wp_block,
 * wp_navigation...): get_permalink links them as it links posts, by the permalink structure.
 */
export const LINKED_AS_POSTS: ReadonlySet<string> = new Set(CORE_POST_TYPES.map((t) => t.slug).filter((slug) => slug !== 'page' && slug !== 'attachment'));

const TERM_CAPS = { manage_terms: 'manage_categories', edit_terms: 'manage_categories', delete_terms: 'manage_categories', assign_terms: 'edit_posts' } as const;
const MENU_CAPS = { manage_terms: 'edit_theme_options', edit_terms: 'edit_theme_options', delete_terms: 'edit_theme_options', assign_terms: 'edit_theme_options' } as const;

const CORE_TAXONOMIES: readonly TaxonomyInfo[] = [
  { slug: 'category', name: 'Categories', singular: 'Category', description: '', hierarchical: true, types: ['post'], restBase: 'categories', archiveBase: 'category', plainVar: { name: 'cat', byId: true }, viewable: true, capabilities: TERM_CAPS,
    labels: {}, metaCapabilities: { manage_terms: 'manage_categories', edit_terms: 'edit_categories', delete_terms: 'delete_categories', assign_terms: 'assign_categories' } },
  { slug: 'post_tag', name: 'Tags', singular: 'Tag', description: '', hierarchical: false, types: ['post'], restBase: 'tags', archiveBase: 'tag', plainVar: { name: 'tag', byId: false }, viewable: true, capabilities: TERM_CAPS,
    labels: {}, metaCapabilities: { manage_terms: 'manage_post_tags', edit_terms: 'edit_post_tags', delete_terms: 'delete_post_tags', assign_terms: 'assign_post_tags' } },
  // the menus (WP_REST_Menus_Controller): no archive pages, managed by whoever may edit the theme's options
  { slug: 'nav_menu', name: 'Navigation Menus', singular: 'Navigation Menu', description: '', hierarchical: false, types: ['nav_menu_item'], restBase: 'menus', archiveBase: 'nav_menu', plainVar: { name: 'nav_menu', byId: false }, viewable: false, capabilities: MENU_CAPS },
];

/** A post meta key shown and written through the REST API (register_post_meta with show_in_rest). */
export interface RegisteredMeta {
  key: string;
  /** The post types it belongs to, or '*' for every type. */
  postTypes: readonly string[] | '*';
  /** Its JSON Schema, as register_meta's show_in_rest.schema: type, default, enum, items, properties... */
  schema: ArgDescriptor;
  /** The capability a writer needs besides editing the post (auth_callback); keys starting with `_` need one. */
  writeCap?: string;
}

/** A registered meta key with its validator, compiled once per registry. */
export interface CompiledMeta extends RegisteredMeta {
  /** Validates and coerces `{['meta.' + key]: value}` in place, throwing WordPress's rest_invalid_param. */
  args: CompiledArgs;
}

/** What a plugin adds to the registry. */
export interface ContentTypeAdditions {
  postTypes?: readonly PostTypeInfo[];
  taxonomies?: readonly TaxonomyInfo[];
  postMeta?: readonly RegisteredMeta[];
}

/** The post types and taxonomies registered now: the core's, then each active plugin's in load order. */
export class ContentTypes {
  readonly postTypes: readonly PostTypeInfo[];
  /** The post types the active plugins registered: each gets the core's REST routes under its rest base (cms-v2.yaml's `each: post_type` routes). */
  readonly pluginPostTypes: readonly PostTypeInfo[];
  readonly taxonomies: readonly TaxonomyInfo[];
  private readonly typeBySlug: ReadonlyMap<string, PostTypeInfo>;
  private readonly taxBySlug: ReadonlyMap<string, TaxonomyInfo>;
  private readonly meta: readonly CompiledMeta[];
  private readonly metaByType = new Map<string, readonly CompiledMeta[]>();

  constructor(additions: readonly ContentTypeAdditions[] = []) {
    this.pluginPostTypes = additions.flatMap((a) => a.postTypes ?? []);
    this.postTypes = [...CORE_POST_TYPES, ...this.pluginPostTypes];
    this.taxonomies = [...CORE_TAXONOMIES, ...additions.flatMap((a) => a.taxonomies ?? [])];
    this.typeBySlug = new Map(this.postTypes.map((t) => [t.slug, t]));
    this.taxBySlug = new Map(this.taxonomies.map((t) => [t.slug, t]));
    this.meta = additions.flatMap((a) => a.postMeta ?? []).map((m) => ({ ...m, args: compileArgs({ [`meta.${m.key}`]: m.schema }) }));
  }

  /** The meta keys registered for a post type, in registration order. */
  postMeta(postType: string): readonly CompiledMeta[] {
    let list = this.metaByType.get(postType);
    if (!list) this.metaByType.set(postType, (list = this.meta.filter((m) => m.postTypes === '*' || m.postTypes.includes(postType))));
    return list;
  }

  postType(slug: string): PostTypeInfo | undefined {
    return this.typeBySlug.get(slug);
  }

  taxonomy(slug: string): TaxonomyInfo | undefined {
    return this.taxBySlug.get(slug);
  }
}

/** The primitive capability a meta action maps to for a type: cap(page, 'edit_posts') = 'edit_pages'. */
export function cap(type: PostTypeInfo, action: string): string {
  return type.capabilities?.[action] ?? action.replace(/posts$/, `${type.capType}s`);
}

/** The `capabilities` object of a post type in edit context (get_post_type_capabilities): create_posts is edit_posts unless registered. */
export function capabilitiesOf(type: PostTypeInfo): Record<string, string> {
  const s = type.capabilityName ?? type.capType;
  const caps: Record<string, string> = {
    edit_post: `edit_${s}`, read_post: `read_${s}`, delete_post: `delete_${s}`,
    edit_posts: `edit_${s}s`, edit_others_posts: `edit_others_${s}s`, delete_posts: `delete_${s}s`,
    publish_posts: `publish_${s}s`, read_private_posts: `read_private_${s}s`, read: 'read',
    delete_private_posts: `delete_private_${s}s`, delete_published_posts: `delete_published_${s}s`,
    delete_others_posts: `delete_others_${s}s`, edit_private_posts: `edit_private_${s}s`,
    edit_published_posts: `edit_published_${s}s`,
    ...type.capabilities,
  };
  caps.create_posts ??= caps.edit_posts;
  return caps;
}
