import { RestError, authStatus } from '../../engine/errors.ts';
import { RestResponse } from '../../engine/types.ts';
import type { Ctx } from '../../core/context.ts';
import { chunkAppPassword, createAppPassword as createPassword, getAppPassword as findPassword, renameAppPassword, revokeAppPassword } from '../../auth/app-passwords.ts';
import type { AppPasswordRow } from '../../store/app-passwords.ts';

/** The operations of WP_REST_Application_Passwords_Controller and the error each permission failure gives. */
const REFUSALS = {
  list: ['rest_cannot_list_application_passwords', 'Sorry, you are not allowed to list application passwords for this user.'],
  create: ['rest_cannot_create_application_passwords', 'Sorry, you are not allowed to create application passwords for this user.'],
  deleteAll: ['rest_cannot_delete_application_passwords', 'Sorry, you are not allowed to delete application passwords for this user.'],
  read: ['rest_cannot_read_application_password', 'Sorry, you are not allowed to read this application password.'],
  edit: ['rest_cannot_edit_application_password', 'Sorry, you are not allowed to edit this application password.'],
  delete: ['rest_cannot_delete_application_password', 'Sorry, you are not allowed to delete this application password.'],
} as const;

/** get_user(): `me` is the caller; anything else must be an existing user. */
async function targetUserId(ctx: Ctx): Promise<number> {
  const raw = String(ctx.request.urlParams.user_id);
  if (raw === 'me') {
    if (!ctx.user) throw new RestError('rest_not_logged_in', 'You are not currently logged in.', 401);
    return ctx.user.id;
  }
  const row = await ctx.store.users.get(Number(raw));
  if (!row) throw new RestError('rest_user_invalid_id', 'Invalid user ID.', 404);
  return row.id;
}

/** The `*_app_password(s)` meta capabilities map to edit_user: yourself, or anyone with edit_users. */
async function permittedTarget(ctx: Ctx, op: keyof typeof REFUSALS): Promise<number> {
  const userId = await targetUserId(ctx);
  if (ctx.user && (ctx.user.id === userId || ctx.can('edit_users'))) return userId;
  const [code, message] = REFUSALS[op];
  throw new RestError(code, message, authStatus(ctx.user !== null));
}

/** "Y-m-d\TH:i:s" in GMT, as WordPress formats these stamps. */
const stamp = (unix: number | null) => (unix === null ? null : new Date(unix * 1000).toISOString().slice(0, 19));

const itemPath = (userId: number, uuid: string) => `cms/v2/users/${userId}/application-passwords/${uuid}`;

/** prepare_item_for_response; `embed` keeps the fields the schema lists for it, `password` only on create. */
function prepare(ctx: Ctx, row: AppPasswordRow, o: { links?: boolean; password?: string } = {}) {
  const item: Record<string, unknown> = { uuid: row.uuid, app_id: row.app_id, name: row.name };
  if (ctx.args.context !== 'embed') Object.assign(item, { created: stamp(row.created), last_used: stamp(row.last_used), last_ip: row.last_ip });
  if (o.password !== undefined) item.password = chunkAppPassword(o.password);
  if (o.links !== false) item._links = { self: [{ href: ctx.api.restUrl(itemPath(row.user_id, row.uuid)) }] };
  return item;
}

export async function listAppPasswords(ctx: Ctx) {
  const userId = await permittedTarget(ctx, 'list');
  return (await ctx.store.appPasswords.list(userId)).map((row) => prepare(ctx, row));
}

export async function createAppPassword(ctx: Ctx) {
  const userId = await permittedTarget(ctx, 'create');
  const { row, password } = await createPassword(ctx.store, userId, { name: String(ctx.args.name), appId: ctx.args.app_id || undefined });
  return new RestResponse(prepare(ctx, row, { password }), 201, { Location: ctx.api.restUrl(itemPath(userId, row.uuid)) });
}

export async function deleteAppPasswords(ctx: Ctx) {
  const userId = await permittedTarget(ctx, 'deleteAll');
  return { deleted: true, count: await ctx.store.appPasswords.deleteAll(userId) };
}

export async function introspectAppPassword(ctx: Ctx) {
  const userId = await targetUserId(ctx);
  if (!ctx.user || ctx.user.id !== userId)
    throw new RestError(
      'rest_cannot_introspect_app_password_for_non_authenticated_user',
      'The authenticated application password can only be introspected for the current user.',
      authStatus(ctx.user !== null),
    );
  const uuid = ctx.user.appPasswordUuid;
  if (!uuid) throw new RestError('rest_no_authenticated_app_password', 'Cannot introspect application password.', 404);
  return prepare(ctx, await findPassword(ctx.store, userId, uuid));
}

export async function getAppPassword(ctx: Ctx) {
  const userId = await permittedTarget(ctx, 'read');
  return prepare(ctx, await findPassword(ctx.store, userId, String(ctx.args.uuid)));
}

export async function updateAppPassword(ctx: Ctx) {
  const userId = await permittedTarget(ctx, 'edit');
  const uuid = String(ctx.args.uuid);
  // only the name can change; without one the password is answered as it is
  const row = ctx.args.name === undefined ? await findPassword(ctx.store, userId, uuid) : await renameAppPassword(ctx.store, userId, uuid, String(ctx.args.name));
  return prepare(ctx, row);
}

export async function deleteAppPassword(ctx: Ctx) {
  const userId = await permittedTarget(ctx, 'delete');
  const previous = await revokeAppPassword(ctx.store, userId, String(ctx.args.uuid));
  return { deleted: true, previous: prepare(ctx, previous, { links: false }) };
}
