import { RestError } from '../engine/errors.ts';
import type { Authenticator, User } from '../engine/types.ts';
import { presentedNonce } from '../engine/wp-rest.ts';
import type { Store } from '../store/index.ts';
import { appPasswordHasher, USAGE_INTERVAL_S } from './app-passwords.ts';
import { BrowserSessions, cookieValue, nonceTick, SESSION_COOKIE, type ReadSession } from './session.ts';
import { FailureThrottle } from './throttle.ts';
import { tokenGrant } from './oauth.ts';
import type { AppPasswordRow } from '../store/app-passwords.ts';
import { findAccount, LOGIN_ERRORS, toUser } from './users.ts';
import type { Roles } from './roles.ts';
import { KnownCredentials, type StateVersions } from './known-credentials.ts';

/**
 * What the authenticator reads of the site (the core's Site): its roles as they are at each
 * request, plugins' included, and the shared-state versions, caught up with every other writer
 * before each request.
 */
interface Site {
  readonly roles: Roles;
  readonly shared: StateVersions;
}

/** An application password that passed its check: the user it authenticates, and its row (for the daily record of its use). */
interface CheckedPassword {
  readonly user: User;
  readonly match: AppPasswordRow;
}

/** A session cookie that passed its check; the nonce it answers with is made once per nonce tick. */
interface CheckedSession {
  readonly session: ReadSession;
  readonly user: User;
  answered?: { readonly tick: number; readonly user: User };
}

const BASIC = /^basic\s+(\S+)\s*$/i;
const BEARER = /^bearer\s+(\S+)\s*$/i;

