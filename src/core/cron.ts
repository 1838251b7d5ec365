import type { PostRef } from '../store/cron.ts';
import { sqlDate } from '../store/transact.ts';
import { contentChanged } from './events.ts';
import type { ContentEvent, CronJob, JobContext } from './site.ts';

/**
 * The site's scheduled work, as WordPress's cron does it: scheduled posts published when their
 * date comes (publish_future_post), trash emptied after EMPTY_TRASH_DAYS (wp_scheduled_delete),
 * abandoned auto-drafts and autosaves removed, and the active plugins' recurring jobs. Unlike
 * wp-cron, which waits for a page view, every serving instance keeps a timer; each run of a job
 * is claimed in the database first, so instances sharing one run it once.
 */

/** Runs reported once what they wrote is durable (a store with group commit syncs its commits together). */
async function durably(store: JobContext['store'], runs: EventRun[]): Promise<EventRun[]> {
  if (runs.length) await store.durable();
  return runs;
}

/** One scheduled event, as `wp cron event list` shows it. */
export interface ScheduledEvent {
  hook: string;
  /** Unix seconds. */
  nextRun: number;
  /** Seconds between runs; null for a single event (a scheduled post). */
  interval: number | null;
}

/** One event run: its hook, how long it took, and why it failed, if it did. */
export interface EventRun {
  hook: string;
  ms: number;
  error?: string;
}

const DAY = 86400;
/** EMPTY_TRASH_DAYS: how long trashed posts (and comments) stay restorable. */
const EMPTY_TRASH_DAYS = 30;
/** wp_delete_auto_drafts: an auto-draft older than this was abandoned. */
const AUTO_DRAFT_DAYS = 7;
/** The hook of a scheduled post's single event. */
const PUBLISH_FUTURE_POST = 'publish_future_post';
/**
 * A serving instance looks at the schedule at least this often (ms): a post scheduled by another
 * instance or by the CLI on the same database is published within it. Changes made through this
 * instance re-arm its timer at once.
 */
const POLL_MS = 1000;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const gmtMs = (gmt: string) => Date.parse(`${gmt.replace(' ', 'T')}Z`);

/**
 * wp_delete_post for the scheduler's jobs: the post (an attachment with its files) is deleted
 * for good, and the plugins told, as a forced delete over REST does.
 */
async function deleteForGood(on: JobContext, posts: PostRef[]): Promise<number> {
  for (const post of posts) {
    if (post.type === 'attachment') {
      const row = await on.store.posts.get(post.id);
      if (row) await on.site.media.deleteFiles(on.store, row);
    }
    await on.store.posts.delete(post.id);
    await contentChanged(on, { type: 'postDeleted', postId: post.id, postType: post.type });
  }
  return posts.length;
}

/** What wp_scheduled_delete empties: one kind of trashed object, deleted once trashed before `before` (unix seconds). */
interface TrashSweeper {
  /** What it empties, for the failure message. */
  kind: string;
  sweep(on: JobContext, before: number): Promise<void>;
}

/**
 * The kinds of trash wp_scheduled_delete empties: an object kind with a trash of its own adds its
 * sweeper here. What is trashed no longer, or is gone, only loses its trash meta, as in WordPress
 * (a comment marked spam keeps a trash time too, and stays).
 */
const TRASH_SWEEPERS: readonly TrashSweeper[] = [
  {
    kind: 'posts',
    async sweep(on, before) {
      const trashed = await on.store.cron.trashedBefore('post', before);
      await on.store.cron.forgetTrash('post', trashed.filter((p) => p.status !== 'trash').map((p) => p.id));
      await deleteForGood(on, trashed.filter((p) => p.status === 'trash'));
    },
  },
  {
    kind: 'comments',
    async sweep(on, before) {
      const trashed = await on.store.cron.trashedBefore('comment', before);
      await on.store.cron.forgetTrash('comment', trashed.filter((c) => c.status !== 'trash').map((c) => c.id));
      for (const c of trashed) if (c.status === 'trash') await on.store.comments.delete(c.id);
    },
  },
];

