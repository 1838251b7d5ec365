import type { Kysely } from 'kysely';
import { isSqliteInMemory, walIndexOf } from './db.ts';
import { readCacheOf } from './read-cache.ts';
import { tableVersionsOf } from './table-versions.ts';
import { sql } from './kysely.ts';
import { isPostgres } from './portable.ts';
import type { DB } from './schema.ts';
import { sqlBound } from './sql-bound.ts';

/** Versions of in-memory state per topic, and failed logins: what instances sharing the database must see alike. */
export class SharedStateRepo {
  constructor(private readonly db: Kysely<DB>) {
    // this process's own commits, seen as they move versions, are no news to its catch-up (its read cache was told of them)
    tableVersionsOf(db)?.onMoved((moved) => {
      for (const [topic, version] of moved) if (this.versionsSeen?.get(topic) === version - 1) this.versionsSeen.set(topic, version);
    });
  }

  /** Moves a topic's version on; returns the new version. */
  async bump(topic: string): Promise<number> {
    const row = await this.db
      .insertInto('state_versions')
      .values({ topic, version: 1 })
      .onConflict((oc) => oc.column('topic').doUpdateSet({ version: sql<number>`state_versions.version + 1` }))
      .returning('version')
      .executeTakeFirstOrThrow();
    return Number(row.version);
  }

  /**
   * SQLite's count of commits made through other connections (`PRAGMA data_version`: another
   * process on the same file, the CLI or a worker), so an instance asks for the versions only when
   * something else wrote; null on PostgreSQL, which keeps no such count.
   */
  async otherWriters(): Promise<number | null> {
    if (isPostgres(this.db)) return null;
    const known = this.knownOtherWriters();
    if (known !== undefined) return known;
    // read before SQLite is asked: a commit between the two is seen as a change next time
    const walIndex = walIndexOf(this.db);
    const headerRead = walIndex?.read() ?? false;
    const { rows } = await sql<{ data_version: number }>`PRAGMA data_version`.execute(this.db);
    const dataVersion = Number(rows[0]!.data_version);
    // what another process committed may change any read this one kept
    if (this.dataVersion !== undefined && dataVersion !== this.dataVersion) readCacheOf(this.db)?.changedElsewhere();
    walIndex?.markSeen(headerRead);
    this.dataVersion = dataVersion;
    return this.dataVersion;
  }

  /**
   * otherWriters() when SQLite need not be asked, without waiting: a database in memory has no
   * other connection (its count never moves); while the WAL's index header stays as it was when
   * SQLite was last asked, nothing was committed (wal-index.ts). Undefined when it must ask.
   */
  knownOtherWriters(): number | undefined {
    if (isSqliteInMemory(this.db)) return 0;
    if (this.dataVersion === undefined) return undefined;
    const walIndex = walIndexOf(this.db);
    return walIndex?.read() && walIndex.unchanged() ? this.dataVersion : undefined;
  }

  /** The commit count when otherWriters() last asked SQLite. */
  private dataVersion: number | undefined;

  async versions(): Promise<Record<string, number>> {
    const rows = await this.db.selectFrom('state_versions').select(['topic', 'version']).execute();
    const versions = Object.fromEntries(rows.map((r) => [r.topic, Number(r.version)]));
    // on PostgreSQL nothing else tells this process of another's writes: a version moved other than by its own commits may change any read it kept
    const seen = this.versionsSeen;
    if (seen !== undefined && isPostgres(this.db) && (rows.length !== seen.size || rows.some((r) => seen.get(r.topic) !== Number(r.version)))) readCacheOf(this.db)?.changedElsewhere();
    this.versionsSeen = new Map(Object.entries(versions));
    return versions;
  }

  /** The versions as versions() last read them, and as this process's own commits moved them on since. */
  private versionsSeen: Map<string, number> | undefined;

  /** The latest `limit` failures of an address within the window, newest first (milliseconds). */
  async recentFailures(scope: string, ip: string, since: number, limit: number): Promise<number[]> {
    const rows = await this.db.selectFrom('login_failures').select('at').where('scope', '=', scope).where('ip', '=', ip).where('at', '>', since).orderBy('at', 'desc').limit(sqlBound(limit)).execute();
    return rows.map((r) => Number(r.at));
  }

  /** Records a failure, and drops those too old to count (so the table holds one window's worth). */
  async recordFailure(scope: string, ip: string, at: number, forgetBefore: number): Promise<void> {
    await this.db.insertInto('login_failures').values({ scope, ip, at }).execute();
    await this.db.deleteFrom('login_failures').where('at', '<=', forgetBefore).execute();
  }
}
