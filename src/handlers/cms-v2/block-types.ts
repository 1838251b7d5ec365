import type { Ctx } from '../../core/context.ts';
import type { BlockRegistry, BlockTypeDefinition } from '../../core/blocks.ts';
import { editsSomeType } from '../../core/editor-access.ts';
import { CURIES, denied, nsUrl } from '../../core/rest.ts';

/** WP_REST_Block_Types_Controller (6.1): the registered block types, each in its schema's field order. */

const cannotView = (ctx: Ctx) => denied(ctx, 'rest_block_type_cannot_view');

/** The first handle of a list, as the deprecated single-handle fields show it; null when there is none. */
const first = (handles: readonly string[] | undefined) => handles?.[0] ?? null;

/**
 * prepare_item_for_response: every field in the controller's order, an unset one as its schema's
 * default (an empty `provides_context` or `supports` is PHP's empty array, `[]`), with the links
 * to the collection, itself, its namespace, and the block renderer for a dynamic block.
 */
async function prepare(ctx: Ctx, registry: BlockRegistry, t: BlockTypeDefinition): Promise<Record<string, unknown>> {
  const orEmptyList = (o: Readonly<Record<string, unknown>> | undefined) => (o && Object.keys(o).length ? o : []);
  const dynamic = t.render !== undefined;
  const out: Record<string, unknown> = {
    attributes: registry.attributesOf(t.name),
    is_dynamic: dynamic,
    api_version: t.apiVersion ?? 1,
    name: t.name,
    title: t.title,
    description: t.description ?? '',
    icon: t.icon ?? null,
    category: t.category ?? null,
    keywords: t.keywords ?? [],
    parent: t.parent ?? null,
    ancestor: t.ancestor ?? null,
    provides_context: orEmptyList(t.providesContext),
    uses_context: t.usesContext ?? [],
    supports: orEmptyList(t.supports),
    styles: t.styles ?? [],
    textdomain: t.textdomain ?? null,
    example: t.example ?? null,
    editor_script_handles: t.editorScriptHandles ?? [],
    script_handles: t.scriptHandles ?? [],
    view_script_handles: t.viewScriptHandles ?? [],
    editor_style_handles: t.editorStyleHandles ?? [],
    style_handles: t.styleHandles ?? [],
    variations: [...(t.variations ?? []), ...((await t.siteVariations?.(ctx)) ?? [])],
    editor_script: first(t.editorScriptHandles),
    script: first(t.scriptHandles),
    view_script: first(t.viewScriptHandles),
    editor_style: first(t.editorStyleHandles),
    style: first(t.styleHandles),
  };
  const [namespace] = t.name.split('/');
  const links: Record<string, unknown> = {
    collection: [{ href: nsUrl(ctx, 'block-types') }],
    self: [{ href: nsUrl(ctx, `block-types/${t.name}`) }],
    up: [{ href: nsUrl(ctx, `block-types/${namespace}`) }],
  };
  if (dynamic) {
    links['wp:render-block'] = [{ href: `${nsUrl(ctx, `block-renderer/${t.name}`)}?context=edit` }];
    links.curies = CURIES;
  }
  out._links = links;
  return out;
}

/** check_read_permission: edit_posts of some post type. */
export function mayReadBlockTypes(ctx: Ctx): void {
  if (!editsSomeType(ctx)) throw cannotView(ctx);
}

/** get_item_permissions_check: check_read_permission, then the block type. */
export function mayGetBlockType(ctx: Ctx): void {
  mayReadBlockTypes(ctx);
  blockTypeOf(ctx);
}

function blockTypeOf(ctx: Ctx) {
  const type = ctx.site.blocks.get(`${ctx.args.namespace}/${ctx.args.name}`);
  if (!type) throw ctx.fail('rest_block_type_invalid');
  return type;
}

/** GET block-types and block-types/{namespace}: every block type, or those of one namespace. */
export function listBlockTypes(ctx: Ctx<'cms-v2:block-types.listBlockTypes'>) {
  const namespace = typeof ctx.args.namespace === 'string' ? ctx.args.namespace : '';
  const registry = ctx.site.blocks;
  const types = registry
    .all()
    .filter((t) => !namespace || t.name.split('/')[0] === namespace)
    .map((t) => prepare(ctx, registry, t));
  return Promise.all(types);
}

/** GET block-types/{namespace}/{name}. */
export function getBlockType(ctx: Ctx<'cms-v2:block-types.getBlockType'>) {
  return prepare(ctx, ctx.site.blocks, blockTypeOf(ctx));
}
