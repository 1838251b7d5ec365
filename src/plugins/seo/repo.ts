import type { Generated, Insertable, Kysely, Selectable } from 'kysely';
import type { PostMetaTable, PostsTable, TermRelationshipsTable, TermsTable } from '../../store/schema.ts';
import type { PostRow } from '../../store/posts.ts';
import type { TermRow } from '../../store/terms.ts';
import { atomically, sqlDate } from '../../store/transact.ts';
import { compiledOnce } from '../../store/compiled-once.ts';
import { ExpiringCache } from '../../store/expiring-cache.ts';
import { sqlBound } from '../../store/sql-bound.ts';

export interface IndexablesTable {
  id: Generated<number>;
  object_type: string;
  object_sub_type: string | null;
  object_id: number | null;
  permalink: string | null;
  author_id: number | null;
  post_parent: number | null;
  title: string | null;
  description: string | null;
  breadcrumb_title: string | null;
  post_status: string | null;
  is_public: number | null;
  is_protected: Generated<number>;
  canonical: string | null;
  primary_focus_keyword: string | null;
  primary_focus_keyword_score: number | null;
  readability_score: number | null;
  seo_assessments: string | null;
  readability_assessments: string | null;
  is_cornerstone: Generated<number>;
  is_robots_noindex: number | null;
  is_robots_nofollow: Generated<number>;
  open_graph_title: string | null;
  open_graph_description: string | null;
  open_graph_image: string | null;
  twitter_title: string | null;
  twitter_description: string | null;
  twitter_image: string | null;
  link_count: number | null;
  external_link_count: number | null;
  incoming_link_count: number | null;
  estimated_reading_time_minutes: number | null;
  is_stale: Generated<number>;
  object_last_modified: string | null;
  object_published_at: string | null;
  created_at: string;
  updated_at: string;
  version: Generated<number>;
}

export interface LinksTable {
  id: Generated<number>;
  url: string;
  indexable_id: number;
  type: 'internal' | 'external';
  target_indexable_id: number | null;
  target_post_id: number | null;
}

export interface CacheTable {
  key: string;
  value: string;
  expires_at: string;
}

export interface AiUsageTable {
  month: string;
  user_id: number;
  entity: string;
  requests: number;
  tokens: number;
}

/** The plugin's tables, and the core's it reads to find what is not indexed yet. */
export interface SeoTables {
  seo_indexables: IndexablesTable;
  seo_links: LinksTable;
  seo_cache: CacheTable;
  seo_remote_cache: CacheTable;
  seo_ai_usage: AiUsageTable;
  posts: PostsTable;
  terms: TermsTable;
  term_relationships: TermRelationshipsTable;
  post_meta: PostMetaTable;
}

export type IndexableRow = Selectable<IndexablesTable>;
/** What a builder makes of an object: everything but the bookkeeping columns. */
export type IndexableFields = Omit<Insertable<IndexablesTable>, 'id' | 'created_at' | 'updated_at' | 'is_stale' | 'link_count' | 'external_link_count' | 'incoming_link_count'>;

export type NewLink = Omit<Insertable<LinksTable>, 'id' | 'indexable_id'>;

/** Statuses whose posts are never indexed (Yoast leaves out auto-drafts; revisions and trash are not content). */
const UNINDEXED_STATUSES = ['auto-draft', 'inherit', 'trash'];

/** An indexable as the indexing routes answer it (the ORM row Yoast serialises): booleans as 0/1 kept, analysis results parsed. */
export function indexableJson(row: IndexableRow): Record<string, unknown> {
  return {
    ...row,
    seo_assessments: row.seo_assessments ? JSON.parse(row.seo_assessments) : null,
    readability_assessments: row.readability_assessments ? JSON.parse(row.readability_assessments) : null,
  };
}

export interface ScoreFilter {
  postType: string;
  /** Only posts carrying one of these term ids. */
  termIds?: number[];
  /** Only this author's posts. */
  authorId?: number;
}

/** The indexables, their links and the dashboards' cache. */
export class SeoRepo {
  /** The dashboards' computed answers, emptied whenever indexables change. */
  readonly dashboards: ExpiringCache;
  /** The remote services' answers kept for a while (related keyphrases, the AI service's usage), by keys that start with what they are. */
  readonly remote: ExpiringCache;

