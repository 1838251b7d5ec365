import type { User } from '../engine/types.ts';
import type { Store } from '../store/index.ts';
import type { UserRow } from '../store/users.ts';
import type { Roles } from './roles.ts';

export const toUser = (row: UserRow, roles: Roles, appPasswordUuid?: string): User => ({
  id: row.id,
  login: row.login,
  email: row.email,
  displayName: row.display_name,
  role: row.role,
  caps: roles.capabilitiesOf(row.role),
  appPasswordUuid,
});

/** is_email(), loosely: enough to decide whether to try the email column. */
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const looksLikeEmail = (s: string) => EMAIL.test(s);

/**
 * Looks a login name up, then, when it looks like an address, an email (wp_authenticate_application_password's order).
 * Returns the row, or the WordPress error code for why there is none.
 */
export async function findAccount(store: Store, loginOrEmail: string): Promise<{ row: UserRow } | { error: 'invalid_username' | 'invalid_email' }> {
  const byLogin = await store.users.byLogin(loginOrEmail);
  if (byLogin) return { row: byLogin };
  if (!looksLikeEmail(loginOrEmail)) return { error: 'invalid_username' };
  const byEmail = await store.users.byEmail(loginOrEmail);
  return byEmail ? { row: byEmail } : { error: 'invalid_email' };
}

/** WordPress's messages for a failed login, HTML and all, as its REST answers carry them. */
export const LOGIN_ERRORS = {
  invalid_username: '<strong>Error:</strong> Unknown username. Check again or try your email address.',
  invalid_email: '<strong>Error:</strong> Unknown email address. Check again or try your username.',
  incorrect_password: 'The provided password is an invalid application password.',
} as const;
