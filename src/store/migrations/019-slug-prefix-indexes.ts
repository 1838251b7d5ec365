import type { Kysely } from 'kysely';
import { sql } from '../kysely.ts';
import { isPostgres } from '../portable.ts';

/**
 * On PostgreSQL, indexes that serve a slug's `-N` candidates (`slug like 'name-%'`, see
 * slugOrCandidates), which the unique-slug check of every new post and term asks: the database's
 * collation (not "C") keeps its ordinary index from serving a prefix, so the check read every post
 * of the type (every post, for an attachment). `text_pattern_ops` orders by bytes, which a prefix
 * needs. SQLite asks the prefix as a range its ordinary index serves.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index posts_slug_prefix on posts (slug text_pattern_ops, type)`.execute(db);
  await sql`create index terms_slug_prefix on terms (taxonomy, slug text_pattern_ops)`.execute(db);
}
