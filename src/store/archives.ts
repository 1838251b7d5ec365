import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { sql } from './kysely.ts';
import { sqlBound } from './sql-bound.ts';

/** One period of a date archive: its year, its month (for monthly archives) and how many posts it holds. */
export interface ArchivePeriod {
  year: number;
  month?: number;
  count: number;
}

/**
 * Date archives (wp_get_archives' monthly and yearly lists): published posts grouped by the
 * period of their site-local date, newest first. The date is stored as 'YYYY-MM-DD HH:MM:SS'
 * text, so the period is its prefix, the same on SQLite and PostgreSQL.
 */
export class ArchivesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async periods(type: string, by: 'monthly' | 'yearly', limit?: number): Promise<ArchivePeriod[]> {
    // a literal length, so that PostgreSQL sees the grouped expression and the selected one as the same
    const period = sql<string>`substr(${sql.ref('date')}, 1, ${sql.lit(by === 'monthly' ? 7 : 4)})`;
    let query = this.db
      .selectFrom('posts')
      .select([period.as('period'), (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('type', '=', type)
      .where('status', '=', 'publish')
      .groupBy(period)
      .orderBy(period, 'desc');
    if (limit !== undefined) query = query.limit(sqlBound(limit));
    const rows = await query.execute();
    return rows.map((r) => {
      const [year, month] = r.period.split('-').map(Number);
      return by === 'monthly' ? { year, month, count: Number(r.count) } : { year, count: Number(r.count) };
    });
  }
}
