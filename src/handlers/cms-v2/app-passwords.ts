import { RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { chunkAppPassword, createAppPassword as createPassword, getAppPassword as findPassword, renameAppPassword, revokeAppPassword } from '../../auth/app-passwords.ts';
import type { AppPasswordRow } from '../../store/app-passwords.ts';
import { contextOf, denied, type Context } from '../../core/rest.ts';

/** get_user(): `me` is the caller; anything else must be an existing user. */
async function targetUserId(ctx: Ctx): Promise<number> {
  const raw = String(ctx.request.urlParams.user_id);
  if (raw === 'me') {
    if (!ctx.user) throw ctx.fail('rest_not_logged_in');
    return ctx.user.id;
  }
  const row = await ctx.store.users.get(Number(raw));
  if (!row) throw ctx.fail('rest_user_invalid_id');
  return row.id;
}

/** The `*_app_password(s)` meta capabilities map to edit_user: yourself, or anyone with edit_users; anyone else is refused with `refusal`'s code. */
async function permittedTarget(ctx: Ctx, refusal: string): Promise<void> {
  const userId = await targetUserId(ctx);
  if (ctx.user && (ctx.user.id === userId || ctx.can('edit_users'))) return;
  throw denied(ctx, refusal);
}

// the controller's permission callbacks, each with its meta capability's refusal
export const mayListAppPasswords = (ctx: Ctx) => permittedTarget(ctx, 'rest_cannot_list_application_passwords');
export const mayCreateAppPassword = (ctx: Ctx) => permittedTarget(ctx, 'rest_cannot_create_application_passwords');
export const mayDeleteAppPasswords = (ctx: Ctx) => permittedTarget(ctx, 'rest_cannot_delete_application_passwords');
export const mayReadAppPassword = (ctx: Ctx) => permittedTarget(ctx, 'rest_cannot_read_application_password');
export const mayEditAppPassword = (ctx: Ctx) => permittedTarget(ctx, 'rest_cannot_edit_application_password');
export const mayDeleteAppPassword = (ctx: Ctx) => permittedTarget(ctx, 'rest_cannot_delete_application_password');

/** get_current_item_permissions_check: only the user the request authenticated as. */
export async function mayIntrospectAppPassword(ctx: Ctx): Promise<void> {
  const userId = await targetUserId(ctx);
  if (!ctx.user || ctx.user.id !== userId) throw denied(ctx, 'rest_cannot_introspect_app_password_for_non_authenticated_user');
}

/** "Y-m-d\TH:i:s" in GMT, as WordPress formats these stamps. */
const stamp = (unix: number | null) => (unix === null ? null : new Date(unix * 1000).toISOString().slice(0, 19));

const itemPath = (userId: number, uuid: string) => `cms/v2/users/${userId}/application-passwords/${uuid}`;

/**
 * prepare_item_for_response; `embed` keeps the fields the schema lists for it, `password` only on
 * create. A create, update or delete answers in the edit context, whatever the request says, as
 * WordPress sets it.
 */
function prepare(ctx: Ctx, row: AppPasswordRow, context: Context, o: { links?: boolean; password?: string } = {}) {
  const item: Record<string, unknown> = { uuid: row.uuid, app_id: row.app_id, name: row.name };
  if (context !== 'embed') Object.assign(item, { created: stamp(row.created), last_used: stamp(row.last_used), last_ip: row.last_ip });
  if (o.password !== undefined) item.password = chunkAppPassword(o.password);
  if (o.links !== false) item._links = { self: [{ href: ctx.api.restUrl(itemPath(row.user_id, row.uuid)) }] };
  return item;
}

export async function listAppPasswords(ctx: Ctx<'cms-v2:app-passwords.listAppPasswords'>) {
  const userId = await targetUserId(ctx);
  return (await ctx.store.appPasswords.list(userId)).map((row) => prepare(ctx, row, contextOf(ctx)));
}

export async function createAppPassword(ctx: Ctx<'cms-v2:app-passwords.createAppPassword'>) {
  const userId = await targetUserId(ctx);
  const { row, password } = await createPassword(ctx.store, userId, { name: String(ctx.args.name), appId: ctx.args.app_id || undefined });
  return new RestResponse(prepare(ctx, row, 'edit', { password }), 201, { Location: ctx.api.restUrl(itemPath(userId, row.uuid)) });
}

export async function deleteAppPasswords(ctx: Ctx<'cms-v2:app-passwords.deleteAppPasswords'>) {
  const userId = await targetUserId(ctx);
  return { deleted: true, count: await ctx.store.appPasswords.deleteAll(userId) };
}

export async function introspectAppPassword(ctx: Ctx<'cms-v2:app-passwords.introspectAppPassword'>) {
  const userId = await targetUserId(ctx);
  const uuid = ctx.user!.appPasswordUuid;
  if (!uuid) throw ctx.fail('rest_no_authenticated_app_password');
  return prepare(ctx, await findPassword(ctx.store, userId, uuid), contextOf(ctx));
}

export async function getAppPassword(ctx: Ctx<'cms-v2:app-passwords.getAppPassword'>) {
  const userId = await targetUserId(ctx);
  return prepare(ctx, await findPassword(ctx.store, userId, String(ctx.args.uuid)), contextOf(ctx));
}

export async function updateAppPassword(ctx: Ctx<'cms-v2:app-passwords.updateAppPassword'>) {
  const userId = await targetUserId(ctx);
  const uuid = String(ctx.args.uuid);
  // only the name can change; without one the password is answered as it is
  const row = ctx.args.name === undefined ? await findPassword(ctx.store, userId, uuid) : await renameAppPassword(ctx.store, userId, uuid, String(ctx.args.name));
  return prepare(ctx, row, 'edit');
}

export async function deleteAppPassword(ctx: Ctx<'cms-v2:app-passwords.deleteAppPassword'>) {
  const userId = await targetUserId(ctx);
  const previous = await revokeAppPassword(ctx.store, userId, String(ctx.args.uuid));
  return { deleted: true, previous: prepare(ctx, previous, 'edit', { links: false }) };
}
