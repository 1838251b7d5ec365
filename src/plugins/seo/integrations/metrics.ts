import type { Ctx } from '../../../core/context.ts';
import { canEdit } from '../../../core/post-access.ts';
import { RestError } from '../../../engine/index.ts';
import { rankOf } from '../analysis.ts';
import seo from '../plugin.ts';
import { seoService } from './service-call.ts';
import { serviceValues } from './services.ts';

/**
 * The dashboard's time-based SEO metrics (Yoast's Site Kit widgets). Over the 28 days ending
 * yesterday on the site's clock, compared with the 28 before:
 * - organicSessionsDaily, organicSessionsCompare, page: from the site's own page views, asked of
 *   the Site Analytics plugin in-process (site-analytics/v1/report, as the same user); a session
 *   from search is a view whose referrer is a search engine;
 * - query, searchRankingCompare: from a Search Console-style API (searchAnalytics/query), once it
 *   is configured and the analytics connector has consent.
 */

export const WIDGETS = ['query', 'page', 'organicSessionsDaily', 'organicSessionsCompare', 'searchRankingCompare'] as const;
export type Widget = (typeof WIDGETS)[number];

const CONSENT_OPTION = 'seo_analytics_connector_consent';
const DISMISSED_OPTION = 'seo_analytics_connector_configuration_dismissed';
const RANGE_DAYS = 28;
const DAY_MS = 86_400_000;

const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

interface Ranges {
  start: string;
  end: string;
  compareStart: string;
  compareEnd: string;
}

function ranges(ctx: Ctx): Ranges {
  const end = shift(ctx.site.localDate(), -1);
  const start = shift(end, -(RANGE_DAYS - 1));
  const compareEnd = shift(start, -1);
  return { start, end, compareStart: shift(compareEnd, -(RANGE_DAYS - 1)), compareEnd };
}

/** The analytics connector's consent (Yoast's Site Kit consent): the search metrics widgets need it. */
export async function setConnectorConsent(ctx: Ctx, consent: boolean) {
  await ctx.store.options.set(CONSENT_OPTION, consent ? '1' : '0');
  return { success: true };
}

/** The connector's setup widget, dismissed for good or shown again. */
export async function dismissConnectorConfiguration(ctx: Ctx, dismissed: boolean) {
  await ctx.store.options.set(DISMISSED_OPTION, dismissed ? '1' : '0');
  return { success: true };
}

export async function widget(ctx: Ctx, name: Widget, limit: number): Promise<unknown[]> {
  const r = ranges(ctx);
  switch (name) {
    case 'organicSessionsDaily':
      return (await report(ctx, { start_date: r.start, end_date: r.end, dimension: 'day', referrer_class: 'organic', per_page: RANGE_DAYS })).rows.map((row) => ({
        date: String(row.day).replaceAll('-', ''),
        sessions: row.views,
      }));
    case 'organicSessionsCompare': {
      const total = async (start: string, end: string) => (await report(ctx, { start_date: start, end_date: end, dimension: 'referrer_class', referrer_class: 'organic' })).total_views;
      return [{ current: { sessions: await total(r.start, r.end) }, previous: { sessions: await total(r.compareStart, r.compareEnd) } }];
    }
    case 'page':
      return topPages(ctx, r, limit);
    case 'query':
      return (await searchAnalytics(ctx, r.start, r.end, 'query', limit)).map((row) => ({ subject: row.keys[0], clicks: row.clicks, impressions: row.impressions, ctr: row.ctr, position: row.position }));
    case 'searchRankingCompare':
      return [await rankingComparison(ctx, r)];
  }
}

interface Report {
  total_views: number;
  rows: Record<string, any>[];
}

/** The Site Analytics plugin's report, asked in-process; its refusals come through, its absence is said plainly. */
async function report(ctx: Ctx, query: Record<string, unknown>): Promise<Report> {
  const res = await ctx.dispatch('GET', '/site-analytics/v1/report', query);
  if (res.status < 400) return res.data as Report;
  const body = (res.data ?? {}) as { code?: string; message?: string; data?: Record<string, unknown> };
  if (res.status === 404 && body.code === 'rest_no_route')
    throw ctx.fail('wpseo_site_analytics_inactive', {}, {
      plugin: 'site-analytics/site-analytics',
    });
  const { status: _status, ...data } = body.data ?? {};
  throw new RestError(body.code ?? 'wpseo_site_analytics_error', body.message ?? 'The Site Analytics report failed.', res.status, data);
}

