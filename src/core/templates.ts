import { ROLES } from '../auth/roles.ts';
import type { Store } from '../store/index.ts';
import type { PostRow } from '../store/posts.ts';
import { STYLESHEET, THEME_FILES, type ThemeFile } from './active-theme.ts';
import type { Site } from './site.ts';

/**
 * Block templates and template parts as WordPress 6.1 unifies them (block-template-utils.php):
 * the active theme's files, each overridden by a stored post of the same slug and theme (a
 * customised template), plus the site's own templates. Stored ones are posts of type
 * `cms_template` / `cms_template_part`; the theme they belong to (WordPress's `wp_theme` term) and
 * a part's area (`wp_template_part_area`) are kept in post meta.
 */

export type TemplateType = 'cms_template' | 'cms_template_part';

/** WP_Block_Template */
export interface BlockTemplate {
  /** `theme//slug` */
  id: string;
  theme: string;
  content: string;
  slug: string;
  source: 'theme' | 'custom';
  origin: string | null;
  type: TemplateType;
  description: string;
  title: string;
  status: string;
  /** The stored post, 0 for a theme file. */
  wpId: number;
  hasThemeFile: boolean;
  isCustom: boolean;
  author: number;
  area?: string;
  postTypes?: string[];
}

/** Post meta standing for WordPress's taxonomies and template meta. */
export const TEMPLATE_META = {
  theme: '_cms_theme',
  area: '_cms_template_part_area',
  origin: 'origin',
  suggestion: 'is_wp_suggestion',
} as const;

/** get_default_block_template_types (6.1): the template hierarchy's own templates, with their titles. */
const DEFAULT_TEMPLATE_TYPES: Readonly<Record<string, { title: string; description: string }>> = {
  index: { title: 'Index', description: 'Displays posts.' },
  home: { title: 'Home', description: 'Displays posts on the homepage, or on the Posts page if a static homepage is set.' },
  'front-page': { title: 'Front Page', description: 'Displays the homepage.' },
  singular: { title: 'Singular', description: 'Displays a single post or page.' },
  single: { title: 'Single', description: 'The default template for displaying any single post or attachment.' },
  page: { title: 'Page', description: 'Displays a single page.' },
  archive: { title: 'Archive', description: 'Displays post categories, tags, and other archives.' },
  author: { title: 'Author', description: 'Displays latest posts written by a single author.' },
  category: { title: 'Category', description: 'Displays latest posts from a single post category.' },
  taxonomy: { title: 'Taxonomy', description: 'Displays latest posts from a single post taxonomy.' },
  date: { title: 'Date', description: 'Displays posts from a specific date.' },
  tag: { title: 'Tag', description: 'Displays latest posts with a single post tag.' },
  attachment: { title: 'Media', description: 'Displays individual media items or attachments.' },
  search: { title: 'Search', description: 'Displays search results.' },
  'privacy-policy': { title: 'Privacy Policy', description: 'Displays the privacy policy page.' },
  '404': { title: '404', description: 'Displays when no content is found.' },
};

const filesOf = (type: TemplateType) => THEME_FILES[type === 'cms_template' ? 'templates' : 'parts'];

/** _get_block_template_file: the active theme's file of that slug. */
const themeFile = (type: TemplateType, slug: string): ThemeFile | undefined => filesOf(type).find((f) => f.slug === slug);

const TEMPLATE_PART_BLOCK = /<!--\s+wp:template-part\s+(\{[^]*?\})?\s*(\/)?-->/g;

/**
 * _inject_theme_attribute_in_block_template_content: every template-part block names the active
 * theme unless it names one already.
 */
function injectThemeAttribute(content: string): string {
  return content.replace(TEMPLATE_PART_BLOCK, (whole, json: string | undefined, selfClosing: string | undefined) => {
    let attrs: Record<string, unknown>;
    try {
      attrs = json ? JSON.parse(json) : {};
    } catch {
      return whole;
    }
    if (attrs.theme !== undefined) return whole;
    return `<!-- wp:template-part ${JSON.stringify({ ...attrs, theme: STYLESHEET })} ${selfClosing ? '/' : ''}-->`;
  });
}

