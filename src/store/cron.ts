import type { Kysely, Selectable } from 'kysely';
import { sql } from './kysely.ts';
import type { CronEventsTable, DB } from './schema.ts';
import { isPostgres } from './portable.ts';
import { recountTerms, termIdsOfPosts } from './terms.ts';
import { atomically } from './transact.ts';

export type CronEventRow = Selectable<CronEventsTable>;

/** A post (or a comment) as the scheduler's jobs need it: which one, of what type, in what status (a comment's `approved`). */
export interface PostRef {
  id: number;
  type: string;
  status: string;
}

/** The meta keys wp_trash_post and wp_trash_comment write: the status it had, and when it was trashed (unix seconds). */
const TRASH_STATUS_KEY = '_wp_trash_meta_status';
const TRASH_TIME_KEY = '_wp_trash_meta_time';

/** What has a trash: where its trash meta lives, and the column its status is in. */
const TRASHABLE = {
  post: { meta: 'post_meta', owner: 'post_id', table: 'posts', status: 'status' },
  comment: { meta: 'comment_meta', owner: 'comment_id', table: 'comments', status: 'approved' },
} as const;
export type Trashable = keyof typeof TRASHABLE;

/** Due posts, old drafts and orphans are taken this many at a time; the caller looks again for the rest. */
const BATCH = 500;

/**
 * What the scheduler keeps and looks for (WordPress's cron): its recurring events, one row per
 * hook, and the posts its jobs act on (scheduled posts that came due, trash, abandoned drafts).
 */
export class CronRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Every recurring event, soonest first. */
  events(): Promise<CronEventRow[]> {
    return this.db.selectFrom('cron_events').selectAll().orderBy('next_run').orderBy('hook').execute();
  }

  /** Schedules a hook that has no event yet (an instance that registers it at the same time keeps the first). */
  async add(hook: string, interval: number, nextRun: number): Promise<void> {
    await this.db.insertInto('cron_events').values({ hook, interval_seconds: interval, next_run: nextRun }).onConflict((oc) => oc.column('hook').doNothing()).execute();
  }

  /** A hook's schedule changed (a plugin's new version): its next run stays. */
  async setInterval(hook: string, interval: number): Promise<void> {
    await this.db.updateTable('cron_events').set({ interval_seconds: interval }).where('hook', '=', hook).execute();
  }

  /**
   * Claims a run of the hook: moves its next run on to `next`, as wp-cron reschedules an event
   * before it runs it, if it is due at `now` (or whenever, with `force`). True for the one caller
   * that moved it: on PostgreSQL the row is taken FOR UPDATE SKIP LOCKED, so instances claiming at
   * once do not wait on each other and only one finds it due; SQLite runs one writer at a time, so
   * the second finds it moved.
   */
  async claim(hook: string, now: number, next: number, force = false): Promise<boolean> {
    const set = { next_run: next, last_run: now };
    let due = this.db.selectFrom('cron_events').select('hook').where('hook', '=', hook);
    if (!force) due = due.where('next_run', '<=', now);
    const claimed = await this.db
      .updateTable('cron_events')
      .set(set)
      .where('hook', 'in', isPostgres(this.db) ? due.forUpdate().skipLocked() : due)
      .returning('hook')
      .execute();
    return claimed.length === 1;
  }

  // --- scheduled posts (WordPress's publish_future_post events) ---

  /** When the soonest scheduled post is due ('YYYY-MM-DD HH:MM:SS' UTC), if any is scheduled. */
  async nextScheduled(): Promise<string | undefined> {
    const row = await this.db.selectFrom('posts').select('date_gmt').where('status', '=', 'future').orderBy('date_gmt').limit(1).executeTakeFirst();
    return row?.date_gmt;
  }

  /** Scheduled posts, soonest first, with when each is due. */
  scheduled(): Promise<(PostRef & { date_gmt: string })[]> {
    return this.db.selectFrom('posts').select(['id', 'type', 'status', 'date_gmt']).where('status', '=', 'future').orderBy('date_gmt').orderBy('id').execute();
  }

  /** Scheduled posts due at `nowGmt`, soonest first. */
  due(nowGmt: string): Promise<PostRef[]> {
    return this.db.selectFrom('posts').select(['id', 'type', 'status']).where('status', '=', 'future').where('date_gmt', '<=', nowGmt).orderBy('date_gmt').orderBy('id').limit(BATCH).execute();
  }

  /**
   * wp_publish_post's storage part for a scheduled post that came due: its status becomes
   * publish (nothing else changes, its modified date included) and its terms are counted again.
   * True for the one caller that published it: the status is checked by the update itself, so
   * instances doing this at once publish it once.
   */
  async publishDue(id: number, nowGmt: string): Promise<boolean> {
    return atomically(this.db, async (db) => {
      const { numUpdatedRows } = await db.updateTable('posts').set({ status: 'publish' }).where('id', '=', id).where('status', '=', 'future').where('date_gmt', '<=', nowGmt).executeTakeFirst();
      if (numUpdatedRows !== 1n) return false;
      await recountTerms(db, await termIdsOfPosts(db, [id]));
      return true;
    });
  }

  // --- what the housekeeping jobs remove ---

  /**
   * Posts or comments trashed before `before` (unix seconds) by their trash time, with their
   * status now ('' for one that is gone): one restored since keeps the trash meta, as in
   * WordPress, until wp_scheduled_delete drops it.
   */
  async trashedBefore(kind: Trashable, before: number): Promise<PostRef[]> {
    const t = TRASHABLE[kind];
    // the two meta tables differ only in their names, as in MetaRepo
    const rows: { id: number; value: string; type: string | null; status: string | null }[] = await (this.db as Kysely<any>)
      .selectFrom(`${t.meta} as m`)
      .leftJoin(`${t.table} as o`, 'o.id', `m.${t.owner}`)
      .select([`m.${t.owner} as id`, 'm.value', 'o.type', `o.${t.status} as status`])
      .where('m.key', '=', TRASH_TIME_KEY)
      .orderBy(`m.${t.owner}`)
      .execute();
    // the value is text: compared as a number here, as MySQL compares it in WordPress's query
    return rows.filter((r) => Number(r.value) < before).map((r) => ({ id: Number(r.id), type: r.type ?? '', status: r.status ?? '' }));
  }

  /** Drops the trash meta of posts or comments no longer in the trash. */
  async forgetTrash(kind: Trashable, ids: number[]): Promise<void> {
    const t = TRASHABLE[kind];
    if (ids.length) await (this.db as Kysely<any>).deleteFrom(t.meta).where(t.owner, 'in', ids).where('key', 'in', [TRASH_STATUS_KEY, TRASH_TIME_KEY]).execute();
  }

  /** Auto-drafts dated before `beforeGmt`: editor sessions never saved (wp_delete_auto_drafts). */
  autoDraftsBefore(beforeGmt: string): Promise<PostRef[]> {
    return this.db.selectFrom('posts').select(['id', 'type', 'status']).where('status', '=', 'auto-draft').where('date_gmt', '<', beforeGmt).orderBy('id').limit(BATCH).execute();
  }

  /** Revisions and autosaves whose post is gone. */
  orphanedRevisions(): Promise<PostRef[]> {
    return this.db
      .selectFrom('posts as r')
      .select(['r.id', 'r.type', 'r.status'])
      .where('r.type', '=', 'revision')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('posts as p').select(sql<number>`1`.as('one')).whereRef('p.id', '=', 'r.parent'))))
      .orderBy('r.id')
      .limit(BATCH)
      .execute();
  }
}