/** The core's recurring jobs. */
const CORE_JOBS: readonly CronJob[] = [
  {
    hook: 'wp_scheduled_delete',
    interval: DAY,
    async run(on) {
      const before = nowSeconds() - EMPTY_TRASH_DAYS * DAY;
      const failed: string[] = [];
      // one kind that cannot be emptied does not keep the others full
      for (const { kind, sweep } of TRASH_SWEEPERS) {
        try {
          await sweep(on, before);
        } catch (e) {
          failed.push(`${kind}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      if (failed.length) throw new Error(`the trash of ${failed.join('; ')}`);
    },
  },
  {
    hook: 'wp_scheduled_auto_draft_delete',
    interval: DAY,
    async run(on) {
      const before = sqlDate(new Date(Date.now() - AUTO_DRAFT_DAYS * DAY * 1000));
      while (await deleteForGood(on, await on.store.cron.autoDraftsBefore(before)));
    },
  },
  {
    // not one of WordPress's events (it deletes a post's revisions with the post): revisions and autosaves left behind by a post deleted without them
    hook: 'delete_orphaned_autosaves',
    interval: DAY,
    async run(on) {
      while (await deleteForGood(on, await on.store.cron.orphanedRevisions()));
    },
  },
];

/**
 * The schedule of one site: its recurring events (the core's jobs and the active plugins', each
 * stored with its next run) and its scheduled posts. A serving instance `start()`s its timer; the
 * CLI lists and runs events without one.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  /** Passes run one after another. */
  private passes: Promise<void> = Promise.resolve();
  private pending = false;
  private stopped = true;
  /** The last failure logged, so a database that stays away is not reported every second. */
  private lastFailure = '';

  constructor(private readonly on: JobContext) {}

  /** The core's jobs, then the active plugins' (a hook taken already is not run twice). */
  private jobs(): CronJob[] {
    const byHook = new Map<string, CronJob>();
    for (const job of [...CORE_JOBS, ...this.on.site.jobs]) if (!byHook.has(job.hook)) byHook.set(job.hook, job);
    return [...byHook.values()];
  }

  /** The stored events of the current jobs, adding those not stored yet (first due one interval from now) as WordPress's init schedules its missing events. */
  private async recurring(): Promise<{ job: CronJob; nextRun: number }[]> {
    const stored = new Map((await this.on.store.cron.events()).map((e) => [e.hook, e]));
    const out: { job: CronJob; nextRun: number }[] = [];
    for (const job of this.jobs()) {
      const row = stored.get(job.hook);
      if (!row) {
        const nextRun = nowSeconds() + job.interval;
        await this.on.store.cron.add(job.hook, job.interval, nextRun);
        out.push({ job, nextRun });
        continue;
      }
      if (row.interval_seconds !== job.interval) await this.on.store.cron.setInterval(job.hook, job.interval);
      out.push({ job, nextRun: Number(row.next_run) });
    }
    return out;
  }

  /** Every scheduled event, soonest first: the recurring ones and a publish_future_post for each scheduled post. */
  async events(): Promise<ScheduledEvent[]> {
    const recurring = (await this.recurring()).map(({ job, nextRun }) => ({ hook: job.hook, nextRun, interval: job.interval }));
    const posts = (await this.on.store.cron.scheduled()).map((p) => ({ hook: PUBLISH_FUTURE_POST, nextRun: Math.floor(gmtMs(p.date_gmt) / 1000), interval: null }));
    return [...recurring, ...posts].sort((a, b) => a.nextRun - b.nextRun || a.hook.localeCompare(b.hook));
  }

  /** Runs what is due: scheduled posts whose date came, then the recurring jobs due (each claimed first). */
  async runDue(): Promise<EventRun[]> {
    return (await this.dueWork()).runs;
  }

  /** Runs what is due, and answers when the next event is due (ms), if any is scheduled. */
  private async dueWork(): Promise<{ runs: EventRun[]; next?: number }> {
    const runs: EventRun[] = [];
    let post = await this.on.store.cron.nextScheduled();
    if (post !== undefined && gmtMs(post) <= Date.now()) {
      runs.push(...(await this.publishDue()));
      post = await this.on.store.cron.nextScheduled();
    }
    const times = post === undefined ? [] : [gmtMs(post)];
    for (const { job, nextRun } of await this.recurring()) {
      if (nextRun > nowSeconds()) times.push(nextRun * 1000);
      else {
        // claimed here or by another instance: either way it is next due one interval on
        runs.push(...(await this.runJob(job, false)));
        times.push((nowSeconds() + job.interval) * 1000);
      }
    }
    return { runs: await durably(this.on.store, runs), next: times.length ? Math.min(...times) : undefined };
  }

  /**
   * Runs the hook's events now, due or not, as `wp cron event run <hook>` does: a recurring job
   * is rescheduled one interval from now; publish_future_post publishes the scheduled posts that
   * are due (check_and_publish_future_post leaves one whose date has not come). Nothing for a
   * hook with no event.
   */
  async runNow(hook: string): Promise<EventRun[]> {
    if (hook === PUBLISH_FUTURE_POST) return durably(this.on.store, await this.publishDue());
    const found = (await this.recurring()).find((r) => r.job.hook === hook);
    return found ? durably(this.on.store, await this.runJob(found.job, true)) : [];
  }

  private async runJob(job: CronJob, force: boolean): Promise<EventRun[]> {
    const now = nowSeconds();
    if (!(await this.on.store.cron.claim(job.hook, now, now + job.interval, force))) return [];
    const started = performance.now();
    try {
      await job.run(this.on);
      return [{ hook: job.hook, ms: performance.now() - started }];
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      this.on.log.error(`cron event ${job.hook} failed: ${error}`);
      return [{ hook: job.hook, ms: performance.now() - started, error }];
    }
  }

  /**
   * check_and_publish_future_post for every scheduled post that came due: published through the
   * same store write and content event as a REST publish. The status is checked as it is
   * written, so instances doing this at once publish each post once.
   */
  private async publishDue(): Promise<EventRun[]> {
    const runs: EventRun[] = [];
    for (;;) {
      const now = sqlDate(new Date());
      const due = await this.on.store.cron.due(now);
      // each post found is published here or by another instance: the next look finds the rest
      if (!due.length) return runs;
      for (const post of due) {
        const started = performance.now();
        if (!(await this.on.store.cron.publishDue(post.id, now))) continue;
        await contentChanged(this.on, { type: 'postSaved', postId: post.id, postType: post.type, previousStatus: 'future' });
        runs.push({ hook: PUBLISH_FUTURE_POST, ms: performance.now() - started });
      }
    }
  }

  /** Publishes the posts that came due while no instance ran, runs the jobs due, then keeps the timer. */
  async start(): Promise<void> {
    this.stopped = false;
    this.wake();
    await this.passes;
  }

  /** Stops the timer and waits for a pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.passes;
  }

  /**
   * Told after each change to content through this instance: a post scheduled or rescheduled
   * re-arms the timer at once. A save that says its post was not scheduled before nor after it
   * (a post created published) changes no schedule, and wakes nothing.
   */
  contentChanged(event: ContentEvent): void {
    if (event.type !== 'postSaved') return;
    if (event.status !== undefined && event.status !== 'future' && event.previousStatus !== 'future') return;
    this.wake();
  }

  /** A pass as soon as the one under way (if any) ends. */
  private wake(): void {
    if (this.stopped || this.pending) return;
    this.pending = true;
    clearTimeout(this.timer);
    this.passes = this.passes.then(() => this.pass());
  }

  private async pass(): Promise<void> {
    this.pending = false;
    if (this.stopped) return;
    let next: number | undefined;
    try {
      next = (await this.dueWork()).next;
      this.lastFailure = '';
    } catch (e) {
      const failure = e instanceof Error ? e.message : String(e);
      if (failure !== this.lastFailure) this.on.log.error(`the scheduler could not run: ${failure}`);
      this.lastFailure = failure;
    }
    if (this.stopped || this.pending) return;
    const delay = Math.max(0, Math.min(POLL_MS, (next ?? Infinity) - Date.now()));
    this.timer = setTimeout(() => this.wake(), delay);
    this.timer.unref();
  }
}
