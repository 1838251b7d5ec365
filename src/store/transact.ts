import type { Kysely } from 'kysely';

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
