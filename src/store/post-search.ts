import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { sql } from './kysely.ts';
import type { DB } from './schema.ts';
import { matchesText } from './transact.ts';

/** WP_Query's search: the text taken apart into terms, each matched with LIKE, and the results ranked by relevance. */

// WP_Query::get_search_stopwords (English)
const SEARCH_STOPWORDS: ReadonlySet<string> = new Set(
  'about an are as at be by com for from how in is it of on or that the this to was what when where who will with www'.split(' '),
);
// WP_Query::parse_search: quoted phrases or runs of anything but space, tab, quote, comma, plus
const SEARCH_TERM = /"[^"]*(?:"|$)|(?:(?<=[\t ",+])|^)[^\t ",+]+/g;

export interface ParsedSearch {
  /** The whole search text (the phrase relevance ranks on). */
  sentence: string;
  include: string[];
  exclude: string[];
}

const termCount = (s: ParsedSearch) => s.include.length + s.exclude.length;

/** WP_Query::parse_search + parse_search_terms: the terms matched with LIKE, minus stopwords. */
export function parseSearch(text: string): ParsedSearch {
  const sentence = text.replace(/\s+/g, ' ').trim();
  const found = (sentence.match(SEARCH_TERM) ?? []).map((t) => t.replace(/^"|"$/g, '').trim()).filter(Boolean);
  let terms = found;
  if (found.length > 1) {
    terms = found.filter((t) => !(t.length === 1 && /^[a-z-]$/i.test(t)) && !SEARCH_STOPWORDS.has(t.toLowerCase()));
    if (!terms.length || terms.length > 9) terms = [sentence];
  }
  const include: string[] = [];
  const exclude: string[] = [];
  for (const t of terms) {
    if (t.length > 1 && t.startsWith('-')) exclude.push(t.slice(1));
    else include.push(t);
  }
  return { sentence, include, exclude };
}

export type PostsEB = ExpressionBuilder<DB, 'posts'>;

type SearchColumn = 'title' | 'excerpt' | 'content';

/** The column holds the text anywhere, in any case (WP_Query's `LIKE '%text%'`). */
export const contains = (db: Kysely<DB>, eb: PostsEB, column: SearchColumn, text: string, negated = false) => {
  const match = matchesText(db, eb.ref(column), text);
  return negated ? eb.not(match) : match;
};

/**
 * WP_Query::parse_search_order: with several terms, the whole phrase in the title first (unless
 * some term is negative), then all terms in the title, any term in it, the phrase in the excerpt,
 * in the content; with one term, title matches first.
 */
export function relevance(db: Kysely<DB>, eb: PostsEB, s: ParsedSearch) {
  const like = (column: SearchColumn, text: string) => contains(db, eb, column, text);
  if (termCount(s) <= 1) return eb.case().when(like('title', s.include[0] ?? s.sentence)).then(1).else(2).end();
  const phrase = s.exclude.length ? undefined : s.sentence;
  const whens: [Expression<SqlBool>, number][] = [];
  if (phrase) whens.push([like('title', phrase), 1]);
  if (s.include.length && s.include.length < 7) {
    whens.push([eb.and(s.include.map((t) => like('title', t))), 2]);
    if (s.include.length > 1) whens.push([eb.or(s.include.map((t) => like('title', t))), 3]);
  }
  if (phrase) whens.push([like('excerpt', phrase), 4], [like('content', phrase), 5]);
  if (!whens.length) return sql<number>`6`;
  const [[firstWhen, firstThen], ...rest] = whens;
  let c = eb.case().when(firstWhen).then(firstThen);
  for (const [w, t] of rest) c = c.when(w).then(t);
  return c.else(6).end();
}
