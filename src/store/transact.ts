import type { Expression, Kysely, RawBuilder, SqlBool } from 'kysely';
import { sql } from './kysely.ts';
import { isPostgres } from './portable.ts';

/**
 * Runs `fn` in a transaction, or inline when `db` already is one: repo methods that write several
 * statements stay atomic whether a handler calls them alone or inside `store.transaction()`.
 */
export function atomically<D, T>(db: Kysely<D>, fn: (db: Kysely<D>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** 'YYYY-MM-DD HH:MM:SS' of an instant in UTC, the format WordPress stores dates in. */
export function sqlDate(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** Escapes LIKE wildcards so user text matches literally (paired with `escape '\'`). */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** sanitize_title for slugs: lower-case, accents folded, anything else to single hyphens. */
export function sanitizeSlug(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z0-9#]+;/g, '')
    .replace(/\./g, '-')
    .replace(/[^a-z0-9\s_-]/g, '')
    .trim()
    .replace(/[\s_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * `column like pattern escape '\'`, case-insensitive on both databases, as WordPress's MySQL
 * collation matches: SQLite's LIKE folds ASCII case itself, PostgreSQL needs ILIKE.
 */
export function likeAnyCase(db: Kysely<any>, column: Expression<unknown>, pattern: string, negated = false): RawBuilder<SqlBool> {
  const op = isPostgres(db) ? (negated ? 'not ilike' : 'ilike') : negated ? 'not like' : 'like';
  return sql<SqlBool>`${column} ${sql.raw(op)} ${pattern} escape '\\'`;
}

/**
 * A text column to sort by, in byte order on both databases: SQLite's default (BINARY), and on
 * PostgreSQL whatever the database's collation, so `orderby=title` lists alike on both.
 */
export function byteOrder(db: Kysely<any>, column: string): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
}
