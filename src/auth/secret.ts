import { createHmac, randomBytes } from 'node:crypto';
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
export const purposeKey = (secret: Buffer, purpose: 'app-password' | 'session' | 'csrf'): Buffer => createHmac('sha256', secret).update(purpose).digest();

export const hmac = (key: Buffer, data: string): string => createHmac('sha256', key).update(data).digest('base64url');
