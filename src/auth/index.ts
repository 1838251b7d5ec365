import type { Authenticator } from '../engine/types.ts';
import type { Site } from '../engine/site.ts';
import type { Store } from '../store/index.ts';

// PLACEHOLDER until the authentication issue's work lands here: nobody is logged in.
export function createAuthenticator(_store: Store, _site: Site): Authenticator {
  return { authenticate: async () => null };
}
