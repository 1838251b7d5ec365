import type { Kysely, Selectable } from 'kysely';
import { sql } from './kysely.ts';
import type { DB, TermsTable } from './schema.ts';
import { forUpdate, lockUntilCommit } from './portable.ts';
import { MetaRepo } from './meta.ts';
import { atomically, byteOrder, firstFreeSlug, foldedOrder, matchesText, sanitizeSlug, slugOrCandidates } from './transact.ts';
import { sqlBound } from './sql-bound.ts';
import { writeAtCommit } from './table-versions.ts';
import { compiledOnce } from './compiled-once.ts';
import { readCacheOf } from './read-cache.ts';

export type TermRow = Selectable<TermsTable>;

/** The term columns that sort as text (the same order on both databases). */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(['name', 'slug', 'description']);

export interface NewTerm {
  taxonomy: string;
  name: string;
  slug?: string;
  description?: string;
  parent?: number;
}

export type TermPatch = Partial<Pick<TermRow, 'name' | 'slug' | 'description' | 'parent'>>;

export interface TermQuery {
  taxonomy: string;
  search?: string;
  include?: number[];
  exclude?: number[];
  slugs?: string[];
  parent?: number;
  hideEmpty?: boolean;
  /** Only terms this post carries. */
  post?: number;
  orderby?: 'id' | 'name' | 'slug' | 'count' | 'term_group' | 'include' | 'description';
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/**
 * Recomputes `count` of the given terms from the published posts carrying them. Called after
 * anything that changes which posts carry a term or a carrying post's status.
 */
export async function recountTerms(db: Kysely<DB>, termIds: Iterable<number>): Promise<void> {
  const ids = [...new Set(termIds)];
  if (!ids.length) return;
  await db
    .updateTable('terms')
    .set({
      count: (eb) =>
        eb
          .selectFrom('term_relationships as tr')
          .innerJoin('posts as p', 'p.id', 'tr.post_id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('tr.term_id', '=', 'terms.id')
          .where('p.status', '=', 'publish'),
    })
    .where('id', 'in', ids)
    .execute();
}

/**
 * The counts of `termIds` after a post not counted before (a new one) took them: one more each if
 * it is published. The default category takes most new posts, so every create would wait on its
 * row until the one before committed: the raise is held back for the commit (`writeAtCommit`).
 */
async function countNewPost(db: Kysely<DB>, termIds: number[], published: boolean): Promise<void> {
  if (!termIds.length || !published) return;
  const ids = [...termIds].sort((a, b) => a - b).map((id) => Math.trunc(id));
  await writeAtCommit(db, `update terms set "count" = "count" + 1 where id in (${ids.join(', ')})`);
}

/** Term ids carried by the given posts (for recounting after their status or existence changes). */
export async function termIdsOfPosts(db: Kysely<DB>, postIds: number[]): Promise<number[]> {
  if (!postIds.length) return [];
  const rows = await db.selectFrom('term_relationships').select('term_id').distinct().where('post_id', 'in', postIds).execute();
  return rows.map((r) => r.term_id);
}

/** Categories, tags and every other taxonomy's terms, and which posts carry them. */
export class TermsRepo {
  /** Term meta (wp_termmeta). */
  readonly meta: MetaRepo;

  constructor(private readonly db: Kysely<DB>) {
    this.meta = new MetaRepo(db, 'term_meta');
  }

  /**
   * The row of this id; an id that is not an exact integer (a path's 30 digits) names none.
   * `lock`: a handler that reads it to change it, in a transaction, holds it till the end (see forUpdate).
   */
  async get(id: number, lock = false): Promise<TermRow | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const query = this.db.selectFrom('terms').selectAll().where('id', '=', id);
    return (lock ? forUpdate(this.db, query) : query).executeTakeFirst();
  }

  async getMany(ids: number[]): Promise<TermRow[]> {
    if (!ids.length) return [];
    return this.db.selectFrom('terms').selectAll().where('id', 'in', ids).execute();
  }

  bySlug(taxonomy: string, slug: string): Promise<TermRow | undefined> {
    return this.db.selectFrom('terms').selectAll().where('taxonomy', '=', taxonomy).where('slug', '=', slug).executeTakeFirst();
  }

  /** Slugs of a term's ancestors, outermost first (the archive path before its own slug). */
  async ancestorSlugs(term: Pick<TermRow, 'id' | 'parent'>): Promise<string[]> {
    const slugs: string[] = [];
    const seen = new Set([term.id]);
    let parent = term.parent;
    while (parent && !seen.has(parent)) {
      seen.add(parent);
      const row = await this.db.selectFrom('terms').select(['slug', 'parent']).where('id', '=', parent).executeTakeFirst();
      if (!row) break;
      slugs.unshift(row.slug);
      parent = row.parent;
    }
    return slugs;
  }

  /** get_term_children: the ids of every term below this one, at any depth. */
  async descendantIds(taxonomy: string, id: number): Promise<number[]> {
    const found = new Set<number>([id]);
    let level = [id];
    while (level.length) {
      const rows = await this.db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).where('parent', 'in', level).execute();
      level = rows.map((r) => r.id).filter((c) => !found.has(c));
      for (const c of level) found.add(c);
    }
    found.delete(id);
    return [...found];
  }

