import type { Kysely, Migration } from 'kysely';
import type { DB } from './schema.ts';
import { OptionsRepo } from './options.ts';
import { UsersRepo } from './users.ts';
import { PostsRepo } from './posts.ts';
import { TermsRepo } from './terms.ts';
import { CommentsRepo } from './comments.ts';
import { AppPasswordsRepo } from './app-passwords.ts';
import { SharedStateRepo } from './shared-state.ts';
import { CronRepo } from './cron.ts';
import { ArchivesRepo } from './archives.ts';
import { durableWrites, openDatabase, withoutSampledStatistics, type DatabaseOptions } from './db.ts';
import { sql } from './kysely.ts';
import { isPostgres } from './portable.ts';
import { DatabaseRepo } from './database.ts';
import { dropPluginData, migratePlugin } from './plugin-migrations.ts';
import { inTransaction, retryingConflicts } from './transact.ts';

/** What `Store.plugin` needs of a plugin: its name and how to make its repository over a connection. */
export interface RepoOwner<R> {
  name: string;
  repo?(db: Kysely<any>): R;
}

/**
 * The store handlers get as `ctx.store`: named async functions grouped by table family. All SQL
 * lives below this folder, or in a plugin's own repository. A Store bound to a transaction has
 * the same shape, so batch requests can run their writes in one transaction without handlers
 * knowing.
 */
export class Store {
  readonly options: OptionsRepo;
  readonly users: UsersRepo;
  readonly posts: PostsRepo;
  readonly terms: TermsRepo;
  readonly comments: CommentsRepo;
  readonly appPasswords: AppPasswordsRepo;
  readonly shared: SharedStateRepo;
  /** The scheduler's events and what its jobs look for (src/core/cron.ts). */
  readonly cron: CronRepo;
  /** Date archives of published posts (wp_get_archives). */
  readonly archives: ArchivesRepo;
  /** The database itself: integrity, writability, size, file (site health). */
  readonly database: DatabaseRepo;
  /** The plugins' repositories made for this store (and so for its transaction), by plugin name. */
  private readonly pluginRepos = new Map<string, unknown>();
  /**
   * In a transaction (or a batch step's savepoint): the shared-state topics its writes changed,
   * each with what to tell once its version has moved. Bumped once per topic as it commits (25
   * snippets created in one batch move one version, not 25); a step rolled back drops its own.
   */
  private readonly changedTopics: Map<string, (version: number) => void> | null;

  constructor(
    readonly db: Kysely<DB>,
    /** True when `db` is already a transaction: nested transaction() calls then run inline. */
    private readonly inTransaction = false,
  ) {
    this.changedTopics = inTransaction ? new Map() : null;
    this.options = new OptionsRepo(db);
    this.users = new UsersRepo(db);
    this.posts = new PostsRepo(db);
    this.terms = new TermsRepo(db);
    this.comments = new CommentsRepo(db);
    this.appPasswords = new AppPasswordsRepo(db);
    this.shared = new SharedStateRepo(db);
    this.cron = new CronRepo(db);
    this.archives = new ArchivesRepo(db);
    this.database = new DatabaseRepo(db);
  }

  /** A plugin's repository (its definition's `repo`), over this store's connection or transaction. */
  plugin<R>(owner: RepoOwner<R>): R {
    if (!owner.repo) throw new Error(`plugin ${owner.name} has no repository`);
    let repo = this.pluginRepos.get(owner.name) as R | undefined;
    if (repo === undefined) this.pluginRepos.set(owner.name, (repo = owner.repo(this.db)));
    return repo;
  }

  /** Runs a plugin's pending migrations (see plugin-migrations.ts). */
  migratePlugin(plugin: string, prefix: string, migrations: Readonly<Record<string, Migration>>): Promise<string[]> {
    return migratePlugin(this.db, plugin, prefix, migrations);
  }

  /** Drops a plugin's tables and its migration records (see plugin-migrations.ts). */
  dropPluginData(plugin: string, prefix: string, otherPrefixes: readonly string[]): Promise<string[]> {
    return dropPluginData(this.db, plugin, prefix, otherPrefixes);
  }

  /** A SQLite file path (or `:memory:`), or a `postgres://` URL. */
  static async open(location: string, o: DatabaseOptions = {}): Promise<Store> {
    return new Store(await openDatabase(location, o));
  }

