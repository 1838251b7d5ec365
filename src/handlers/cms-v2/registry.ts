/**
 * The registered post types and taxonomies (register_post_type / register_taxonomy), as data:
 * WordPress's own types plus the ones the plugins behind the disguised namespaces register
 * (the interface's ktp/v1 post-select default list).
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

/** A plugin's block-editor type: not viewable on its own, edited like posts. */
const pluginType = (slug: string, name: string, singular: string, restBase = slug, icon: string | null = null): PostTypeInfo => ({
  slug, name, singular, description: '', hierarchical: false, hasArchive: false, icon, taxonomies: [], restBase, viewable: false, capType: 'post', supports: ['title', 'editor', 'revisions'],
});

export const POST_TYPES: readonly PostTypeInfo[] = [
  { slug: 'post', name: 'Posts', singular: 'Post', description: '', hierarchical: false, hasArchive: false, icon: 'dashicons-admin-post', taxonomies: ['category', 'post_tag'], restBase: 'posts', viewable: true, capType: 'post', supports: POST_SUPPORTS },
  { slug: 'page', name: 'Pages', singular: 'Page', description: '', hierarchical: true, hasArchive: false, icon: 'dashicons-admin-page', taxonomies: [], restBase: 'pages', viewable: true, capType: 'page', supports: PAGE_SUPPORTS },
  { slug: 'attachment', name: 'Media', singular: 'Media', description: '', hierarchical: false, hasArchive: false, icon: 'dashicons-admin-media', taxonomies: [], restBase: 'media', viewable: true, capType: 'post', supports: ['title', 'author', 'comments'] },
  pluginType('nav_menu_item', 'Navigation Menu Items', 'Navigation Menu Item', 'menu-items', 'dashicons-admin-post'),
  pluginType('cms_block', 'Patterns', 'Pattern', 'blocks'),
  pluginType('cms_template', 'Templates', 'Template', 'templates', 'dashicons-layout'),
  pluginType('cms_template_part', 'Template Parts', 'Template Part', 'template-parts', 'dashicons-layout'),
  pluginType('cms_global_styles', 'Global Styles', 'Global Styles', 'global-styles'),
  pluginType('cms_navigation', 'Navigation Menus', 'Navigation Menu', 'navigation'),
  pluginType('cms_font_family', 'Font Families', 'Font Family', 'font-families'),
  pluginType('cms_font_face', 'Font Faces', 'Font Face', 'font-faces'),
  pluginType('designkit_form', 'Forms', 'Form'),
  pluginType('designkit_navigation', 'Navigations', 'Navigation'),
  pluginType('designkit_header', 'Headers', 'Header'),
  pluginType('designkit_custom_svg', 'Custom SVGs', 'Custom SVG'),
  pluginType('designkit_query', 'Queries', 'Query'),
  pluginType('designkit_query_card', 'Query Cards', 'Query Card'),
  pluginType('designkit_lottie', 'Lottie Animations', 'Lottie Animation'),
  pluginType('designkit_vector', 'Vectors', 'Vector'),
  pluginType('kb_icon', 'Icons', 'Icon'),
];

export const TAXONOMIES: readonly TaxonomyInfo[] = [
  { slug: 'category', name: 'Categories', singular: 'Category', description: '', hierarchical: true, types: ['post'], restBase: 'categories', archiveBase: 'category', plainVar: { name: 'cat', byId: true } },
  { slug: 'post_tag', name: 'Tags', singular: 'Tag', description: '', hierarchical: false, types: ['post'], restBase: 'tags', archiveBase: 'tag', plainVar: { name: 'tag', byId: false } },
];

const TYPE_BY_SLUG = new Map(POST_TYPES.map((t) => [t.slug, t]));
const TYPE_BY_BASE = new Map(POST_TYPES.map((t) => [t.restBase, t]));
const TAX_BY_SLUG = new Map(TAXONOMIES.map((t) => [t.slug, t]));
const TAX_BY_BASE = new Map(TAXONOMIES.map((t) => [t.restBase, t]));

export const postType = (slug: string) => TYPE_BY_SLUG.get(slug);
export const taxonomy = (slug: string) => TAX_BY_SLUG.get(slug);

/** The post type a route serves, from its first segment after the namespace (`/cms/v2/pages/5` → page). */
export function typeOfRoute(route: string): PostTypeInfo {
  const t = TYPE_BY_BASE.get(route.split('/')[3] ?? '');
  if (!t) throw new Error(`no post type serves route ${route}`);
  return t;
}

export function taxonomyOfRoute(route: string): TaxonomyInfo {
  const t = TAX_BY_BASE.get(route.split('/')[3] ?? '');
  if (!t) throw new Error(`no taxonomy serves route ${route}`);
  return t;
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
