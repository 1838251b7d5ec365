import type { ExpressionBuilder, Kysely } from 'kysely';
import type { ReferrerClass } from './traffic.ts';
import { sqlBound } from '../../store/sql-bound.ts';

export interface SiteAnalyticsTables {
  site_analytics_views: {
    /** 'YYYY-MM-DD' on the site's clock. */
    day: string;
    path: string;
    referrer_class: string;
    views: number;
  };
}

/** Which views a report counts: a range of days, optionally one referrer class and one path. */
export interface ViewFilter {
  start: string;
  end: string;
  referrerClass?: ReferrerClass;
  path?: string;
}

type Eb = ExpressionBuilder<SiteAnalyticsTables, 'site_analytics_views'>;

/** The page-view counters. */
export class ViewsRepo {
  constructor(private readonly db: Kysely<SiteAnalyticsTables>) {}

  /** One more view of a path on a day from a referrer class (an upsert: no row per view). */
  async count(day: string, path: string, referrerClass: ReferrerClass): Promise<void> {
    await this.db
      .insertInto('site_analytics_views')
      .values({ day, path, referrer_class: referrerClass, views: 1 })
      .onConflict((oc) => oc.columns(['day', 'path', 'referrer_class']).doUpdateSet({ views: (eb) => eb('site_analytics_views.views', '+', 1) }))
      .execute();
  }

  private where(f: ViewFilter) {
    return (eb: Eb) =>
      eb.and([
        eb('day', '>=', f.start),
        eb('day', '<=', f.end),
        ...(f.referrerClass ? [eb('referrer_class', '=', f.referrerClass)] : []),
        ...(f.path !== undefined ? [eb('path', '=', f.path)] : []),
      ]);
  }

  async total(f: ViewFilter): Promise<number> {
    const row = await this.db.selectFrom('site_analytics_views').select((eb) => eb.fn.sum<number>('views').as('views')).where(this.where(f)).executeTakeFirst();
    return Number(row?.views ?? 0);
  }

  /** Views per day, only the days that have some. */
  async byDay(f: ViewFilter): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('site_analytics_views').select(['day', (eb) => eb.fn.sum<number>('views').as('views')]).where(this.where(f)).groupBy('day').execute();
    return new Map(rows.map((r) => [r.day, Number(r.views)]));
  }

  /** Views per referrer class, only the classes that have some. */
  async byReferrerClass(f: ViewFilter): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('site_analytics_views')
      .select(['referrer_class', (eb) => eb.fn.sum<number>('views').as('views')])
      .where(this.where(f))
      .groupBy('referrer_class')
      .execute();
    return new Map(rows.map((r) => [r.referrer_class, Number(r.views)]));
  }

  /** The most viewed paths (most views first, then by path), a page of them. */
  async byPath(f: ViewFilter, limit: number, offset: number): Promise<{ path: string; views: number }[]> {
    const rows = await this.db
      .selectFrom('site_analytics_views')
      .select(['path', (eb) => eb.fn.sum<number>('views').as('views')])
      .where(this.where(f))
      .groupBy('path')
      .orderBy('views', 'desc')
      .orderBy('path')
      .limit(sqlBound(limit))
      .offset(sqlBound(offset))
      .execute();
    return rows.map((r) => ({ path: r.path, views: Number(r.views) }));
  }

  async countPaths(f: ViewFilter): Promise<number> {
    const row = await this.db.selectFrom('site_analytics_views').select((eb) => eb.fn.count<number>('path').distinct().as('n')).where(this.where(f)).executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