/** _build_block_template_result_from_file */
function fromFile(file: ThemeFile, type: TemplateType): BlockTemplate {
  const t: BlockTemplate = {
    id: `${STYLESHEET}//${file.slug}`,
    theme: STYLESHEET,
    content: injectThemeAttribute(file.content),
    slug: file.slug,
    source: 'theme',
    origin: null,
    type,
    description: '',
    title: file.title || file.slug,
    status: 'publish',
    wpId: 0,
    hasThemeFile: true,
    isCustom: true,
    author: 0,
  };
  const known = DEFAULT_TEMPLATE_TYPES[file.slug];
  if (type === 'cms_template' && known) Object.assign(t, { title: known.title, description: known.description, isCustom: false });
  if (type === 'cms_template' && file.postTypes) t.postTypes = file.postTypes;
  if (type === 'cms_template_part' && file.area) t.area = file.area;
  return t;
}

type TemplateMeta = Partial<Record<(typeof TEMPLATE_META)[keyof typeof TEMPLATE_META], string>>;

/** _build_block_template_result_from_post; null for a post that names no theme (template_missing_theme). */
function fromPost(post: PostRow, meta: TemplateMeta): BlockTemplate | null {
  const theme = meta[TEMPLATE_META.theme];
  if (!theme) return null;
  const type = post.type as TemplateType;
  const file = themeFile(type, post.slug);
  const hasThemeFile = theme === STYLESHEET && file !== undefined;
  const t: BlockTemplate = {
    id: `${theme}//${post.slug}`,
    theme,
    content: post.content,
    slug: post.slug,
    source: 'custom',
    origin: meta[TEMPLATE_META.origin] || null,
    type,
    description: post.excerpt,
    title: post.title,
    status: post.status,
    wpId: post.id,
    hasThemeFile,
    isCustom: !meta[TEMPLATE_META.suggestion],
    author: post.author,
  };
  if (type === 'cms_template' && hasThemeFile && file.postTypes) t.postTypes = file.postTypes;
  if (type === 'cms_template' && DEFAULT_TEMPLATE_TYPES[post.slug]) t.isCustom = false;
  if (type === 'cms_template_part' && meta[TEMPLATE_META.area]) t.area = meta[TEMPLATE_META.area];
  return t;
}

const META_KEYS = Object.values(TEMPLATE_META);

/** A template a site names for one post, term or author gets its title from it. */
const SPECIFIC_TEMPLATE = /(author|page|single|tag|category|taxonomy)-(.+)/;

/** The title and description of a post-specific template (_wp_build_title_and_description_for_single_post_type_block_template). */
async function titleForPost(store: Store, site: Site, postType: string, slug: string, t: BlockTemplate): Promise<boolean> {
  const singular = site.types.postType(postType)?.singular ?? postType;
  const [post] = (await store.posts.query({ types: [postType], statuses: ['publish'], slugs: [slug], offset: 0, limit: 1 })).rows;
  if (!post) {
    t.title = `Not found: ${singular} (${slug})`;
    return false;
  }
  t.title = `${singular}: ${post.title}`;
  t.description = `Template for ${post.title}`;
  const sameTitle = await store.posts.query({ types: [postType], statuses: ['publish'], titles: [post.title], offset: 0, limit: 2 });
  if (sameTitle.total > 1) t.title = `${t.title} (${slug})`;
  return true;
}

/** The title and description of a term-specific template (_wp_build_title_and_description_for_taxonomy_block_template). */
async function titleForTerm(store: Store, site: Site, taxonomy: string, slug: string, t: BlockTemplate): Promise<boolean> {
  const singular = site.types.taxonomy(taxonomy)?.singular ?? taxonomy;
  const [term] = (await store.terms.query({ taxonomy, slugs: [slug], offset: 0, limit: 1 })).rows;
  if (!term) {
    t.title = `Not found: ${singular} (${slug})`;
    return false;
  }
  t.title = `${singular}: ${term.name}`;
  t.description = `Template for ${term.name}`;
  // terms of the same name: the search narrows, the exact comparison decides
  const named = await store.terms.query({ taxonomy, search: term.name, offset: 0, limit: Number.MAX_SAFE_INTEGER });
  if (named.rows.filter((r) => r.name === term.name).length > 1) t.title = `${t.title} (${slug})`;
  return true;
}

