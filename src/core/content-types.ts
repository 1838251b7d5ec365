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
}

const POST_SUPPORTS = ['title', 'editor', 'author', 'thumbnail', 'excerpt', 'trackbacks', 'custom-fields', 'comments', 'revisions', 'post-formats'];
const PAGE_SUPPORTS = ['title', 'editor', 'author', 'thumbnail', 'page-attributes', 'custom-fields', 'comments', 'revisions'];

/** A block-editor type: not viewable on its own, edited like posts. Plugins declare theirs with it too. */
export const editorType = (slug: string, name: string, singular: string, restBase = slug, icon: string | null = null): PostTypeInfo => ({
  slug, name, singular, description: '', hierarchical: false, hasArchive: false, icon, taxonomies: [], restBase, viewable: false, capType: 'post', supports: ['title', 'editor', 'revisions', 'custom-fields'],
});

/** The capabilities of the types only a theme editor may change (nav_menu_item, wp_navigation): every primitive one is edit_theme_options. */
const THEME_OPTIONS_CAPS: Readonly<Record<string, string>> = Object.fromEntries(
  ['edit_posts', 'edit_others_posts', 'edit_published_posts', 'edit_private_posts', 'delete_posts', 'delete_others_posts', 'delete_published_posts', 'delete_private_posts', 'publish_posts', 'read_private_posts', 'create_posts'].map((c) => [c, 'edit_theme_options']),
);

const CORE_POST_TYPES: readonly PostTypeInfo[] = [
  { slug: 'post', name: 'Posts', singular: 'Post', description: '', hierarchical: false, hasArchive: false, icon: 'dashicons-admin-post', taxonomies: ['category', 'post_tag'], restBase: 'posts', viewable: true, capType: 'post', supports: POST_SUPPORTS },
  { slug: 'page', name: 'Pages', singular: 'Page', description: '', hierarchical: true, hasArchive: false, icon: 'dashicons-admin-page', taxonomies: [], restBase: 'pages', viewable: true, capType: 'page', supports: PAGE_SUPPORTS },
  { slug: 'attachment', name: 'Media', singular: 'Media', description: '', hierarchical: false, hasArchive: false, icon: 'dashicons-admin-media', taxonomies: [], restBase: 'media', viewable: true, capType: 'post', supports: ['title', 'author', 'comments'] },
  { ...editorType('nav_menu_item', 'Navigation Menu Items', 'Navigation Menu Item', 'menu-items', 'dashicons-admin-post'), taxonomies: ['nav_menu'], capabilities: THEME_OPTIONS_CAPS, supports: ['title', 'editor'] },
  // wp_block: reading one in raw form takes edit_posts, creating one publish_posts; its other capabilities are the posts'
  { ...editorType('cms_block', 'Patterns', 'Pattern', 'blocks'), capabilities: { read: 'edit_posts', create_posts: 'publish_posts' }, supports: ['title', 'editor', 'revisions'], rawMarkup: true },
  // templates, template parts and global styles: every capability, reading included, is edit_theme_options
  { ...editorType('cms_template', 'Templates', 'Template', 'templates', 'dashicons-layout'), description: 'Templates to include in your theme.', capabilities: { ...THEME_OPTIONS_CAPS, read: 'edit_theme_options' } },
  { ...editorType('cms_template_part', 'Template Parts', 'Template Part', 'template-parts', 'dashicons-layout'), description: 'Template parts to include in your template.', capabilities: { ...THEME_OPTIONS_CAPS, read: 'edit_theme_options' } },
  { ...editorType('cms_global_styles', 'Global Styles', 'Global Styles', 'global-styles'), description: 'Global styles to include in themes.', capabilities: { ...THEME_OPTIONS_CAPS, read: 'edit_theme_options' } },
  { ...editorType('cms_navigation', 'Navigation Menus', 'Navigation Menu', 'navigation'), description: 'Navigation menus that can be inserted into your site.', capabilities: THEME_OPTIONS_CAPS, supports: ['title', 'editor', 'revisions'] },
  editorType('cms_font_family', 'Font Families', 'Font Family', 'font-families'),
  editorType('cms_font_face', 'Font Faces', 'Font Face', 'font-faces'),
];

const TERM_CAPS = { manage_terms: 'manage_categories', edit_terms: 'manage_categories', delete_terms: 'manage_categories', assign_terms: 'edit_posts' } as const;
const MENU_CAPS = { manage_terms: 'edit_theme_options', edit_terms: 'edit_theme_options', delete_terms: 'edit_theme_options', assign_terms: 'edit_theme_options' } as const;

const CORE_TAXONOMIES: readonly TaxonomyInfo[] = [
  { slug: 'category', name: 'Categories', singular: 'Category', description: '', hierarchical: true, types: ['post'], restBase: 'categories', archiveBase: 'category', plainVar: { name: 'cat', byId: true }, viewable: true, capabilities: TERM_CAPS },
  { slug: 'post_tag', name: 'Tags', singular: 'Tag', description: '', hierarchical: false, types: ['post'], restBase: 'tags', archiveBase: 'tag', plainVar: { name: 'tag', byId: false }, viewable: true, capabilities: TERM_CAPS },
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

/** The `capabilities` object of a post type in edit context (the WP_Post_Type cap map). */
export function capabilitiesOf(type: PostTypeInfo): Record<string, string> {
  const s = type.capType;
  return {
    edit_post: `edit_${s}`, read_post: `read_${s}`, delete_post: `delete_${s}`,
    edit_posts: `edit_${s}s`, edit_others_posts: `edit_others_${s}s`, delete_posts: `delete_${s}s`,
    publish_posts: `publish_${s}s`, read_private_posts: `read_private_${s}s`, read: 'read',
    delete_private_posts: `delete_private_${s}s`, delete_published_posts: `delete_published_${s}s`,
    delete_others_posts: `delete_others_${s}s`, edit_private_posts: `edit_private_${s}s`,
    edit_published_posts: `edit_published_${s}s`, create_posts: `edit_${s}s`,
    ...type.capabilities,
  };
}