  /** term_exists by name: the term of that name (under that parent, when given). */
  byName(taxonomy: string, name: string, parent?: number): Promise<TermRow | undefined> {
    let q = this.db.selectFrom('terms').selectAll().where('taxonomy', '=', taxonomy).where('name', '=', name);
    if (parent !== undefined) q = q.where('parent', '=', parent);
    return q.executeTakeFirst();
  }

  async query(q: TermQuery): Promise<{ rows: TermRow[]; total: number }> {
    let base = this.db.selectFrom('terms').where('taxonomy', '=', q.taxonomy);
    if (q.search) {
      // get_terms' search: name or slug containing the text
      const text = q.search;
      base = base.where((eb) => eb.or([matchesText(this.db, eb.ref('name'), text), matchesText(this.db, eb.ref('slug'), text)]));
    }
    if (q.include?.length) base = base.where('id', 'in', q.include);
    if (q.exclude?.length) base = base.where('id', 'not in', q.exclude);
    if (q.slugs?.length) base = base.where('slug', 'in', q.slugs);
    if (q.parent !== undefined) base = base.where('parent', '=', q.parent);
    if (q.hideEmpty) base = base.where('count', '>', 0);
    if (q.post !== undefined) {
      const post = q.post;
      base = base.where('id', 'in', (eb) => eb.selectFrom('term_relationships').select('term_id').where('post_id', '=', post));
    }
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const dir = q.order ?? 'asc';
    let rows = base.selectAll();
    if (q.orderby === 'include' && q.include?.length) {
      rows = rows.orderBy(orderOfIds('id', q.include), dir);
    } else {
      const column = q.orderby && q.orderby !== 'include' ? q.orderby : 'name';
      rows = TEXT_COLUMNS.has(column) ? rows.orderBy(foldedOrder(this.db, column), dir).orderBy(byteOrder(this.db, column), dir) : rows.orderBy(column, dir);
    }
    return { rows: await rows.orderBy('id', dir).limit(sqlBound(q.limit)).offset(sqlBound(q.offset)).execute(), total: Number(total) };
  }

