import type { Store } from '../store/index.ts';
import type { UserRow } from '../store/users.ts';
import { generatePassword, hashPassword } from './passwords.ts';
import { hmac, purposeKey, sameSecret, siteSecret } from './secret.ts';
import { BrowserSessions } from './session.ts';

/** How long a reset link works (password_reset_expiration: DAY_IN_SECONDS). */
export const RESET_KEY_TTL_S = 86_400;
/** The user meta key of the pending reset (WordPress's user_activation_key column): `time:MAC of the key`. */
const RESET_META = 'user_activation_key';

const keyOf = async (store: Store) => purposeKey(await siteSecret(store), 'password-reset');

/**
 * get_password_reset_key(): a new random key of 20 letters and digits, of which only a MAC is
 * kept (with the time it was made), so the database alone cannot be used to reset a password.
 * A new key replaces any earlier one.
 */
export async function createResetKey(store: Store, user: UserRow, now = Date.now()): Promise<string> {
  const key = generatePassword(20);
  await store.users.meta.set(user.id, RESET_META, `${Math.floor(now / 1000)}:${hmac(await keyOf(store), `${user.id}|${key}`)}`);
  return key;
}

/**
 * check_password_reset_key(): the account whose pending key this is, or WordPress's error code:
 * `invalid_key` (no such login, no pending key, not this key), `expired_key` (older than a day).
 */
export async function checkResetKey(store: Store, key: string, login: string, now = Date.now()): Promise<UserRow | 'invalid_key' | 'expired_key'> {
  if (!/^[A-Za-z0-9]{1,64}$/.test(key) || !login) return 'invalid_key';
  const user = await store.users.byLogin(login);
  if (!user) return 'invalid_key';
  const stored = await store.users.meta.get(user.id, RESET_META);
  const m = stored ? /^(\d+):([\w-]+)$/.exec(stored) : null;
  if (!m) return 'invalid_key';
  if (!sameSecret(hmac(await keyOf(store), `${user.id}|${key}`), m[2])) return 'invalid_key';
  if (Number(m[1]) + RESET_KEY_TTL_S <= Math.floor(now / 1000)) return 'expired_key';
  return user;
}

/**
 * reset_password(): the new password, the key used up (a link works once), and every session of
 * the account ended (the old password's cookies carry its fragment; the records go too).
 */
export async function resetPassword(store: Store, user: UserRow, password: string): Promise<void> {
  await store.users.update(user.id, { password_hash: await hashPassword(password) });
  await store.users.meta.delete(user.id, RESET_META);
  await (await BrowserSessions.of(store)).logOutEverywhere(user.id);
}
