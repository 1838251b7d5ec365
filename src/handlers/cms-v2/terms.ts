import { missingObject, RestError, RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { kses } from '../../format/kses.ts';
import type { Store } from '../../store/index.ts';
import type { TermPatch, TermRow } from '../../store/terms.ts';
import { sanitizeSlug } from '../../store/transact.ts';
import type { TaxonomyInfo } from '../../core/content-types.ts';
import { checkListContext, queryTermsOfRoute } from '../../core/term-list.ts';
import { contentChanged } from '../../core/events.ts';
import { termLink } from '../../core/permalinks.ts';
import { addRestFields } from '../../core/rest-fields.ts';
import { answerFragments } from '../../core/answer-fragments.ts';
import { collection, contextOf, CURIES, denied, nsUrl, pick, routeTaxonomy, type Context } from '../../core/rest.ts';

const HIERARCHICAL_FIELDS = ['id', 'count', 'description', 'link', 'name', 'slug', 'taxonomy', 'parent', 'meta'];
const FLAT_FIELDS = ['id', 'count', 'description', 'link', 'name', 'slug', 'taxonomy', 'meta'];
const EMBED_FIELDS = ['id', 'link', 'name', 'slug', 'taxonomy'];


async function prepareTerm(ctx: Ctx, tax: TaxonomyInfo, term: TermRow, context: Context): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {
    id: term.id,
    count: term.count,
    description: term.description,
    link: await termLink(ctx.store, ctx.site, tax, term),
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
    parent: term.parent,
    // no term meta is registered for the API
    meta: [],
  };
  const out = pick(data, context === 'embed' ? EMBED_FIELDS : tax.hierarchical ? HIERARCHICAL_FIELDS : FLAT_FIELDS);
  await addRestFields(ctx, { kind: 'term', term, taxonomy: tax }, out);
  const links: Record<string, unknown> = {
    self: [{ href: nsUrl(ctx, `${tax.restBase}/${term.id}`) }],
    collection: [{ href: nsUrl(ctx, tax.restBase) }],
    about: [{ href: nsUrl(ctx, `taxonomies/${tax.slug}`) }],
  };
  if (tax.hierarchical && term.parent) links.up = [{ embeddable: true, href: nsUrl(ctx, `${tax.restBase}/${term.parent}`) }];
  links['wp:post_type'] = tax.types.map((t) => ({ href: nsUrl(ctx, `${ctx.site.types.postType(t)?.restBase ?? t}?${tax.restBase}=${term.id}`) }));
  links.curies = CURIES;
  out._links = links;
  return out;
}

/** The term the route's id names, of the route's taxonomy; `lock` for a read that a write in the same transaction follows (TermsRepo.get). */
async function termOfRoute(ctx: Ctx, tax: TaxonomyInfo, store: Store = ctx.store, lock = false): Promise<TermRow> {
  const term = await store.terms.get(Number(ctx.args.id), lock);
  if (!term || term.taxonomy !== tax.slug) throw missingObject(ctx.fail('rest_term_invalid'));
  return term;
}

export async function listTerms(ctx: Ctx<'cms-v2:terms.listTerms'>) {
  const tax = routeTaxonomy(ctx);
  const context = contextOf(ctx);
  checkListContext(ctx, tax);
  const parent = tax.hierarchical && typeof ctx.args.parent === 'number' ? ctx.args.parent : undefined;
  const { rows, total, page } = await queryTermsOfRoute(ctx, tax, { parent });
  if (ctx.request.head) return collection(ctx, [], total, page);
  return collection(ctx, await answerFragments(ctx.site).list(ctx, rows, (term) => termFragment(tax, term, context), (term) => prepareTerm(ctx, tax, term, context)), total, page);
}

/** What names a term's object among an answer's fragments. */
const termFragment = (tax: TaxonomyInfo, term: TermRow, context: Context) => `term ${tax.slug} ${term.id} ${context}`;

export async function getTerm(ctx: Ctx<'cms-v2:terms.getTerm'>) {
  const tax = routeTaxonomy(ctx);
  const term = await termOfRoute(ctx, tax);
  const context = contextOf(ctx);
  if (context === 'edit' && !ctx.can('manage_categories')) throw denied(ctx, 'rest_forbidden_context', { action: 'edit this term' });
  return new RestResponse(await answerFragments(ctx.site).fragment(ctx, termFragment(tax, term, context), () => prepareTerm(ctx, tax, term, context)));
}