  /** wp_insert_term's storage part: the slug (from the name when not given) made unique in the taxonomy (wp_unique_term_slug). */
  async insert(t: NewTerm): Promise<number> {
    return atomically(this.db, async (db) => {
      await lockUntilCommit(db, `terms:${t.taxonomy}`);
      const slug = await uniqueTermSlug(db, t.taxonomy, sanitizeSlug(t.slug || t.name) || sanitizeSlug(t.name) || 'term', undefined, t.parent ?? 0);
      const row = await db
        .insertInto('terms')
        .values({ taxonomy: t.taxonomy, name: t.name, slug, description: t.description ?? '', parent: t.parent ?? 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  async update(id: number, patch: TermPatch): Promise<void> {
    await atomically(this.db, async (db) => {
      const values: TermPatch = { ...patch };
      if (patch.slug !== undefined) {
        const current = await db.selectFrom('terms').select(['taxonomy', 'slug']).where('id', '=', id).executeTakeFirst();
        if (!current) return;
        await lockUntilCommit(db, `terms:${current.taxonomy}`);
        const wanted = sanitizeSlug(patch.slug) || current.slug;
        values.slug = wanted === current.slug ? wanted : await uniqueTermSlug(db, current.taxonomy, wanted, id);
      }
      if (Object.keys(values).length) await db.updateTable('terms').set(values).where('id', '=', id).execute();
    });
  }

  /** wp_delete_term: children move up to the deleted term's parent; posts simply lose the term. */
  async delete(id: number): Promise<void> {
    await atomically(this.db, async (db) => {
      const term = await db.selectFrom('terms').select(['parent', 'taxonomy']).where('id', '=', id).executeTakeFirst();
      if (!term) return;
      await db.updateTable('terms').set({ parent: term.parent }).where('taxonomy', '=', term.taxonomy).where('parent', '=', id).execute();
      await db.deleteFrom('term_relationships').where('term_id', '=', id).execute();
      await db.deleteFrom('terms').where('id', '=', id).execute();
    });
  }

  /**
   * The terms of a page of posts in one query, each post's in term_order then name order. Kept by
   * the read cache until the terms or their posts' relationships are written: a post's answer and
   * its SEO head, made one after the other, read them once.
   */
  async termsOfPosts(postIds: number[], taxonomy?: string): Promise<Map<number, TermRow[]>> {
    if (!postIds.length) return new Map();
    const cache = readCacheOf(this.db);
    if (!cache) return this.readTermsOfPosts(postIds, taxonomy);
    const kept = await cache.get(`terms of posts\0${taxonomy ?? ''}\0${postIds.join(',')}`, () => this.readTermsOfPosts(postIds, taxonomy));
    // copies: the kept rows are shared by every request
    return new Map([...kept].map(([id, terms]) => [id, terms.map((term) => ({ ...term }))]));
  }

  private async readTermsOfPosts(postIds: number[], taxonomy: string | undefined): Promise<Map<number, TermRow[]>> {
    const out = new Map<number, TermRow[]>(postIds.map((id) => [id, []]));
    const build = () => {
      let q = this.db
        .selectFrom('term_relationships as tr')
        .innerJoin('terms as t', 't.id', 'tr.term_id')
        .selectAll('t')
        .select('tr.post_id')
        .where('tr.post_id', 'in', postIds);
      if (taxonomy) q = q.where('t.taxonomy', '=', taxonomy);
      return q.orderBy('tr.post_id').orderBy('tr.term_order').orderBy('t.name');
    };
    const query = compiledOnce(this.db, `terms of posts\0${postIds.length}\0${taxonomy ? 1 : 0}`, taxonomy ? [...postIds, taxonomy] : postIds, build);
    for (const { post_id, ...term } of (await this.db.executeQuery(query)).rows) out.get(post_id)?.push(term);
    return out;
  }

  /** The published posts carrying each of `termIds` (what _pad_term_counts counts a term and its descendants by). */
  async publishedPostsOfTerms(termIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(termIds.map((id) => [id, []]));
    if (!termIds.length) return out;
    const rows = await this.db
      .selectFrom('term_relationships as tr')
      .innerJoin('posts as p', 'p.id', 'tr.post_id')
      .select(['tr.term_id', 'tr.post_id'])
      .where('tr.term_id', 'in', termIds)
      .where('p.status', '=', 'publish')
      .execute();
    for (const r of rows) out.get(r.term_id)?.push(r.post_id);
    return out;
  }

  /** Term ids of one post in one taxonomy. */
  async termIdsOfPost(postId: number, taxonomy: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('term_relationships as tr')
      .innerJoin('terms as t', 't.id', 'tr.term_id')
      .select('t.id')
      .where('tr.post_id', '=', postId)
      .where('t.taxonomy', '=', taxonomy)
      .orderBy('tr.term_order')
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * wp_set_object_terms (replacing): the post carries exactly `termIds` of this taxonomy afterwards;
   * ids of other taxonomies or of no term are ignored. Counts of every term gained or lost follow.
   * `newPost`: the post was inserted in the same transaction, with this status, so it carries no
   * term yet and no term counts it.
   */
  async setPostTerms(postId: number, taxonomy: string, termIds: number[], newPost?: { status: string }): Promise<void> {
    await atomically(this.db, async (db) => {
      const wanted = [...new Set(termIds)];
      // a post inserted in this transaction has no terms yet: nothing to read or take off
      const before = newPost
        ? []
        : await db
            .selectFrom('term_relationships as tr')
            .innerJoin('terms as t', 't.id', 'tr.term_id')
            .select('t.id')
            .where('tr.post_id', '=', postId)
            .where('t.taxonomy', '=', taxonomy)
            .execute();
      const beforeIds = before.map((r) => r.id);
      if (beforeIds.length) await db.deleteFrom('term_relationships').where('post_id', '=', postId).where('term_id', 'in', beforeIds).execute();
      // the wanted ids that are terms of the taxonomy, numbered in the order asked, found and attached in one statement
      // the order of the ids is written into the text: one shape per list of ids (most creates attach the default category alone)
      const attach = () =>
        db
          .insertInto('term_relationships')
          .columns(['post_id', 'term_id', 'term_order'])
          .expression(
            db
              .selectFrom('terms')
              .select([sql<number>`cast(${postId} as integer)`.as('post_id'), 'id', sql<number>`row_number() over (order by ${orderOfIds('id', wanted)}) - 1`.as('term_order')])
              .where('taxonomy', '=', taxonomy)
              .where('id', 'in', wanted),
          )
          .returning('term_id');
      const attached = wanted.length
        ? (await db.executeQuery(compiledOnce(db, `terms attach\0${wanted.join(',')}`, [postId, taxonomy, ...wanted], attach))).rows.map((r) => r.term_id)
        : [];
      // a new post adds one to each of its terms if it is published: no count of every post a term
      // carries (the default category carries most of a site), which grew with the site on each create
      if (newPost) await countNewPost(db, attached, newPost.status === 'publish');
      else await recountTerms(db, [...beforeIds, ...attached]);
    });
  }

  /**
   * Bulk wp_add_object_terms for imports and seeding: adds each pair not there yet, and raises the
   * counts by the new pairs whose post is published (no full recount, so big loads stay linear).
   */
  async attachMany(pairs: { postId: number; termId: number }[]): Promise<void> {
    if (!pairs.length) return;
    await atomically(this.db, async (db) => {
      const postIds = [...new Set(pairs.map((p) => p.postId))];
      const existing = new Set<string>();
      const published = new Set<number>();
      for (let i = 0; i < postIds.length; i += 500) {
        const chunk = postIds.slice(i, i + 500);
        for (const r of await db.selectFrom('term_relationships').select(['post_id', 'term_id']).where('post_id', 'in', chunk).execute()) existing.add(`${r.post_id}:${r.term_id}`);
        for (const r of await db.selectFrom('posts').select('id').where('id', 'in', chunk).where('status', '=', 'publish').execute()) published.add(r.id);
      }
      const fresh = new Map<string, { post_id: number; term_id: number }>();
      for (const p of pairs) {
        const key = `${p.postId}:${p.termId}`;
        if (!existing.has(key)) fresh.set(key, { post_id: p.postId, term_id: p.termId });
      }
      const rows = [...fresh.values()];
      for (let i = 0; i < rows.length; i += 1000) await db.insertInto('term_relationships').values(rows.slice(i, i + 1000)).execute();
      const added = new Map<number, number>();
      for (const r of rows) if (published.has(r.post_id)) added.set(r.term_id, (added.get(r.term_id) ?? 0) + 1);
      for (const [termId, n] of added) {
        await db
          .updateTable('terms')
          .set((eb) => ({ count: eb('count', '+', n) }))
          .where('id', '=', termId)
          .execute();
      }
    });
  }

  /** Recounts every term of a taxonomy (or all), for repairs and after bulk loads. */
  async recountAll(taxonomy?: string): Promise<void> {
    let q = this.db.selectFrom('terms').select('id');
    if (taxonomy) q = q.where('taxonomy', '=', taxonomy);
    const ids = (await q.execute()).map((r) => r.id);
    for (let i = 0; i < ids.length; i += 500) await recountTerms(this.db, ids.slice(i, i + 500));
  }
}

/** `CASE col WHEN id0 THEN 0 WHEN id1 THEN 1 ... END`: the portable FIELD() for orderby=include. */
export function orderOfIds(column: string, ids: number[]) {
  const whens = ids.map((id, i) => sql`when ${sql.raw(String(Math.trunc(id)))} then ${sql.raw(String(i))}`);
  return sql<number>`case ${sql.ref(column)} ${sql.join(whens, sql` `)} else ${sql.raw(String(ids.length))} end`;
}

/** wp_unique_term_slug: the slug, else (for a child) with its ancestors' slugs, then -2, -3... whichever is free in the taxonomy. */
async function uniqueTermSlug(db: Kysely<DB>, taxonomy: string, slug: string, exceptId?: number, parent = 0): Promise<string> {
  const taken = async (candidate: string) => {
    let q = db
      .selectFrom('terms')
      .select('slug')
      .where('taxonomy', '=', taxonomy)
      .where((eb) => slugOrCandidates(db, eb.ref('slug'), candidate));
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return new Set((await q.execute()).map((r) => r.slug));
  };
  let used = await taken(slug);
  if (!used.has(slug)) return slug;
  // a child term's slug takes its ancestors' slugs, nearest first, until it is free (`child-parent-grandparent`)
  const seen = new Set<number>();
  for (let up = parent; up && !seen.has(up); ) {
    seen.add(up);
    const ancestor = await db.selectFrom('terms').select(['slug', 'parent']).where('id', '=', up).executeTakeFirst();
    if (!ancestor) break;
    slug = `${slug}-${ancestor.slug}`;
    used = await taken(slug);
    if (!used.has(slug)) return slug;
    up = ancestor.parent;
  }
  return firstFreeSlug(slug, used);
}
