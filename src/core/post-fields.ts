import { invalidParam, RestError } from '../engine/errors.ts';
import { kses, type KsesContext } from '../format/kses.ts';
import { targetedLinkRel } from '../format/link-rel.ts';
import type { Store } from '../store/index.ts';
import type { PostPatch, PostRow } from '../store/posts.ts';
import { cap, type PostTypeInfo } from './content-types.ts';
import type { Ctx } from './context.ts';
import { rawText } from './post-list.ts';
import { denied, parseDateArg } from './rest.ts';

const PUBLISHING = new Set(['publish', 'future', 'private']);

/**
 * What the caller stores, as title_save_pre, content_save_pre and excerpt_save_pre leave it:
 * `rel="noopener"` on every link with a target (wp_targeted_link_rel, whoever writes), then,
 * without unfiltered_html, kses.
 */
async function saved(ctx: Ctx, text: string | undefined, context: KsesContext): Promise<string | undefined> {
  if (text === undefined) return text;
  const targeted = targetedLinkRel(text);
  return ctx.can('unfiltered_html') ? targeted : kses(targeted, context);
}

/**
 * The columns a create or update request sets, checked the way WordPress checks each one
 * (WP_REST_Posts_Controller::prepare_item_for_database): the posts routes' and the autosaves'.
 */
export async function postFieldsOf(ctx: Ctx, type: PostTypeInfo, store: Store, current?: PostRow): Promise<PostPatch> {
  const a = ctx.args;
  const f: PostPatch = {};
  const title = await saved(ctx, rawText(a.title), 'data');
  const content = await saved(ctx, rawText(a.content), 'post');
  const excerpt = await saved(ctx, rawText(a.excerpt), 'post');
  if (title !== undefined) f.title = title;
  if (content !== undefined) f.content = content;
  if (excerpt !== undefined) f.excerpt = excerpt;
  if (typeof a.slug === 'string') f.slug = a.slug;
  if (typeof a.password === 'string') f.password = a.password;
  if (typeof a.comment_status === 'string') f.comment_status = a.comment_status;
  if (typeof a.ping_status === 'string') f.ping_status = a.ping_status;
  if (typeof a.date === 'string') {
    const d = parseDateArg(a.date);
    if (d.utc) f.date_gmt = d.wall;
    else f.date = d.wall;
  }
  if (typeof a.date_gmt === 'string') f.date_gmt = parseDateArg(a.date_gmt).wall;
  if (typeof a.template === 'string') {
    // no theme templates are registered here, so only the default template is valid; check_template
    // lists the allowed ones in its message (`%1$s is not one of %2$s.`), here none
    if (a.template !== '') throw invalidParam('template', 'template is not one of .');
    f.template = '';
  }
  if (typeof a.format === 'string' && type.slug === 'post') f.format = a.format === 'standard' ? '' : a.format;
  if (typeof a.menu_order === 'number' && type.hierarchical) f.menu_order = a.menu_order;
  if (typeof a.parent === 'number' && type.hierarchical) {
    if (a.parent !== 0) {
      const parent = await store.posts.get(a.parent);
      if (!parent || parent.type !== type.slug || parent.id === current?.id) throw new RestError('rest_post_invalid_id', 'Invalid post parent ID.', 400);
    }
    f.parent = a.parent;
  }
  if (typeof a.author === 'number' && a.author !== (current?.author ?? ctx.user?.id)) {
    if (!ctx.can(cap(type, 'edit_others_posts')))
      throw denied(ctx, 'rest_cannot_edit_others', { action: current ? 'update' : 'create' });
    if (!(await store.users.get(a.author))) throw ctx.fail('rest_invalid_author');
    f.author = a.author;
  }
  if (typeof a.status === 'string') {
    if (PUBLISHING.has(a.status) && a.status !== current?.status && !ctx.can(cap(type, 'publish_posts')))
      throw denied(ctx, 'rest_cannot_publish');
    f.status = a.status;
  }
  // wp_insert_post: a private post keeps no password
  if ((f.status ?? current?.status) === 'private' && (f.password || current?.password)) f.password = '';
  if (typeof a.sticky === 'boolean' && type.slug === 'post') {
    if (a.sticky !== (current?.sticky === 1) && !(ctx.can('edit_others_posts') && ctx.can('publish_posts')))
      throw denied(ctx, 'rest_cannot_assign_sticky');
    f.sticky = a.sticky ? 1 : 0;
  }
  return f;
}