  /** Which database this is: `sqlite` (embedded, one process at a time) or `postgres` (shared by many instances). */
  get dialect(): 'sqlite' | 'postgres' {
    return isPostgres(this.db) ? 'postgres' : 'sqlite';
  }

  /**
   * Settles once every write committed so far is on disk, undefined when each already is: what a
   * server awaits before it acknowledges a write. Only a SQLite store opened with `groupCommit`
   * ever waits (its commits are synced in groups, see group-commit.ts); elsewhere each commit is
   * durable as it returns (SQLite's synchronous=FULL, PostgreSQL's own WAL flush). Reads may see a
   * commit before it is durable; a request that answers after reading one waits too, as the
   * server awaits this for every request.
   */
  durable(): Promise<void> | undefined {
    return durableWrites(this.db);
  }

  /** A round trip to the database, for readiness checks; throws when it does not answer. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** Runs `fn` in one transaction with a Store bound to it; a throw rolls everything back. */
  async transaction<T>(fn: (store: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    let told: () => void = () => {};
    const result = await inTransaction(this.db, async (trx) => {
      const store = new Store(trx, true);
      const result = await fn(store);
      told = await store.bumpChangedTopics();
      return result;
    });
    told();
    return result;
  }

  /**
   * Moves a shared-state topic's version on, with the write that changed what it covers: at once
   * outside a transaction, else as the transaction commits. `moved` gets the new version.
   */
  async topicChanged(topic: string, moved: (version: number) => void): Promise<void> {
    if (this.changedTopics) this.changedTopics.set(topic, moved);
    else moved(await this.shared.bump(topic));
  }

  /**
   * Bumps the topics the transaction changed, in it; returns what tells their new versions, to be
   * called once it has committed (told earlier, a reader could pair the new version with the old rows).
   */
  private async bumpChangedTopics(): Promise<() => void> {
    const told: (() => void)[] = [];
    for (const [topic, moved] of this.changedTopics!) {
      const version = await this.shared.bump(topic);
      told.push(() => moved(version));
    }
    return () => told.forEach((tell) => tell());
  }

  /**
   * Runs `count` steps in one transaction, each inside its own savepoint: a step whose result says
   * `keep: false` (or that throws) undoes only its own writes. One commit for all of them is what
   * makes a batch of writes cheap; the savepoints keep each step's outcome what it would be alone.
   */
  async steps<R>(count: number, step: (store: Store, i: number) => Promise<{ value: R; keep: boolean }>): Promise<R[]> {
    // a deadlock with another instance's writers undoes the whole batch: it runs again
    return retryingConflicts(() => this.stepsOnce(count, step));
  }

  private async stepsOnce<R>(count: number, step: (store: Store, i: number) => Promise<{ value: R; keep: boolean }>): Promise<R[]> {
    const trx = await this.db.startTransaction().execute();
    const whole = new Store(trx, true);
    const results: R[] = [];
    try {
      for (let i = 0; i < count; i++) {
        const name = `step${i}`;
        const sp = await trx.savepoint(name).execute();
        const stepStore = new Store(sp, true);
        let outcome: { value: R; keep: boolean };
        try {
          outcome = await step(stepStore, i);
        } catch (e) {
          await sp.rollbackToSavepoint(name).execute();
          throw e;
        }
        if (outcome.keep) {
          await sp.releaseSavepoint(name).execute();
          for (const [topic, moved] of stepStore.changedTopics!) whole.changedTopics!.set(topic, moved);
        } else await sp.rollbackToSavepoint(name).execute();
        results.push(outcome.value);
      }
      const told = await whole.bumpChangedTopics();
      await trx.commit().execute();
      told();
      return results;
    } catch (e) {
      await trx.rollback().execute();
      throw e;
    }
  }

  /**
   * Refreshes the query planner's statistics (ANALYZE: the same statement on SQLite and
   * PostgreSQL), so that it knows which indexes narrow a query most; run after bulk loads. On
   * PostgreSQL, VACUUM also marks the loaded pages all-visible: until autovacuum gets to them, a
   * list's count and deep pages read the table instead of the index alone (25 ms instead of 1 ms
   * for the count of 10,000 posts). On SQLite the sampled statistics are left out
   * (withoutSampledStatistics).
   */
  async analyze(): Promise<void> {
    await (isPostgres(this.db) ? sql`vacuum analyze` : sql`analyze`).execute(this.db);
    await withoutSampledStatistics(this.db);
  }

  async close(): Promise<void> {
    await this.durable();
    await this.db.destroy();
  }
}