/** name/slug/description/parent of a create or update, checked as wp_insert_term / wp_update_term check them. */
async function termFieldsOf(ctx: Ctx, tax: TaxonomyInfo, store: Store, current?: TermRow): Promise<TermPatch> {
  const a = ctx.args;
  const f: TermPatch = {};
  if (typeof a.name === 'string') {
    if (!a.name.trim()) throw ctx.fail('empty_term_name');
    f.name = a.name.trim();
  }
  // pre_term_description's wp_filter_kses, for callers without unfiltered_html
  if (typeof a.description === 'string') f.description = ctx.can('unfiltered_html') ? a.description : await kses(a.description, 'data');
  if (typeof a.parent === 'number' && tax.hierarchical) {
    if (a.parent !== 0) {
      const parent = await store.terms.get(a.parent);
      if (!parent || parent.taxonomy !== tax.slug || parent.id === current?.id) throw new RestError('rest_term_invalid', 'Parent term does not exist.', 400);
    }
    f.parent = a.parent;
  }
  if (typeof a.slug === 'string' && a.slug !== '') {
    const slug = sanitizeSlug(a.slug);
    // wp_update_term refuses a slug another term holds; wp_insert_term makes it unique instead
    const holder = current && (await store.terms.bySlug(tax.slug, slug));
    if (holder && holder.id !== current.id) throw ctx.fail('duplicate_term_slug', { slug });
    f.slug = slug;
  }
  return f;
}

/**
 * wp_insert_term's term_exists: a term of the same name (under the same parent) is refused unless
 * the request names a different slug nobody holds. The REST controller hands the existing term's
 * id back in `data.term_id`; its two earlier add_data calls on the code show as `additional_data`.
 */
async function refuseExisting(ctx: Ctx, store: Store, tax: TaxonomyInfo, name: string, slug: string | undefined, parent: number): Promise<void> {
  const nameMatch = await store.terms.byName(tax.slug, name, tax.hierarchical ? parent : 0);
  if (!nameMatch) return;
  const slugMatch = slug === undefined ? undefined : await store.terms.bySlug(tax.slug, slug);
  if (slug !== undefined && nameMatch.slug !== slug && !slugMatch) return;
  let existing: TermRow | undefined = nameMatch;
  if (tax.hierarchical && slug !== undefined && nameMatch.slug !== slug) existing = slugMatch?.parent === parent ? slugMatch : undefined;
  if (!existing) return;
  const error = ctx.fail('term_exists', { where: tax.hierarchical ? 'with this parent' : 'in this taxonomy' }, { term_id: existing.id });
  error.additionalData = [existing.id, existing.id];
  throw error;
}

export async function createTerm(ctx: Ctx<'cms-v2:terms.createTerm'>) {
  const tax = routeTaxonomy(ctx);
  const term = await ctx.store.transaction(async (store) => {
    const f = await termFieldsOf(ctx, tax, store);
    const name = f.name ?? '';
    await refuseExisting(ctx, store, tax, name, f.slug, f.parent ?? 0);
    const id = await store.terms.insert({ taxonomy: tax.slug, name, slug: f.slug, description: f.description, parent: f.parent });
    return (await store.terms.get(id))!;
  });
  await contentChanged(ctx, { type: 'termSaved', termId: term.id, taxonomy: tax.slug });
  return new RestResponse(await prepareTerm(ctx, tax, term, 'edit'), 201, { Location: nsUrl(ctx, `${tax.restBase}/${term.id}`) });
}

export async function updateTerm(ctx: Ctx<'cms-v2:terms.updateTerm'>) {
  const tax = routeTaxonomy(ctx);
  const term = await ctx.store.transaction(async (store) => {
    const current = await termOfRoute(ctx, tax, store, true);
    const f = await termFieldsOf(ctx, tax, store, current);
    if (Object.keys(f).length) await store.terms.update(current.id, f);
    return (await store.terms.get(current.id))!;
  });
  await contentChanged(ctx, { type: 'termSaved', termId: term.id, taxonomy: tax.slug });
  return prepareTerm(ctx, tax, term, 'edit');
}

export async function deleteTerm(ctx: Ctx<'cms-v2:terms.deleteTerm'>) {
  const tax = routeTaxonomy(ctx);
  const term = await termOfRoute(ctx, tax);
  // map_meta_cap: nobody may delete the default category (the permission check, before delete_item looks at force)
  if (tax.slug === 'category' && term.id === Number(ctx.site.options.default_category ?? (await ctx.store.options.get('default_category')) ?? 1))
    throw denied(ctx, 'rest_cannot_delete', { action: 'delete this term' });
  if (ctx.args.force !== true) throw new RestError('rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.", 501);
  const previous = await prepareTerm(ctx, tax, term, 'edit');
  await ctx.store.terms.delete(term.id);
  await contentChanged(ctx, { type: 'termDeleted', termId: term.id, taxonomy: tax.slug });
  return { deleted: true, previous };
}
