import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Store } from '../store/index.ts';
import type { UserRow } from '../store/users.ts';
import { hmac, purposeKey, sameSecret, siteSecret } from './secret.ts';
import { FailureThrottle } from './throttle.ts';

/** How long a login lasts (WordPress's auth cookie without "remember me"). */
export const SESSION_TTL_S = 2 * 86_400;
/** How long a login with "Remember Me" lasts. */
export const REMEMBERED_TTL_S = 14 * 86_400;
export const SESSION_COOKIE = 'cms_auth_session';
/** A nonce's lifetime (nonce_life): it is valid in the half-life tick it was made in and the next one. */
export const NONCE_LIFE_S = 86_400;
/** The user meta key of a user's live sessions, as WP_User_Meta_Session_Tokens keeps them. */
const SESSIONS_META = 'session_tokens';

/**
 * A browser's state, carried in one signed cookie: a random token (so every browser's CSRF tokens
 * and nonces differ, even before login), the logged-in user (0 = nobody), the expiry, and a MAC
 * under the site's session key. The MAC also covers a fragment of the user's password hash, so
 * changing the account password ends every session, as WordPress's pass_frag does.
 */
export interface Session {
  token: string;
  userId: number;
  expires: number;
  /** The cookie value, which CSRF tokens are bound to. */
  value: string;
}

/** A session read from a request, with its user's row when someone is logged in. */
export interface ReadSession extends Session {
  user?: UserRow;
}

/** Whom a nonce is made for: a user, and their browser session's token ('' without one). */
export type NonceHolder = Pick<Session, 'userId' | 'token'>;

/** What the server keeps of a logged-in session (WordPress's session_tokens entry), by the SHA-256 of its token. */
interface SessionRecord {
  expiration: number;
  ip: string;
  ua: string;
  login: number;
}

const passFragment = (passwordHash: string) => passwordHash.slice(-12);
const SESSION_SHAPE = /^([\w-]{16})\.(\d{1,15})\.(\d{1,15})\.([\w-]{43})$/;
const tokenKey = (token: string) => createHash('sha256').update(token).digest('hex');


/** The value of one cookie from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The site's browser logins, shared by every page that logs a person in (the admin's login, the
 * application-authorization page) and by the REST API's cookie authentication: the signed cookie,
 * the server-side record of each logged-in session (so logging out ends it for good, as
 * WordPress's session tokens do), CSRF tokens for forms, REST nonces, and one failed-login
 * throttle for all of them, so a guesser gains nothing by switching pages.
 */
export class BrowserSessions {
  readonly throttle: FailureThrottle;

  private constructor(
    private readonly store: Store,
    private readonly sessionKey: Buffer,
    private readonly csrfKey: Buffer,
    private readonly nonceKey: Buffer,
  ) {
    this.throttle = new FailureThrottle(store, 'browser-login');
  }

  private static readonly bySite = new WeakMap<Store, Promise<BrowserSessions>>();

  /** The store's sessions; the site secret is read once (a failed read is tried again next time). */
  static of(store: Store): Promise<BrowserSessions> {
    let s = BrowserSessions.bySite.get(store);
    if (!s) {
      s = siteSecret(store).then((secret) => new BrowserSessions(store, purposeKey(secret, 'session'), purposeKey(secret, 'csrf'), purposeKey(secret, 'nonce')));
      s.catch(() => BrowserSessions.bySite.delete(store));
      BrowserSessions.bySite.set(store, s);
    }
    return s;
  }

  private sign(token: string, userId: number, expires: number, passwordHash: string): Session {
    const body = `${token}.${userId}.${expires}`;
    return { token, userId, expires, value: `${body}.${hmac(this.sessionKey, `${body}.${passFragment(passwordHash)}`)}` };
  }

  /** A session for a browser nobody has logged in with yet (it carries the login form's CSRF token). */
  anonymous(now = Date.now()): Session {
    return this.sign(randomBytes(12).toString('base64url'), 0, Math.floor(now / 1000) + SESSION_TTL_S, '');
  }

  /**
   * The session a Cookie header carries, or null: a bad MAC, an expired one, a user gone or whose
   * password changed since, or a logged-in session that was logged out.
   */
  async read(cookieHeader: string | undefined, now = Date.now()): Promise<ReadSession | null> {
    const value = cookieValue(cookieHeader, SESSION_COOKIE);
    const m = value ? SESSION_SHAPE.exec(value) : null;
    if (!m) return null;
    const [, token, user, expires, mac] = m;
    if (Number(expires) * 1000 <= now) return null;
    const userId = Number(user);
    const row = userId === 0 ? undefined : await this.store.users.get(userId);
    if (userId !== 0 && !row) return null;
    if (!sameSecret(mac, hmac(this.sessionKey, `${token}.${user}.${expires}.${passFragment(row?.password_hash ?? '')}`))) return null;
    if (row && !(await this.records(userId))[tokenKey(token)]) return null;
    return { token, userId, expires: Number(expires), value: value!, user: row };
  }

