import type { Ctx } from '../../../core/context.ts';
import { RestError } from '../../../engine/index.ts';
import { OutboundError, OutboundStatusError } from '../../../net/errors.ts';
import contexts from '../ai-contexts.json' with { type: 'json' };
import { libraryCall, requireLicense, type LibraryCall } from '../calls.ts';
import { storedObject } from '../../../store/stored-json.ts';
import type { AiJob } from '../repo.ts';

/**
 * AI content for the design library's patterns: for each context (about, team, pricing-table…)
 * a job at the AI content service writes texts for the business profile (design_library_profile);
 * the job's state is kept in the store (processing, ready with its content, failed), polled at
 * `content/job/{id}` (HTTP 409 while it runs) until done, and its content then served from the store.
 */

/** The contexts the wizard starts with, all of them, and the prompts the service writes for each (Kadence's lists). */
const INITIAL: readonly string[] = contexts.initial;
const ALL: readonly string[] = contexts.all;
const PROMPTS: Readonly<Record<string, readonly string[]>> = contexts.prompts;

/** What the service answers when the account has no credits left (its `detail`). */
const NO_CREDITS = 'Failed, unable to use credits.';

/** A job as the routes show it. */
type JobView = { context: string; state: AiJob['state']; job_id: string; content?: unknown };

const view = (j: AiJob): JobView => ({ context: j.context, state: j.state, job_id: j.jobId, ...(j.state === 'ready' ? { content: j.content } : {}) });

/** The business profile the content is written for, in the service's terms; refused clearly when there is none. */
async function profileBody(call: LibraryCall): Promise<Record<string, string>> {
  // not a JSON object (not JSON, `null`, a list): as good as none
  const p = storedObject(call.settings.profile) ?? {};
  const s = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : '');
  if (!s('companyName'))
    throw call.ctx.fail('kb_design_library_no_profile');
  const specific = s('industrySpecific');
  const industry = specific && specific !== 'Other' ? specific : (specific === 'Other' || s('industry') === 'Other') && s('industryOther') ? s('industryOther') : s('industry');
  return { context: 'kadence', company: s('companyName'), industry, location: s('location'), mission: s('missionStatement'), tone: s('tone'), keywords: s('keywords'), lang: s('lang') };
}

/** Starts a job for a context at the service and keeps its id; an exhausted credit balance is a 402. */
async function startJob(call: LibraryCall, context: string, body: Record<string, string>): Promise<JobView> {
  const ai = call.ai();
  let answer: unknown;
  try {
    answer = ai.decode(await ai.send({ method: 'POST', path: 'content/create', json: { ...body, prompts: PROMPTS[context] ?? [] } }), 'content/create');
  } catch (e) {
    if (e instanceof OutboundStatusError && ai.providerMessage(e.body) === NO_CREDITS)
      throw call.ctx.fail('kb_design_library_no_credits', {}, { service: 'ai' });
    throw ai.failure(e, 'content/create');
  }
  const jobId = (answer as { data?: { job_id?: unknown } } | null)?.data?.job_id;
  if ((typeof jobId !== 'string' && typeof jobId !== 'number') || String(jobId) === '') throw ai.invalidAnswer('content/create', 'no job id');
  await call.repo.startJob(context, String(jobId));
  return { context, state: 'processing', job_id: String(jobId) };
}

/** Asks the service how a processing job is doing; keeps its content once it is done, or that it failed. */
async function poll(call: LibraryCall, job: AiJob): Promise<AiJob> {
  if (job.state !== 'processing') return job;
  const ai = call.ai();
  const path = `content/job/${encodeURIComponent(job.jobId)}`;
  try {
    const content = ai.decode(await ai.send({ path }), path);
    if (content === null || content === 'error') throw ai.invalidAnswer(path, 'no content');
    await call.repo.finishJob(job.context, job.jobId, content);
    return { ...job, state: 'ready', content };
  } catch (e) {
    if (e instanceof OutboundStatusError && e.status === 409) return job;
    // the service has given up on the job (it answers an error for it): the next request starts another
    if (e instanceof OutboundStatusError && e.status < 500) {
      await call.repo.failJob(job.context, job.jobId);
      return { ...job, state: 'failed' };
    }
    throw e instanceof OutboundError ? ai.failure(e, path) : e;
  }
}

/** The contexts' jobs, each polled once when it is still processing (`remote: false` reads the store only). */
async function jobsOf(call: LibraryCall, which: readonly string[] | null, remote = true): Promise<JobView[]> {
  const jobs = (await call.repo.jobs()).filter((j) => !which || which.includes(j.context));
  const out: JobView[] = [];
  for (const job of jobs) out.push(view(remote ? await poll(call, job) : job));
  return out;
}

function contextArg(ctx: Ctx): string {
  const context = typeof ctx.args.context === 'string' ? ctx.args.context.trim() : '';
  if (!context) throw ctx.fail('kb_design_library_missing_params', { params: 'context' }, { params: ['context'] });
  if (!PROMPTS[context]) throw ctx.fail('kb_design_library_unknown_context', { context, contexts: Object.keys(PROMPTS) }, { params: ['context'] });
  return context;
}

