import type { Ctx } from '../../core/context.ts';
import type { PostTypeInfo } from '../../core/content-types.ts';
import { contentChanged } from '../../core/events.ts';
import { canEdit } from '../../core/post-access.ts';
import { postFieldsOf } from '../../core/post-fields.ts';
import { contextOf, denied, routePostType } from '../../core/rest.ts';
import { autosaveSlug, prepareRevision, revisionedFieldsDiffer, revisionParent, saveRevision, type RevisionFields } from '../../core/revisions.ts';
import type { PostRow } from '../../store/posts.ts';
import { sqlDate } from '../../store/transact.ts';

/**
 * WP_REST_Autosaves_Controller: `{rest_base}/{id}/autosaves` and `{rest_base}/{parent}/autosaves/{id}`
 * of every post type but attachments. An autosave by the author of a draft saves the draft itself
 * (with the revision an update saves); any other is kept as one autosave revision per user,
 * replaced by the next.
 */


/** The route's post, which the caller must be allowed to edit to see its autosaves. */
async function readableParent(ctx: Ctx, type: PostTypeInfo, id: unknown, action: string): Promise<PostRow> {
  const parent = await revisionParent(ctx, type, id);
  if (!canEdit(ctx, type, parent)) throw denied(ctx, 'rest_cannot_read', { action });
  return parent;
}

/** get_items_permissions_check: edit_post of the post. */
export async function mayListAutosaves(ctx: Ctx): Promise<void> {
  await readableParent(ctx, routePostType(ctx), ctx.args.id, 'view autosaves of this post');
}

/** get_item_permissions_check, the revisions controller's: edit_post of the parent. */
export async function mayGetAutosave(ctx: Ctx): Promise<void> {
  await readableParent(ctx, routePostType(ctx), ctx.args.parent, 'view revisions of this post');
}

/** create_item_permissions_check: the post's update_item_permissions_check (it must exist, and the caller may edit it). */
export async function mayCreateAutosave(ctx: Ctx): Promise<void> {
  const type = routePostType(ctx);
  const post = await ctx.store.posts.get(Number(ctx.args.id));
  if (!post || post.type !== type.slug) throw ctx.fail('rest_post_invalid_id');
  if (!canEdit(ctx, type, post)) throw denied(ctx, 'rest_cannot_edit', { action: 'edit this post' });
}

export async function listAutosaves(ctx: Ctx<'cms-v2:autosaves.listAutosaves'>) {
  const type = routePostType(ctx);
  const parent = await revisionParent(ctx, type, ctx.args.id);
  if (ctx.request.head) return [];
  const { rows } = await ctx.store.posts.query({
    types: ['revision'], statuses: ['inherit'], parent: [parent.id], slugs: [autosaveSlug(parent.id)], orderby: 'date', order: 'desc', offset: 0, limit: Number.MAX_SAFE_INTEGER,
  });
  const context = contextOf(ctx);
  return Promise.all(rows.map((r) => prepareRevision(ctx, type, parent, r, context, true)));
}

export async function getAutosave(ctx: Ctx<'cms-v2:autosaves.getAutosave'>) {
  const type = routePostType(ctx);
  const parent = await revisionParent(ctx, type, ctx.args.parent);
  const id = Number(ctx.args.id);
  const autosave = id > 0 ? await ctx.store.posts.get(id) : undefined;
  if (!autosave || autosave.type !== 'revision' || autosave.parent !== parent.id || autosave.slug !== autosaveSlug(parent.id))
    throw ctx.fail('rest_post_no_autosave');
  return prepareRevision(ctx, type, parent, autosave, contextOf(ctx), true);
}

type Outcome = { post: PostRow; saved: PostRow } | { unchanged: true };

export async function createAutosave(ctx: Ctx<'cms-v2:autosaves.createAutosave'>) {
  const type = routePostType(ctx);
  const user = ctx.user?.id ?? 0;
  const outcome = await ctx.store.transaction(async (store): Promise<Outcome> => {
    const post = await store.posts.get(Number(ctx.args.id), true);
    if (!post || post.type !== type.slug) throw ctx.fail('rest_post_invalid_id');
    const f = await postFieldsOf(ctx, type, store, post);
    if ((post.status === 'draft' || post.status === 'auto-draft') && post.author === user) {
      // the author's own draft is saved in place by wp_update_post, whose post_updated action saves
      // a revision as any update's does (create_post_autosave, WordPress 6.1)
      if (Object.keys(f).length) await store.posts.update(post.id, f);
      const saved = (await store.posts.get(post.id))!;
      await saveRevision(store, type, saved, user);
      return { post: saved, saved };
    }
    // the autosave holds the post's revisioned fields with the request's changes (the others are the post's)
    const fields: RevisionFields = { title: f.title ?? post.title, content: f.content ?? post.content, excerpt: f.excerpt ?? post.excerpt };
    const old = await store.posts.newestRevision(post.id, autosaveSlug(post.id), user);
    if (old) {
      if (!revisionedFieldsDiffer(fields, post)) {
        // an autosave that would only repeat the post is dropped, as WordPress drops it
        await store.posts.delete(old.id);
        return { unchanged: true };
      }
      await store.posts.update(old.id, { ...fields, author: user, date_gmt: sqlDate(new Date()) });
      return { post, saved: (await store.posts.get(old.id))! };
    }
    const id = await store.posts.insert({ type: 'revision', status: 'inherit', parent: post.id, slug: autosaveSlug(post.id), author: user, ...fields });
    return { post, saved: (await store.posts.get(id))! };
  });
  if ('unchanged' in outcome) throw ctx.fail('rest_autosave_no_changes');
  if (outcome.saved.id === outcome.post.id) await contentChanged(ctx, { type: 'postSaved', postId: outcome.post.id, postType: outcome.post.type });
  return prepareRevision(ctx, type, outcome.post, outcome.saved, 'edit', true);
}
