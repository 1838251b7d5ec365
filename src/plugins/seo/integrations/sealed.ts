import { seal, sealingKey, unseal } from '../../../auth/secret.ts';
import type { Store } from '../../../store/index.ts';

/**
 * Secrets the integrations keep (OAuth tokens, the AI service's tokens and code verifiers), sealed
 * before they are stored (src/auth/secret.ts: AES-256-GCM under a key from the server's
 * CMS_SPEC_SECRET_KEY, else the site secret). A value that does not open (sealed under another
 * key, altered) reads as absent, so the service is connected again rather than sent garbage.
 */
const PURPOSE = 'seo-integration-tokens';

export async function readSealedOption<T>(store: Store, name: string): Promise<T | undefined> {
  const raw = await store.options.get(name);
  return raw ? open<T>(store, raw) : undefined;
}

export async function writeSealedOption(store: Store, name: string, value: unknown): Promise<void> {
  await store.options.set(name, seal(await sealingKey(store, PURPOSE), JSON.stringify(value)));
}

export async function readSealedUserMeta<T>(store: Store, userId: number, key: string): Promise<T | undefined> {
  const raw = await store.users.meta.get(userId, key);
  return raw ? open<T>(store, raw) : undefined;
}

export async function writeSealedUserMeta(store: Store, userId: number, key: string, value: unknown): Promise<void> {
  await store.users.meta.set(userId, key, seal(await sealingKey(store, PURPOSE), JSON.stringify(value)));
}

async function open<T>(store: Store, raw: string): Promise<T | undefined> {
  const text = unseal(await sealingKey(store, PURPOSE), raw);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
