import type { Migration } from 'kysely';
import * as options from './001-options.ts';
import * as usersPosts from './002-users-posts.ts';

/** Every migration, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '001-options': options,
  '002-users-posts': usersPosts,
};
