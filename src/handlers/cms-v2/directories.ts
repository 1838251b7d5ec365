import type { Ctx } from '../../core/context.ts';
import { editsSomeType } from '../../core/editor-access.ts';
import { denied } from '../../core/rest.ts';
import { pluginsApiFailed } from '../../core/plugin-source.ts';

/**
 * The block directory and the pattern directory (WP_REST_Block_Directory_Controller,
 * WP_REST_Pattern_Directory_Controller, 6.1). Both relay a search to WordPress.org; this server
 * makes no request there, so each answers what WordPress answers when its outbound HTTP is
 * blocked (WP_HTTP_BLOCK_EXTERNAL): WP_Http's `http_request_not_executed`, which plugins_api
 * wraps in its own error. The controllers add status 500 to the error they get.
 */

/** GET block-directory/search: plugins_api's failure, with the request's error message kept as earlier error data. */
export function searchBlockDirectory(ctx: Ctx<'cms-v2:directories.searchBlockDirectory'>): never {
  // the route asks for install_plugins; WordPress wants activate_plugins as well
  if (!ctx.can('activate_plugins')) throw denied(ctx, 'rest_block_directory_cannot_view');
  throw pluginsApiFailed();
}

/** GET pattern-directory/patterns: the blocked request's own error. */
/** get_items_permissions_check: edit_posts of some post type. */
export function mayListDirectoryPatterns(ctx: Ctx): void {
  if (!editsSomeType(ctx)) throw denied(ctx, 'rest_pattern_directory_cannot_view');
}

export function listDirectoryPatterns(ctx: Ctx<'cms-v2:directories.listDirectoryPatterns'>): never {
  throw ctx.fail('http_request_not_executed');
}
