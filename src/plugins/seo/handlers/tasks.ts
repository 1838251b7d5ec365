import type { Ctx } from '../../../core/context.ts';
import { invalidParam } from '../../../engine/index.ts';
import { sqlDate } from '../../../store/transact.ts';
import { rankOf } from '../analysis.ts';
import { indexedPostTypes } from '../indexables.ts';
import { remaining } from '../indexing.ts';
import seo from '../plugin.ts';
import { jsonOption, OPTION, STATE } from '../settings.ts';

/**
 * The task list (Yoast's task-list routes): tasks derived from the site's state as it is now, each
 * complete when the site shows it done or when a user completed it (which is kept), and
 * action_tracking's counts of what users did.
 */

interface Task {
  id: string;
  duration: number;
  priority: 'high' | 'medium' | 'low';
  badge: string | null;
  isCompleted: boolean;
  callToAction: { label: string; type: 'link' | 'default'; href: string } | null;
  title: string;
  about: string;
}

const PRIORITY_ORDER = { high: 0, medium: 1, low: 2 };
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

async function tasksOf(ctx: Ctx): Promise<Task[]> {
  const repo = ctx.store.plugin(seo);
  const [left, posts, completed, o] = await Promise.all([
    remaining(ctx.site, repo),
    repo.publishedPostScores(indexedPostTypes(ctx.site)),
    jsonOption<string[]>(ctx.store, OPTION.completedTasks, []),
    ctx.store.options.getMany([OPTION.companyOrPerson, OPTION.companyName, OPTION.personUserId, OPTION.socialSiteA, OPTION.socialSiteB, OPTION.otherSocialUrls]),
  ]);
  const unindexed = Object.values(left).reduce((a, b) => a + b, 0);
  const noKeyphrase = posts.filter((p) => !p.primary_focus_keyword).length;
  const badSeo = posts.filter((p) => rankOf(p.primary_focus_keyword_score) === 'bad').length;
  const badReadability = posts.filter((p) => rankOf(p.readability_score) === 'bad').length;
  const represented = o[OPTION.companyOrPerson] === 'person' ? Number(o[OPTION.personUserId]) > 0 : !!o[OPTION.companyName];
  const social = !!(o[OPTION.socialSiteA] || o[OPTION.socialSiteB] || (o[OPTION.otherSocialUrls] ?? '[]') !== '[]');
  const rest = (path: string) => ctx.api.restUrl(`seo/v1/${path}`);
  const tasks: (Omit<Task, 'isCompleted'> & { done: boolean })[] = [
    {
      id: 'complete-indexing',
      duration: 5,
      priority: 'high',
      badge: null,
      title: 'Optimize your SEO data',
      about: unindexed ? `${plural(unindexed, 'object is', 'objects are')} not indexed yet; indexing lets the plugin analyse every page and count its links.` : 'Every post, term and page is indexed.',
      callToAction: { label: 'Start indexing', type: 'link', href: rest('indexing/prepare') },
      done: unindexed === 0,
    },
    {
      id: 'set-site-representation',
      duration: 3,
      priority: 'high',
      badge: null,
      title: 'Tell search engines who is behind the site',
      about: 'Set the organization or person the site represents; the schema graph of every page names it.',
      callToAction: { label: 'Set the site representation', type: 'link', href: rest('configuration/site_representation') },
      done: represented,
    },
    {
      id: 'add-social-profiles',
      duration: 2,
      priority: 'low',
      badge: null,
      title: 'Add your social profiles',
      about: 'Social profiles are linked from the schema graph and the Open Graph and X tags.',
      callToAction: { label: 'Add social profiles', type: 'link', href: rest('configuration/social_profiles') },
      done: social,
    },
    {
      id: 'add-focus-keyphrases',
      duration: 10,
      priority: 'medium',
      badge: null,
      title: noKeyphrase ? `Add a focus keyphrase to ${plural(noKeyphrase, 'post', 'posts')}` : 'Every published post has a focus keyphrase',
      about: 'A focus keyphrase is what the SEO analysis checks a post against.',
      callToAction: { label: 'See the posts without one', type: 'link', href: rest('seo_scores?contentType=post&troubleshooting=1') },
      done: noKeyphrase === 0,
    },
    {
      id: 'improve-seo-scores',
      duration: 15,
      priority: 'medium',
      badge: null,
      title: badSeo ? `Fix ${plural(badSeo, 'post', 'posts')} with a bad SEO score` : 'No post has a bad SEO score',
      about: 'Posts whose SEO analysis scores 40 or less.',
      callToAction: { label: 'See the posts', type: 'link', href: rest('seo_scores?contentType=post&troubleshooting=1') },
      done: badSeo === 0,
    },
    {
      id: 'improve-readability',
      duration: 15,
      priority: 'low',
      badge: null,
      title: badReadability ? `Improve the readability of ${plural(badReadability, 'post', 'posts')}` : 'No post has a bad readability score',
      about: 'Posts whose readability analysis scores 40 or less.',
      callToAction: { label: 'See the posts', type: 'link', href: rest('readability_scores?contentType=post&troubleshooting=1') },
      done: badReadability === 0,
    },
  ];
  return tasks
    .map(({ done, id, duration, priority, badge, callToAction, title, about }) => ({ id, duration, priority, badge, isCompleted: done || completed.includes(id), callToAction, title, about }))
    .sort((a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority]);
}

