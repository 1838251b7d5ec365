import { RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { contextOf, denied, nsUrl, pick, type Context } from '../../core/rest.ts';
import type { PluginStatus } from '../../core/site.ts';
import { escapeHtml } from '../../format/format.ts';

/** Fields of each context, in WP_REST_Plugins_Controller's schema order. */
const FIELDS: Record<Context, readonly string[]> = {
  view: ['plugin', 'status', 'name', 'plugin_uri', 'author', 'author_uri', 'description', 'version', 'network_only', 'requires_wp', 'requires_php', 'textdomain'],
  edit: ['plugin', 'status', 'name', 'plugin_uri', 'author', 'author_uri', 'description', 'version', 'network_only', 'requires_wp', 'requires_php', 'textdomain'],
  embed: ['plugin', 'status', 'name', 'network_only', 'requires_wp', 'requires_php'],
};


/** prepare_item_for_response: the plugin's header data, as WordPress reads it from the plugin file. */
function preparePlugin(ctx: Ctx, p: PluginStatus, context: Context): Record<string, unknown> {
  const data: Record<string, unknown> = {
    plugin: p.plugin,
    status: p.status,
    name: p.title,
    plugin_uri: p.pluginUri,
    author: p.author,
    author_uri: p.authorUri,
    description: { raw: p.description, rendered: escapeHtml(p.description) },
    version: p.version,
    network_only: false,
    requires_wp: '',
    requires_php: '',
    textdomain: p.name,
  };
  return { ...pick(data, FIELDS[context]), _links: { self: [{ href: nsUrl(ctx, `plugins/${p.plugin}`) }] } };
}

/** does_plugin_match_request: `search` in any of its text fields, `status` among the listed ones. */
function matches(p: PluginStatus, search: string | undefined, statuses: string[] | undefined): boolean {
  if (search && ![p.plugin, p.title, p.description, p.author, p.version, p.name].some((f) => f.includes(search))) return false;
  return !statuses?.length || statuses.includes(p.status);
}

export function listPlugins(ctx: Ctx<'cms-v2:plugins.listPlugins'>) {
  const context = contextOf(ctx);
  return ctx.site.plugins
    .list()
    .filter((p) => !p.error || p.status === 'active')
    .filter((p) => matches(p, ctx.args.search ?? undefined, ctx.args.status ?? undefined))
    .map((p) => preparePlugin(ctx, p, context));
}

/** The route's plugin: 404 rest_plugin_not_found when it is not installed (check_read_permission). */
function pluginOfRoute(ctx: Ctx): PluginStatus {
  const p = ctx.site.plugins.get(String(ctx.args.plugin));
  if (!p) throw ctx.fail('rest_plugin_not_found');
  return p;
}

/**
 * check_read_permission after activate_plugins: the plugin must be installed, so a missing one is
 * 404 rest_plugin_not_found for every method, and its Allow names none (as WordPress 6.1 answers).
 * The handlers look it up again: it may have gone since.
 */
export function pluginExists(ctx: Ctx): void {
  pluginOfRoute(ctx);
}

export function getPlugin(ctx: Ctx<'cms-v2:plugins.getPlugin'>) {
  return preparePlugin(ctx, pluginOfRoute(ctx), contextOf(ctx));
}

/** Only `status` can change: activation and deactivation, which rebuild the routes before this answers. */
export async function updatePlugin(ctx: Ctx<'cms-v2:plugins.updatePlugin'>) {
  const current = pluginOfRoute(ctx);
  const status = ctx.args.status as 'active' | 'inactive' | undefined;
  const p = status ? await ctx.site.plugins.setActive(String(ctx.args.plugin), status === 'active') : current;
  return preparePlugin(ctx, p, 'edit');
}

/** create_item_permissions_check after install_plugins: installing it active needs activate_plugins too. */
export function mayInstallPlugin(ctx: Ctx): void {
  if (ctx.args.status !== 'inactive' && !ctx.can('activate_plugins')) throw denied(ctx, 'rest_cannot_activate_plugin');
}

/** POST plugins: installs from the trusted source (see core/plugin-source.ts), activated when asked; 201 with its Location. */
export async function installPlugin(ctx: Ctx<'cms-v2:plugins.installPlugin'>) {
  let p = await ctx.site.plugins.install(String(ctx.args.slug));
  if (ctx.args.status === 'active') p = await ctx.site.plugins.setActive(p.plugin, true);
  // the route declares no `context`: WordPress prepares it in the view context
  return new RestResponse(preparePlugin(ctx, p, 'view'), 201, { Location: nsUrl(ctx, `plugins/${p.plugin}`) });
}

/** delete_item_permissions_check after activate_plugins: delete_plugins (the same code, its own words), then a plugin that exists. */
export function mayDeletePlugin(ctx: Ctx): void {
  if (!ctx.can('delete_plugins')) throw denied(ctx, 'rest_cannot_manage_plugins', { action: 'delete' });
  pluginExists(ctx);
}

/** DELETE plugins/{plugin}: an inactive plugin's uninstall and files (core/plugins.ts says what goes); answers what it was. */
export async function deletePlugin(ctx: Ctx<'cms-v2:plugins.deletePlugin'>) {
  const p = await ctx.site.plugins.uninstall(String(ctx.args.plugin));
  return { deleted: true, previous: preparePlugin(ctx, p, contextOf(ctx)) };
}
