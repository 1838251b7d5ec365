import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { config } from '../config.ts';
import type { Store } from '../store/index.ts';

const OPTION = 'cms_auth_secret';

/**
 * The per-site secret (WordPress's AUTH_KEY/SALT family), made on first use and kept in the
 * options table so every process serving the database shares it. addMissing keeps the first
 * writer's value when two processes race.
 */
export async function siteSecret(store: Store): Promise<Buffer> {
  let value = await store.options.get(OPTION);
  if (value === undefined) {
    await store.options.addMissing({ [OPTION]: randomBytes(32).toString('base64url') });
    value = (await store.options.get(OPTION))!;
  }
  return Buffer.from(value, 'base64url');
}

/** One key per purpose, so a MAC made for one use (a session cookie) can never pass as another (a password hash). */
export const purposeKey = (secret: Buffer, purpose: 'app-password' | 'session' | 'csrf' | 'widget' | 'comment' | 'oauth-client' | 'oauth-code' | 'oauth-token' | 'response-cache' | 'nonce' | 'password-reset'): Buffer => createHmac('sha256', secret).update(purpose).digest();

export const hmac = (key: Buffer, data: string): string => createHmac('sha256', key).update(data).digest('base64url');

/** Whether a MAC or token given is the one expected, in a time that does not tell how much of it matched. */
export function sameSecret(given: string, expected: string): boolean {
  const x = Buffer.from(given);
  const y = Buffer.from(expected);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The key a purpose's stored secrets (a plugin's OAuth tokens) are sealed with: derived from the
 * server's CMS_SPEC_SECRET_KEY when it has one, which never enters the database, so a copy of the
 * database alone opens nothing; else from the site secret, which only keeps them out of plain
 * sight. Values sealed under one key do not open under another (see `unseal`).
 */
export async function sealingKey(store: Store, purpose: string): Promise<Buffer> {
  const configured = config().secretKey;
  const material = configured === null ? await siteSecret(store) : Buffer.from(configured, 'utf8');
  return Buffer.from(hkdfSync('sha256', material, 'cms-spec sealed values', purpose, 32));
}

const SEALED_PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM: `sealed:v1:` and the base64url of nonce, tag and ciphertext. */
export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/**
 * What `seal` sealed, or undefined when the value was not sealed with this key (another server
 * key, a changed site secret, a value altered in the database): the caller treats it as absent.
 */
export function unseal(key: Buffer, sealed: string): string | undefined {
  if (!sealed.startsWith(SEALED_PREFIX)) return undefined;
  const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
