import type { Ctx } from '../../core/context.ts';
import type { BlockPattern } from '../../core/blocks.ts';
import { editsSomeType } from '../../core/editor-access.ts';
import { denied } from '../../core/rest.ts';

/** WP_REST_Block_Patterns_Controller and WP_REST_Block_Pattern_Categories_Controller (6.1). */

/** The pattern's registered properties under their REST names, in the controller's order; unset ones are left out, as WordPress does. */
function prepare(p: BlockPattern): Record<string, unknown> {
  const fields: [string, unknown][] = [
    ['name', p.name],
    ['title', p.title],
    ['description', p.description],
    ['viewport_width', p.viewportWidth],
    ['block_types', p.blockTypes],
    ['post_types', p.postTypes],
    ['categories', p.categories],
    ['keywords', p.keywords],
    ['content', p.content],
    ['inserter', p.inserter],
  ];
  return Object.fromEntries(fields.filter(([, v]) => v !== undefined));
}

/** GET block-patterns/patterns. */
/** get_items_permissions_check of both routes: edit_posts of some post type. */
export function mayListPatterns(ctx: Ctx): void {
  if (!editsSomeType(ctx)) throw denied(ctx, 'rest_cannot_view', { action: 'view the registered block patterns' });
}

export function mayListPatternCategories(ctx: Ctx): void {
  if (!editsSomeType(ctx)) throw denied(ctx, 'rest_cannot_view', { action: 'view the registered block pattern categories' });
}

export function listPatterns(ctx: Ctx<'cms-v2:block-patterns.listPatterns'>) {
  return ctx.site.blocks.patterns.map(prepare);
}

/** GET block-patterns/categories. */
export function listPatternCategories(ctx: Ctx<'cms-v2:block-patterns.listPatternCategories'>) {
  return ctx.site.blocks.patternCategories.map((c) => ({ name: c.name, label: c.label }));
}
