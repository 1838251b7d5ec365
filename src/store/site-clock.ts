import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { sqlDate } from './transact.ts';

/** What converting between site time and GMT needs: the options WordPress reads for it. */
export interface SiteClock {
  home: string;
  gmtOffsetHours: number;
  timezone: string;
}

export async function siteClock(db: Kysely<DB>): Promise<SiteClock> {
  const rows = await db.selectFrom('options').select(['name', 'value']).where('name', 'in', ['home', 'gmt_offset', 'timezone_string']).execute();
  const o = Object.fromEntries(rows.map((r) => [r.name, r.value]));
  return { home: (o.home ?? '').replace(/\/+$/, ''), gmtOffsetHours: Number(o.gmt_offset) || 0, timezone: o.timezone_string ?? '' };
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes the site's clock is ahead of UTC at an instant (a named zone wins over gmt_offset, DST included). */
export function offsetMinutes(clock: SiteClock, at: Date): number {
  if (!clock.timezone) return Math.round(clock.gmtOffsetHours * 60);
  let fmt = zoneFormats.get(clock.timezone);
  if (!fmt) {
    try {
      fmt = new Intl.DateTimeFormat('en-US', { timeZone: clock.timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    } catch {
      return Math.round(clock.gmtOffsetHours * 60);
    }
    zoneFormats.set(clock.timezone, fmt);
  }
  const p = Object.fromEntries(fmt.formatToParts(at).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60000);
}

const parseSqlDate = (s: string) => new Date(`${s.replace(' ', 'T')}Z`);

/** get_gmt_from_date / get_date_from_gmt: whichever of the pair is missing follows from the other (or now). */
export function fillDates(clock: SiteClock, local: string | undefined, gmt: string | undefined, now: Date): { local: string; gmt: string } {
  if (local && gmt) return { local, gmt };
  if (gmt) {
    const at = parseSqlDate(gmt);
    return { local: sqlDate(new Date(at.getTime() + offsetMinutes(clock, at) * 60000)), gmt };
  }
  if (local) {
    const asUtc = parseSqlDate(local);
    // the offset at the guessed instant, corrected once for a DST edge between guess and answer
    let at = new Date(asUtc.getTime() - offsetMinutes(clock, asUtc) * 60000);
    at = new Date(asUtc.getTime() - offsetMinutes(clock, at) * 60000);
    return { local, gmt: sqlDate(at) };
  }
  return { local: sqlDate(new Date(now.getTime() + offsetMinutes(clock, now) * 60000)), gmt: sqlDate(now) };
}