/**
 * GET get: the AI content of one `context`: its job started when it has none (or with
 * `force_reload`, or after the service gave up on it), polled while it runs. Answers
 * {context, state: processing|ready, job_id, content?}; a job the service failed is a 502.
 */
export async function get(ctx: Ctx<'design-library:ai.get'>) {
  const context = contextArg(ctx);
  const call = await libraryCall(ctx);
  requireLicense(call);
  const job = ctx.args.force_reload ? undefined : await call.repo.job(context);
  if (!job || job.state === 'failed') return startJob(call, context, await profileBody(call));
  const now = await poll(call, job);
  if (now.state === 'failed') throw ctx.fail('kb_design_library_ai_job_failed', { context }, { service: 'ai', context });
  return view(now);
}

/** GET get_all_items: the content of every finished job, by context ({} when none). */
export async function getAllItems(ctx: Ctx<'design-library:ai.getAllItems'>) {
  const call = await libraryCall(ctx);
  const jobs = await jobsOf(call, null, call.settings.licenseKey !== '');
  return Object.fromEntries(jobs.filter((j) => j.state === 'ready').map((j) => [j.context, j.content]));
}

/** The jobs of the wizard's contexts (the initial ones with `force_reload`, else all), and whether all are done. */
async function allAi(ctx: Ctx, remote: boolean) {
  const call = await libraryCall(ctx);
  const jobs = await jobsOf(call, ctx.args.force_reload ? INITIAL : ALL, remote && call.settings.licenseKey !== '');
  return { ready: jobs.every((j) => j.state !== 'processing'), contexts: Object.fromEntries(jobs.map((j) => [j.context, j])) };
}

/** GET get-all-ai: {ready, contexts: {<context>: job}}, processing jobs polled once. */
export const getAllAi = (ctx: Ctx<'design-library:ai.getAllAi'>) => allAi(ctx, true);

/** GET get-all-local-ai (starter library): the same from the store alone, without asking the service. */
export const getAllLocalAi = (ctx: Ctx<'design-library:ai.getAllLocalAi'>) => allAi(ctx, false);

/** Starts jobs for contexts; answers which started and which could not (all failing is the first failure). */
async function startJobs(call: LibraryCall, which: readonly string[]) {
  const body = await profileBody(call);
  const started: string[] = [];
  const failed: { context: string; code: string; message: string }[] = [];
  let first: RestError | undefined;
  for (const context of which) {
    try {
      started.push((await startJob(call, context, body)).context);
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      first ??= e;
      failed.push({ context, code: e.code, message: e.message });
    }
  }
  if (!started.length && first) throw first;
  return { started, failed };
}

/** GET get_initial_jobs: forgets every job and starts the wizard's initial contexts. */
export async function getInitialJobs(ctx: Ctx<'design-library:ai.getInitialJobs'>) {
  const call = await libraryCall(ctx);
  requireLicense(call);
  await profileBody(call);
  await call.repo.clearJobs();
  return startJobs(call, INITIAL);
}

/** GET get_remaining_jobs: starts every other context that has no job (or every one with `force_reload`). */
export async function getRemainingJobs(ctx: Ctx<'design-library:ai.getRemainingJobs'>) {
  const call = await libraryCall(ctx);
  requireLicense(call);
  const have = new Set((await call.repo.jobs()).filter((j) => j.state !== 'failed').map((j) => j.context));
  return startJobs(call, ctx.args.force_reload ? ALL : ALL.filter((c) => !have.has(c)));
}

/** GET has_initial_jobs (starter library): whether every initial context has a job, and whether they are done. */
export async function hasInitialJobs(ctx: Ctx<'design-library:ai.hasInitialJobs'>) {
  const call = await libraryCall(ctx);
  const jobs = await jobsOf(call, INITIAL, call.settings.licenseKey !== '');
  const has = INITIAL.every((c) => jobs.some((j) => j.context === c && j.state !== 'failed'));
  return { has_jobs: has, ready: has && jobs.every((j) => j.state === 'ready'), contexts: Object.fromEntries(jobs.map((j) => [j.context, j.state])) };
}

/** GET get_local_contexts: the contexts that have a job ([] when none). */
export async function getLocalContexts(ctx: Ctx<'design-library:ai.getLocalContexts'>) {
  const call = await libraryCall(ctx);
  return (await call.repo.jobs()).filter((j) => j.state !== 'failed').map((j) => j.context);
}

/** GET get_remaining_credits: the license's AI credit balance, as the credits service answers it. */
export async function getRemainingCredits(ctx: Ctx<'design-library:ai.getRemainingCredits'>) {
  const call = await libraryCall(ctx);
  requireLicense(call);
  const s = call.settings;
  const query: Record<string, string> = { site: new URL(ctx.site.home).host, key: s.licenseKey, plugin_slug: s.product === 'kadence-blocks-pro' ? 'kadence-blocks-pro' : 'kadence-blocks' };
  if (s.licenseEmail) query.email = s.licenseEmail;
  return call.service('credits', s.creditsUrl).json({ path: 'get-remaining', query });
}
