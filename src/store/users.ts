import type { ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
import { sql } from './kysely.ts';
import { readCacheOf } from './read-cache.ts';
import type { DB, UsersTable } from './schema.ts';
import { atomically, byteOrder, foldedOrder, matchesText, sanitizeSlug, sqlDate } from './transact.ts';
import { MetaRepo } from './meta.ts';
import { orderOfIds } from './terms.ts';
import { PostsRepo } from './posts.ts';
import { sqlBound } from './sql-bound.ts';

export type UserRow = Selectable<UsersTable>;

export interface NewUser {
  login: string;
  email: string;
  display_name: string;
  /** The URL-safe name; from the login when not given. */
  nicename?: string;
  role: string;
  password_hash: string;
  url?: string;
  /** 'YYYY-MM-DD HH:MM:SS' UTC; now when not given. */
  registered?: string;
}

export type UserPatch = Partial<Omit<UserRow, 'id'>>;

/** WP_User_Query's search_columns (ID, user_login, user_email, user_url, user_nicename, display_name). */
export type UserSearchColumn = 'id' | 'login' | 'email' | 'url' | 'nicename' | 'display_name';

export interface UserQuery {
  /** A `*` at either end is a wildcard; without one the match is exact. */
  search?: string;
  /** The columns searched; by default the ones WP_User_Query picks from the shape of the text. */
  searchColumns?: readonly UserSearchColumn[];
  include?: number[];
  exclude?: number[];
  roles?: string[];
  /** Nicenames. */
  slugs?: string[];
  /** Only users who authored a published post of one of these types (has_published_posts). */
  hasPublishedPosts?: string[];
  orderby?: 'id' | 'name' | 'registered' | 'slug' | 'email' | 'include' | 'url';
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const isNumeric = (s: string) => /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(s);

/**
 * WP_User_Query::prepare_query's search: `*` at either end is the only wildcard (the REST route
 * wraps its text in them); without columns, an address searches email, a number login and ID, a
 * URL the website, anything else login, website, email, nicename and display name.
 */
function searchCondition(db: Kysely<DB>, eb: ExpressionBuilder<DB, 'users'>, search: string, columns?: readonly UserSearchColumn[]) {
  const text = search.replace(/^\*+|\*+$/g, '');
  const anyBefore = search.startsWith('*');
  const anyAfter = search.endsWith('*');
  let searched = columns;
  if (!searched?.length) {
    if (text.includes('@')) searched = ['email'];
    else if (isNumeric(text)) searched = ['login', 'id'];
    else if (/^https?:\/\//.test(text)) searched = ['url'];
    else searched = ['login', 'url', 'email', 'nicename', 'display_name'];
  }
  // get_search_sql: ID is compared whole, the others with LIKE
  return eb.or(searched.map((c) => (c === 'id' ? idMatches(eb, text) : matchesText(db, eb.ref(c), text, anyBefore, anyAfter))));
}

/** MySQL compares `ID = 'text'` as numbers, so text that is not an integer matches no user (and PostgreSQL would refuse the comparison). */
const idMatches = (eb: ExpressionBuilder<DB, 'users'>, text: string) => (/^\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? eb('id', '=', Number(text)) : sql<SqlBool>`1 = 0`);

const ORDER_COLUMN = { id: 'id', name: 'display_name', registered: 'registered', slug: 'nicename', email: 'email', url: 'url' } as const;

/** Accounts (wp_users) and their meta (wp_usermeta). */
export class UsersRepo {
  /** User meta (wp_usermeta). */
  readonly meta: MetaRepo;

  constructor(private readonly db: Kysely<DB>) {
    this.meta = new MetaRepo(db, 'user_meta');
  }

  /** The row of this id; an id that is not an exact integer (a path's 30 digits) names none. */
  async get(id: number): Promise<UserRow | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    return (await this.getMany([id]))[0];
  }

  // the authors of what most requests answer, who seldom change: kept by the read cache until a write of the table
  async getMany(ids: number[]): Promise<UserRow[]> {
    if (!ids.length) return [];
    const read = () => this.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
    const cache = readCacheOf(this.db);
    // copies: the kept rows are shared by every request
    return cache ? (await cache.get(`users ${ids.join(',')}`, read)).map((row) => ({ ...row })) : read();
  }

  byLogin(login: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst();
  }

  byEmail(email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
  }

  bySlug(nicename: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('nicename', '=', nicename).executeTakeFirst();
  }

  /** wp_authenticate's lookup: an address with `@` is tried as an email after the login. */
  async byLoginOrEmail(s: string): Promise<UserRow | undefined> {
    return (await this.byLogin(s)) ?? (s.includes('@') ? await this.byEmail(s) : undefined);
  }

  async list(q: UserQuery): Promise<{ rows: UserRow[]; total: number }> {
    let base = this.db.selectFrom('users');
    const search = q.search?.trim();
    if (search) base = base.where((eb) => searchCondition(this.db, eb, search, q.searchColumns));
    if (q.include?.length) base = base.where('id', 'in', q.include);
    if (q.exclude?.length) base = base.where('id', 'not in', q.exclude);
    if (q.roles?.length) base = base.where('role', 'in', q.roles);
    if (q.slugs?.length) base = base.where('nicename', 'in', q.slugs);
    const types = q.hasPublishedPosts;
    if (types?.length) {
      base = base.where(({ exists, selectFrom }) =>
        exists(selectFrom('posts').select('posts.id').whereRef('posts.author', '=', 'users.id').where('posts.status', '=', 'publish').where('posts.type', 'in', types)),
      );
    }
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const dir = q.order ?? 'asc';
    let rows = base.selectAll();
    if (q.orderby === 'include' && q.include?.length) rows = rows.orderBy(orderOfIds('id', q.include), dir);
    else {
      const column = ORDER_COLUMN[q.orderby && q.orderby !== 'include' ? q.orderby : 'name'];
      rows = column === 'id' ? rows.orderBy(column, dir) : rows.orderBy(foldedOrder(this.db, column), dir).orderBy(byteOrder(this.db, column), dir);
    }
    return { rows: await rows.orderBy('id', dir).limit(sqlBound(q.limit)).offset(sqlBound(q.offset)).execute(), total: Number(total) };
  }

  /** How many accounts hold a role (the last administrator is kept). */
  async countWithRole(role: string): Promise<number> {
    const { n } = await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('role', '=', role).executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Whether an account other than the one with this login has the nicename (wp_insert_user's check). */
  async nicenameTaken(nicename: string, exceptLogin: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('nicename', '=', nicename).where('login', '!=', exceptLogin).executeTakeFirst();
    return row !== undefined;
  }

  async insert(u: NewUser): Promise<number> {
    const nicename = sanitizeSlug(u.nicename ?? u.login).slice(0, 50) || sanitizeSlug(u.login) || u.login.toLowerCase();
    const { id } = await this.db
      .insertInto('users')
      .values({
        login: u.login,
        email: u.email,
        display_name: u.display_name,
        nicename,
        role: u.role,
        password_hash: u.password_hash,
        url: u.url ?? '',
        registered: u.registered ?? sqlDate(new Date()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async update(id: number, patch: UserPatch): Promise<void> {
    if (!Object.keys(patch).length) return;
    await this.db.updateTable('users').set(patch).where('id', '=', id).execute();
  }

  /**
   * wp_delete_user: the user's posts go to `reassignTo` when given, else they are deleted as
   * wp_delete_post deletes them (meta, terms, comments, revisions); the user's meta goes with the
   * user. Returns the posts it moved or deleted, so that callers can tell whoever follows content
   * changes.
   */
  async delete(id: number, reassignTo?: number): Promise<{ id: number; type: string }[]> {
    return atomically(this.db, async (db) => {
      const posts = await db.selectFrom('posts').select(['id', 'type']).where('author', '=', id).execute();
      if (reassignTo !== undefined) await db.updateTable('posts').set({ author: reassignTo }).where('author', '=', id).execute();
      else await new PostsRepo(db).deleteMany(posts.map((r) => r.id));
      await db.deleteFrom('user_meta').where('user_id', '=', id).execute();
      await db.deleteFrom('users').where('id', '=', id).execute();
      return posts;
    });
  }
}