/** The title and description of an author's template, from the authors who can edit posts. */
async function titleForAuthor(store: Store, site: Site, nicename: string, t: BlockTemplate): Promise<void> {
  const roles = ROLES.filter((r) => site.roles.capabilitiesOf(r).has('edit_posts'));
  const authors = (await store.users.list({ roles, slugs: [nicename], offset: 0, limit: 1 })).rows;
  if (!authors.length) {
    t.title = `Deleted author: ${nicename}`;
    return;
  }
  const name = authors[0].display_name;
  t.title = `Author: ${name}`;
  t.description = `Template for ${name}`;
  const sameName = await store.users.list({ roles, search: name, searchColumns: ['display_name'], offset: 0, limit: 2 });
  if (sameName.total > 1) t.title = `${t.title} (${nicename})`;
}

/**
 * _build_block_template_result_from_post's naming of a template made for one page, post, term or
 * author (`page-about`, `single-post-hello`, `category-news`, `author-jane`) that has neither a
 * description nor a title of its own.
 */
async function nameSpecificTemplate(store: Store, site: Site, t: BlockTemplate): Promise<void> {
  if (t.type !== 'cms_template' || t.description || (t.title && t.title !== t.slug)) return;
  const m = SPECIFIC_TEMPLATE.exec(t.slug);
  if (!m) return;
  const [, kind, rest] = m;
  if (kind === 'author') await titleForAuthor(store, site, rest, t);
  else if (kind === 'page') await titleForPost(store, site, 'page', rest, t);
  else if (kind === 'tag') await titleForTerm(store, site, 'post_tag', rest, t);
  else if (kind === 'category') await titleForTerm(store, site, 'category', rest, t);
  else {
    // single-{type}-{slug}, taxonomy-{taxonomy}-{slug}: the first registered type or taxonomy the rest starts with and that names something
    const names = kind === 'single' ? site.types.postTypes.map((p) => p.slug) : site.types.taxonomies.map((x) => x.slug);
    for (const name of names) {
      if (!rest.startsWith(`${name}-`)) continue;
      const slug = rest.slice(name.length + 1);
      if (kind === 'single' ? await titleForPost(store, site, name, slug, t) : await titleForTerm(store, site, name, slug, t)) break;
    }
  }
}

/** Stored templates of a type, newest first (WP_Query's default order), as template objects of the given theme. */
async function storedTemplates(store: Store, site: Site, type: TemplateType, theme: string, statuses: string[], filter: { ids?: number[]; slugs?: string[] } = {}): Promise<BlockTemplate[]> {
  const rows = await store.posts.list({
    types: [type],
    statuses,
    include: filter.ids,
    slugs: filter.slugs,
    orderby: 'date',
    order: 'desc',
    offset: 0,
    limit: Number.MAX_SAFE_INTEGER,
  });
  const meta = await store.posts.meta.ofMany(rows.map((r) => r.id), META_KEYS);
  const templates = rows.flatMap((r) => {
    const t = meta.get(r.id)?.[TEMPLATE_META.theme] === theme ? fromPost(r, meta.get(r.id)!) : null;
    return t ? [t] : [];
  });
  for (const t of templates) await nameSpecificTemplate(store, site, t);
  return templates;
}

export interface TemplateQuery {
  wpId?: number;
  area?: string;
  postType?: string;
  slugs?: string[];
}

/**
 * get_block_templates: the active theme's stored templates (published ones; any but trashed when
 * asked by id), then its files that no stored template overrides. A query by post type keeps
 * only custom templates meant for it.
 */
