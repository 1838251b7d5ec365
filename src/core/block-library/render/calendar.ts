import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { escapeAttr } from '../../../format/format.ts';
import { dateArchivePermalink } from '../../permalinks.ts';
import { wrapperAttributes } from './wrapper.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad2 = (n: number) => String(n).padStart(2, '0');
/** calendar_week_mod: a weekday difference as 0..6. */
const weekMod = (n: number) => ((n % 7) + 7) % 7;
const weekday = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();

/**
 * render_block_core_calendar: get_calendar of the month the block names (when the permalinks hold
 * the year and month), else of the site's current month: its days with published posts linked to
 * their day's archive, today marked, and links to the nearest months with posts before and after.
 * Nothing without a published post (a visitor who is not logged in sees nothing then, as every
 * rendering here does).
 */
export async function calendar(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const published = { types: ['post'], statuses: ['publish'] };
  const { rows: any } = await ctx.store.posts.query({ ...published, offset: 0, limit: 1 });
  if (!any.length) return '';
  const a = block.attributes;
  const structure = ctx.site.options.permalink_structure ?? '';
  const [todayY, todayM, todayD] = ctx.site.localDate().split('-').map(Number);
  let [year, month] = [todayY, todayM];
  if (typeof a.month === 'number' && typeof a.year === 'number' && structure.includes('%monthnum%') && structure.includes('%year%')) [year, month] = [a.year, a.month];
  const weekBegins = Number.parseInt((await ctx.store.options.get('start_of_week')) ?? '1', 10) || 0;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const first = `${year}-${pad2(month)}-01 00:00:00`;
  const last = `${year}-${pad2(month)}-${pad2(lastDay)} 23:59:59`;
  const [previous] = (await ctx.store.posts.query({ ...published, before: first, orderby: 'date', order: 'desc', offset: 0, limit: 1 })).rows;
  const [next] = (await ctx.store.posts.query({ ...published, after: last, orderby: 'date', order: 'asc', offset: 0, limit: 1 })).rows;
  // the bounds compare as text: a date alone sorts before every time of its day
  const following = month === 12 ? `${year + 1}-01-01` : `${year}-${pad2(month + 1)}-01`;
  const inMonth = await ctx.store.posts.query({ ...published, after: `${year}-${pad2(month)}-01`, before: following, offset: 0, limit: Number.MAX_SAFE_INTEGER });
  const days = new Set(inMonth.rows.map((p) => Number(p.date.slice(8, 10))));

  let out = `<table id="wp-calendar" class="wp-calendar-table">\n\t<caption>${MONTHS[month - 1]} ${year}</caption>\n\t<thead>\n\t<tr>`;
  for (let i = 0; i <= 6; i++) {
    const day = WEEKDAYS[(i + weekBegins) % 7];
    out += `\n\t\t<th scope="col" title="${day}">${day[0]}</th>`;
  }
  out += '\n\t</tr>\n\t</thead>\n\t<tbody>\n\t<tr>';
  const lead = weekMod(weekday(year, month, 1) - weekBegins);
  if (lead) out += `\n\t\t<td colspan="${lead}" class="pad">&nbsp;</td>`;
  let newRow = false;
  for (let day = 1; day <= lastDay; day++) {
    if (newRow) out += '\n\t</tr>\n\t<tr>\n\t\t';
    newRow = false;
    out += day === todayD && month === todayM && year === todayY ? '<td id="today">' : '<td>';
    out += days.has(day) ? `<a href="${dateArchivePermalink(ctx.site, year, month, day)}" aria-label="${escapeAttr(`Posts published on ${MONTHS[month - 1]} ${day}, ${year}`)}">${day}</a>` : String(day);
    out += '</td>';
    if (weekMod(weekday(year, month, day) - weekBegins) === 6) newRow = true;
  }
  const trail = 7 - weekMod(weekday(year, month, lastDay + 1) - weekBegins);
  if (trail !== 0 && trail !== 7) out += `\n\t\t<td class="pad" colspan="${trail}">&nbsp;</td>`;
  out += '\n\t</tr>\n\t</tbody>\n\t</table><nav aria-label="Previous and next months" class="wp-calendar-nav">';
  const monthOf = (date: string) => [Number(date.slice(0, 4)), Number(date.slice(5, 7))] as const;
  if (previous) {
    const [y, m] = monthOf(previous.date);
    out += `\n\t\t<span class="wp-calendar-nav-prev"><a href="${dateArchivePermalink(ctx.site, y, m)}">&laquo; ${MONTHS[m - 1].slice(0, 3)}</a></span>`;
  } else out += '\n\t\t<span class="wp-calendar-nav-prev">&nbsp;</span>';
  out += '\n\t\t<span class="pad">&nbsp;</span>';
  if (next) {
    const [y, m] = monthOf(next.date);
    out += `\n\t\t<span class="wp-calendar-nav-next"><a href="${dateArchivePermalink(ctx.site, y, m)}">${MONTHS[m - 1].slice(0, 3)} &raquo;</a></span>`;
  } else out += '\n\t\t<span class="wp-calendar-nav-next">&nbsp;</span>';
  out += '\n\t</nav>';
  return `<div ${wrapperAttributes(block)}>${out}</div>`;
}
