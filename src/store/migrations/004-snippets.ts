import type { Kysely } from 'kysely';

// SCAFFOLD: filled in by the work that owns these tables.
export async function up(_db: Kysely<unknown>): Promise<void> {}