  /** A new session for a user who just gave their password; a new token, so a session planted before cannot be ridden after. */
  async logIn(row: UserRow, ip: string, userAgent: string, remembered = false, now = Date.now()): Promise<Session> {
    const session = this.sign(randomBytes(12).toString('base64url'), row.id, Math.floor(now / 1000) + (remembered ? REMEMBERED_TTL_S : SESSION_TTL_S), row.password_hash);
    const nowS = Math.floor(now / 1000);
    const kept = Object.fromEntries(Object.entries(await this.records(row.id)).filter(([, r]) => r.expiration > nowS));
    kept[tokenKey(session.token)] = { expiration: session.expires, ip, ua: userAgent, login: nowS };
    await this.store.users.meta.set(row.id, SESSIONS_META, JSON.stringify(kept));
    return session;
  }

  /** Ends a logged-in session: its cookie no longer opens anything, wherever a copy of it is. */
  async logOut(session: Session): Promise<void> {
    if (session.userId === 0) return;
    const records = await this.records(session.userId);
    delete records[tokenKey(session.token)];
    await this.store.users.meta.set(session.userId, SESSIONS_META, JSON.stringify(records));
  }

  /** Ends every session of a user (WP_Session_Tokens::destroy_all), as a password reset does. */
  async logOutEverywhere(userId: number): Promise<void> {
    await this.store.users.meta.delete(userId, SESSIONS_META);
  }

  private async records(userId: number): Promise<Record<string, SessionRecord>> {
    const raw = await this.store.users.meta.get(userId, SESSIONS_META);
    if (!raw) return {};
    try {
      const parsed = JSON.parse(raw) as unknown;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, SessionRecord>) : {};
    } catch {
      return {};
    }
  }

  /**
   * The Set-Cookie value of a session: the whole site (the REST API reads it too), HttpOnly,
   * SameSite=Lax, Secure on https. A remembered login's cookie outlives the browser; any other
   * lasts while the browser runs (and the session no longer than its own expiry), as WordPress's.
   */
  cookie(session: Session, home: string, now = Date.now()): string {
    const left = session.expires - Math.floor(now / 1000);
    return `${SESSION_COOKIE}=${session.value}; ${this.cookieScope(home)}${left > SESSION_TTL_S ? `; Max-Age=${left}` : ''}`;
  }

  /** The Set-Cookie value that removes the session cookie (logging out). */
  clearedCookie(home: string): string {
    return `${SESSION_COOKIE}=; ${this.cookieScope(home)}; Max-Age=0`;
  }

  private cookieScope(home: string): string {
    const url = new URL(home || 'http://localhost/');
    const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    return `Path=${path}; HttpOnly; SameSite=Lax${url.protocol === 'https:' ? '; Secure' : ''}`;
  }

  /** A form's CSRF token: bound to the session cookie and to the action it authorises. */
  csrf(session: Session, action: string): string {
    return hmac(this.csrfKey, `${action}|${session.value}`);
  }

  checkCsrf(session: Session, action: string, token: unknown): boolean {
    return typeof token === 'string' && sameSecret(token, this.csrf(session, action));
  }

  /**
   * wp_create_nonce(): ten hex digits of a MAC over the tick, the action, the user and the
   * session's token, so a nonce is good only for that user in that browser session, for 12 to 24
   * hours. An anonymous caller (no session) has the user 0 and an empty token, as in WordPress; a
   * user who came without a browser session (an application password) has their id and an empty
   * token, as wp_get_session_token gives them.
   */
  nonce(session: NonceHolder | null, action: string, now = Date.now()): string {
    return this.nonceAt(nonceTick(now), session, action);
  }

  /** wp_verify_nonce(): 1 when made in this tick, 2 in the one before, 0 when not valid. */
  verifyNonce(session: NonceHolder | null, action: string, nonce: string, now = Date.now()): 0 | 1 | 2 {
    if (!nonce) return 0;
    const tick = nonceTick(now);
    if (sameSecret(nonce, this.nonceAt(tick, session, action))) return 1;
    if (sameSecret(nonce, this.nonceAt(tick - 1, session, action))) return 2;
    return 0;
  }

  private nonceAt(tick: number, session: NonceHolder | null, action: string): string {
    const hex = createHmac('sha256', this.nonceKey).update(`${tick}|${action}|${session?.userId ?? 0}|${session?.userId ? session.token : ''}`).digest('hex');
    return hex.slice(-12, -2);
  }
}

/** wp_nonce_tick(): the half-life period the time falls in. */
export const nonceTick = (now: number) => Math.ceil(now / 1000 / (NONCE_LIFE_S / 2));
