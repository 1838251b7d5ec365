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
  supports: string[];
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
}

const POST_SUPPORTS = ['title', 'editor', 'author', 'thumbnail', 'excerpt', 'trackbacks', 'custom-fields', 'comments', 'revisions', 'post-formats'];
const PAGE_SUPPORTS = ['title', 'editor', 'author', 'thumbnail', 'page-attributes', 'custom-fields', 'comments', 'revisions'];

/** A block-editor type: not viewable on its own, edited like posts. Plugins declare theirs with it too. */
export const editorType = (slug: string, name: string, singular: string, restBase = slug, icon: string | null = null): PostTypeInfo => ({
  slug, name, singular, description: '', hierarchical: false, hasArchive: false, icon, taxonomies: [], restBase, viewable: false, capType: 'post', supports: ['title', 'editor', 'revisions'],
});

const CORE_POST_TYPES: readonly PostTypeInfo[] = [
  { slug: 'post', name: 'Posts', singular: 'Post', description: '', hierarchical: false, hasArchive: false, icon: 'dashicons-admin-post', taxonomies: ['category', 'post_tag'], restBase: 'posts', viewable: true, capType: 'post', supports: POST_SUPPORTS },
  { slug: 'page', name: 'Pages', singular: 'Page', description: '', hierarchical: true, hasArchive: false, icon: 'dashicons-admin-page', taxonomies: [], restBase: 'pages', viewable: true, capType: 'page', supports: PAGE_SUPPORTS },
  { slug: 'attachment', name: 'Media', singular: 'Media', description: '', hierarchical: false, hasArchive: false, icon: 'dashicons-admin-media', taxonomies: [], restBase: 'media', viewable: true, capType: 'post', supports: ['title', 'author', 'comments'] },
  editorType('nav_menu_item', 'Navigation Menu Items', 'Navigation Menu Item', 'menu-items', 'dashicons-admin-post'),
  editorType('cms_block', 'Patterns', 'Pattern', 'blocks'),
  editorType('cms_template', 'Templates', 'Template', 'templates', 'dashicons-layout'),
  editorType('cms_template_part', 'Template Parts', 'Template Part', 'template-parts', 'dashicons-layout'),
  editorType('cms_global_styles', 'Global Styles', 'Global Styles', 'global-styles'),
  editorType('cms_navigation', 'Navigation Menus', 'Navigation Menu', 'navigation'),
  editorType('cms_font_family', 'Font Families', 'Font Family', 'font-families'),
  editorType('cms_font_face', 'Font Faces', 'Font Face', 'font-faces'),
];

const CORE_TAXONOMIES: readonly TaxonomyInfo[] = [
  { slug: 'category', name: 'Categories', singular: 'Category', description: '', hierarchical: true, types: ['post'], restBase: 'categories', archiveBase: 'category', plainVar: { name: 'cat', byId: true } },
  { slug: 'post_tag', name: 'Tags', singular: 'Tag', description: '', hierarchical: false, types: ['post'], restBase: 'tags', archiveBase: 'tag', plainVar: { name: 'tag', byId: false } },
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
  return action.replace(/posts$/, `${type.capType}s`);
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
  };
}
