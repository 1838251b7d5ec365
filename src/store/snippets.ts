import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

// SCAFFOLD: filled in by the work that owns these tables.
/** Table types this module owns (merged into DB in schema.ts). */
export interface SnippetsTables {}

export class SnippetsRepo {
  constructor(private readonly db: Kysely<DB>) {}
}