export async function queryTemplates(store: Store, site: Site, type: TemplateType, q: TemplateQuery = {}): Promise<BlockTemplate[]> {
  const fits = (t: BlockTemplate) => !(q.postType && (!t.isCustom || (t.postTypes && !t.postTypes.includes(q.postType))));
  const statuses = q.wpId !== undefined ? ['auto-draft', 'draft', 'publish'] : ['publish'];
  let stored = await storedTemplates(store, site, type, STYLESHEET, statuses, { ids: q.wpId !== undefined ? [q.wpId] : undefined, slugs: q.slugs });
  if (type === 'cms_template_part' && q.area !== undefined) stored = stored.filter((t) => t.area === q.area);
  const result = stored.filter(fits);
  if (q.wpId !== undefined) return result;
  const customised = new Set(result.map((t) => t.id));
  for (const file of filesOf(type)) {
    const t = fromFile(file, type);
    if (!fits(t) || customised.has(t.id)) continue;
    if (q.slugs && !q.slugs.includes(file.slug)) continue;
    if (q.area !== undefined && file.area !== q.area) continue;
    result.push(t);
  }
  return result;
}

/** Splits `theme//slug`; null when the id has no `//`. */
function splitId(id: string): [string, string] | null {
  const at = id.indexOf('//');
  return at < 0 ? null : [id.slice(0, at), id.slice(at + 2)];
}

/** get_block_file_template: the active theme's file the id names. */
export function fileTemplate(type: TemplateType, id: string): BlockTemplate | null {
  const parts = splitId(id);
  if (!parts || parts[0] !== STYLESHEET) return null;
  const file = themeFile(type, parts[1]);
  return file ? fromFile(file, type) : null;
}

/** get_block_template: the stored template of that theme and slug (trashed ones too), else the theme's file. */
export async function findTemplate(store: Store, site: Site, type: TemplateType, id: string): Promise<BlockTemplate | null> {
  const parts = splitId(id);
  if (!parts) return null;
  const [theme, slug] = parts;
  if (slug) {
    const [stored] = await storedTemplates(store, site, type, theme, ['auto-draft', 'draft', 'publish', 'trash'], { slugs: [slug] });
    if (stored) return stored;
  }
  return fileTemplate(type, id);
}

/** get_template_hierarchy (6.1): the templates that can show a template slug, most specific first, `index` last. */
export function templateHierarchy(slug: string, isCustom = false, prefix = ''): string[] {
  if (slug === 'index') return ['index'];
  if (isCustom) return ['page', 'singular', 'index'];
  if (slug === 'front-page') return ['front-page', 'home', 'index'];
  const hierarchy = [slug];
  if (prefix) {
    const [kind] = prefix.split('-');
    if (prefix !== slug && prefix !== kind) hierarchy.push(prefix);
    if (slug !== kind) hierarchy.push(kind);
  }
  if (['author', 'taxonomy', 'category', 'tag'].some((p) => slug.startsWith(p)) || slug === 'date') hierarchy.push('archive');
  if (slug === 'attachment') hierarchy.push('single');
  if (slug.startsWith('single') || slug.startsWith('page') || slug === 'attachment') hierarchy.push('singular');
  hierarchy.push('index');
  return hierarchy;
}

/** resolve_block_template: the first template of the hierarchy the theme or the site has. */
export async function resolveTemplate(store: Store, site: Site, hierarchy: string[]): Promise<BlockTemplate | null> {
  const found = await queryTemplates(store, site, 'cms_template', { slugs: hierarchy });
  // a slug's place in the hierarchy is its priority
  const rank = (t: BlockTemplate) => hierarchy.indexOf(t.slug);
  return found.sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

/**
 * The published template part the site shows for a slug of the active theme (the template-part
 * block's query: published posts only), or null while the theme's own file is in use.
 */
export async function storedPart(store: Store, site: Site, slug: string): Promise<BlockTemplate | null> {
  const [t] = await storedTemplates(store, site, 'cms_template_part', STYLESHEET, ['publish'], { slugs: [slug] });
  return t ?? null;
}