/** Splits a Basic credential into login and password; null when it is not one (WordPress then sees no credentials). */
function parseBasic(header: string): { login: string; password: string } | null {
  const m = BASIC.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The REST nonce's action (wp_create_nonce('wp_rest')). */
export const REST_NONCE_ACTION = 'wp_rest';

/** wp_get_nocache_headers(), sent with a refused nonce as rest_cookie_check_errors asks. */
const NO_CACHE = { Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0' };


/**
 * Who is calling, as WordPress's determine_current_user and rest_authentication_errors decide:
 *
 * - HTTP Basic with an application password (wp_validate_application_password): the login or
 *   email, then any of the user's application passwords. A wrong credential is a 401 with
 *   WordPress's code, and counts against the caller's address (see throttle.ts).
 * - An OAuth Bearer token, where it is accepted (a protected resource: the MCP endpoint), stands
 *   for an application password the same way (oauth.ts).
 * - Otherwise the browser's session cookie with a REST nonce (rest_cookie_check_errors): a
 *   logged-in cookie opens nothing without a nonce (the request is anonymous, so a page of another
 *   site cannot ride the cookie); a nonce that is not this session's (or, without a session, not
 *   the anonymous one) is 403 `rest_cookie_invalid_nonce`; a good one authenticates the session's
 *   user, and the answer carries a fresh nonce in `X-WP-Nonce`.
 *
 * Other schemes and no credentials at all mean an anonymous request.
 */
export function createAuthenticator(store: Store, site: Site): Authenticator {
  const throttle = new FailureThrottle(store, 'application-password', undefined, undefined, site.shared);
  // what each check reads: the account and its passwords; the account and its sessions (user meta)
  const knownPasswords = new KnownCredentials<CheckedPassword>(site.shared, ['users', 'app_passwords']);
  const knownSessions = new KnownCredentials<CheckedSession>(site.shared, ['users', 'user_meta']);
  let hasher: Promise<(pw: string) => string> | undefined;

  const fail = async (ip: string, code: keyof typeof LOGIN_ERRORS): Promise<never> => {
    await throttle.fail(ip);
    throw new RestError(code, LOGIN_ERRORS[code], 401);
  };

  /** An OAuth bearer token (oauth.ts): the user whose application password it stands for, while that password exists. */
  const bearer = async (token: string, ip: string): Promise<User> => {
    await throttle.check(ip);
    const grant = await tokenGrant(store, token);
    const [password, row] = grant ? await Promise.all([store.appPasswords.get(grant.u, grant.p), store.users.get(grant.u)]) : [];
    if (!password || !row) {
      await throttle.fail(ip);
      throw new RestError('invalid_token', 'The access token is invalid, or its application password was revoked.', 401);
    }
    await recordUse(password, ip);
    return withNonces(toUser(row, site.roles, password.uuid));
  };

  /** A user who came without a browser session: their nonces are made with an empty session token. */
  const withNonces = async (user: User): Promise<User> => {
    const sessions = await BrowserSessions.of(store);
    return { ...user, nonce: (action) => sessions.nonce({ userId: user.id, token: '' }, action) };
  };

  const recordUse = async (match: AppPasswordRow, ip: string) => {
    const now = Math.floor(Date.now() / 1000);
    if (match.last_used === null || match.last_used <= now - USAGE_INTERVAL_S) await store.appPasswords.recordUse(match.uuid, now, ip, USAGE_INTERVAL_S);
  };

  /** A Basic credential recognised: it passed its check, and nothing that check read has been written since. */
  async function recognisedPassword(known: CheckedPassword, ip: string): Promise<User> {
    const checking = throttle.check(ip);
    if (checking) await checking;
    await recordUse(known.match, ip);
    return known.user;
  }

  async function applicationPassword(digest: string, credentials: { login: string; password: string }, ip: string): Promise<User> {
    const stamp = knownPasswords.stamp();
    const roles = site.roles;
    await throttle.check(ip);
    const account = await findAccount(store, credentials.login);
    if ('error' in account) return fail(ip, account.error);
    // a failed first read of the site secret must not be cached
    hasher ??= appPasswordHasher(store).catch((e: unknown) => {
      hasher = undefined;
      throw e;
    });
    const hash = (await hasher)(credentials.password);
    const match = await store.appPasswords.byHash(account.row.id, hash);
    if (!match) return fail(ip, 'incorrect_password');
    await recordUse(match, ip);
    const user = await withNonces(toUser(account.row, roles, match.uuid));
    knownPasswords.keep(digest, { user, match }, stamp, roles);
    return user;
  }

  /** A session cookie with a REST nonce: the session recognised as `applicationPassword` recognises a password; the nonce checked every time. */
  async function cookieLogin(headers: Record<string, string>, nonce: string): Promise<User | null> {
    const sessions = await BrowserSessions.of(store);
    const value = cookieValue(headers.cookie, SESSION_COOKIE);
    const digest = value === undefined ? undefined : knownSessions.digest(value);
    let checked = digest === undefined ? undefined : knownSessions.get(digest, site.roles);
    const now = Date.now();
    if (checked && checked.session.expires * 1000 <= now) checked = undefined;
    if (!checked) {
      const stamp = knownSessions.stamp();
      const roles = site.roles;
      const session = await sessions.read(headers.cookie, now);
      if (session?.user) {
        checked = { session, user: toUser(session.user, roles) };
        knownSessions.keep(digest!, checked, stamp, roles);
      }
    }
    const loggedIn = checked?.session ?? null;
    if (!sessions.verifyNonce(loggedIn, REST_NONCE_ACTION, nonce, now)) {
      const e = new RestError('rest_cookie_invalid_nonce', 'Cookie check failed', 403);
      Object.assign(e.headers, NO_CACHE);
      throw e;
    }
    if (!checked) return null;
    const tick = nonceTick(now);
    const session = checked.session;
    if (checked.answered?.tick !== tick)
      checked.answered = { tick, user: { ...checked.user, answerHeaders: { 'X-WP-Nonce': sessions.nonce(session, REST_NONCE_ACTION, now) }, nonce: (action) => sessions.nonce(session, action) } };
    return checked.answered.user;
  }

  return {
    authenticate(headers, ip, query, accept): User | null | Promise<User | null> {
      const header = headers.authorization;
      const token = header && accept?.bearer ? BEARER.exec(header)?.[1] : undefined;
      if (token !== undefined) return bearer(token, ip);
      if (header) {
        const digest = knownPasswords.digest(header);
        const known = knownPasswords.get(digest, site.roles);
        if (known) return recognisedPassword(known, ip);
        const credentials = parseBasic(header);
        if (credentials) return applicationPassword(digest, credentials, ip);
      }
      const nonce = presentedNonce(headers, query);
      // no nonce: whatever cookie came along, the request is anonymous (and costs nothing more)
      if (nonce === undefined) return null;
      return cookieLogin(headers, nonce);
    },
  };
}

