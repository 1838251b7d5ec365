import type { Expression, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import { sql } from './kysely.ts';
import type { DB } from './schema.ts';
import { atomically, byteOrder, firstFreeSlug, foldedOrder, matchesText, sanitizeSlug, slugCandidatesBound, slugOrCandidates } from './transact.ts';
import { MetaRepo } from './meta.ts';
import { POST_HEAD_COLUMNS, TITLE_PREFIX, type NewPost, type PostHead, type PostPatch, type PostRow } from './post-rows.ts';
import { contains, parseSearch, relevance, type ParsedSearch, type PostsEB } from './post-search.ts';
import { trashPost, untrashPost } from './post-trash.ts';
import { fillDates, siteClock, type SiteClock } from './site-clock.ts';
import { forUpdate, isPostgres, lockAllUntilCommit, lockUntilCommit, shareLockUntilCommit } from './portable.ts';
import { orderOfIds, recountTerms, termIdsOfPosts } from './terms.ts';
import { readCacheOf } from './read-cache.ts';
import { sqlBound } from './sql-bound.ts';
import { compiledOnce, definedColumns } from './compiled-once.ts';

export type { NewPost, PostHead, PostPatch, PostRow } from './post-rows.ts';

export interface PostQuery {
  types: string[];
  statuses?: string[];
  search?: string;
  include?: number[];
  exclude?: number[];
  authors?: number[];
  authorsExclude?: number[];
  slugs?: string[];
  /** Exact titles (WP_Query's `title`). */
  titles?: string[];
  parent?: number[];
  parentExclude?: number[];
  menuOrder?: number;
  /** Term ids of the category taxonomy: posts carrying any of them. */
  categories?: number[];
  categoriesExclude?: number[];
  tags?: number[];
  tagsExclude?: number[];
  /** A REST collection's taxonomy filters (categories, tags, their _exclude, tax_relation), as WP_Tax_Query takes them. */
  taxQuery?: TaxQuery;
  /** Any taxonomy: each entry narrows to posts carrying any of its ids. */
  termIds?: { taxonomy: string; ids: number[] }[];
  termIdsExclude?: { taxonomy: string; ids: number[] }[];
  /** Site-local 'YYYY-MM-DD HH:MM:SS', exclusive, on the post date. */
  after?: string;
  before?: string;
  /** Site-local 'YYYY-MM-DD HH:MM:SS', exclusive, on the modified date. */
  modifiedAfter?: string;
  modifiedBefore?: string;
  sticky?: boolean;
  /** MIME types (post_mime_type): `image/png` matches exactly, `image/` any image type. */
  mimeTypes?: string[];
  /** Sticky posts among the matches come first (on the first pages), the rest after them, each part in the asked order. */
  stickyFirst?: boolean;
  orderby?: 'date' | 'id' | 'title' | 'slug' | 'modified' | 'author' | 'include' | 'parent' | 'menu_order' | 'relevance' | 'comment_count' | 'rand';
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/**
 * A term carried by at least this many posts is large: a page of its posts is found by walking
 * the posts in order (about `page end × all posts / its posts` steps) rather than by sorting all
 * of its posts, which costs more from about √(page end × all posts) posts on (1,600 for the
 * first 25 of 100,000).
 */
const LARGE_TERM_POSTS = 1000;

/** Types whose slugs are unique among siblings only (wp_unique_post_slug's hierarchical branch). */
export const HIERARCHICAL_TYPES: ReadonlySet<string> = new Set(['page']);

/**
 * Writers making post slugs unique take this lock, so two at once cannot pick the same slug: an
 * update (which may rename through trash and untrash) exclusively; a create shared, with an
 * exclusive lock on its slug's stem besides (slugLock), so creates of unrelated slugs do not wait
 * for one another's commit.
 */
const POST_SLUGS_LOCK = 'posts:slugs';

/**
 * The lock of every slug a create wanting `slug` may end up with: wp_unique_post_slug tries
 * `slug`, then `slug-2`, `slug-3`...; with every trailing `-N` taken off, each of those, and any
 * other wanted slug one of them could collide with, has the same stem.
 */
const slugLock = (slug: string) => `posts:slug:${slug.replace(/(-\d+)+$/, '')}`;

/** The guid wp_insert_post gives a post without one when it has no pretty permalink: `?p=ID` (`?page_id=ID` for a page). */
const plainGuid = (home: string, type: string, id: number) => `${home}/?${type === 'page' ? 'page_id' : 'p'}=${id}`;

/** Statuses whose posts keep no unique slug until published, as in wp_insert_post. */
const SLUGLESS_STATUSES: ReadonlySet<string> = new Set(['draft', 'pending', 'auto-draft']);

/** wp_unique_post_slug leaves these slugs as given: unpublished posts', and revisions' (`{id}-revision-v1` is shared by all of a post's revisions). */
const keepsSlug = (type: string, status: string) => SLUGLESS_STATUSES.has(status) || (type === 'revision' && status === 'inherit');

/** Posts of every type: WP_Query's filters and orders over one indexed table. */
export class PostsRepo {
  /** Post meta (wp_postmeta). */
  readonly meta: MetaRepo;

  constructor(private readonly db: Kysely<DB>) {
    this.meta = new MetaRepo(db, 'post_meta');
  }

  /**
   * The row of this id; an id that is not an exact integer (a path's 30 digits) names none.
   * `lock`: a handler that reads it to change it, in a transaction, holds it till the end (see forUpdate).
   */
  async get(id: number, lock = false): Promise<PostRow | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const query = this.db.selectFrom('posts').selectAll().where('id', '=', id);
    return (lock ? forUpdate(this.db, query) : query).executeTakeFirst();
  }

  /**
   * The post without its content and excerpt (a permission check's read); kept by the read cache
   * until the posts change, so the object may be shared by requests: never change it.
   */
  head(id: number): Promise<PostHead | undefined> {
    if (!Number.isSafeInteger(id)) return Promise.resolve(undefined);
    const read = () => this.db.selectFrom('posts').select(POST_HEAD_COLUMNS).where('id', '=', id).executeTakeFirst();
    const cache = readCacheOf(this.db);
    return cache ? cache.get(`post head ${id}`, read) : read();
  }

  /** The posts with these ids, in the order of `ids` (unknown ids left out). */
  getMany(ids: number[]): Promise<PostRow[]> {
    return this.readIds(ids, WHOLE);
  }

  /** getMany without the posts' content and excerpt: on PostgreSQL their text, stored apart (TOAST), is not read at all. */
  headsOf(ids: number[]): Promise<PostHead[]> {
    return this.readIds(ids, HEADS);
  }

  private async readIds<T extends { id: number }>(ids: number[], columns: Columns<T>): Promise<T[]> {
    if (!ids.length) return [];
    const query = compiledOnce(this.db, `posts by id\0${columns.name}\0${ids.length}`, ids, () => columns.select(this.db.selectFrom('posts')).where('id', 'in', ids));
    return inOrderOf(ids, (await this.db.executeQuery(query)).rows);
  }

  /** The newest post of these types with this slug. */
  findBySlug(slug: string, types: string[]): Promise<PostRow | undefined> {
    return this.db
      .selectFrom('posts')
      .selectAll()
      .where('slug', '=', slug)
      .where('type', 'in', types)
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** get_page_by_path: the post whose slug is the last segment and whose ancestors' slugs are the others. */
  async findByPath(segments: string[], types: string[]): Promise<PostRow | undefined> {
    if (!segments.length) return undefined;
    const candidates = await this.db
      .selectFrom('posts')
      .selectAll()
      .where('slug', '=', segments[segments.length - 1])
      .where('type', 'in', types)
      .orderBy('id')
      .execute();
    for (const c of candidates) {
      if ((await this.ancestorSlugs(c)).join('/') === segments.slice(0, -1).join('/')) return c;
    }
    return undefined;
  }

  /** wp_unique_post_slug as get_sample_permalink asks it: the slug the post would get, free of every other post's. */
  sampleSlug(slug: string, post: Pick<PostRow, 'id' | 'type' | 'parent'>): Promise<string> {
    return uniquePostSlug(this.db, slug, post.type, post.parent, post.id);
  }

  /** Slugs of a post's ancestors, outermost first (the page path before its own slug). */
  async ancestorSlugs(post: Pick<PostRow, 'id' | 'parent'>): Promise<string[]> {
    return (await this.ancestorSlugsOfMany([post])).get(post.id)!;
  }

  /**
   * ancestorSlugs of each post, keyed by post id: one query per level of the deepest post's
   * ancestry, whatever the number of posts (a page of a list reads its parents together).
   */
  async ancestorSlugsOfMany(posts: readonly Pick<PostRow, 'id' | 'parent'>[]): Promise<Map<number, string[]>> {
    const out = new Map(posts.map((p) => [p.id, [] as string[]]));
    // each post's climb: the next ancestor to read, and the ids met so far (a loop of parents ends it)
    let climbs = [...new Map(posts.map((p) => [p.id, p])).values()]
      .filter((p) => p.parent && p.parent !== p.id)
      .map((p) => ({ id: p.id, next: p.parent, seen: new Set([p.id, p.parent]) }));
    while (climbs.length) {
      const found = await this.db.selectFrom('posts').select(['id', 'slug', 'parent']).where('id', 'in', [...new Set(climbs.map((c) => c.next))]).execute();
      const byId = new Map(found.map((r) => [r.id, r]));
      climbs = climbs.filter((c) => {
        const row = byId.get(c.next);
        if (!row) return false;
        out.get(c.id)!.unshift(row.slug);
        if (!row.parent || c.seen.has(row.parent)) return false;
        c.seen.add((c.next = row.parent));
        return true;
      });
    }
    return out;
  }

  /**
   * One page of matching posts and the number of all matches (two indexed queries; with
   * `stickyFirst`, the sticky part and the rest are paged as one list).
   */
  query(q: PostQuery): Promise<{ rows: PostRow[]; total: number }> {
    return this.counted(q, (search) => this.ordered(q, search, WHOLE));
  }

  /** query() read as heads (headsOf): for a list that reads the whole post only for those it makes afresh. */
  queryHeads(q: PostQuery): Promise<{ rows: PostHead[]; total: number }> {
    return this.counted(q, (search) => this.keptHeads(q, search));
  }

  private async counted<T>(q: PostQuery, page: (search: ParsedSearch | undefined) => Promise<T[]>): Promise<{ rows: T[]; total: number }> {
    const search = q.search?.trim() ? parseSearch(q.search) : undefined;
    const total = await this.count(q, search);
    if (!total || q.limit <= 0) return { rows: [], total };
    return { rows: await page(search), total };
  }

  /**
   * A page's heads, kept per query by the read cache until anything they were read from is
   * written, as WordPress 6.1's WP_Query keeps a query's post ids until the posts' last_changed
   * moves: a list asked again asks the database nothing. A random order is read every time.
   */
  private async keptHeads(q: PostQuery, search: ParsedSearch | undefined): Promise<PostHead[]> {
    const cache = readCacheOf(this.db);
    if (!cache || this.orderbyOf(q, search) === 'rand') return this.ordered(q, search, HEADS);
    const kept = await cache.get(`posts page\0${JSON.stringify(q)}`, () => this.ordered(q, search, HEADS));
    // copies: the kept rows are shared by every request
    return kept.map((head) => ({ ...head }));
  }

  /** One page of matching posts without counting all matches (for lists that show no total). */
  list(q: PostQuery): Promise<PostRow[]> {
    if (q.limit <= 0) return Promise.resolve([]);
    return this.ordered(q, q.search?.trim() ? parseSearch(q.search) : undefined, WHOLE);
  }

  private async ordered<T extends { id: number }>(q: PostQuery, search: ParsedSearch | undefined, columns: Columns<T>): Promise<T[]> {
    const large = await this.largeTerms(q);
    if (!q.stickyFirst || q.sticky !== undefined) {
      // On SQLite the page's rows in one statement, sorted again as their ids were (a page's worth): SQLite
      // reads an IN subquery once, whatever it knows of the table. PostgreSQL may plan it as a join that
      // runs the page's query again for every post (a search on 10,000 posts planned before the import's
      // ANALYZE ran for over ten minutes): there the ids come first. A random order cannot be repeated.
      if (isPostgres(this.db) || this.orderbyOf(q, search) === 'rand') return this.readIds(await this.idsOf(this.page(q, search, large, q.offset, q.limit)), columns);
      const rows = () => this.inOrder(columns.select(this.db.selectFrom('posts')).where('id', 'in', this.page(q, search, large, q.offset, q.limit)), q, search);
      const plain = plainFiltersOf(q, search);
      if (!plain) return rows().execute();
      const shape = `posts page\0${columns.name}\0${this.orderbyOf(q, search)} ${q.order ?? 'desc'} ${sqlBound(q.limit)}\0${plain.shape}`;
      return (await this.db.executeQuery(compiledOnce(this.db, shape, [...plain.values, sqlBound(q.offset)], rows))).rows;
    }
    const stickyPart = { ...q, sticky: true };
    const stickyCount = await this.count(stickyPart, search);
    const fromSticky = stickyCount > q.offset ? await this.idsOf(this.page(stickyPart, search, large, q.offset, Math.min(q.limit, stickyCount - q.offset))) : [];
    const rest = q.limit - fromSticky.length;
    const others = rest > 0 ? await this.idsOf(this.page({ ...q, sticky: false }, search, large, Math.max(0, q.offset - stickyCount), rest)) : [];
    return this.readIds([...fromSticky, ...others], columns);
  }

  /**
   * The term ids of the query's term filters whose posts are many (by the terms' kept counts).
   * A page of posts carrying one of those is found fastest by walking the posts in order and
   * checking each (a correlated EXISTS); for few posts, collecting them first and sorting them is
   * (an IN over the term's posts). Counting always collects.
   */
  private async largeTerms(q: PostQuery): Promise<ReadonlySet<number>> {
    const ids = [...(q.termIds ?? []).flatMap((t) => t.ids), ...(q.categories ?? []), ...(q.tags ?? []), ...(q.taxQuery?.clauses ?? []).filter((t) => t.operator === 'IN').flatMap((t) => t.ids)];
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom('terms').select(['id', 'count']).where('id', 'in', ids).execute();
    return new Set(rows.filter((r) => r.count >= LARGE_TERM_POSTS).map((r) => r.id));
  }

  private where(q: PostQuery, search: ParsedSearch | undefined, large: ReadonlySet<number> = new Set()) {
    return this.db.selectFrom('posts').where((eb) => eb.and(this.conditions(eb, q, search, large)));
  }

  /** How many posts match: kept per query (what it matches, not its order or page) until anything is written (read-cache.ts). */
  private async count(q: PostQuery, search: ParsedSearch | undefined): Promise<number> {
    const read = async () => Number((await this.where(q, search).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
    const cache = readCacheOf(this.db);
    // keyed by the query's fields, not its SQL: a kept count is then found without building the query
    return cache ? cache.get(countKeyOf(q), read) : read();
  }

  /**
   * The query of the ids of the posts at [offset, offset + limit) in the asked order, which an
   * index answers without reading the posts' text; the caller reads only those rows (whole, or
   * their heads), in the same statement or after it.
   */
  private page(q: PostQuery, search: ParsedSearch | undefined, large: ReadonlySet<number>, offset: number, limit: number) {
    // the page size written into the text, as LimitInText (db.ts) writes a query's own: bound in a subquery, SQLite prepares the statement again at every run
    return this.inOrder(this.where(q, search, large).select('id'), q, search).limit(sql.lit(sqlBound(limit))).offset(sqlBound(offset));
  }

  private async idsOf(page: ReturnType<PostsRepo['page']>): Promise<number[]> {
    return (await page.execute()).map((r) => r.id);
  }

  private orderbyOf(q: PostQuery, search: ParsedSearch | undefined): NonNullable<PostQuery['orderby']> {
    return q.orderby ?? (search ? 'relevance' : 'date');
  }

  /** A query over the posts in the asked order, its ties broken by id. */
  private inOrder<O>(query: SelectQueryBuilder<DB, 'posts', O>, q: PostQuery, search: ParsedSearch | undefined): SelectQueryBuilder<DB, 'posts', O> {
    const dir = q.order ?? 'desc';
    const orderby = this.orderbyOf(q, search);
    switch (orderby) {
      case 'relevance':
        if (search) query = query.orderBy((eb) => relevance(this.db, eb, search), 'asc');
        query = query.orderBy('date', 'desc');
        break;
      case 'include':
        query = q.include?.length ? query.orderBy(orderOfIds('id', q.include), dir) : query.orderBy('date', dir);
        break;
      case 'rand':
        // random() is the same function on SQLite and PostgreSQL
        query = query.orderBy(sql`random()`);
        break;
      case 'id':
        break;
      case 'title':
        // the indexed prefix folded as WordPress's collation folds it (migration 020), then the whole title in byte order
        query = query.orderBy(foldedOrder(this.db, TITLE_PREFIX), dir).orderBy(byteOrder(this.db, 'title'), dir);
        break;
      case 'slug':
        query = query.orderBy(byteOrder(this.db, orderby), dir);
        break;
      case 'modified':
      case 'author':
      case 'parent':
      case 'menu_order':
      case 'comment_count':
      case 'date':
        query = query.orderBy(orderby, dir);
        break;
    }
    return query.orderBy('id', dir);
  }

  private conditions(eb: PostsEB, q: PostQuery, search: ParsedSearch | undefined, large: ReadonlySet<number>): Expression<SqlBool>[] {
    const c: Expression<SqlBool>[] = [eb('type', 'in', q.types.length ? q.types : [''])];
    if (q.statuses?.length) c.push(eb('status', 'in', q.statuses));
    if (q.include?.length) c.push(eb('id', 'in', q.include));
    if (q.exclude?.length) c.push(eb('id', 'not in', q.exclude));
    if (q.authors?.length) c.push(eb('author', 'in', q.authors));
    if (q.authorsExclude?.length) c.push(eb('author', 'not in', q.authorsExclude));
    if (q.slugs?.length) c.push(eb('slug', 'in', q.slugs));
    if (q.titles?.length) c.push(eb('title', 'in', q.titles));
    if (q.parent?.length) c.push(eb('parent', 'in', q.parent));
    if (q.parentExclude?.length) c.push(eb('parent', 'not in', q.parentExclude));
    if (q.menuOrder !== undefined) c.push(eb('menu_order', '=', q.menuOrder));
    if (q.after) c.push(eb('date', '>', q.after));
    if (q.before) c.push(eb('date', '<', q.before));
    if (q.modifiedAfter) c.push(eb('modified', '>', q.modifiedAfter));
    if (q.modifiedBefore) c.push(eb('modified', '<', q.modifiedBefore));
    if (q.sticky !== undefined) c.push(eb('sticky', '=', q.sticky ? 1 : 0));
    if (q.mimeTypes?.length)
      c.push(eb.or(q.mimeTypes.map((m) => (m.endsWith('/') ? matchesText(this.db, eb.ref('mime_type'), m, false, true) : eb('mime_type', '=', m)))));
    const carrying = (ids: number[]) =>
      ids.some((id) => large.has(id))
        ? eb.exists(eb.selectFrom('term_relationships as tr').select('tr.post_id').whereRef('tr.post_id', '=', 'posts.id').where('tr.term_id', 'in', ids))
        : eb('id', 'in', eb.selectFrom('term_relationships').select('post_id').where('term_id', 'in', ids));
    const lacking = (ids: number[]) => eb.not(eb('id', 'in', eb.selectFrom('term_relationships').select('post_id').where('term_id', 'in', ids)));
    // WP_Tax_Query's AND: the posts carrying every one of the terms
    const carryingAll = (ids: number[]) =>
      eb('id', 'in', eb.selectFrom('term_relationships').select('post_id').where('term_id', 'in', ids).groupBy('post_id').having((h) => h.fn.countAll(), '=', ids.length));
    const having = [...(q.termIds ?? []).map((t) => t.ids), q.categories, q.tags];
    for (const ids of having) if (ids?.length) c.push(carrying(ids));
    for (const ids of [...(q.termIdsExclude ?? []).map((t) => t.ids), q.categoriesExclude, q.tagsExclude]) if (ids?.length) c.push(lacking(ids));
    const clauses = (q.taxQuery?.clauses ?? []).filter((t) => t.ids.length).map((t) => (t.operator === 'IN' ? carrying(t.ids) : t.operator === 'AND' ? carryingAll([...new Set(t.ids)]) : lacking(t.ids)));
    if (clauses.length) c.push(q.taxQuery!.relation === 'OR' ? eb.or(clauses) : eb.and(clauses));
    if (search) {
      for (const t of search.include) c.push(eb.or([contains(this.db, eb, 'title', t), contains(this.db, eb, 'excerpt', t), contains(this.db, eb, 'content', t)]));
      for (const t of search.exclude) c.push(eb.and([contains(this.db, eb, 'title', t, true), contains(this.db, eb, 'excerpt', t, true), contains(this.db, eb, 'content', t, true)]));
    }
    return c;
  }

  /** wp_insert_post's storage part: fills dates (site time), slug (unique per wp_unique_post_slug) and guid. Returns the new id. */
  async insert(p: NewPost): Promise<number> {
    return (await this.insertRow(p)).id;
  }

  /**
   * `insert`, returning the row as stored (for a caller that answers with it: no read after the
   * write). `guidOf` gives a post without a guid the one wp_insert_post gives it, its permalink
   * then (the pretty one for a post published at once); without it, `?p=ID`. `knownClock` spares
   * reading the site's clock for each of many posts (an import's).
   */
  async insertRow(p: NewPost, guidOf?: (row: PostRow) => Promise<string>, knownClock?: SiteClock): Promise<PostRow> {
    return atomically(this.db, async (db) => {
      const clock = knownClock ?? (await siteClock(db));
      const now = new Date();
      const dates = fillDates(clock, p.date, p.date_gmt, now);
      const modified = fillDates(clock, p.modified, p.modified_gmt, now);
      const type = p.type ?? 'post';
      const status = p.status ?? 'publish';
      const parent = p.parent ?? 0;
      const wanted = sanitizeSlug(p.slug ?? '') || (SLUGLESS_STATUSES.has(status) ? '' : sanitizeSlug(p.title ?? ''));
      await shareLockUntilCommit(db, POST_SLUGS_LOCK, wanted ? slugLock(wanted) : undefined);
      const slug = wanted && !keepsSlug(type, status) ? await uniquePostSlug(db, wanted, type, parent) : wanted;
      const values = { ...p, type, status, parent, slug, date: dates.local, date_gmt: dates.gmt, modified: modified.local, modified_gmt: modified.gmt };
      const columns = definedColumns(values);
      const insert = compiledOnce(db, `posts insert\0${columns.names}`, columns.values, () => db.insertInto('posts').values(values).returningAll());
      const [row] = (await db.executeQuery(insert)).rows;
      const { id } = row;
      const fix: PostPatch = {};
      // a published post whose title gives no slug is named after its id, as WordPress does
      if (!slug && !SLUGLESS_STATUSES.has(status)) fix.slug = await uniquePostSlug(db, String(id), type, parent, id);
      if (!p.guid) fix.guid = guidOf ? await guidOf({ ...row, ...fix }) : plainGuid(clock.home, type, id);
      const fixed = definedColumns(fix);
      if (!fixed.names) return row;
      const update = compiledOnce(db, `posts update returning\0${fixed.names}`, [...fixed.values, id], () => db.updateTable('posts').set(fix).where('id', '=', id).returningAll());
      return (await db.executeQuery(update)).rows[0];
    });
  }

  /**
   * Bulk wp_insert_post for imports and seeding: the posts `insertRow` would store one after
   * another (the same dates, slugs made unique against the site and the posts before them, guids),
   * in multi-row statements. A post may bring its id (an import keeping the old site's); the others
   * are numbered in their order. Returns the ids in the order of `posts`. `knownClock` as for
   * `insertRow`.
   */
  async insertMany(posts: NewPost[], knownClock?: SiteClock): Promise<number[]> {
    if (!posts.length) return [];
    return atomically(this.db, async (db) => {
      const clock = knownClock ?? (await siteClock(db));
      const now = new Date();
      const rows = posts.map((p) => {
        const status = p.status ?? 'publish';
        const dates = fillDates(clock, p.date, p.date_gmt, now);
        const modified = fillDates(clock, p.modified ?? (p.date_gmt ? undefined : p.date), p.modified_gmt ?? p.date_gmt, now);
        const wanted = sanitizeSlug(p.slug ?? '') || (SLUGLESS_STATUSES.has(status) ? '' : sanitizeSlug(p.title ?? ''));
        // a published post whose title gives no slug is named after its id (made unique whatever its type), as insertRow names it
        const namedById = !wanted && !SLUGLESS_STATUSES.has(status) && p.id !== undefined;
        const type = p.type ?? 'post';
        const guid = p.guid || (p.id === undefined ? '' : plainGuid(clock.home, type, p.id));
        const row = { ...p, type, status, parent: p.parent ?? 0, slug: namedById ? String(p.id) : wanted, guid, date: dates.local, date_gmt: dates.gmt, modified: modified.local, modified_gmt: modified.gmt };
        return { row, unique: namedById || (!!wanted && !keepsSlug(type, status)) };
      });
      const unique = rows.flatMap((r) => (r.unique ? [r.row] : []));
      await shareLockUntilCommit(db, POST_SLUGS_LOCK);
      await lockAllUntilCommit(db, unique.map((r) => slugLock(r.slug)));
      await uniqueSlugsOf(db, unique);
      const ids: number[] = [];
      // a statement's bound values stay well under every engine's parameter limit
      for (let i = 0; i < rows.length; i += 400) {
        const chunk = rows.slice(i, i + 400).map((r) => r.row);
        const insert = db.insertInto('posts').values(chunk);
        let numbered: number[] = [];
        if (chunk.every((r) => r.id !== undefined)) await insert.execute();
        else {
          const given = new Set(chunk.map((r) => r.id));
          // numbered ids follow insertion order
          numbered = (await insert.returning('id').execute()).map((r) => r.id).filter((id) => !given.has(id)).sort((a, b) => a - b);
        }
        for (const r of chunk) ids.push(r.id ?? numbered.shift()!);
      }
      const numberedRows = rows.flatMap(({ row }, i) => (row.id === undefined ? [{ ...row, id: ids[i] }] : []));
      for (const r of numberedRows) if (!r.slug && !SLUGLESS_STATUSES.has(r.status)) await db.updateTable('posts').set({ slug: await uniquePostSlug(db, String(r.id), r.type, r.parent, r.id) }).where('id', '=', r.id).execute();
      const guidless = { page_id: [] as number[], p: [] as number[] };
      for (const r of numberedRows) if (!r.guid) guidless[r.type === 'page' ? 'page_id' : 'p'].push(r.id);
      for (const [key, targets] of Object.entries(guidless)) {
        for (let i = 0; i < targets.length; i += 1000) {
          await db
            .updateTable('posts')
            .set({ guid: sql<string>`${`${clock.home}/?${key}=`} || ${sql.ref('id')}` })
            .where('id', 'in', targets.slice(i, i + 1000))
            .execute();
        }
      }
      return ids;
    });
  }

  /**
   * Changes stored fields. `modified` moves to now unless given; a new slug (or a post leaving
   * draft without one) is made unique; a status change recounts the post's terms.
   */
  async update(id: number, patch: PostPatch): Promise<void> {
    await atomically(this.db, async (db) => {
      const current = await db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
      if (!current) return;
      const clock = await siteClock(db);
      const values: PostPatch = { ...patch };
      if (patch.date !== undefined || patch.date_gmt !== undefined) {
        const d = fillDates(clock, patch.date, patch.date_gmt, new Date());
        values.date = d.local;
        values.date_gmt = d.gmt;
      }
      if (patch.modified === undefined && patch.modified_gmt === undefined) {
        const m = fillDates(clock, undefined, undefined, new Date());
        values.modified = m.local;
        values.modified_gmt = m.gmt;
      }
      const next = { ...current, ...values };
      await lockUntilCommit(db, POST_SLUGS_LOCK);
      if (next.status === 'trash' && current.status !== 'trash') next.slug = await trashPost(db, current, values);
      else if (current.status === 'trash' && next.status !== 'trash') next.slug = (await untrashPost(db, current)) ?? next.slug;
      if (!keepsSlug(next.type, next.status)) {
        const wanted = sanitizeSlug(next.slug) || sanitizeSlug(next.title) || String(id);
        const changed = wanted !== current.slug || next.type !== current.type || next.parent !== current.parent || SLUGLESS_STATUSES.has(current.status);
        if (changed) values.slug = await uniquePostSlug(db, wanted, next.type, next.parent, id);
      } else if (patch.slug !== undefined || next.slug !== current.slug) {
        values.slug = sanitizeSlug(next.slug);
      }
      await db.updateTable('posts').set(values).where('id', '=', id).execute();
      if (values.status !== undefined && values.status !== current.status) await recountTerms(db, await termIdsOfPosts(db, [id]));
    });
  }

  /** Deletes the post with its meta and term relationships; the terms' counts follow. */
  async delete(id: number): Promise<void> {
    await this.deleteMany([id]);
  }

  async deleteMany(posts: number[]): Promise<void> {
    if (!posts.length) return;
    await atomically(this.db, async (db) => {
      // wp_delete_post deletes the post's revisions and autosaves with it
      const revisions = await db.selectFrom('posts').select('id').where('parent', 'in', posts).where('type', '=', 'revision').execute();
      const ids = [...posts, ...revisions.map((r) => r.id)];
      const termIds = await termIdsOfPosts(db, ids);
      await db.deleteFrom('term_relationships').where('post_id', 'in', ids).execute();
      await db.deleteFrom('post_meta').where('post_id', 'in', ids).execute();
      // wp_delete_post takes the post's comments with it (their meta follows by its foreign key)
      await db.deleteFrom('comments').where('post', 'in', ids).execute();
      await db.deleteFrom('posts').where('id', 'in', ids).execute();
      await recountTerms(db, termIds);
    });
  }

  /**
   * wp_get_latest_revision_id_and_total_count for each post: how many revisions (autosaves
   * included) it has and which is the newest (by date, then id), for posts that have any.
   */
  async revisionCounts(parents: number[]): Promise<Map<number, { count: number; latestId: number }>> {
    const out = new Map<number, { count: number; latestId: number }>();
    if (!parents.length) return out;
    // one pass over the revisions: each post's count, and its revisions numbered newest first
    const numbered = this.db
      .selectFrom('posts')
      .select((eb) => [
        'id',
        'parent',
        eb.fn.countAll<number>().over((o) => o.partitionBy('parent')).as('n'),
        eb.fn.agg<number>('row_number', []).over((o) => o.partitionBy('parent').orderBy('date', 'desc').orderBy('id', 'desc')).as('newness'),
      ])
      .where('type', '=', 'revision')
      .where('status', '=', 'inherit')
      .where('parent', 'in', parents);
    const newest = await this.db.selectFrom(numbered.as('r')).select(['r.id', 'r.parent', 'r.n']).where('r.newness', '=', 1).execute();
    for (const r of newest) out.set(r.parent, { count: Number(r.n), latestId: r.id });
    return out;
  }

  /**
   * The newest revision of a post with this slug (`{id}-revision-v1` for revisions,
   * `{id}-autosave-v1` for autosaves), of one author when given (wp_get_post_autosave).
   */
  newestRevision(parent: number, slug: string, author?: number): Promise<PostRow | undefined> {
    let q = this.db.selectFrom('posts').selectAll().where('parent', '=', parent).where('type', '=', 'revision').where('status', '=', 'inherit').where('slug', '=', slug);
    if (author !== undefined) q = q.where('author', '=', author);
    return q.orderBy('date', 'desc').orderBy('id', 'desc').executeTakeFirst();
  }

  /**
   * The post formats some post carries, other than `standard` (in WordPress the formats that have a
   * `post-format-*` term; set_post_format never makes one for `standard`).
   */
  async formatsInUse(): Promise<string[]> {
    const rows = await this.db.selectFrom('posts').select('format').distinct().where('format', '!=', 'standard').where('format', '!=', '').execute();
    return rows.map((r) => r.format);
  }

  /** Posts per status of one type (wp_count_posts). */
  async countByStatus(type: string): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('posts')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('type', '=', type)
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }
}

/**
 * WP_Tax_Query's clauses over term ids: `IN` a post carrying any of them, `AND` all of them,
 * `NOT IN` none; joined by `relation` (AND unless the request's tax_relation says OR).
 */
export interface TaxQuery {
  relation: 'AND' | 'OR';
  clauses: { ids: number[]; operator: 'IN' | 'AND' | 'NOT IN' }[];
}

/** wp_unique_post_slug: free among the same type (siblings for hierarchical types, every post for attachments). */
async function uniquePostSlug(db: Kysely<DB>, slug: string, type: string, parent: number, exceptId?: number): Promise<string> {
  return firstFreeSlug(slug, new Set(await takenSlugs(db, slug, type, parent, exceptId)));
}

/** The slug and its `-N` variants already used where a post of this type and parent would clash. */
async function takenSlugs(db: Kysely<DB>, slug: string, type: string, parent: number, exceptId?: number): Promise<string[]> {
  // attachments share the URL space of every post type; a hierarchical type's posts that of their siblings and their attachments
  const scope = type === 'attachment' ? 'any type' : HIERARCHICAL_TYPES.has(type) ? 'hierarchical' : 'its type';
  const siblingTypes = [...HIERARCHICAL_TYPES, 'attachment'];
  const scopeValues = scope === 'any type' ? [] : scope === 'hierarchical' ? [...siblingTypes, parent] : [type];
  const build = () => {
    let q = db
      .selectFrom('posts')
      .select('slug')
      .where((eb) => slugOrCandidates(db, eb.ref('slug'), slug));
    if (scope === 'hierarchical') q = q.where('type', 'in', siblingTypes).where('parent', '=', parent);
    else if (scope === 'its type') q = q.where('type', '=', type);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return q;
  };
  const bound = slugCandidatesBound(db, slug);
  const query = bound
    ? compiledOnce(db, `taken slugs\0${bound.shape}\0${scope}\0${exceptId === undefined ? '' : 'except'}`, [...bound.values, ...scopeValues, ...(exceptId === undefined ? [] : [exceptId])], build)
    : build().compile();
  return (await db.executeQuery(query)).rows.map((r) => r.slug);
}

/** Whether a post of type `a` (under `parentA`) and one of type `b` must not share a slug: wp_unique_post_slug's scopes, as takenSlugs reads them. */
function slugsClash(a: { type: string; parent: number }, b: { type: string; parent: number }): boolean {
  if (a.type === 'attachment') return true;
  if (HIERARCHICAL_TYPES.has(a.type)) return (HIERARCHICAL_TYPES.has(b.type) || b.type === 'attachment') && b.parent === a.parent;
  return b.type === a.type;
}

/**
 * Makes the slugs of a batch unique in place, each as wp_unique_post_slug would make it were the
 * posts before it in the batch stored already: one query finds which wanted slugs the site has at
 * all; only those, and those an earlier post of the batch took, pay for the precise lookup.
 */
async function uniqueSlugsOf(db: Kysely<DB>, rows: { slug: string; type: string; parent: number }[]): Promise<void> {
  const stored = new Set<string>();
  const wanted = [...new Set(rows.map((r) => r.slug))];
  for (let i = 0; i < wanted.length; i += 500) {
    const found = await db.selectFrom('posts').select('slug').where('slug', 'in', wanted.slice(i, i + 500)).execute();
    for (const f of found) stored.add(f.slug);
  }
  /** The batch's posts so far, by the slug each got. */
  const batch = new Map<string, { type: string; parent: number }[]>();
  for (const r of rows) {
    const takenInBatch = (slug: string) => batch.get(slug)?.some((other) => slugsClash(r, other)) ?? false;
    const taken = stored.has(r.slug) || takenInBatch(r.slug) ? new Set(await takenSlugs(db, r.slug, r.type, r.parent)) : new Set<string>();
    r.slug = firstFreeSlug(r.slug, { has: (slug) => taken.has(slug) || takenInBatch(slug) });
    batch.set(r.slug, [...(batch.get(r.slug) ?? []), { type: r.type, parent: r.parent }]);
  }
}

/** The read cache's key of a query's count: the fields that say which posts match, not their order or page. */
const countKeyOf = ({ offset, limit, order, orderby, stickyFirst, ...matching }: PostQuery): string => `posts.count\0${JSON.stringify(matching)}`;

/** Which columns of the posts a read gives: the whole rows, or their heads. */
interface Columns<T> {
  readonly name: string;
  readonly select: (query: SelectQueryBuilder<DB, 'posts', object>) => SelectQueryBuilder<DB, 'posts', T>;
}
const WHOLE: Columns<PostRow> = { name: 'whole', select: (query) => query.selectAll() };
const HEADS: Columns<PostHead> = { name: 'heads', select: (query) => query.select(POST_HEAD_COLUMNS) };

/** The filters whose values a query binds as given, in the order PostsRepo.conditions adds them. */
const PLAIN_FILTERS = ['statuses', 'include', 'exclude', 'authors', 'authorsExclude', 'slugs', 'titles', 'parent', 'parentExclude', 'menuOrder', 'after', 'before', 'modifiedAfter', 'modifiedBefore'] as const;
/** The orders that bind no value. */
const PLAIN_ORDERS: ReadonlySet<PostQuery['orderby']> = new Set(['date', 'id', 'modified', 'author', 'parent', 'menu_order', 'comment_count']);
/** A PostQuery's fields that a plain page may have set: its types, order and page, and the plain filters. */
const PLAIN_FIELDS: ReadonlySet<string> = new Set(['types', 'search', 'orderby', 'order', 'offset', 'limit', 'stickyFirst', ...PLAIN_FILTERS]);

/**
 * The shape of a page's filters and their values in the order they are bound (compiledOnce), for
 * a query with only plain filters and a plain order; undefined for any other (a search, terms, MIME
 * types, stickiness, or a field added to PostQuery since), which is built every time.
 */
function plainFiltersOf(q: PostQuery, search: ParsedSearch | undefined): { shape: string; values: unknown[] } | undefined {
  if (search || !PLAIN_ORDERS.has(q.orderby ?? 'date')) return undefined;
  for (const [field, value] of Object.entries(q)) if (!PLAIN_FIELDS.has(field) && value !== undefined && !(Array.isArray(value) && !value.length)) return undefined;
  // conditions() asks for a type that is none when given no types
  const values: unknown[] = q.types.length ? [...q.types] : [''];
  let shape = `types ${values.length}`;
  for (const field of PLAIN_FILTERS) {
    const value = q[field];
    if (Array.isArray(value)) {
      if (!value.length) continue;
      shape += ` ${field} ${value.length}`;
      values.push(...value);
    } else if (field === 'menuOrder' ? value !== undefined : value) {
      shape += ` ${field}`;
      values.push(value);
    }
  }
  return { shape, values };
}

/** Rows read by id, in the order of `ids` (those not found left out). */
function inOrderOf<T extends { id: number }>(ids: readonly number[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
