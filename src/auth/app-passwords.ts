import { randomUUID } from 'node:crypto';
import { RestError } from '../engine/errors.ts';
import type { Store } from '../store/index.ts';
import type { AppPasswordRow } from '../store/app-passwords.ts';
import { stripTagMarkup } from '../format/format.ts';
import { generatePassword } from './passwords.ts';
import { hmac, purposeKey, siteSecret } from './secret.ts';

/** WP_Application_Passwords::PW_LENGTH */
export const APP_PASSWORD_LENGTH = 24;
/** last_used/last_ip are written at most once per this many seconds (DAY_IN_SECONDS). */
export const USAGE_INTERVAL_S = 86_400;

const NON_ALPHANUMERIC = /[^a-z\d]/gi;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** wp_is_uuid(): any version. */
export const isUuid = (s: string): boolean => UUID.test(s);

/** What Basic auth accepts: WordPress strips everything but letters and digits ("abcd EFGH ..." works). */
export const normaliseAppPassword = (pw: string): string => pw.replace(NON_ALPHANUMERIC, '');

/** chunk_password(): "abcd EFGH ijkl MNOP qrst UVWX". */
export const chunkAppPassword = (pw: string): string => normaliseAppPassword(pw).replace(/(.{4})(?!$)/g, '$1 ');

/**
 * Application passwords are 24 random alphanumerics (~143 bits), so unlike account passwords
 * they need no slow hash: a keyed fast hash (HMAC-SHA256 under a per-site secret, as WordPress
 * 6.8 uses keyed BLAKE2b) cannot be brute-forced even from a stolen database without the key,
 * and it keeps every authenticated request cheap. Being deterministic, it also lets the store
 * find the matching row by its hash.
 */
export async function appPasswordHasher(store: Store): Promise<(password: string) => string> {
  const key = purposeKey(await siteSecret(store), 'app-password');
  return (password) => `$hmac-sha256$${hmac(key, normaliseAppPassword(password))}`;
}

export interface NewAppPassword {
  name: string;
  appId?: string;
}

const emptyName = () => new RestError('application_password_empty_name', 'An application name is required to create an application password.', 400);

/** sanitize_text_field, as far as a name needs it: no tags, no line breaks, single spaces, trimmed. */
export const sanitizeName = (name: string): string =>
  stripTagMarkup(name)
    .replace(/[\r\n\t ]+/g, ' ')
    .trim();

async function assertUniqueName(store: Store, userId: number, name: string, except?: string): Promise<void> {
  const lower = name.toLowerCase();
  const rows = await store.appPasswords.list(userId);
  if (rows.some((r) => r.uuid !== except && r.name.toLowerCase() === lower))
    throw new RestError('application_password_duplicate_name', 'Each application name should be unique.', 409);
}

/** Creates an application password; the plain password is returned once and stored only as a hash. */
export async function createAppPassword(store: Store, userId: number, input: NewAppPassword): Promise<{ row: AppPasswordRow; password: string }> {
  const name = sanitizeName(input.name);
  if (!name) throw emptyName();
  const hash = await appPasswordHasher(store);
  return store.transaction(async (tx) => {
    await assertUniqueName(tx, userId, name);
    const password = generatePassword(APP_PASSWORD_LENGTH);
    const row: AppPasswordRow = {
      uuid: randomUUID(),
      user_id: userId,
      app_id: input.appId ?? '',
      name,
      password_hash: hash(password),
      created: Math.floor(Date.now() / 1000),
      last_used: null,
      last_ip: null,
    };
    await tx.appPasswords.insert(row);
    return { row, password };
  });
}

// The REST controller's code (WP_REST_Application_Passwords_Controller::get_application_password), which answers before the class's own.
const notFound = () => new RestError('rest_application_password_not_found', 'Application password not found.', 404);

export async function renameAppPassword(store: Store, userId: number, uuid: string, newName: string): Promise<AppPasswordRow> {
  const name = sanitizeName(newName);
  if (!name) throw emptyName();
  return store.transaction(async (tx) => {
    if (!(await tx.appPasswords.get(userId, uuid))) throw notFound();
    await assertUniqueName(tx, userId, name, uuid);
    await tx.appPasswords.rename(userId, uuid, name);
    return (await tx.appPasswords.get(userId, uuid))!;
  });
}

/** Deletes one password and returns it as it was. */
export async function revokeAppPassword(store: Store, userId: number, uuid: string): Promise<AppPasswordRow> {
  return store.transaction(async (tx) => {
    const row = await tx.appPasswords.get(userId, uuid);
    if (!row || !(await tx.appPasswords.delete(userId, uuid))) throw notFound();
    return row;
  });
}

export async function getAppPassword(store: Store, userId: number, uuid: string): Promise<AppPasswordRow> {
  const row = await store.appPasswords.get(userId, uuid);
  if (!row) throw notFound();
  return row;
}
