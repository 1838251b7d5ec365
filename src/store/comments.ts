import type { Expression, ExpressionBuilder, Insertable, Kysely, Selectable, SqlBool } from 'kysely';
import type { CommentsTable, DB } from './schema.ts';
import { MetaRepo } from './meta.ts';
import { fillDates, siteClock } from './site-clock.ts';
import { atomically, matchesText } from './transact.ts';
import { orderOfIds } from './terms.ts';
import { sqlBound } from './sql-bound.ts';
import { storedObject } from './stored-json.ts';

export type CommentRow = Selectable<CommentsTable>;

/** A comment to insert: its dates may be left out (now), or one of them given and the other derived. */
export type NewComment = Omit<Insertable<CommentsTable>, 'id' | 'date' | 'date_gmt'> & Partial<Pick<CommentRow, 'date' | 'date_gmt'>>;

export type CommentPatch = Partial<Omit<CommentRow, 'id'>>;

/** WP_Comment_Query's filters, as the REST collection and the site use them. */
export interface CommentQuery {
  include?: number[];
  exclude?: number[];
  posts?: number[];
  parents?: number[];
  parentsExclude?: number[];
  authors?: number[];
  authorsExclude?: number[];
  authorEmail?: string;
  search?: string;
  /** Site-local 'YYYY-MM-DD HH:MM:SS', exclusive, on the comment date. */
  after?: string;
  before?: string;
  /** comment_approved values to match ('1', '0', 'spam'...); none = any. */
  approved?: string[];
  /** Comment types; 'comment' also matches the empty type, as WP_Comment_Query does. */
  types?: string[];
  orderby?: 'date' | 'date_gmt' | 'id' | 'include' | 'post' | 'parent' | 'type';
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

type CommentsEB = ExpressionBuilder<DB, 'comments'>;

/** The columns WP_Comment_Query's `search` looks in. */
const SEARCHED = ['author_name', 'author_email', 'author_url', 'author_ip', 'content'] as const;

/** Where wp_trash_post_comments keeps each comment's status (here as JSON, `{"id": "approved"}`). */
const COMMENTS_STATUS_KEY = '_wp_trash_meta_comments_status';

/** Comments (wp_comments) and their meta; each write keeps the post's comment_count (approved comments only). */
export class CommentsRepo {
  readonly meta: MetaRepo;

  constructor(private readonly db: Kysely<DB>) {
    this.meta = new MetaRepo(db, 'comment_meta');
  }

  async get(id: number): Promise<CommentRow | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    return this.db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  private conditions(eb: CommentsEB, q: CommentQuery): Expression<SqlBool>[] {
    const c: Expression<SqlBool>[] = [];
    if (q.include?.length) c.push(eb('id', 'in', q.include));
    if (q.exclude?.length) c.push(eb('id', 'not in', q.exclude));
    if (q.posts?.length) c.push(eb('post', 'in', q.posts));
    if (q.parents?.length) c.push(eb('parent', 'in', q.parents));
    if (q.parentsExclude?.length) c.push(eb('parent', 'not in', q.parentsExclude));
    if (q.authors?.length) c.push(eb('author', 'in', q.authors));
    if (q.authorsExclude?.length) c.push(eb('author', 'not in', q.authorsExclude));
    if (q.authorEmail) c.push(eb('author_email', '=', q.authorEmail));
    if (q.after) c.push(eb('date', '>', q.after));
    if (q.before) c.push(eb('date', '<', q.before));
    if (q.approved?.length) c.push(eb('approved', 'in', q.approved));
    if (q.types?.length) c.push(eb('type', 'in', q.types.includes('comment') ? [...q.types, ''] : q.types));
    const text = q.search?.trim();
    if (text) c.push(eb.or(SEARCHED.map((col) => matchesText(this.db, eb.ref(col), text))));
    return c;
  }

