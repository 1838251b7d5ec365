import { performance } from 'node:perf_hooks';
import type { Ctx } from '../../../core/context.ts';
import { RestError } from '../../../engine/index.ts';
import { rankOf } from '../analysis.ts';
import { indexedPostTypes } from '../indexables.ts';
import seo from '../plugin.ts';

/** How long a computed dashboard answer is kept (any change to the indexables empties the cache sooner). */
const STATISTICS_TTL = 86400;
const SCORES_TTL = 3600;

/**
 * Not has_valid_params' "Invalid parameter(s): …" (engine invalidParam): Yoast's get_scores makes
 * these checks in the handler and answers each one's own message (`{error: 'Invalid term.'}`, 400),
 * the text its dashboard shows, so that message is the error's.
 */
const invalid = (param: string, message: string) => new RestError('rest_invalid_param', message, 400, { params: { [param]: message } });

const RANK_LABELS: Record<string, string> = {
  na: 'Posts <strong>without</strong> a focus keyphrase',
  bad: 'Posts with the SEO score: <strong>needs improvement</strong>',
  ok: 'Posts with the SEO score: <strong>OK</strong>',
  good: 'Posts with the SEO score: <strong>good</strong>',
  noindex: 'Posts that should not show up in search results',
};

/**
 * GET statistics (WPSEO_Statistics_Service): the published posts per SEO rank, ranks without posts
 * left out; a user who cannot edit others' posts sees their own. Kept per user until the
 * indexables change.
 */
export async function statistics(ctx: Ctx<'seo:scores.statistics'>) {
  const repo = ctx.store.plugin(seo);
  const own = !ctx.can('edit_others_posts');
  const key = `statistics:${own ? ctx.user!.id : 'all'}`;
  const hit = await repo.dashboards.get(key);
  if (hit) return hit;
  const rows = await repo.scoresOf({ postType: 'post', ...(own ? { authorId: ctx.user!.id } : {}) }, 'primary_focus_keyword_score');
  const counts: Record<string, number> = { na: 0, bad: 0, ok: 0, good: 0, noindex: 0 };
  for (const r of rows) counts[r.noindex ? 'noindex' : rankOf(r.score)]++;
  const link = ctx.api.restUrl('seo/v1/seo_scores?contentType=post&troubleshooting=1');
  const answer = {
    header: rows.length
      ? 'Below are your published posts’ SEO scores. Now is as good a time as any to start improving some of your posts!'
      : 'You don’t have any published posts, your SEO scores will appear here once you make your first post!',
    seo_scores: Object.entries(counts)
      .filter(([, count]) => count > 0)
      .map(([rank, count]) => ({ seo_rank: rank, label: RANK_LABELS[rank], count, link })),
  };
  await repo.dashboards.set(key, answer, STATISTICS_TTL);
  return answer;
}

const GROUPS = [
  { name: 'good', rank: 'good' },
  { name: 'ok', rank: 'ok' },
  { name: 'bad', rank: 'bad' },
  { name: 'notAnalyzed', rank: 'na' },
] as const;

/**
 * GET seo_scores / readability_scores (Yoast's dashboard score routes): the published posts of a
 * content type, optionally of one term, grouped good, ok, bad and not analysed (noindex posts left
 * out), with their ids when troubleshooting.
 */
export async function scores(ctx: Ctx<'seo:scores.scores'>) {
  const started = performance.now();
  const column = ctx.config.score as 'primary_focus_keyword_score' | 'readability_score';
  const contentType = String(ctx.args.contentType);
  const taxonomySlug = String(ctx.args.taxonomy ?? '');
  const termId = ctx.args.term;
  const troubleshooting = ctx.args.troubleshooting === true;
  if (!indexedPostTypes(ctx.site).includes(contentType)) throw invalid('contentType', 'Invalid content type.');
  let termIds: number[] | undefined;
  if (taxonomySlug) {
    const taxonomy = ctx.site.types.taxonomy(taxonomySlug);
    if (!taxonomy || !taxonomy.types.includes(contentType)) throw invalid('taxonomy', 'Invalid taxonomy.');
  }
  if (termId !== null && termId !== undefined) {
    if (!taxonomySlug) throw invalid('term', 'Term needs a provided taxonomy.');
    const term = await ctx.store.terms.get(termId);
    if (!term || term.taxonomy !== taxonomySlug) throw invalid('term', 'Invalid term.');
    termIds = [term.id];
  }
  const repo = ctx.store.plugin(seo);
  const key = `${column}:${contentType}:${taxonomySlug}:${termId ?? ''}:${troubleshooting ? 1 : 0}`;
  const hit = await repo.dashboards.get(key);
  if (hit) return { scores: hit, queryTime: seconds(started), cacheUsed: true };
  const rows = (await repo.scoresOf({ postType: contentType, termIds }, column)).filter((r) => !r.noindex);
  const result = GROUPS.map((g) => {
    const ids = rows.filter((r) => rankOf(r.score) === g.rank).map((r) => r.object_id);
    return { name: g.name, amount: ids.length, links: {}, ...(troubleshooting ? { ids: ids.join(',') } : {}) };
  });
  await repo.dashboards.set(key, result, SCORES_TTL);
  return { scores: result, queryTime: seconds(started), cacheUsed: false };
}

const seconds = (since: number) => Math.round(performance.now() - since) / 1000;
