import type { Kysely } from 'kysely';
import { sql } from '../kysely.ts';
import { isPostgres } from '../portable.ts';

/** The columns WP_Query's search reads: each term must be in the title, the excerpt or the content. */
const SEARCHED = ['title', 'excerpt', 'content'] as const;

/**
 * PostgreSQL only: trigram GIN indexes (pg_trgm) on the searched columns, so `search=` finds its
 * posts through the index instead of scanning every post's text. Trigram indexes answer the very
 * `ILIKE '%term%'` the store runs, so the results are WordPress's LIKE results to the byte; a
 * tsvector index would match words and stems instead, and give other results than WordPress.
 * Where pg_trgm cannot be had (not available, or no right to create it), search stays correct and
 * scans, as it does on SQLite.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // one database may hold many sites (schemas) migrating at once; the extension is the database's
  await sql`select pg_advisory_xact_lock(hashtext('cms-spec:pg_trgm'))`.execute(db);
  let schema = await trigramSchema(db);
  if (schema === undefined) {
    const { rows } = await sql<{ can: boolean }>`
      select exists (select 1 from pg_available_extensions where name = 'pg_trgm')
         and has_database_privilege(current_database(), 'CREATE') as can`.execute(db);
    if (!rows[0]?.can) return;
    // in public, not the site's schema: a site's schema may be dropped, and the extension with it
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    schema = await trigramSchema(db);
    if (schema === undefined) return;
  }
  for (const column of SEARCHED) {
    await sql`create index ${sql.id(`posts_${column}_trigrams`)} on posts using gin (${sql.id(column)} ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  }
}

/** The schema pg_trgm is installed in, if it is. */
async function trigramSchema(db: Kysely<any>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema;
}
