import type { Expression, Kysely, RawBuilder, SqlBool } from 'kysely';
import { stripTagMarkup } from '../format/format.ts';
import { removeAccents } from '../format/remove-accents.ts';
import { sql } from './kysely.ts';
import { isPostgres } from './portable.ts';
import { PLAN_SHAPE_CHANGED } from './postgres-driver.ts';

/**
 * Runs `fn` in a transaction, or inline when `db` already is one: repo methods that write several
 * statements stay atomic whether a handler calls them alone or inside `store.transaction()`.
 */
export function atomically<D, T>(db: Kysely<D>, fn: (db: Kysely<D>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : inTransaction(db, fn);
}

/**
 * PostgreSQL's "deadlock detected", "could not serialize access" and "duplicate key": the
 * transaction is undone, and running it again is the cure. A duplicate key in a transaction that
 * looked first (a login, a slug) means a concurrent one inserted the same key between the look and
 * the insert; run again, the look sees it and answers as it would have (`existing_user_login`).
 * SQLite's writers take turns, so the look and the insert are never split there. And a named
 * statement whose table another process's migration changed (postgres-driver.ts): run again, it
 * is parsed again.
 */
const RETRYABLE = new Set(['40P01', '40001', '23505', PLAN_SHAPE_CHANGED]);
const ATTEMPTS = 5;

/**
 * Runs a whole transaction, and when PostgreSQL picks it as the victim of a deadlock with a
 * concurrent one (writers on several instances), runs it again, a few times, after a short random
 * pause. SQLite's writers take turns, so there it runs once.
 */
export async function retryingConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (e) {
      if (attempt >= ATTEMPTS || !RETRYABLE.has(String((e as { code?: unknown } | null)?.code))) throw e;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
    }
  }
}

/** Runs `fn` in a new transaction, run again if it loses a deadlock. */
export function inTransaction<D, T>(db: Kysely<D>, fn: (db: Kysely<D>) => Promise<T>): Promise<T> {
  return retryingConflicts(() => db.transaction().execute(fn));
}

