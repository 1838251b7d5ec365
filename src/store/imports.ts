import type { Insertable, Kysely } from 'kysely';
import { sql } from './kysely.ts';
import type { CommentsTable, DB } from './schema.ts';
import { isPostgres } from './portable.ts';
import { sanitizeSlug } from './transact.ts';
import { recountTerms } from './terms.ts';

/** The meta tables an import adds to, each with the column naming its owner. */
const META_OWNER = { post_meta: 'post_id', comment_meta: 'comment_id', term_meta: 'term_id', user_meta: 'user_id' } as const;
export type MetaTable = keyof typeof META_OWNER;
/** A comment as an import writes it: with the id reserveCommentIds gave it. */
export type ImportedComment = Insertable<CommentsTable>;

/**
 * What importing a WordPress site asks of the database beyond the repositories' writes:
 * WordPress's existence checks (post_exists, term_exists, comment_exists), add_*_meta (which adds
 * a row even when the key has one), and the fix-ups that run once every item is in.
 */
export class ImportRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** post_exists($title, '', $date, $type): the first post of the type with that date and, when the title is not empty, that title. */
  async postExists(title: string, date: string, type: string): Promise<number | undefined> {
    let q = this.db.selectFrom('posts').select('id').where('type', '=', type).where('date', '=', date);
    if (title) q = q.where('title', '=', title);
    return (await q.orderBy('id').executeTakeFirst())?.id;
  }

  async postIdTaken(id: number): Promise<boolean> {
    return (await this.db.selectFrom('posts').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** What post_exists reads for a batch of items at once: the posts of these types on these dates, oldest first. */
  async postsOnDates(types: readonly string[], dates: readonly string[]): Promise<{ id: number; type: string; date: string; title: string }[]> {
    if (!types.length || !dates.length) return [];
    const found: { id: number; type: string; date: string; title: string }[] = [];
    const distinct = [...new Set(dates)];
    for (let i = 0; i < distinct.length; i += 500) {
      found.push(
        ...(await this.db
          .selectFrom('posts')
          .select(['id', 'type', 'date', 'title'])
          .where('type', 'in', [...new Set(types)])
          .where('date', 'in', distinct.slice(i, i + 500))
          .execute()),
      );
    }
    return found.sort((a, b) => a.id - b.id);
  }

  /** Which of these ids posts have already (the import_id checks of a batch of items at once). */
  async takenPostIds(ids: readonly number[]): Promise<Set<number>> {
    const taken = new Set<number>();
    const distinct = [...new Set(ids)];
    for (let i = 0; i < distinct.length; i += 500) {
      for (const r of await this.db.selectFrom('posts').select('id').where('id', 'in', distinct.slice(i, i + 500)).execute()) taken.add(r.id);
    }
    return taken;
  }

  /**
   * term_exists($value, $taxonomy): the term whose slug is the value sanitised, else whose name is
   * the value, compared as MySQL's case-insensitive collation compares it (`media` finds `Media`;
   * the letters SQLite's lower() folds: ASCII).
   */
  async termExists(value: string, taxonomy: string): Promise<number | undefined> {
    const slug = sanitizeSlug(value);
    if (slug) {
      const bySlug = await this.db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).where('slug', '=', slug).executeTakeFirst();
      if (bySlug) return bySlug.id;
    }
    const byName = await this.db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).where(sql<string>`lower(name)`, '=', sql<string>`lower(${value})`).orderBy('id').executeTakeFirst();
    return byName?.id;
  }

  /** comment_exists($author, $date): a comment by that author name at that local time, on any post. */
  async commentExists(author: string, date: string): Promise<boolean> {
    return (await this.db.selectFrom('comments').select('id').where('author_name', '=', author).where('date', '=', date).executeTakeFirst()) !== undefined;
  }

  /** add_{type}_meta for many rows: each added, whatever the owner already holds under the key. */
  async addMeta(table: MetaTable, rows: readonly { owner: number; key: string; value: string }[]): Promise<void> {
    if (!rows.length) return;
    const owner = META_OWNER[table];
    const values = rows.map((r) => ({ [owner]: r.owner, key: r.key, value: r.value }));
    for (let i = 0; i < values.length; i += 500) await this.db.insertInto(table as 'post_meta').values(values.slice(i, i + 500) as never).execute();
  }

  /**
   * wp_set_object_terms for an import: the pairs added without counting (WordPress defers term
   * counting while it imports); `recount` counts every term touched once the import is done.
   */
  async relate(pairs: readonly { postId: number; termId: number }[]): Promise<void> {
    const rows = [...new Map(pairs.map((p) => [`${p.postId}:${p.termId}`, { post_id: p.postId, term_id: p.termId }])).values()];
    for (let i = 0; i < rows.length; i += 500) await this.db.insertInto('term_relationships').values(rows.slice(i, i + 500)).onConflict((oc) => oc.doNothing()).execute();
  }

  /** The deferred counts: the terms' published posts, and the posts' approved comments (wp_update_comment_count_now). */
  async recount(termIds: Iterable<number>, postIds: readonly number[]): Promise<void> {
    await recountTerms(this.db, termIds);
    for (let i = 0; i < postIds.length; i += 500) {
      await this.db
        .updateTable('posts')
        .set((eb) => ({ comment_count: eb.selectFrom('comments').select((e) => e.fn.countAll<number>().as('n')).whereRef('comments.post', '=', 'posts.id').where('approved', '=', '1') }))
        .where('id', 'in', postIds.slice(i, i + 500))
        .execute();
    }
  }

  /**
   * The ids the next `count` comments would get, taken for them: an import numbers a batch's
   * comments itself, so a reply names its parent's new id in the same statement. SQLite's
   * AUTOINCREMENT takes the next after the largest ever given (which the inserts then move on);
   * PostgreSQL's sequence hands them out.
   */
  async reserveCommentIds(count: number): Promise<number[]> {
    if (!count) return [];
    if (isPostgres(this.db)) {
      const { rows } = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('comments', 'id'))::integer as id from generate_series(1, ${count})`.execute(this.db);
      return rows.map((r) => r.id).sort((a, b) => a - b);
    }
    const { rows } = await sql<{ last: number }>`select max(coalesce((select seq from sqlite_sequence where name = 'comments'), 0), coalesce((select max(id) from comments), 0)) as last`.execute(this.db);
    return Array.from({ length: count }, (_, i) => rows[0].last + 1 + i);
  }

  /** wp_insert_comment for an import, many at once, with the ids reserveCommentIds gave, their dates as the file gives them (both: WordPress exports both); the posts are counted at the end. */
  async insertComments(rows: readonly ImportedComment[]): Promise<void> {
    // a statement's bound values stay well under every engine's parameter limit
    for (let i = 0; i < rows.length; i += 200) await this.db.insertInto('comments').values(rows.slice(i, i + 200)).execute();
  }

  /** The post parent an import sets once both posts are in (backfill_parents), without touching anything else of the post. */
  async setParent(postId: number, parent: number): Promise<void> {
    await this.db.updateTable('posts').set({ parent }).where('id', '=', postId).execute();
  }

  async setContent(postId: number, content: string, excerpt: string): Promise<void> {
    await this.db.updateTable('posts').set({ content, excerpt }).where('id', '=', postId).execute();
  }

  /** The content and excerpt of these posts, a page at a time, for the references fixed once every item is in. */
  async textsOf(ids: readonly number[]): Promise<{ id: number; content: string; excerpt: string }[]> {
    if (!ids.length) return [];
    return this.db.selectFrom('posts').select(['id', 'content', 'excerpt']).where('id', 'in', [...ids]).execute();
  }

  /** backfill_attachment_urls for enclosures: an old file URL replaced in the `enclosure` meta of these posts. */
  async replaceInEnclosures(ids: readonly number[], from: string, to: string): Promise<void> {
    if (!ids.length) return;
    await this.db
      .updateTable('post_meta')
      .set({ value: sql<string>`replace(${sql.ref('value')}, ${from}, ${to})` })
      .where('key', '=', 'enclosure')
      .where('post_id', 'in', [...ids])
      .execute();
  }

  /**
   * After posts were inserted with the ids they had (WordPress's import_id), PostgreSQL's id
   * sequence is moved past the largest, so the next post without one gets a free id. SQLite's
   * AUTOINCREMENT keeps up by itself.
   */
  async movePostIdsPastLargest(): Promise<void> {
    if (!isPostgres(this.db)) return;
    await sql`select setval(pg_get_serial_sequence('posts', 'id'), greatest((select max(id) from posts), 1))`.execute(this.db);
  }
}