  /** One page of matching comments and the number of all matches. */
  async query(q: CommentQuery): Promise<{ rows: CommentRow[]; total: number }> {
    const where = this.db.selectFrom('comments').where((eb) => eb.and(this.conditions(eb, q)));
    const { total } = await where.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    if (!Number(total) || q.limit <= 0) return { rows: [], total: Number(total) };
    const dir = q.order ?? 'desc';
    let rows = where.selectAll();
    const orderby = q.orderby ?? 'date_gmt';
    switch (orderby) {
      case 'include':
        rows = q.include?.length ? rows.orderBy(orderOfIds('id', q.include), dir) : rows.orderBy('date_gmt', dir);
        break;
      case 'id':
        break;
      case 'date':
        rows = rows.orderBy('date', dir);
        break;
      case 'date_gmt':
        rows = rows.orderBy('date_gmt', dir);
        break;
      case 'post':
      case 'parent':
      case 'type':
        rows = rows.orderBy(orderby, dir);
        break;
    }
    // WP_Comment_Query breaks ties on the id, in the same direction
    const page = await rows.orderBy('id', dir).limit(sqlBound(q.limit)).offset(sqlBound(q.offset)).execute();
    return { rows: page, total: Number(total) };
  }

  /** A post's comments of these statuses, oldest first (the thread the site shows). */
  ofPost(postId: number, approved: string[]): Promise<CommentRow[]> {
    return this.db.selectFrom('comments').selectAll().where('post', '=', postId).where('approved', 'in', approved).orderBy('date_gmt').orderBy('id').execute();
  }

  /**
   * The newest approved comments on published posts: without those on posts behind a password (the
   * comments feed), or with them (`protectedPosts`: get_comments with post_status publish, as the
   * Latest Comments block asks).
   */
  latestPublic(limit: number, { protectedPosts = false } = {}): Promise<(CommentRow & { post_title: string; post_type: string })[]> {
    let q = this.db
      .selectFrom('comments')
      .innerJoin('posts', 'posts.id', 'comments.post')
      .selectAll('comments')
      .select(['posts.title as post_title', 'posts.type as post_type'])
      .where('comments.approved', '=', '1')
      .where('posts.status', '=', 'publish');
    if (!protectedPosts) q = q.where('posts.password', '=', '');
    return q
      .orderBy('comments.date_gmt', 'desc')
      .orderBy('comments.id', 'desc')
      .limit(sqlBound(limit))
      .execute();
  }

  /** Which of these comments have replies (of any type or status). */
  async withChildren(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom('comments').select('parent').distinct().where('parent', 'in', ids).execute();
    return new Set(rows.map((r) => r.parent));
  }

  /** wp_allow_comment's duplicate check: the same words by the same author, in the same place, not trashed. */
  async duplicateOf(c: Pick<CommentRow, 'post' | 'parent' | 'author_name' | 'author_email' | 'content'>): Promise<number | undefined> {
    let q = this.db
      .selectFrom('comments')
      .select('id')
      .where('post', '=', c.post)
      .where('parent', '=', c.parent)
      .where('approved', '!=', 'trash')
      .where('author_name', '=', c.author_name)
      .where('content', '=', c.content);
    if (c.author_email) q = q.where('author_email', '=', c.author_email);
    return (await q.limit(1).executeTakeFirst())?.id;
  }