/** 'YYYY-MM-DD HH:MM:SS' of an instant in UTC, the format WordPress stores dates in. */
export function sqlDate(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** Escapes LIKE wildcards so user text matches literally (paired with `escape '\'`). */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** SQLite refuses LIKE patterns longer than this, in bytes (SQLITE_MAX_LIKE_PATTERN_LENGTH). */
const LIKE_PATTERN_MAX = 50_000;

/**
 * `column LIKE '%text%'` with the text taken literally, `%` only where `anyBefore`/`anyAfter` ask,
 * case-insensitive on both databases as WordPress's MySQL collation matches: SQLite's LIKE folds
 * ASCII case itself, PostgreSQL is asked with ILIKE. Text too long for a SQLite LIKE pattern is
 * matched with instr and substr on lower() of both sides instead, which fold case the same way.
 */
export function matchesText(db: Kysely<any>, column: Expression<string>, text: string, anyBefore = true, anyAfter = true): RawBuilder<SqlBool> {
  const pattern = `${anyBefore ? '%' : ''}${likeEscape(text)}${anyAfter ? '%' : ''}`;
  // backslash is PostgreSQL's own LIKE escape; naming it (ESCAPE) would hide the pattern from the planner, which then scans instead of using the trigram index
  if (isPostgres(db)) return sql<SqlBool>`${column} ilike ${pattern}`;
  if (Buffer.byteLength(pattern) <= LIKE_PATTERN_MAX) return sql<SqlBool>`${column} like ${pattern} escape '\\'`;
  if (anyBefore && anyAfter) return sql<SqlBool>`instr(lower(${column}), lower(${text})) > 0`;
  if (anyAfter) return sql<SqlBool>`instr(lower(${column}), lower(${text})) = 1`;
  if (anyBefore) return sql<SqlBool>`substr(lower(${column}), -length(${text})) = lower(${text})`;
  return sql<SqlBool>`lower(${column}) = lower(${text})`;
}

/** The longest slug stored: WordPress's post_name and term slug columns are varchar(200). */
export const SLUG_MAX = 200;

/** _truncate_post_slug: at most `length` characters with no hyphen left at the end (slugs here are ASCII, so characters are bytes). */
export function truncateSlug(slug: string, length = SLUG_MAX): string {
  return slug.length > length ? slug.slice(0, length).replace(/-+$/, '') : slug;
}

/** Room a `-N` suffix may need at the end of a slug (ten digits and the hyphen). */
const SUFFIX_ROOM = 11;

/** wp_unique_post_slug's candidates: the slug itself, then `slug-2`, `slug-3`… each cut to fit SLUG_MAX. */
export function firstFreeSlug(slug: string, taken: { has(slug: string): boolean }): string {
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n++) {
    const candidate = `${truncateSlug(slug, SLUG_MAX - (String(n).length + 1))}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Finds the slug and every candidate firstFreeSlug could make of it (and maybe other slugs that
 * start with it: the callers look each candidate up exactly). A slug long enough for the suffix
 * to cut it shares only its first characters with its candidates, so those are matched.
 */
export function slugOrCandidates(db: Kysely<any>, column: Expression<string>, slug: string): RawBuilder<SqlBool> {
  if (slug.length > SLUG_MAX - SUFFIX_ROOM) return startsWith(db, column, truncateSlug(slug, SLUG_MAX - SUFFIX_ROOM));
  // on SQLite an ASCII slug and its `slug-N`s are one range of the column's index, from the slug to
  // `slug.` ('.' follows '-'): the OR of the two took it three times as long, two index searches merged
  if (!isPostgres(db) && PRINTABLE_ASCII.test(slug)) return sql<SqlBool>`(${column} >= ${slug} and ${column} < ${`${slug}.`})`;
  return sql<SqlBool>`(${column} = ${slug} or ${startsWith(db, column, `${slug}-`)})`;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * For compiledOnce: the name of the text slugOrCandidates writes for `slug`, and the values it
 * binds, for the two texts of nearly every slug (a sanitized slug is ASCII and short): SQLite's
 * range and PostgreSQL's `= or like`. Undefined for any other slug, whose query is built each time.
 */
export function slugCandidatesBound(db: Kysely<any>, slug: string): { shape: string; values: string[] } | undefined {
  if (slug.length > SLUG_MAX - SUFFIX_ROOM || !PRINTABLE_ASCII.test(slug)) return undefined;
  return isPostgres(db) ? { shape: 'slug or like', values: [slug, `${likeEscape(`${slug}-`)}%`] } : { shape: 'range', values: [slug, `${slug}.`] };
}

/**
 * `column` starting with `prefix`, in the prefix's case only, which changes nothing for a slug's
 * candidates (firstFreeSlug compares them exactly) and lets an index serve it. On PostgreSQL a
 * case-exact LIKE, which the slug columns' `text_pattern_ops` indexes serve (migration 019; ILIKE
 * read every post of the type on each create). On SQLite, an ASCII prefix is asked as a range of
 * the column's byte order, which its index on the column serves: SQLite's LIKE folds case, so no
 * BINARY index serves `LIKE 'prefix%'`.
 */
function startsWith(db: Kysely<any>, column: Expression<string>, prefix: string): RawBuilder<SqlBool> {
  // backslash is PostgreSQL's own LIKE escape (see matchesText)
  if (isPostgres(db)) return sql<SqlBool>`${column} like ${`${likeEscape(prefix)}%`}`;
  if (!PRINTABLE_ASCII.test(prefix)) return matchesText(db, column, prefix, false);
  const after = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return sql<SqlBool>`(${column} >= ${prefix} and ${column} < ${after})`;
}

/** Characters sanitize_title_with_dashes drops when saving (soft hyphen, ¡ ¿, angle and curly quotes, bullet, © ® ° … ™, accents, zero-width and direction marks, BOM, U+FFFC), as the octets it matches. */
const DROPPED_OCTETS = /%c2%ad|%c2%a1|%c2%bf|%c2%ab|%c2%bb|%e2%80%b9|%e2%80%ba|%e2%80%98|%e2%80%99|%e2%80%9c|%e2%80%9d|%e2%80%9a|%e2%80%9b|%e2%80%9e|%e2%80%9f|%e2%80%a2|%c2%a9|%c2%ae|%c2%b0|%e2%80%a6|%e2%84%a2|%c2%b4|%cb%8a|%cc%81|%cd%81|%cc%80|%cc%84|%cc%8c|%e2%80%8b|%e2%80%8c|%e2%80%8d|%e2%80%8e|%e2%80%8f|%e2%80%aa|%e2%80%ab|%e2%80%ac|%e2%80%ad|%e2%80%ae|%ef%bb%bf|%ef%bf%bc/g;
/** The spaces it turns into hyphens: no-break space, en and em dash, the typographic spaces, line and paragraph separators. */
const HYPHEN_OCTETS = /%c2%a0|%e2%80%93|%e2%80%94|%e2%80%8[0-9a]|%e2%80%a8|%e2%80%a9|%e2%80%af/g;

/** utf8_uri_encode( $text, 200 ): every byte of a non-ASCII character as `%xx`, cut before the character that would pass 200. */
function utf8UriEncode(text: string, length: number): string {
  let out = '';
  for (const c of text) {
    const encoded = c.charCodeAt(0) < 128 ? c : [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16)}`).join('');
    if (out.length + encoded.length > length) break;
    out += encoded;
  }
  return out;
}

