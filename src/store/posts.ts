import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

// SCAFFOLD: filled in by the content work.
export class PostsRepo {
  constructor(private readonly db: Kysely<DB>) {}
}
