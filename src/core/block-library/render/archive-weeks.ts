import type { ArchivePeriod } from '../../../store/archives.ts';

/**
 * wp_get_archives' weekly archive: posts grouped by MySQL's WEEK() of their date as
 * _wp_mysql_week asks for it from the `start_of_week` option, and by the year of their date, each
 * week shown from its first to its last day (get_weekstartend).
 */

const DAY_MS = 86_400_000;
const dayNumber = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / DAY_MS;
/** Days since 1970-01-01 (a Thursday) as MySQL's calc_weekday counts a weekday: 0 is Monday, or Sunday when `sundayFirst`. */
const weekday = (n: number, sundayFirst: boolean) => (((n + (sundayFirst ? 4 : 3)) % 7) + 7) % 7;
const daysInYear = (y: number) => ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 366 : 365);

/** MySQL's WEEK(date, mode) for modes 0 and 1 (calc_week with week_mode's behaviour). */
export function mysqlWeek(y: number, m: number, d: number, mode: 0 | 1): number {
  const mondayFirst = mode === 1;
  // week_mode: without Monday first, the first week is the one with the year's first Sunday
  const firstWeekday = !mondayFirst;
  let weekYear = false;
  const day = dayNumber(y, m, d);
  let first = dayNumber(y, 1, 1);
  let wd = weekday(first, !mondayFirst);
  let year = y;
  if (m === 1 && d <= 7 - wd) {
    if ((firstWeekday && wd !== 0) || (!firstWeekday && wd >= 4)) return 0;
    weekYear = true;
    year--;
    const days = daysInYear(year);
    first -= days;
    wd = (wd + 53 * 7 - days) % 7;
  }
  const days = (firstWeekday && wd !== 0) || (!firstWeekday && wd >= 4) ? day - (first + (7 - wd)) : day - (first - wd);
  if (weekYear && days >= 52 * 7) {
    const next = (wd + daysInYear(year)) % 7;
    if ((!firstWeekday && next < 4) || (firstWeekday && next === 0)) return 1;
  }
  return Math.floor(days / 7) + 1;
}

/** _wp_mysql_week's WEEK() of a date for a `start_of_week`: mode 1 from Monday, else mode 0 of the date moved back by start_of_week days. */
function weekOf(y: number, m: number, d: number, startOfWeek: number): number {
  if (startOfWeek === 1) return mysqlWeek(y, m, d, 1);
  if (startOfWeek >= 2 && startOfWeek <= 6) {
    const moved = new Date((dayNumber(y, m, d) - startOfWeek) * DAY_MS);
    return mysqlWeek(moved.getUTCFullYear(), moved.getUTCMonth() + 1, moved.getUTCDate(), 0);
  }
  return mysqlWeek(y, m, d, 0);
}

/** One week of the weekly archive: WEEK()'s number, the year of its posts' dates, its first and last day (UTC dates), its posts. */
export interface ArchiveWeek {
  week: number;
  year: number;
  start: Date;
  end: Date;
  count: number;
}

/**
 * The daily periods (newest first) grouped as wp_get_archives' weekly query groups them, by
 * WEEK() and YEAR(); a week that spans two years is two entries, and a week number repeated next
 * to itself is shown once, as WordPress skips it.
 */
export function archiveWeeks(days: readonly ArchivePeriod[], startOfWeek: number): ArchiveWeek[] {
  const out: ArchiveWeek[] = [];
  for (const p of days) {
    const week = weekOf(p.year, p.month ?? 1, p.day ?? 1, startOfWeek);
    const last = out[out.length - 1];
    if (last && last.week === week && last.year === p.year) {
      last.count += p.count;
      continue;
    }
    // get_weekstartend: back from the date to the week's first day, seven days on less a second
    const n = dayNumber(p.year, p.month ?? 1, p.day ?? 1);
    let wd = weekday(n, true);
    if (wd < startOfWeek) wd += 7;
    const start = new Date((n - (wd - startOfWeek)) * DAY_MS);
    out.push({ week, year: p.year, start, end: new Date(start.getTime() + 6 * DAY_MS), count: p.count });
  }
  return out.filter((w, i) => i === 0 || out[i - 1].week !== w.week);
}
