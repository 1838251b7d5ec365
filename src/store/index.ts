import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { OptionsRepo } from './options.ts';
import { UsersRepo } from './users.ts';
import { PostsRepo } from './posts.ts';
import { TermsRepo } from './terms.ts';
import { SnippetsRepo } from './snippets.ts';
import { OEmbedCacheRepo } from './oembed-cache.ts';
import { AppPasswordsRepo } from './app-passwords.ts';
import { openDatabase } from './db.ts';

/**
 * The store handlers get as `ctx.store`: named async functions grouped by table family. All SQL
 * lives below this folder. A Store bound to a transaction has the same shape, so batch requests
 * can run their writes in one transaction without handlers knowing.
 */
export class Store {
  readonly options: OptionsRepo;
  readonly users: UsersRepo;
  readonly posts: PostsRepo;
  readonly terms: TermsRepo;
  readonly snippets: SnippetsRepo;
  readonly oembedCache: OEmbedCacheRepo;
  readonly appPasswords: AppPasswordsRepo;

  constructor(
    readonly db: Kysely<DB>,
    /** True when `db` is already a transaction: nested transaction() calls then run inline. */
    private readonly inTransaction = false,
  ) {
    this.options = new OptionsRepo(db);
    this.users = new UsersRepo(db);
    this.posts = new PostsRepo(db);
    this.terms = new TermsRepo(db);
    this.snippets = new SnippetsRepo(db);
    this.oembedCache = new OEmbedCacheRepo(db);
    this.appPasswords = new AppPasswordsRepo(db);
  }

  static async open(path: string): Promise<Store> {
    return new Store(await openDatabase(path));
  }

  /** Runs `fn` in one transaction with a Store bound to it; a throw rolls everything back. */
  transaction<T>(fn: (store: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    return this.db.transaction().execute((trx) => fn(new Store(trx, true)));
  }

  /**
   * Runs `count` steps in one transaction, each inside its own savepoint: a step whose result says
   * `keep: false` (or that throws) undoes only its own writes. One commit for all of them is what
   * makes a batch of writes cheap; the savepoints keep each step's outcome what it would be alone.
   */
  async steps<R>(count: number, step: (store: Store, i: number) => Promise<{ value: R; keep: boolean }>): Promise<R[]> {
    const trx = await this.db.startTransaction().execute();
    const results: R[] = [];
    try {
      for (let i = 0; i < count; i++) {
        const name = `step${i}`;
        const sp = await trx.savepoint(name).execute();
        let outcome: { value: R; keep: boolean };
        try {
          outcome = await step(new Store(sp, true), i);
        } catch (e) {
          await sp.rollbackToSavepoint(name).execute();
          throw e;
        }
        if (outcome.keep) await sp.releaseSavepoint(name).execute();
        else await sp.rollbackToSavepoint(name).execute();
        results.push(outcome.value);
      }
      await trx.commit().execute();
      return results;
    } catch (e) {
      await trx.rollback().execute();
      throw e;
    }
  }

  close(): Promise<void> {
    return this.db.destroy();
  }
}
