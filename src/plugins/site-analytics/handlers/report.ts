import type { Ctx } from '../../../core/context.ts';
import { collection, pageOf } from '../../../core/rest.ts';
import { invalidParam } from '../../../engine/index.ts';
import siteAnalytics from '../plugin.ts';
import type { ViewFilter } from '../repo.ts';
import { REFERRER_CLASSES, type ReferrerClass } from '../traffic.ts';

/** The longest range a report covers, in days (two years, leap day included). */
const MAX_RANGE_DAYS = 731;
/** The default range: the 28 days ending on end_date. */
const DEFAULT_RANGE_DAYS = 28;

const DAY_MS = 86_400_000;

/** A 'YYYY-MM-DD' argument as a UTC midnight, refused unless it is a real calendar day. */
function dayArg(name: string, value: string): number {
  const at = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== value) throw invalidParam(name, `${name} is not a calendar date (YYYY-MM-DD).`);
  return at;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * GET report: the page views of a range of days (default the 28 days ending today, on the site's
 * clock), optionally of one referrer class or path, as rows per `dimension` (every day of the
 * range, every referrer class, or the most viewed paths), paged with X-WP-Total/X-WP-TotalPages.
 */
export async function report(ctx: Ctx<'site-analytics:report.report'>) {
  const endMs = dayArg('end_date', ctx.args.end_date ?? ctx.site.localDate());
  const startMs = ctx.args.start_date === undefined || ctx.args.start_date === null ? endMs - (DEFAULT_RANGE_DAYS - 1) * DAY_MS : dayArg('start_date', ctx.args.start_date);
  if (startMs > endMs) throw invalidParam('start_date', 'start_date is after end_date.');
  const days = (endMs - startMs) / DAY_MS + 1;
  if (days > MAX_RANGE_DAYS) throw invalidParam('start_date', `The range is ${days} days long; a report covers at most ${MAX_RANGE_DAYS}.`);

  const filter: ViewFilter = { start: dayOf(startMs), end: dayOf(endMs) };
  if (ctx.args.referrer_class !== undefined) filter.referrerClass = ctx.args.referrer_class as ReferrerClass;
  if (ctx.args.path !== undefined) filter.path = String(ctx.args.path);
  const dimension = String(ctx.args.dimension ?? 'day');
  const repo = ctx.store.plugin(siteAnalytics);
  const p = pageOf(ctx);

  let rows: unknown[];
  let total: number;
  if (dimension === 'path') {
    [rows, total] = await Promise.all([
      repo.byPath(filter, p.perPage, p.offset).then((list) => list.map((r) => ({ path: r.path, url: ctx.site.url(r.path), views: r.views }))),
      repo.countPaths(filter),
    ]);
  } else {
    // every day of the range and every class, those without views at 0, so a chart has no gaps
    const all =
      dimension === 'day'
        ? await repo.byDay(filter).then((views) => Array.from({ length: days }, (_, i) => dayOf(startMs + i * DAY_MS)).map((day) => ({ day, views: views.get(day) ?? 0 })))
        : await repo.byReferrerClass(filter).then((views) => (filter.referrerClass ? [filter.referrerClass] : REFERRER_CLASSES).map((c) => ({ referrer_class: c, views: views.get(c) ?? 0 })));
    total = all.length;
    rows = all.slice(p.offset, p.offset + p.perPage);
  }

  const res = collection(ctx, rows, total, p);
  res.data = {
    start_date: filter.start,
    end_date: filter.end,
    dimension,
    referrer_class: filter.referrerClass ?? null,
    path: filter.path ?? null,
    total_views: await repo.total(filter),
    rows: res.data,
  };
  return res;
}
