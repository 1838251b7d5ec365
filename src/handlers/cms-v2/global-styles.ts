import type { Ctx } from '../../core/context.ts';
import { STYLESHEET, THEME_JSON } from '../../core/active-theme.ts';
import { GLOBAL_STYLES_TYPE, THEME_JSON_VERSION, styleVariations, themeJsonData, userConfigOf } from '../../core/global-styles.ts';
import { rawText } from '../../core/post-list.ts';
import { CURIES, denied, nsUrl } from '../../core/rest.ts';
import type { Store } from '../../store/index.ts';
import type { PostPatch, PostRow } from '../../store/posts.ts';

/** WP_REST_Global_Styles_Controller (6.1). */


/** Only the active theme is served here (the stylesheet arrives URL-decoded). */
function activeThemeOnly(ctx: Ctx): void {
  if (String(ctx.args.stylesheet) !== STYLESHEET) throw ctx.fail('rest_theme_not_found');
}

export function getThemeVariations(ctx: Ctx<'cms-v2:global-styles.getThemeVariations'>) {
  activeThemeOnly(ctx);
  return styleVariations();
}

/** The theme's own theme.json settings and styles. */
export function getThemeStyles(ctx: Ctx<'cms-v2:global-styles.getThemeStyles'>) {
  activeThemeOnly(ctx);
  const { settings } = themeJsonData(THEME_JSON, 'theme');
  return {
    settings,
    // get_raw_data's styles, as the theme wrote them
    styles: THEME_JSON.styles ?? [],
    _links: { self: [{ href: nsUrl(ctx, `global-styles/themes/${String(ctx.args.stylesheet)}`) }] },
  };
}

/** get_post: a global styles post by its id, which is cast as PHP's (int) casts it. */
async function globalStylesPost(ctx: Ctx, store: Store = ctx.store, lock = false): Promise<PostRow> {
  const id = Number.parseInt(String(ctx.args.id), 10);
  const post = id > 0 ? await store.posts.get(id, lock) : undefined;
  if (!post || post.type !== GLOBAL_STYLES_TYPE) throw ctx.fail('rest_global_styles_not_found');
  return post;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * prepare_item_for_response: id and title in the embed, view and edit contexts, the user's
 * settings and styles (`{}` when none) in view and edit; a context the schema does not name keeps
 * none of them, as filter_response_by_context.
 */
function prepareGlobalStyles(ctx: Ctx, post: PostRow, context: string): Record<string, unknown> {
  const config = userConfigOf(post.content);
  const { settings, styles } = config ? themeJsonData(config, 'custom') : { settings: {}, styles: {} };
  const data: Record<string, unknown> = {};
  if (['embed', 'view', 'edit'].includes(context)) {
    data.id = post.id;
    // get_the_title with the protected-title format left out
    data.title = { raw: post.title, rendered: post.status === 'private' ? `Private: ${post.title}` : post.title };
  }
  if (context === 'view' || context === 'edit') {
    data.settings = settings;
    data.styles = styles;
  }
  const self = nsUrl(ctx, `global-styles/${post.id}`);
  const links: Record<string, unknown> = { self: [{ href: self }] };
  // edit_css is a meta capability: map_meta_cap makes it unfiltered_html
  if (ctx.can('unfiltered_html')) {
    links['wp:action-edit-css'] = [{ href: self }];
    links.curies = CURIES;
  }
  data._links = links;
  return data;
}

const contextOf = (ctx: Ctx) => (typeof ctx.args.context === 'string' && ctx.args.context ? ctx.args.context : 'view');

/** get_item_permissions_check: the post first, then the right to read it (edit_theme_options, as the type maps read_post and edit_post). */
export async function mayGetGlobalStyles(ctx: Ctx): Promise<void> {
  await globalStylesPost(ctx);
  if (contextOf(ctx) === 'edit' && !ctx.can('edit_theme_options')) throw denied(ctx, 'rest_forbidden_context', { action: 'edit this global style' });
  if (!ctx.can('edit_theme_options')) throw denied(ctx, 'rest_cannot_view', { action: 'view this global style' });
}

export async function getGlobalStyles(ctx: Ctx<'cms-v2:global-styles.getGlobalStyles'>) {
  const post = await globalStylesPost(ctx);
  const context = contextOf(ctx);
  return prepareGlobalStyles(ctx, post, context);
}

/**
 * update_item: new styles or settings replace those parts of the stored user theme.json (the
 * other part kept), stored as sent; what theme.json does not know is dropped when read.
 */
export async function updateGlobalStyles(ctx: Ctx<'cms-v2:global-styles.updateGlobalStyles'>) {
  const a = ctx.args;
  const post = await ctx.store.transaction(async (store) => {
    const current = await globalStylesPost(ctx, store, true);
    const existing = userConfigOf(current.content) ?? {};
    const patch: PostPatch = {};
    if (a.styles !== undefined || a.settings !== undefined) {
      const config: Record<string, unknown> = {};
      const styles = a.styles ?? existing.styles;
      const settings = a.settings ?? existing.settings;
      if (styles !== undefined) config.styles = isObject(styles) ? styles : {};
      if (settings !== undefined) config.settings = isObject(settings) ? settings : {};
      config.isGlobalStylesUserThemeJSON = true;
      config.version = THEME_JSON_VERSION;
      patch.content = JSON.stringify(config);
    }
    const title = typeof a.title === 'string' ? a.title : rawText(a.title) || undefined;
    if (title !== undefined) patch.title = title;
    await store.posts.update(current.id, patch);
    return (await store.posts.get(current.id))!;
  });
  return prepareGlobalStyles(ctx, post, contextOf(ctx));
}
