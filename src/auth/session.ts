import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hmac } from './secret.ts';

/** How long a login on the authorization page lasts (WordPress's auth cookie without "remember me"). */
export const SESSION_TTL_S = 2 * 86_400;
export const SESSION_COOKIE = 'cms_auth_session';

/**
 * A browser's state on the authorization page, carried in one signed cookie: a random nonce (so
 * every browser's CSRF tokens differ, even before login), the logged-in user (0 = nobody), the
 * expiry, and a MAC under the site's session key. The MAC also covers a fragment of the user's
 * password hash, so changing the account password ends every session, as WordPress's pass_frag does.
 */
export interface Session {
  nonce: string;
  userId: number;
  expires: number;
  /** The cookie value, which CSRF tokens are bound to. */
  value: string;
}

const passFragment = (passwordHash: string) => passwordHash.slice(-12);

export function issueSession(key: Buffer, userId: number, passwordHash: string, now = Date.now()): Session {
  const nonce = randomBytes(12).toString('base64url');
  const expires = Math.floor(now / 1000) + SESSION_TTL_S;
  const body = `${nonce}.${userId}.${expires}`;
  return { nonce, userId, expires, value: `${body}.${hmac(key, `${body}.${passFragment(passwordHash)}`)}` };
}

const SESSION_SHAPE = /^([\w-]{16})\.(\d{1,15})\.(\d{1,15})\.([\w-]{43})$/;

/**
 * Checks a cookie value; `passwordHashOf` gives the stored hash of the user it names ('' for
 * the anonymous session), or undefined when that user no longer exists.
 */
export async function readSession(key: Buffer, value: string | undefined, passwordHashOf: (userId: number) => Promise<string | undefined>, now = Date.now()): Promise<Session | null> {
  const m = value ? SESSION_SHAPE.exec(value) : null;
  if (!m) return null;
  const [, nonce, user, expires, mac] = m;
  if (Number(expires) * 1000 <= now) return null;
  const passwordHash = await passwordHashOf(Number(user));
  if (passwordHash === undefined) return null;
  if (!safeEqual(mac, hmac(key, `${nonce}.${user}.${expires}.${passFragment(passwordHash)}`))) return null;
  return { nonce, userId: Number(user), expires: Number(expires), value: value! };
}

/** A form's CSRF token: bound to the session cookie and to the action it authorises. */
export const csrfToken = (key: Buffer, session: Session, action: string): string => hmac(key, `${action}|${session.value}`);

export const checkCsrf = (key: Buffer, session: Session, action: string, token: unknown): boolean => typeof token === 'string' && safeEqual(token, csrfToken(key, session, action));

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of one cookie from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
