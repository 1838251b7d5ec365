import type { Migration } from 'kysely';
import * as options from './001-options.ts';
import * as usersPosts from './002-users-posts.ts';
import * as terms from './003-terms.ts';
import * as snippets from './004-snippets.ts';
import * as oembedCache from './005-oembed-cache.ts';
import * as appPasswords from './006-app-passwords.ts';

/** Every migration, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '001-options': options,
  '002-users-posts': usersPosts,
  '003-terms': terms,
  '004-snippets': snippets,
  '005-oembed-cache': oembedCache,
  '006-app-passwords': appPasswords,
};
