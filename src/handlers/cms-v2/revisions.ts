import { RestError } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import type { PostTypeInfo } from '../../core/content-types.ts';
import { canEdit, may } from '../../core/post-access.ts';
import { listQueryOf, queryPosts } from '../../core/post-list.ts';
import { collection, contextOf, denied, routePostType, type Page } from '../../core/rest.ts';
import { prepareRevision, revisionParent } from '../../core/revisions.ts';
import type { PostRow } from '../../store/posts.ts';

/**
 * WP_REST_Revisions_Controller: `{rest_base}/{parent}/revisions[/{id}]` of every post type that
 * keeps revisions (the route's `config.post_type`). Only those who may edit the post see its
 * revisions; deleting one needs `force`, as revisions cannot be trashed.
 */

/** get_revision: a revision of any post, by id. */
async function revisionOf(ctx: Ctx): Promise<PostRow> {
  const id = Number(ctx.args.id);
  const revision = id > 0 ? await ctx.store.posts.get(id) : undefined;
  if (!revision || revision.type !== 'revision') throw new RestError('rest_post_invalid_id', 'Invalid revision ID.', 404);
  return revision;
}

/** The route's parent, which the caller must be allowed to edit to see its revisions (get_items_permissions_check). */
async function readableParent(ctx: Ctx, type: PostTypeInfo): Promise<PostRow> {
  const parent = await revisionParent(ctx, type, ctx.args.parent);
  if (!canEdit(ctx, type, parent)) throw denied(ctx, 'rest_cannot_read', { action: 'view revisions of this post' });
  return parent;
}

/** The revision the route names, which must belong to the route's parent. */
async function revisionOfParent(ctx: Ctx, parent: PostRow): Promise<PostRow> {
  const revision = await revisionOf(ctx);
  if (revision.parent !== parent.id)
    throw ctx.fail('rest_revision_parent_id_mismatch', { id: parent.id });
  return revision;
}

/** get_items_permissions_check, which get_item_permissions_check is too. */
export async function mayReadRevisions(ctx: Ctx): Promise<void> {
  await readableParent(ctx, routePostType(ctx));
}

/**
 * delete_item_permissions_check: delete_post of the parent, the revision, reading the revisions,
 * then delete_post of the revision, which WordPress 6.1's map_meta_cap refuses everyone.
 */
export async function mayDeleteRevision(ctx: Ctx): Promise<void> {
  const type = routePostType(ctx);
  const parent = await revisionParent(ctx, type, ctx.args.parent);
  if (!may('delete', ctx, type, parent)) throw denied(ctx, 'rest_cannot_delete', { action: 'delete revisions of this post' });
  const revision = await revisionOf(ctx);
  await readableParent(ctx, type);
  if (!may('delete', ctx, type, revision)) throw denied(ctx, 'rest_cannot_delete', { action: 'delete this revision' });
}

export async function listRevisions(ctx: Ctx<'cms-v2:revisions.listRevisions'>) {
  const type = routePostType(ctx);
  const parent = await revisionParent(ctx, type, ctx.args.parent);
  const context = contextOf(ctx);
  // without per_page every revision is listed, on one page (posts_per_page -1)
  const perPage = typeof ctx.args.per_page === 'number' ? ctx.args.per_page : undefined;
  const offset = typeof ctx.args.offset === 'number' ? Math.abs(ctx.args.offset) : undefined;
  const pageNo = Number(ctx.args.page ?? 1);
  const page: Page = perPage === undefined ? { page: pageNo, perPage: Number.MAX_SAFE_INTEGER, offset: 0 } : { page: pageNo, perPage, offset: offset ?? (pageNo - 1) * perPage };
  const query = listQueryOf(ctx, type, ['inherit'], page, { types: ['revision'], parent: [parent.id] });
  const { rows, total } = await queryPosts(ctx, query);
  if (total > 0 && offset !== undefined && offset >= total)
    throw ctx.fail('rest_revision_invalid_offset_number');
  const items = ctx.request.head ? [] : await Promise.all(rows.map((r) => prepareRevision(ctx, type, parent, r, context)));
  // X-WP-TotalPages: all of them on one page when per_page is not given
  const shown = perPage === undefined ? { ...page, perPage: Math.max(total, 1) } : page;
  return collection(ctx, items, total, shown, offset ? undefined : 'rest_revision_invalid_page_number');
}

export async function getRevision(ctx: Ctx<'cms-v2:revisions.getRevision'>) {
  const type = routePostType(ctx);
  const parent = await revisionParent(ctx, type, ctx.args.parent);
  const revision = await revisionOfParent(ctx, parent);
  return prepareRevision(ctx, type, parent, revision, contextOf(ctx));
}

/** delete_item, which mayDeleteRevision lets nobody reach while the capability mapping refuses deleting a revision. */
export async function deleteRevision(ctx: Ctx<'cms-v2:revisions.deleteRevision'>) {
  const type = routePostType(ctx);
  const parent = await revisionParent(ctx, type, ctx.args.parent);
  const revision = await revisionOfParent(ctx, parent);
  if (ctx.args.force !== true) throw new RestError('rest_trash_not_supported', "Revisions do not support trashing. Set 'force' to true to delete.", 501);
  // the revision as it was, in view context: the delete route takes no context
  const previous = await prepareRevision(ctx, type, parent, revision, 'view');
  await ctx.store.posts.delete(revision.id);
  return { deleted: true, previous };
}
