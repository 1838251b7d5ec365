import { createHash } from 'node:crypto';

/** Digests kept: the authors and commenters a site's answers name. */
const KEPT_DIGESTS = 2000;

const kept = new Map<string, string>();

/**
 * The hex digest of a short text asked for again and again (an address's gravatar, an author's
 * schema.org id): made once, as each costs a hash object (~5–8 µs, several per answer made afresh).
 */
export function hexDigest(algorithm: 'md5' | 'sha256', text: string): string {
  const key = `${algorithm}\0${text}`;
  let digest = kept.get(key);
  if (digest === undefined) {
    digest = createHash(algorithm).update(text).digest('hex');
    if (kept.size >= KEPT_DIGESTS) kept.delete(kept.keys().next().value!);
    kept.set(key, digest);
  }
  return digest;
}