/**
 * A URL's path segment, decoded, as sanitize_title_for_query finds the slug it names: its
 * non-ASCII characters lower-cased and percent-encoded as stored (`επ` → `%ce%b5%cf%80`).
 */
export const slugOfSegment = (segment: string): string => (/[^\x00-\x7f]/.test(segment) ? utf8UriEncode(segment.toLowerCase(), SLUG_MAX).toLowerCase() : segment);

/**
 * sanitize_title as WordPress saves a slug (remove_accents, then sanitize_title_with_dashes in
 * its `save` context): tags stripped, a `%` kept only as an octet, lower case, every other
 * character percent-encoded as UTF-8 (`επ` → `%ce%b5%cf%80`), dashes and spaces to hyphens,
 * quotes and marks dropped, anything but `%`, letters, digits, underscores and hyphens gone, at
 * most SLUG_MAX characters. Underscores stay, as in WordPress (a trashed post's `name__trashed`).
 * mb_strtolower lowers every script, as on a PHP with mbstring (the reference WordPress's PHP has
 * none, and leaves capitals of other scripts as they are).
 */
export function sanitizeSlug(s: string): string {
  let slug = stripTagMarkup(removeAccents(s))
    .replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '---$1---')
    .replace(/%/g, '')
    .replace(/---([a-fA-F0-9][a-fA-F0-9])---/g, '%$1');
  slug = utf8UriEncode(slug.toLowerCase(), SLUG_MAX).toLowerCase();
  slug = slug
    .replace(HYPHEN_OCTETS, '-')
    .replace(/&nbsp;|&#160;|&ndash;|&#8211;|&mdash;|&#8212;/g, '-')
    .replace(/\//g, '-')
    .replace(DROPPED_OCTETS, '')
    .replace(/%c3%97/g, 'x')
    .replace(/&.+?;/g, '')
    .replace(/\./g, '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
  return truncateSlug(slug);
}

/**
 * A text column (or expression) to sort by, in byte order on both databases: SQLite's default (BINARY), and on
 * PostgreSQL whatever the database's collation: what breaks ties between texts that fold alike.
 */
export function byteOrder(db: Kysely<any>, column: string | RawBuilder<string>): RawBuilder<string> {
  const value = typeof column === 'string' ? sql.ref(column) : column;
  return isPostgres(db) ? sql<string>`${value} collate "C"` : sql<string>`${value}`;
}

/**
 * A text column (or expression) folded for sorting as WordPress's MySQL collation sorts, as near as
 * both databases can say alike: ASCII letters folded to upper case, then byte order (`apple`,
 * `Banana`, `cherry`, `Zebra`, `_under`, as MariaDB's utf8mb4_general_ci orders a WordPress 6.1's
 * titles and names; it also folds accents, which this does not). upper() folds only ASCII on SQLite
 * and under PostgreSQL's "C" collation. Sort by it, then by byteOrder for texts that fold alike.
 * Migration 020 indexes a title's folded prefix with this same expression.
 */
export function foldedOrder(db: Kysely<any>, column: string | RawBuilder<string>): RawBuilder<string> {
  const value = typeof column === 'string' ? sql.ref(column) : column;
  return isPostgres(db) ? sql<string>`upper(${value} collate "C")` : sql<string>`upper(${value})`;
}
