import type { Kysely } from 'kysely';
import { sql } from './kysely.ts';
import { isPostgres, tableNames } from './portable.ts';
import type { DB } from './schema.ts';

/** An option name no one uses: the write probe inserts it and rolls the insert back. */
const WRITE_PROBE_OPTION = '_cms_spec_write_probe';

class RolledBack extends Error {}

/**
 * The database itself, as a site health check sees it: is it intact, does it take writes, how big
 * is it, and where is its file. Each answer has its SQLite and its PostgreSQL way.
 */
export class DatabaseRepo {
  constructor(private readonly db: Kysely<DB>) {}

  get engine(): 'sqlite' | 'postgresql' {
    return isPostgres(this.db) ? 'postgresql' : 'sqlite';
  }

  /**
   * What is wrong with the stored data, [] when nothing is. SQLite: `PRAGMA integrity_check`
   * (every page, index and constraint). PostgreSQL, without the amcheck extension: the server
   * answers, and every table can be read to the end (a damaged page fails the scan).
   */
  async integrityProblems(): Promise<string[]> {
    if (this.engine === 'sqlite') {
      const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(this.db);
      const found = rows.map((r) => r.integrity_check);
      return found.length === 1 && found[0] === 'ok' ? [] : found;
    }
    const problems: string[] = [];
    await sql`select 1`.execute(this.db);
    for (const table of await tableNames(this.db)) {
      try {
        await (this.db as Kysely<any>).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      } catch (e) {
        problems.push(`table ${table} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return problems;
  }

  /** Whether a write is accepted (not read-only, not locked past the busy timeout, not out of space): an insert rolled back. Null when it is; else why not. */
  async writeProblem(): Promise<string | null> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('options').values({ name: WRITE_PROBE_OPTION, value: '' }).onConflict((oc) => oc.column('name').doNothing()).execute();
        throw new RolledBack();
      });
    } catch (e) {
      if (e instanceof RolledBack) return null;
      return e instanceof Error ? e.message : String(e);
    }
    return null;
  }

  /** Bytes the database takes: SQLite's pages; on PostgreSQL, the site's schema's tables with their indexes and TOAST (a server may hold other sites). */
  async sizeBytes(): Promise<number> {
    if (this.engine === 'sqlite') {
      const { rows } = await sql<{ bytes: number }>`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(this.db);
      return Number(rows[0]?.bytes ?? 0);
    }
    const { rows } = await sql<{ bytes: string }>`select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'm')`.execute(this.db);
    return Number(rows[0]?.bytes ?? 0);
  }

  /** The SQLite database's file, or null (in memory, or a PostgreSQL server's). */
  async file(): Promise<string | null> {
    if (this.engine !== 'sqlite') return null;
    const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(this.db);
    return rows.find((r) => r.name === 'main')?.file || null;
  }
}