  constructor(private readonly db: Kysely<SeoTables>) {
    this.dashboards = new ExpiringCache(db, { table: 'seo_cache', key: 'key', value: 'value', clock: 'datetime' });
    this.remote = new ExpiringCache(db, { table: 'seo_remote_cache', key: 'key', value: 'value', clock: 'datetime' });
  }

  // --- finding what needs indexing ---

  private unindexedPostsQuery(types: string[]) {
    return this.db
      .selectFrom('posts as p')
      .leftJoin('seo_indexables as i', (j) => j.onRef('i.object_id', '=', 'p.id').on('i.object_type', '=', 'post'))
      .where('p.type', 'in', types.length ? types : [''])
      .where('p.status', 'not in', UNINDEXED_STATUSES)
      .where((eb) => eb.or([eb('i.id', 'is', null), eb('i.is_stale', '=', 1)]));
  }

  /** Posts of these types without an indexable, or whose indexable went stale, in id order. */
  async unindexedPosts(types: string[], limit: number): Promise<PostRow[]> {
    return this.unindexedPostsQuery(types).selectAll('p').orderBy('p.id').limit(sqlBound(limit)).execute() as Promise<PostRow[]>;
  }

  async countUnindexedPosts(types: string[]): Promise<number> {
    const { n } = await this.unindexedPostsQuery(types).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(n);
  }

  private unindexedTermsQuery(taxonomies: string[]) {
    return this.db
      .selectFrom('terms as t')
      .leftJoin('seo_indexables as i', (j) => j.onRef('i.object_id', '=', 't.id').on('i.object_type', '=', 'term'))
      .where('t.taxonomy', 'in', taxonomies.length ? taxonomies : [''])
      .where((eb) => eb.or([eb('i.id', 'is', null), eb('i.is_stale', '=', 1)]));
  }

  async unindexedTerms(taxonomies: string[], limit: number): Promise<TermRow[]> {
    return this.unindexedTermsQuery(taxonomies).selectAll('t').orderBy('t.id').limit(sqlBound(limit)).execute() as Promise<TermRow[]>;
  }

  async countUnindexedTerms(taxonomies: string[]): Promise<number> {
    const { n } = await this.unindexedTermsQuery(taxonomies).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(n);
  }

  /** The sub types of an object type that have a current (not stale) indexable (post-type archives, general pages). */
  async indexedSubTypes(objectType: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('seo_indexables').select('object_sub_type').where('object_type', '=', objectType).where('is_stale', '=', 0).execute();
    return new Set(rows.map((r) => r.object_sub_type ?? ''));
  }

  // --- reading ---

  async byObject(objectType: string, objectId: number): Promise<IndexableRow | undefined> {
    return this.db.selectFrom('seo_indexables').selectAll().where('object_type', '=', objectType).where('object_id', '=', objectId).executeTakeFirst();
  }

  async getMany(ids: number[]): Promise<IndexableRow[]> {
    if (!ids.length) return [];
    return this.db.selectFrom('seo_indexables').selectAll().where('id', 'in', ids).orderBy('id').execute();
  }

  /** Indexables by URL (find_by_permalink), one per URL given. */
  async byPermalinks(urls: string[]): Promise<Map<string, IndexableRow>> {
    const out = new Map<string, IndexableRow>();
    for (let i = 0; i < urls.length; i += 500) {
      const rows = await this.db.selectFrom('seo_indexables').selectAll().where('permalink', 'in', urls.slice(i, i + 500)).orderBy('id').execute();
      for (const r of rows) if (!out.has(r.permalink!)) out.set(r.permalink!, r);
    }
    return out;
  }

  // --- writing ---

