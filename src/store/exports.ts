import type { Kysely, Selectable } from 'kysely';
import type { CommentsTable, DB, PostsTable, TermsTable, UsersTable } from './schema.ts';
import type { MetaTable } from './imports.ts';

const META_OWNER = { post_meta: 'post_id', comment_meta: 'comment_id', term_meta: 'term_id', user_meta: 'user_id' } as const;

export type ExportedPost = Selectable<PostsTable>;
export type ExportedComment = Selectable<CommentsTable>;
export type ExportedTerm = Selectable<TermsTable>;
export interface ExportedAuthor extends Pick<Selectable<UsersTable>, 'id' | 'login' | 'email' | 'display_name'> {
  first_name: string;
  last_name: string;
}

/** Which posts an export takes (export_wp's arguments). */
export interface ExportSelection {
  types: readonly string[];
  /** post_status = status (else every status but auto-draft). */
  status?: string;
  author?: number;
  /** Only posts in this category (a term id). */
  category?: number;
  /** post_date >= from and < until, site-local 'YYYY-MM-DD'. */
  from?: string;
  until?: string;
}

/**
 * What writing a WordPress export (export_wp) reads: the posts' ids as one snapshot, then the
 * posts, their meta, terms and comments a page at a time, each in the order of its rows' ids,
 * which is the order WordPress's tables give them back in.
 */
export class ExportRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** The snapshot of the post ids the export covers ("just in case it changes during the export"). */
  async postIds(s: ExportSelection): Promise<number[]> {
    if (!s.types.length) return [];
    let q = this.db.selectFrom('posts').select('id').where('type', 'in', [...s.types]);
    q = s.status ? q.where('status', '=', s.status) : q.where('status', '!=', 'auto-draft');
    if (s.author !== undefined) q = q.where('author', '=', s.author);
    if (s.category !== undefined) q = q.where('id', 'in', this.db.selectFrom('term_relationships').select('post_id').where('term_id', '=', s.category));
    if (s.from) q = q.where('date', '>=', s.from);
    if (s.until) q = q.where('date', '<', s.until);
    return (await q.orderBy('id').execute()).map((r) => r.id);
  }

  async posts(ids: readonly number[]): Promise<ExportedPost[]> {
    if (!ids.length) return [];
    return this.db.selectFrom('posts').selectAll().where('id', 'in', [...ids]).orderBy('id').execute();
  }

  /** Every meta row of these owners, by owner, each owner's in the order they were added. */
  async meta(table: MetaTable, owners: readonly number[]): Promise<Map<number, { key: string; value: string }[]>> {
    const byOwner = new Map<number, { key: string; value: string }[]>();
    if (!owners.length) return byOwner;
    const column = META_OWNER[table];
    const rows = await this.db
      .selectFrom(table as 'post_meta')
      .select([`${column} as owner` as 'post_id', 'key', 'value'])
      .where(column as 'post_id', 'in', [...owners])
      .orderBy('id')
      .execute();
    for (const r of rows as unknown as { owner: number; key: string; value: string }[]) {
      let list = byOwner.get(r.owner);
      if (!list) byOwner.set(r.owner, (list = []));
      list.push({ key: r.key, value: r.value });
    }
    return byOwner;
  }

  /** The posts' comments but spam, by post. */
  async comments(postIds: readonly number[]): Promise<Map<number, ExportedComment[]>> {
    const byPost = new Map<number, ExportedComment[]>();
    if (!postIds.length) return byPost;
    const rows = await this.db.selectFrom('comments').selectAll().where('post', 'in', [...postIds]).where('approved', '<>', 'spam').orderBy('id').execute();
    for (const c of rows) {
      let list = byPost.get(c.post);
      if (!list) byPost.set(c.post, (list = []));
      list.push(c);
    }
    return byPost;
  }

  /** The terms of these posts, by post. */
  async termsOf(postIds: readonly number[]): Promise<Map<number, ExportedTerm[]>> {
    const byPost = new Map<number, ExportedTerm[]>();
    if (!postIds.length) return byPost;
    const rows = await this.db
      .selectFrom('term_relationships')
      .innerJoin('terms', 'terms.id', 'term_relationships.term_id')
      .selectAll('terms')
      .select('term_relationships.post_id')
      .where('term_relationships.post_id', 'in', [...postIds])
      .execute();
    for (const { post_id, ...t } of rows) {
      let list = byPost.get(post_id);
      if (!list) byPost.set(post_id, (list = []));
      list.push(t);
    }
    return byPost;
  }

  /** Every term of these taxonomies (all of them when none is named). */
  async terms(taxonomies?: readonly string[]): Promise<ExportedTerm[]> {
    let q = this.db.selectFrom('terms').selectAll();
    if (taxonomies) {
      if (!taxonomies.length) return [];
      q = q.where('taxonomy', 'in', [...taxonomies]);
    }
    return q.orderBy('id').execute();
  }

  /** The distinct authors of these posts (wxr_authors_list), in the order of their first post, with their first and last names. */
  async authorsOf(postIds: readonly number[]): Promise<ExportedAuthor[]> {
    const order: number[] = [];
    const seen = new Set<number>();
    for (let i = 0; i < postIds.length; i += 500) {
      const rows = await this.db.selectFrom('posts').select(['id', 'author']).where('id', 'in', postIds.slice(i, i + 500)).orderBy('id').execute();
      for (const r of rows) if (!seen.has(r.author)) seen.add(r.author), order.push(r.author);
    }
    if (!order.length) return [];
    const users = new Map((await this.db.selectFrom('users').select(['id', 'login', 'email', 'display_name']).where('id', 'in', order).execute()).map((u) => [u.id, u]));
    const names = await this.meta('user_meta', order);
    return order.flatMap((id) => {
      const u = users.get(id);
      if (!u) return [];
      const meta = names.get(id) ?? [];
      const named = (key: string) => meta.find((m) => m.key === key)?.value ?? '';
      return [{ ...u, first_name: named('first_name'), last_name: named('last_name') }];
    });
  }
}
