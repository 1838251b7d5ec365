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

// --- WordPress's rules for account fields (validate_username, check_user_password, wp_insert_user) ---

/** user_login's length limit. */
export const LOGIN_MAX = 60;
/** user_nicename's length limit. */
export const NICENAME_MAX = 50;

/**
 * sanitize_user($s, true): tags, percent-octets and entities removed, then only ASCII letters,
 * digits, space and `_ . - @` kept, trimmed, with runs of whitespace made one space.
 */
export function sanitizeUserStrict(s: string): string {
  return s
    .replace(/<[^>]*>?/g, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/%[a-fA-F0-9]{2}/g, '')
    .replace(/&.+?;/g, '')
    .replace(/[^a-z0-9 _.\-@]/gi, '')
    .trim()
    .replace(/\s+/g, ' ');
}

/** validate_username: a login is valid when sanitize_user($login, true) leaves it as it is, and it is not empty. */
export const isValidUsername = (login: string): boolean => login !== '' && sanitizeUserStrict(login) === login;

/** check_user_password: WordPress's message for a password it refuses, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (password === '') return 'Passwords cannot be empty.';
  // wp_hash_password stores what it gets; WordPress refuses the backslash because its forms slash input
  if (password.includes('\\')) return 'Passwords cannot contain the "\\" character.';
  return undefined;
}

/**
 * wp_insert_user's nicename: the wanted one when no other account has it, else the first free
 * `name-2`, `name-3`... (cut so that the suffixed name stays within 49 characters).
 */
export async function uniqueNicename(store: Store, wanted: string, login: string): Promise<string> {
  if (!(await store.users.nicenameTaken(wanted, login))) return wanted;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${[...wanted].slice(0, 49 - String(suffix).length).join('')}-${suffix}`;
    if (!(await store.users.nicenameTaken(candidate, login))) return candidate;
  }
}
