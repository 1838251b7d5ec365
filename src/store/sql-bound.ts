/**
 * The largest LIMIT or OFFSET a query gets: far past any table (any offset past the last row
 * answers the same empty page), exact as a double, within PostgreSQL's bigint, and an offset plus
 * a page stays exact.
 */
export const MAX_SQL_BOUND = 2 ** 52;

/**
 * A LIMIT or OFFSET as both databases take it: a whole number from 0 to MAX_SQL_BOUND. Every
 * numeric bound a query takes from a request goes through here: SQLite refuses a fraction or a
 * number past 2^63 ("datatype mismatch": `page=1e300` times a page size), PostgreSQL one past its
 * bigint. NaN is 0; past the range, its nearest end.
 */
export function sqlBound(n: number): number {
  if (Number.isNaN(n)) return 0;
  return Math.min(Math.max(Math.trunc(n), 0), MAX_SQL_BOUND);
}
