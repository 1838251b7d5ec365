import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { sql } from './kysely.ts';
import { sqlBound } from './sql-bound.ts';

/** One period of a date archive: its year, its month (monthly and daily archives), its day (daily) and how many posts it holds. */
export interface ArchivePeriod {
  year: number;
  month?: number;
  day?: number;
  count: number;
}

const PREFIX = { yearly: 4, monthly: 7, daily: 10 } as const;

/**
 * Date archives (wp_get_archives' yearly, monthly and daily lists): published posts grouped by the
 * period of their site-local date, newest first. The date is stored as 'YYYY-MM-DD HH:MM:SS'
 * text, so the period is its prefix, the same on SQLite and PostgreSQL.
 */
export class ArchivesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async periods(type: string, by: keyof typeof PREFIX, limit?: number): Promise<ArchivePeriod[]> {
    // a literal length, so that PostgreSQL sees the grouped expression and the selected one as the same
    const period = sql<string>`substr(${sql.ref('date')}, 1, ${sql.lit(PREFIX[by])})`;
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
      const [year, month, day] = r.period.split('-').map(Number);
      const count = Number(r.count);
      return by === 'daily' ? { year, month, day, count } : by === 'monthly' ? { year, month, count } : { year, count };
    });
  }
}