  /**
   * wp_check_comment_flood's lookup: the GMT date of the newest comment since `sinceGmt` by this
   * user (or, for a visitor, from this IP) or with this email.
   */
  async lastCommentGmt(by: { userId: number } | { ip: string }, email: string, sinceGmt: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('comments')
      .select('date_gmt')
      .where('date_gmt', '>=', sinceGmt)
      .where((eb) => eb.or([...('userId' in by ? [eb('author', '=', by.userId)] : [eb('author_ip', '=', by.ip)]), ...(email ? [eb('author_email', '=', email)] : [])]))
      .orderBy('date_gmt', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.date_gmt;
  }

  /** check_comment's comment_previously_approved lookup: an approved comment by this user, or by this name and email. */
  async hasApproved(by: { userId: number } | { name: string; email: string }): Promise<boolean> {
    let q = this.db.selectFrom('comments').select('id').where('approved', '=', '1');
    q = 'userId' in by ? q.where('author', '=', by.userId) : q.where('author_name', '=', by.name).where('author_email', '=', by.email);
    return (await q.limit(1).executeTakeFirst()) !== undefined;
  }

  /** wp_insert_comment's storage part: the missing date follows from the other (or now), in the site's time. */
  async insert(c: NewComment): Promise<number> {
    return atomically(this.db, async (db) => {
      const dates = fillDates(await siteClock(db), c.date, c.date_gmt, new Date());
      const { id } = await db
        .insertInto('comments')
        .values({ ...c, date: dates.local, date_gmt: dates.gmt })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recountPosts(db, [c.post ?? 0]);
      return id;
    });
  }

  /** wp_update_comment's storage part; both the old and the new post are recounted. */
  async update(id: number, patch: CommentPatch): Promise<void> {
    await atomically(this.db, async (db) => {
      const current = await db.selectFrom('comments').select(['post']).where('id', '=', id).executeTakeFirst();
      if (!current) return;
      const values: CommentPatch = { ...patch };
      if (patch.date !== undefined || patch.date_gmt !== undefined) {
        const d = fillDates(await siteClock(db), patch.date, patch.date_gmt, new Date());
        values.date = d.local;
        values.date_gmt = d.gmt;
      }
      if (Object.keys(values).length) await db.updateTable('comments').set(values).where('id', '=', id).execute();
      await recountPosts(db, [current.post, values.post ?? current.post]);
    });
  }

  /** wp_delete_comment with force: its replies move up to its parent, its meta goes with it. */
  async delete(id: number): Promise<void> {
    await atomically(this.db, async (db) => {
      const current = await db.selectFrom('comments').select(['post', 'parent']).where('id', '=', id).executeTakeFirst();
      if (!current) return;
      await db.updateTable('comments').set({ parent: current.parent }).where('parent', '=', id).execute();
      await db.deleteFrom('comment_meta').where('comment_id', '=', id).execute();
      await db.deleteFrom('comments').where('id', '=', id).execute();
      await recountPosts(db, [current.post]);
    });
  }

  /** wp_trash_post_comments: every comment of a trashed post becomes `post-trashed`, its status kept on the post. */
  async trashOfPost(postId: number): Promise<void> {
    await atomically(this.db, async (db) => {
      const rows = await db.selectFrom('comments').select(['id', 'approved']).where('post', '=', postId).execute();
      if (!rows.length) return;
      await new MetaRepo(db, 'post_meta').set(postId, COMMENTS_STATUS_KEY, JSON.stringify(Object.fromEntries(rows.map((r) => [r.id, r.approved]))));
      await db.updateTable('comments').set({ approved: 'post-trashed' }).where('post', '=', postId).execute();
      await recountPosts(db, [postId]);
    });
  }

  /** wp_untrash_post_comments: each comment gets the status it had back (held, should it say `post-trashed`). */
  async untrashOfPost(postId: number): Promise<void> {
    await atomically(this.db, async (db) => {
      const meta = new MetaRepo(db, 'post_meta');
      // null when none are kept, or what is kept is not a JSON object (an import may hold PHP's serialization)
      const kept = storedObject(await meta.get(postId, COMMENTS_STATUS_KEY)) as Record<string, string> | null;
      if (!kept) return;
      const byStatus = new Map<string, number[]>();
      for (const [id, approved] of Object.entries(kept)) {
        const status = approved === 'post-trashed' ? '0' : approved;
        byStatus.set(status, [...(byStatus.get(status) ?? []), Number(id)]);
      }
      for (const [approved, ids] of byStatus) await db.updateTable('comments').set({ approved }).where('id', 'in', ids).where('post', '=', postId).execute();
      await meta.delete(postId, COMMENTS_STATUS_KEY);
      await recountPosts(db, [postId]);
    });
  }
}

/** wp_update_comment_count_now: a post's comment_count is the number of its approved comments. */
async function recountPosts(db: Kysely<DB>, postIds: number[]): Promise<void> {
  for (const post of new Set(postIds)) {
    if (!post) continue;
    await db
      .updateTable('posts')
      .set((eb) => ({ comment_count: eb.selectFrom('comments').select((e) => e.fn.countAll<number>().as('n')).where('post', '=', post).where('approved', '=', '1') }))
      .where('id', '=', post)
      .execute();
  }
}
