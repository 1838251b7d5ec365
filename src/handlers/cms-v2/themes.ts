import { RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { STYLESHEET, THEME_HEADERS, THEME_SUPPORTS } from '../../core/active-theme.ts';
import { cap } from '../../core/content-types.ts';
import { userGlobalStylesId } from '../../core/global-styles.ts';
import { CURIES, denied, nsUrl } from '../../core/rest.ts';
import { escapeAttr, escapeHtml } from '../../format/format.ts';

/**
 * WP_REST_Themes_Controller (6.1) for the one theme this server has, which is always the active
 * one. Who may read depends on what is asked, so the handlers check, as its permission callbacks do.
 */

/** check_read_active_theme_permission: anyone who can edit posts of some type. */
function mayReadActiveTheme(ctx: Ctx): void {
  if (ctx.can('edit_posts') || ctx.site.types.postTypes.some((t) => ctx.can(cap(t, 'edit_posts')))) return;
  throw denied(ctx, 'rest_cannot_view_active_theme');
}

const cannotViewThemes = (ctx: Ctx) => denied(ctx, 'rest_cannot_view_themes');

/** WP_Theme::display with markup: the author linked to their site, tags joined, URLs escaped. */
function rendered(header: 'Author' | 'AuthorURI' | 'Description' | 'Name' | 'Tags' | 'ThemeURI'): string {
  const h = THEME_HEADERS;
  switch (header) {
    case 'Author':
      return h.AuthorURI ? `<a href="${escapeAttr(h.AuthorURI)}">${h.Author}</a>` : h.Author || 'Anonymous';
    case 'Tags':
      return h.Tags.join(', ');
    case 'Name':
      return h.Name || escapeHtml(STYLESHEET);
    default:
      return h[header];
  }
}

/** prepare_item_for_response: the theme's headers, status and supports, linked to the site's global styles. */
async function prepareTheme(ctx: Ctx): Promise<Record<string, unknown>> {
  const h = THEME_HEADERS;
  const data: Record<string, unknown> = {
    stylesheet: STYLESHEET,
    template: STYLESHEET,
    requires_php: h.RequiresPHP,
    requires_wp: h.RequiresWP,
    textdomain: h.TextDomain,
    version: h.Version,
    // no screenshot.png in the theme
    screenshot: '',
    author: { raw: h.Author, rendered: rendered('Author') },
    author_uri: { raw: h.AuthorURI, rendered: rendered('AuthorURI') },
    description: { raw: h.Description, rendered: rendered('Description') },
    name: { raw: h.Name, rendered: rendered('Name') },
    tags: { raw: h.Tags, rendered: rendered('Tags') },
    theme_uri: { raw: h.ThemeURI, rendered: rendered('ThemeURI') },
    status: 'active',
    theme_supports: THEME_SUPPORTS,
  };
  const links: Record<string, unknown> = {
    self: [{ href: nsUrl(ctx, `themes/${STYLESHEET}`) }],
    collection: [{ href: nsUrl(ctx, 'themes') }],
  };
  // WordPress makes the active theme's global styles post the first time it is linked
  const stylesId = await userGlobalStylesId(ctx.store, true);
  if (stylesId) {
    links['wp:user-global-styles'] = [{ href: nsUrl(ctx, `global-styles/${stylesId}`) }];
    links.curies = CURIES;
  }
  data._links = links;
  return data;
}

/** get_items_permissions_check: switch_themes, or status=active alone for whoever may read the active theme. */
export function mayListThemes(ctx: Ctx): void {
  if (ctx.can('switch_themes')) return;
  const status = ctx.args.status as unknown;
  if (!(Array.isArray(status) && status.length === 1 && status[0] === 'active')) throw cannotViewThemes(ctx);
  mayReadActiveTheme(ctx);
}

/** get_item_permissions_check: switch_themes, or the active theme for whoever may read it. */
export function mayGetTheme(ctx: Ctx): void {
  if (ctx.can('switch_themes')) return;
  if (String(ctx.args.stylesheet) !== STYLESHEET) throw cannotViewThemes(ctx);
  mayReadActiveTheme(ctx);
}

export async function listThemes(ctx: Ctx<'cms-v2:themes.listThemes'>) {
  const status = ctx.args.status as string[] | undefined;
  const themes = Array.isArray(status) && !status.includes('active') ? [] : [await prepareTheme(ctx)];
  return new RestResponse(themes, 200, { 'X-WP-Total': String(themes.length), 'X-WP-TotalPages': '1' });
}

export async function getTheme(ctx: Ctx<'cms-v2:themes.getTheme'>) {
  if (String(ctx.args.stylesheet) !== STYLESHEET) throw ctx.fail('rest_theme_not_found');
  return prepareTheme(ctx);
}
