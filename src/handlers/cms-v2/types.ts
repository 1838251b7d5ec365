import { RestError } from '../../engine/errors.ts';
import type { Ctx } from '../../core/context.ts';
import { cap, capabilitiesOf, type PostTypeInfo, type TaxonomyInfo } from '../../core/content-types.ts';
import { contextOf, CURIES, denied, NS, nsUrl, pick, type Context } from '../../core/rest.ts';

const TYPE_FIELDS: Record<Context, string[]> = {
  view: ['description', 'hierarchical', 'has_archive', 'name', 'slug', 'icon', 'taxonomies', 'rest_base', 'rest_namespace'],
  edit: ['capabilities', 'description', 'hierarchical', 'has_archive', 'viewable', 'labels', 'name', 'slug', 'supports', 'icon', 'taxonomies', 'rest_base', 'rest_namespace', 'visibility'],
  embed: ['description', 'name', 'slug', 'icon', 'rest_base', 'rest_namespace'],
};
const TAX_FIELDS: Record<Context, string[]> = {
  view: ['description', 'hierarchical', 'name', 'slug', 'types', 'rest_base', 'rest_namespace'],
  edit: ['capabilities', 'description', 'hierarchical', 'labels', 'name', 'slug', 'show_cloud', 'types', 'rest_base', 'rest_namespace', 'visibility'],
  embed: ['name', 'slug', 'rest_base', 'rest_namespace'],
};

function prepareType(ctx: Ctx, t: PostTypeInfo, context: Context): Record<string, unknown> {
  const data: Record<string, unknown> = {
    capabilities: capabilitiesOf(t),
    description: t.description,
    hierarchical: t.hierarchical,
    has_archive: t.hasArchive,
    viewable: t.viewable,
    labels: { name: t.name, singular_name: t.singular, add_new: 'Add New', add_new_item: `Add New ${t.singular}`, edit_item: `Edit ${t.singular}`, all_items: `All ${t.name}` },
    name: t.name,
    slug: t.slug,
    supports: Object.fromEntries(t.supports.map((s) => [s, true])),
    icon: t.icon,
    taxonomies: t.taxonomies,
    rest_base: t.restBase,
    rest_namespace: NS,
    visibility: { show_in_nav_menus: t.viewable, show_ui: true },
  };
  const out = pick(data, TYPE_FIELDS[context]);
  out._links = { collection: [{ href: nsUrl(ctx, 'types') }], 'wp:items': [{ href: nsUrl(ctx, t.restBase) }], curies: CURIES };
  return out;
}

function prepareTaxonomy(ctx: Ctx, t: TaxonomyInfo, context: Context): Record<string, unknown> {
  const data: Record<string, unknown> = {
    capabilities: t.capabilities,
    description: t.description,
    hierarchical: t.hierarchical,
    labels: { name: t.name, singular_name: t.singular, all_items: `All ${t.name}`, edit_item: `Edit ${t.singular}`, add_new_item: `Add New ${t.singular}` },
    name: t.name,
    slug: t.slug,
    // show_tagcloud follows show_ui, which only the viewable taxonomies have here
    show_cloud: t.viewable && !t.hierarchical,
    types: t.types,
    rest_base: t.restBase,
    rest_namespace: NS,
    visibility: { public: t.viewable, publicly_queryable: t.viewable, show_admin_column: t.viewable, show_in_nav_menus: t.viewable, show_in_quick_edit: t.viewable, show_ui: t.viewable },
  };
  const out = pick(data, TAX_FIELDS[context]);
  out._links = { collection: [{ href: nsUrl(ctx, 'taxonomies') }], 'wp:items': [{ href: nsUrl(ctx, t.restBase) }], curies: CURIES };
  return out;
}

/** In edit context WordPress lists only the types the user may edit. */
export function listTypes(ctx: Ctx) {
  const context = contextOf(ctx);
  const out: Record<string, unknown> = {};
  for (const t of ctx.site.types.postTypes) if (context !== 'edit' || ctx.can(cap(t, 'edit_posts'))) out[t.slug] = prepareType(ctx, t, context);
  return out;
}

export function getType(ctx: Ctx) {
  const t = ctx.site.types.postType(String(ctx.args.type));
  if (!t) throw new RestError('rest_type_invalid', 'Invalid post type.', 404);
  const context = contextOf(ctx);
  if (context === 'edit' && !ctx.can(cap(t, 'edit_posts'))) throw denied(ctx, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.');
  return prepareType(ctx, t, context);
}

/** In edit context WordPress lists only the taxonomies whose terms the user may assign, and refuses when there is none. */
export function listTaxonomies(ctx: Ctx) {
  const context = contextOf(ctx);
  const forType = typeof ctx.args.type === 'string' ? ctx.args.type : undefined;
  const listed = ctx.site.types.taxonomies.filter((t) => (!forType || t.types.includes(forType)) && (context !== 'edit' || ctx.can(t.capabilities.assign_terms)));
  if (context === 'edit' && !listed.length)
    throw denied(ctx, 'rest_cannot_view', 'Sorry, you are not allowed to manage terms in this taxonomy.');
  const out: Record<string, unknown> = {};
  for (const t of listed) out[t.slug] = prepareTaxonomy(ctx, t, context);
  return out;
}

export function getTaxonomy(ctx: Ctx) {
  const t = ctx.site.types.taxonomy(String(ctx.args.taxonomy));
  if (!t) throw new RestError('rest_taxonomy_invalid', 'Invalid taxonomy.', 404);
  const context = contextOf(ctx);
  if (context === 'edit' && !ctx.can(t.capabilities.assign_terms)) throw denied(ctx, 'rest_forbidden_context', 'Sorry, you are not allowed to manage terms in this taxonomy.');
  return prepareTaxonomy(ctx, t, context);
}