const FILTERS = ['completed', 'open'];

/** GET get_tasks?options[filter]=completed|open&options[limit]=N */
export async function getTasks(ctx: Ctx<'seo:tasks.getTasks'>) {
  const options = (ctx.args.options ?? {}) as { filter?: string; limit?: number };
  if (options.filter !== undefined && options.filter !== '' && !FILTERS.includes(options.filter))
    throw invalidParam('options', `options[filter] is not one of ${FILTERS.join(', ')}.`, { code: 'rest_not_in_enum' });
  if (options.limit !== undefined && options.limit < 1) throw invalidParam('options', 'options[limit] must be greater than or equal to 1', { code: 'rest_out_of_bounds' });
  let tasks = await tasksOf(ctx);
  if (options.filter) tasks = tasks.filter((t) => t.isCompleted === (options.filter === 'completed'));
  if (options.limit !== undefined) tasks = tasks.slice(0, options.limit);
  return { success: true, tasks };
}

/** POST complete_task {options: {task}}: the task stays completed. */
export async function completeTask(ctx: Ctx<'seo:tasks.completeTask'>) {
  const id = String(ctx.args.options.task);
  if (!(await tasksOf(ctx)).some((t) => t.id === id)) throw ctx.fail('wpseo_task_not_found', { id });
  const completed = await jsonOption<string[]>(ctx.store, OPTION.completedTasks, []);
  if (!completed.includes(id)) await ctx.store.options.set(OPTION.completedTasks, JSON.stringify([...completed, id]));
  return { success: true };
}

/** POST action_tracking {action}: counts one of the tracked actions (state.json), with when it first and last happened. */
export async function actionTracking(ctx: Ctx<'seo:tasks.actionTracking'>) {
  const action = String(ctx.args.action);
  if (!STATE.trackedActions.includes(action)) throw invalidParam('action', `action is not one of ${STATE.trackedActions.join(', ')}.`, { code: 'rest_not_in_enum' });
  const tracked = await jsonOption<Record<string, { count: number; first: string; last: string }>>(ctx.store, OPTION.trackedActions, {});
  const now = sqlDate(new Date());
  tracked[action] = { count: (tracked[action]?.count ?? 0) + 1, first: tracked[action]?.first ?? now, last: now };
  await ctx.store.options.set(OPTION.trackedActions, JSON.stringify(tracked));
  return { success: true, action };
}