  /**
   * Saves what a builder made of an object: the existing row of that object is updated (its link
   * counts kept unless its content changed, which `linksStale` says), else a row is inserted.
   */
  async save(fields: IndexableFields, linksStale: boolean): Promise<IndexableRow> {
    const now = sqlDate(new Date());
    let q = this.db.selectFrom('seo_indexables').select('id').where('object_type', '=', fields.object_type);
    if (fields.object_id !== null && fields.object_id !== undefined) q = q.where('object_id', '=', fields.object_id);
    else q = fields.object_sub_type ? q.where('object_sub_type', '=', fields.object_sub_type) : q.where('object_sub_type', 'is', null);
    const existing = await q.executeTakeFirst();
    if (existing) {
      await this.db
        .updateTable('seo_indexables')
        .set({ ...fields, is_stale: 0, updated_at: now, ...(linksStale ? { link_count: null, external_link_count: null } : {}) })
        .where('id', '=', existing.id)
        .execute();
      return this.db.selectFrom('seo_indexables').selectAll().where('id', '=', existing.id).executeTakeFirstOrThrow();
    }
    return this.db
      .insertInto('seo_indexables')
      .values({ ...fields, is_stale: 0, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Marks an object's indexable for re-indexing (its content changed): indexing and link indexing pick it up again. */
  async markStale(objectType: string, objectId: number): Promise<void> {
    // after every save of a post: one transaction, and its statement compiled once
    await atomically(this.db, async (db) => {
      const stale = () => db.updateTable('seo_indexables').set({ is_stale: 1, link_count: null, external_link_count: null }).where('object_type', '=', objectType).where('object_id', '=', objectId);
      await db.executeQuery(compiledOnce(db, 'seo indexable stale', [1, null, null, objectType, objectId], stale));
      await this.dashboards.clear('', db);
    });
  }

  /** Marks every indexable for re-indexing (`cms-spec seo index --reindex`). */
  async markAllStale(): Promise<void> {
    await this.db.updateTable('seo_indexables').set({ is_stale: 1, link_count: null, external_link_count: null }).execute();
    await this.dashboards.clear();
  }

  /** Forgets a deleted object: its indexable, the links it made, and it as a link target (the targets' counts follow). */
  async deleteObject(objectType: string, objectId: number): Promise<void> {
    const row = await this.byObject(objectType, objectId);
    if (!row) return;
    const targets = await this.db.selectFrom('seo_links').select('target_indexable_id').where('indexable_id', '=', row.id).where('target_indexable_id', 'is not', null).execute();
    await this.db.deleteFrom('seo_links').where('indexable_id', '=', row.id).execute();
    await this.db.updateTable('seo_links').set({ target_indexable_id: null, target_post_id: null }).where('target_indexable_id', '=', row.id).execute();
    await this.db.deleteFrom('seo_indexables').where('id', '=', row.id).execute();
    await this.recountIncoming(targets.map((t) => t.target_indexable_id!));
    await this.dashboards.clear();
  }

  /** Indexables whose content has not been read for links yet (link_count null), in id order. */
  async pendingLinks(objectType: string, limit: number): Promise<IndexableRow[]> {
    return this.db.selectFrom('seo_indexables').selectAll().where('object_type', '=', objectType).where('link_count', 'is', null).where('is_stale', '=', 0).orderBy('id').limit(sqlBound(limit)).execute();
  }

  async countPendingLinks(objectType: string): Promise<number> {
    const { n } = await this.db
      .selectFrom('seo_indexables')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('object_type', '=', objectType)
      .where('link_count', 'is', null)
      .where('is_stale', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Replaces the links an indexable's content holds and sets its counts; the old and new targets' incoming counts follow. */
  async replaceLinks(indexableId: number, links: NewLink[]): Promise<void> {
    const before = await this.db.selectFrom('seo_links').select('target_indexable_id').where('indexable_id', '=', indexableId).where('target_indexable_id', 'is not', null).execute();
    await this.db.deleteFrom('seo_links').where('indexable_id', '=', indexableId).execute();
    for (let i = 0; i < links.length; i += 200) await this.db.insertInto('seo_links').values(links.slice(i, i + 200).map((l) => ({ ...l, indexable_id: indexableId }))).execute();
    const internal = links.filter((l) => l.type === 'internal').length;
    await this.db.updateTable('seo_indexables').set({ link_count: internal, external_link_count: links.length - internal, incoming_link_count: (eb) => eb.fn.coalesce('incoming_link_count', eb.val(0)) }).where('id', '=', indexableId).execute();
    const targets = [...before.map((t) => t.target_indexable_id!), ...links.flatMap((l) => (l.target_indexable_id ? [l.target_indexable_id] : []))];
    await this.recountIncoming(targets);
  }

  /** incoming_link_count of these indexables: the links other content holds to them. */
  private async recountIncoming(ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      await this.db
        .updateTable('seo_indexables')
        .set({
          incoming_link_count: (eb) => eb.selectFrom('seo_links as l').select((e) => e.fn.countAll<number>().as('n')).whereRef('l.target_indexable_id', '=', 'seo_indexables.id'),
        })
        .where('id', 'in', unique.slice(i, i + 500))
        .execute();
    }
  }

  /** The attachment whose file is at this URL (its guid, as WordPress records an upload's URL). */
  async attachmentIdByUrl(url: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('posts').select('id').where('type', '=', 'attachment').where('guid', '=', url).orderBy('id').executeTakeFirst();
    return row?.id;
  }

  /** Ids of posts after `afterId` holding any of these meta keys, in id order (an importer's next batch). */
  async postsWithMeta(keys: string[], afterId: number, limit: number): Promise<number[]> {
    const rows = await this.db.selectFrom('post_meta').select('post_id').distinct().where('key', 'in', keys).where('post_id', '>', afterId).orderBy('post_id').limit(sqlBound(limit)).execute();
    return rows.map((r) => r.post_id);
  }

  // --- dashboards ---

  /**
   * The published posts of a type as their indexables score them: per post its SEO or readability
   * score (null when not analysed) and whether it is noindex.
   */
  async scoresOf(filter: ScoreFilter, column: 'primary_focus_keyword_score' | 'readability_score'): Promise<{ object_id: number; score: number | null; noindex: boolean }[]> {
    let q = this.db
      .selectFrom('seo_indexables')
      .select(['object_id', `${column} as score`, 'is_robots_noindex'])
      .where('object_type', '=', 'post')
      .where('object_sub_type', '=', filter.postType)
      .where('post_status', '=', 'publish');
    if (filter.authorId !== undefined) q = q.where('author_id', '=', filter.authorId);
    if (filter.termIds) {
      const termIds = filter.termIds.length ? filter.termIds : [0];
      q = q.where('object_id', 'in', (eb) => eb.selectFrom('term_relationships').select('post_id').where('term_id', 'in', termIds));
    }
    const rows = await q.orderBy('object_id').execute();
    return rows.map((r) => ({ object_id: r.object_id!, score: r.score, noindex: r.is_robots_noindex === 1 }));
  }

  /** Published posts' indexables of these types: id, keyphrase and scores (for the task list). */
  async publishedPostScores(types: string[]) {
    return this.db
      .selectFrom('seo_indexables')
      .select(['object_id', 'primary_focus_keyword', 'primary_focus_keyword_score', 'readability_score'])
      .where('object_type', '=', 'post')
      .where('object_sub_type', 'in', types.length ? types : [''])
      .where('post_status', '=', 'publish')
      .execute();
  }

  // --- the remote integrations ---

  /** The distinct focus keyphrases of posts that are not trashed, lower-cased (what the rank tracker follows by default). */
  async focusKeyphrases(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('seo_indexables')
      .select((eb) => eb.fn('lower', ['primary_focus_keyword']).as('keyphrase'))
      .distinct()
      .where('object_type', '=', 'post')
      .where('primary_focus_keyword', 'is not', null)
      .where('primary_focus_keyword', '!=', '')
      .where((eb) => eb.or([eb('post_status', 'is', null), eb('post_status', '!=', 'trash')]))
      .orderBy('keyphrase')
      .execute();
    return rows.map((r) => String(r.keyphrase));
  }

  /** One more AI suggestion request of a user, with the tokens it took. */
  async recordAiUsage(month: string, userId: number, entity: string, tokens: number): Promise<void> {
    await this.db
      .insertInto('seo_ai_usage')
      .values({ month, user_id: userId, entity, requests: 1, tokens })
      .onConflict((oc) =>
        oc.columns(['month', 'entity', 'user_id']).doUpdateSet({ requests: (eb) => eb('seo_ai_usage.requests', '+', 1), tokens: (eb) => eb('seo_ai_usage.tokens', '+', tokens) }),
      )
      .execute();
  }

  /** A month's AI requests of one kind: the site's, and one user's requests and tokens. */
  async aiUsage(month: string, entity: string, userId: number): Promise<{ site: number; requests: number; tokens: number }> {
    const rows = await this.db.selectFrom('seo_ai_usage').select(['user_id', 'requests', 'tokens']).where('month', '=', month).where('entity', '=', entity).execute();
    const own = rows.find((r) => Number(r.user_id) === userId);
    return { site: rows.reduce((n, r) => n + Number(r.requests), 0), requests: Number(own?.requests ?? 0), tokens: Number(own?.tokens ?? 0) };
  }
}
