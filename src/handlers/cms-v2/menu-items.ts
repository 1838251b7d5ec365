import { missingObject, RestError, RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { sanitizeName as sanitizeTextField } from '../../auth/app-passwords.ts';
import { kses } from '../../format/kses.ts';
import type { PostRow } from '../../store/posts.ts';
import { cap, type PostTypeInfo } from '../../core/content-types.ts';
import { canEdit, canRead } from '../../core/post-access.ts';
import { contentChanged } from '../../core/events.ts';
import { availableActions } from '../../core/post-links.ts';
import { metaOfPosts, writeRequestMeta } from '../../core/post-meta.ts';
import { BLANK_MENU_ITEM, dataOfItem, MENU_TAXONOMY, sanitizeHtmlClass, sanitizeKey, saveMenuItem, setupMenuItems, type MenuItem, type MenuItemData } from '../../core/menus.ts';
import { listQueryOf, menuOrderFilter, queryPosts, rawText, statusesFor, taxQueryOf, typeFilters } from '../../core/post-list.ts';
import { collection, contextOf, CURIES, denied, nsUrl, pageOf, pick, routePostType, type Context } from '../../core/rest.ts';

/** The fields of each context, in the order WP_REST_Menu_Items_Controller::prepare_item_for_response writes them. */
const FIELDS: Record<Context, readonly string[]> = {
  view: ['id', 'title', 'status', 'url', 'attr_title', 'description', 'type', 'type_label', 'object', 'object_id', 'parent', 'menu_order', 'target', 'classes', 'xfn', 'invalid', 'meta', 'menus'],
  edit: ['id', 'title', 'status', 'url', 'attr_title', 'description', 'type', 'type_label', 'object', 'object_id', 'parent', 'menu_order', 'target', 'classes', 'xfn', 'invalid', 'meta', 'menus'],
  embed: ['id', 'title', 'status', 'url', 'attr_title', 'description', 'type', 'type_label', 'object', 'object_id', 'parent', 'menu_order', 'target', 'classes', 'xfn', 'invalid'],
};


/**
 * check_has_read_only_access: menus are read by whoever may edit the theme's options or posts of
 * any type (the block editor's navigation block lists them), after the posts controller's checks.
 */
function requireReadAccess(ctx: Ctx): void {
  if (ctx.can('edit_theme_options') || ctx.can('edit_posts') || ctx.site.types.postTypes.some((t) => ctx.can(cap(t, 'edit_posts')))) return;
  throw denied(ctx, 'rest_cannot_view', { action: 'view menu items' });
}

async function prepareItems(ctx: Ctx, posts: PostRow[], context: Context): Promise<Record<string, unknown>[]> {
  const [items, meta] = await Promise.all([setupMenuItems(ctx.store, ctx.site, posts), metaOfPosts(ctx.store, (t) => ctx.site.types.postMeta(t), posts)]);
  return items.map((item) => {
    const data: Record<string, unknown> = {
      id: item.post.id,
      title: context === 'edit' ? { raw: item.title, rendered: item.title } : { rendered: item.title },
      status: item.post.status,
      url: item.url,
      attr_title: item.attrTitle,
      description: item.description,
      type: item.type,
      type_label: item.typeLabel,
      object: item.object,
      object_id: item.objectId,
      parent: item.parent,
      menu_order: item.post.menu_order,
      target: item.target,
      classes: item.classes,
      xfn: item.xfn.split(' ').map(sanitizeHtmlClass),
      invalid: item.invalid,
      // the meta registered for menu items; WordPress shows an empty list when none is
      meta: meta.get(item.post.id) ?? [],
      menus: item.menuId,
    };
    const out = pick(data, FIELDS[context]);
    out._links = itemLinks(ctx, item, context);
    return out;
  });
}

function itemLinks(ctx: Ctx, item: MenuItem, context: Context): Record<string, unknown> {
  const self = nsUrl(ctx, `menu-items/${item.post.id}`);
  const links: Record<string, unknown> = {
    self: [{ href: self }],
    collection: [{ href: nsUrl(ctx, 'menu-items') }],
    about: [{ href: nsUrl(ctx, 'types/nav_menu_item') }],
    'wp:term': [{ taxonomy: MENU_TAXONOMY, embeddable: true, href: nsUrl(ctx, `menus?post=${item.post.id}`) }],
  };
  // the object it links to, when that has a route of its own
  if (item.objectId && !item.invalid) {
    const base =
      item.type === 'post_type' ? ctx.site.types.postType(item.object)?.restBase : item.type === 'taxonomy' ? ctx.site.types.taxonomy(item.object)?.restBase : undefined;
    if (base) links['wp:menu-item-object'] = [{ href: nsUrl(ctx, `${base}/${item.objectId}`), [item.type]: item.object, embeddable: true }];
  }
  // prepare_item_for_response adds get_available_actions after the links, each pointing at the item
  const type = ctx.site.types.postType('nav_menu_item')!;
  for (const rel of availableActions(ctx, type, context)) links[rel] = [{ href: self }];
  links.curies = CURIES;
  return links;
}

async function itemOfRoute(ctx: Ctx, type: PostTypeInfo): Promise<PostRow> {
  const post = await ctx.store.posts.get(Number(ctx.args.id));
  if (!post || post.type !== type.slug) throw missingObject(ctx.fail('rest_post_invalid_id'));
  return post;
}

/** get_items_permissions_check: the posts controller's (edit context), then check_has_read_only_access. */
export function mayListMenuItems(ctx: Ctx): void {
  const type = routePostType(ctx);
  // the status arg is sanitized (and may be refused) before the permission check, as WordPress does
  statusesFor(ctx, type, ['publish']);
  if (ctx.args.context === 'edit' && !ctx.can(cap(type, 'edit_posts')))
    throw denied(ctx, 'rest_forbidden_context', { action: 'edit posts in this post type' });
  requireReadAccess(ctx);
}

/** get_item_permissions_check: the posts controller's, then check_has_read_only_access. */
export async function mayGetMenuItem(ctx: Ctx): Promise<void> {
  const type = routePostType(ctx);
  const post = await itemOfRoute(ctx, type);
  if (ctx.args.context === 'edit' && !canEdit(ctx, type, post)) throw denied(ctx, 'rest_forbidden_context', { action: 'edit this post' });
  if (!canRead(ctx, type, post)) throw denied(ctx, 'rest_forbidden');
  requireReadAccess(ctx);
}

export async function listMenuItems(ctx: Ctx<'cms-v2:menu-items.listMenuItems'>) {
  const type = routePostType(ctx);
  const statuses = statusesFor(ctx, type, ['publish']);
  const context = contextOf(ctx);
  const page = pageOf(ctx, ctx.args.offset);
  // nav_menu_item has no author or parent filter (it supports neither); `menus` is its taxonomy's, as `categories` is a post's
  const filters = { ...typeFilters(ctx), ...menuOrderFilter(ctx), ...(await taxQueryOf(ctx, [['menus', MENU_TAXONOMY]])) };
  const q = listQueryOf(ctx, type, statuses, page, filters);
  const { rows, total } = await queryPosts(ctx, q);
  // WP_REST_Posts_Controller::get_items drops what the user may not read, without changing the totals
  const readable = rows.filter((r) => canRead(ctx, type, r));
  const items = ctx.request.head ? [] : await prepareItems(ctx, readable, context);
  return collection(ctx, items, total, page, 'rest_post_invalid_page_number');
}

export async function getMenuItem(ctx: Ctx<'cms-v2:menu-items.getMenuItem'>) {
  const type = routePostType(ctx);
  const post = await itemOfRoute(ctx, type);
  const context = contextOf(ctx);
  return (await prepareItems(ctx, [post], context))[0];
}

/** The request's fields over the item's (or a new item's defaults), as prepare_item_for_database maps them. */
async function itemData(ctx: Ctx, start: MenuItemData): Promise<MenuItemData> {
  const a = ctx.args;
  const d = { ...start };
  if (typeof a.object_id === 'number') d.objectId = a.object_id;
  if (typeof a.object === 'string') d.object = sanitizeKey(a.object);
  if (typeof a.parent === 'number') d.parent = a.parent;
  if (typeof a.menu_order === 'number') d.position = a.menu_order;
  if (typeof a.type === 'string') d.type = a.type;
  if (typeof a.url === 'string') d.url = a.url;
  if (typeof a.description === 'string') d.description = sanitizeTextField(a.description);
  if (typeof a.attr_title === 'string') d.attrTitle = sanitizeTextField(a.attr_title);
  if (typeof a.target === 'string') d.target = a.target;
  if (Array.isArray(a.classes)) d.classes = a.classes as string[];
  if (Array.isArray(a.xfn)) d.xfn = a.xfn as string[];
  if (typeof a.status === 'string') d.status = a.status;
  if (a.menus) d.menuId = Math.abs(a.menus as number);
  const title = typeof a.title === 'string' ? a.title : rawText(a.title) || undefined;
  // title_save_pre: kses for callers without unfiltered_html
  if (title !== undefined) d.title = ctx.can('unfiltered_html') ? title : await kses(title, 'data');
  if (!d.object) {
    // a linked item without its object's kind takes it from the object, which must exist
    if (d.type === 'taxonomy') {
      const term = await ctx.store.terms.get(d.objectId);
      if (!term) throw ctx.fail('rest_term_invalid_id');
      d.object = term.taxonomy;
    } else if (d.type === 'post_type') {
      const post = await ctx.store.posts.get(d.objectId);
      if (!post) throw ctx.fail('rest_post_invalid_id', {}, { status: 400 });
      d.object = post.type;
    }
  }
  if (d.type === 'post_type_archive' && !ctx.site.types.postType(d.object)) throw ctx.fail('rest_post_invalid_type');
  if (d.type === 'custom') {
    if (d.title === '') throw ctx.fail('rest_title_required');
    if (!d.url) throw ctx.fail('rest_url_required');
  }
  // only published and draft menu items exist
  if (d.status !== 'publish') d.status = 'draft';
  return d;
}

export async function createMenuItem(ctx: Ctx<'cms-v2:menu-items.createMenuItem'>) {
  const type = routePostType(ctx);
  if (ctx.args.id) throw ctx.fail('rest_post_exists');
  const id = await saveMenuItem(ctx.store, ctx.site, 0, await itemData(ctx, { ...BLANK_MENU_ITEM, position: 1 }), ctx.user?.id ?? 0);
  // after the item is saved, as WordPress writes it (a refused value leaves the item as saved)
  await writeRequestMeta(ctx, type, ctx.store, id);
  await contentChanged(ctx, { type: 'postSaved', postId: id, postType: type.slug });
  const [data] = await prepareItems(ctx, [(await ctx.store.posts.get(id))!], 'edit');
  return new RestResponse(data, 201, { Location: nsUrl(ctx, `menu-items/${id}`) });
}

export async function updateMenuItem(ctx: Ctx<'cms-v2:menu-items.updateMenuItem'>) {
  const type = routePostType(ctx);
  const post = await itemOfRoute(ctx, type);
  if (!canEdit(ctx, type, post)) throw denied(ctx, 'rest_cannot_edit', { action: 'edit this post' });
  const [current] = await setupMenuItems(ctx.store, ctx.site, [post]);
  await saveMenuItem(ctx.store, ctx.site, post.id, await itemData(ctx, dataOfItem(current)), post.author);
  await writeRequestMeta(ctx, type, ctx.store, post.id);
  await contentChanged(ctx, { type: 'postSaved', postId: post.id, postType: type.slug });
  return (await prepareItems(ctx, [(await ctx.store.posts.get(post.id))!], 'edit'))[0];
}

export async function deleteMenuItem(ctx: Ctx<'cms-v2:menu-items.deleteMenuItem'>) {
  const type = routePostType(ctx);
  const post = await itemOfRoute(ctx, type);
  if (ctx.args.force !== true) throw new RestError('rest_trash_not_supported', "Menu items do not support trashing. Set 'force=true' to delete.", 501);
  const [previous] = await prepareItems(ctx, [post], 'view');
  await ctx.store.posts.delete(post.id);
  await contentChanged(ctx, { type: 'postDeleted', postId: post.id, postType: type.slug });
  return { deleted: true, previous };
}