/** The pages most visited from search engines, with their SEO score group and, for those the user may edit, their edit route. */
async function topPages(ctx: Ctx, r: Ranges, limit: number) {
  const { rows } = await report(ctx, { start_date: r.start, end_date: r.end, dimension: 'path', referrer_class: 'organic', per_page: limit });
  const urls = rows.map((row) => String(row.url));
  const repo = ctx.store.plugin(seo);
  const indexables = await repo.byPermalinks(urls);
  const front = ctx.site.info.show_on_front === 'page' && ctx.site.info.page_on_front ? await repo.byObject('post', ctx.site.info.page_on_front) : undefined;
  const home = `${ctx.site.home}/`;
  const out = [];
  for (const row of rows) {
    const indexable = (row.url === home ? front : undefined) ?? indexables.get(String(row.url));
    const rank = indexable ? rankOf(indexable.primary_focus_keyword_score) : 'na';
    const links: Record<string, string> = {};
    if (indexable?.object_type === 'post' && indexable.object_id) {
      const post = await ctx.store.posts.get(indexable.object_id);
      const type = post && ctx.site.types.postType(post.type);
      if (post && type && canEdit(ctx, type, post)) links.edit = ctx.api.restUrl(`cms/v2/${type.restBase}/${post.id}`);
    }
    out.push({ subject: row.url, clicks: row.views, impressions: null, ctr: null, position: null, seoScore: rank === 'na' ? 'notAnalyzed' : rank, links });
  }
  return out;
}

interface SearchRow {
  keys: string[];
  clicks: number;
  impressions: number;
  ctr: number;
  position: number;
}

/** searchAnalytics/query of the configured service for the site's property (Search Console's API). */
async function searchAnalytics(ctx: Ctx, startDate: string, endDate: string, dimension: 'query' | 'date', rowLimit: number): Promise<SearchRow[]> {
  const values = await serviceValues(ctx.store, 'search_metrics');
  if ((await ctx.store.options.get(CONSENT_OPTION)) !== '1')
    throw ctx.fail('wpseo_search_metrics_no_consent');
  const token = values.seo_search_console_token;
  const call = seoService('search_metrics', values.seo_search_console_base_url, [token]);
  const property = values.seo_search_console_site_url || `${ctx.site.home}/`;
  const path = `webmasters/v3/sites/${encodeURIComponent(property)}/searchAnalytics/query`;
  const answer = await call.json<{ rows?: unknown } | null>({ method: 'POST', path, json: { startDate, endDate, dimensions: [dimension], rowLimit }, headers: { authorization: `Bearer ${token}` } });
  const rows = answer?.rows ?? [];
  if (!Array.isArray(rows)) throw call.invalidAnswer(path, 'rows that are not a list');
  return rows
    .filter((row): row is Record<string, unknown> => typeof row === 'object' && row !== null && Array.isArray((row as { keys?: unknown }).keys))
    .map((row) => ({ keys: (row.keys as unknown[]).map(String), clicks: num(row.clicks), impressions: num(row.impressions), ctr: num(row.ctr), position: num(row.position) }));
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Both periods' clicks and impressions, their click-through rate and impression-weighted position (Yoast's Comparison_Search_Ranking_Data). */
async function rankingComparison(ctx: Ctx, r: Ranges) {
  // one request over both periods by date, split at the end of the earlier one, as Yoast asks Site Kit
  const rows = await searchAnalytics(ctx, r.compareStart, r.end, 'date', 2 * RANGE_DAYS);
  const sum = (list: SearchRow[]) => {
    const clicks = list.reduce((n, row) => n + row.clicks, 0);
    const impressions = list.reduce((n, row) => n + row.impressions, 0);
    const out: Record<string, number> = { total_clicks: clicks, total_impressions: impressions };
    if (impressions !== 0) {
      out.average_ctr = clicks / impressions;
      out.average_position = list.reduce((n, row) => n + row.position * row.impressions, 0) / impressions;
    }
    return out;
  };
  return { current: sum(rows.filter((row) => row.keys[0] > r.compareEnd)), previous: sum(rows.filter((row) => row.keys[0] <= r.compareEnd)) };
}
