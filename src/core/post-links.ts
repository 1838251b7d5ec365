import { cap, type PostTypeInfo } from './content-types.ts';
import type { Ctx } from './context.ts';
import type { Context } from './rest.ts';

/**
 * get_available_actions: in edit context, a link to the post itself for each thing the user may
 * do to it, which the block editor reads to show or hide its controls.
 */
export function availableActions(ctx: Ctx, type: PostTypeInfo, context: Context): string[] {
  if (context !== 'edit') return [];
  const rels: string[] = [];
  if (type.slug !== 'attachment' && ctx.can(cap(type, 'publish_posts'))) rels.push('wp:action-publish');
  if (ctx.can('unfiltered_html')) rels.push('wp:action-unfiltered-html');
  if (type.slug === 'post' && ctx.can(cap(type, 'edit_others_posts')) && ctx.can(cap(type, 'publish_posts'))) rels.push('wp:action-sticky');
  if (type.supports.includes('author') && ctx.can(cap(type, 'edit_others_posts'))) rels.push('wp:action-assign-author');
  for (const slug of type.taxonomies) {
    const tax = ctx.site.types.taxonomy(slug);
    if (!tax) continue;
    // a flat taxonomy's new terms come with assigning them (a tag typed in), a hierarchical one's need edit_terms
    if (ctx.can(tax.hierarchical ? tax.capabilities.edit_terms : tax.capabilities.assign_terms)) rels.push(`wp:action-create-${tax.restBase}`);
    if (ctx.can(tax.capabilities.assign_terms)) rels.push(`wp:action-assign-${tax.restBase}`);
  }
  return rels;
}
