import type { Kysely, Migration } from 'kysely';
import type { DB } from './schema.ts';
import { isPostgres, lockUntilCommit, tableNames } from './portable.ts';

/** A plugin's migration that failed, with the tables it made outside its prefix if that was the fault. */
export class PluginMigrationError extends Error {
  constructor(
    readonly plugin: string,
    readonly migration: string,
    message: string,
  ) {
    super(`migration ${migration} of plugin ${plugin} failed: ${message}`);
  }
}

const isOwnTable = (table: string, prefix: string) => table === prefix || table.startsWith(`${prefix}_`);

/** Held by whoever runs a plugin's migration, so that instances starting together take turns (see migratePlugin). */
const PLUGIN_MIGRATIONS_LOCK = 'plugin-migrations';

/**
 * Runs a plugin's migrations that have not run yet, in name order, each in one transaction with
 * its record, so a migration runs once however often the plugin is activated and a failed one
 * leaves nothing behind. A migration may only create tables named with the plugin's prefix.
 * Returns the names it ran.
 *
 * Instances starting together on a new PostgreSQL database would otherwise run the same migration
 * at once (one fails creating what the other just created) and take each other's new tables for
 * their own: so each migration runs holding one lock for every plugin's, and is skipped if, once
 * it is held, the migration turns out to have been run meanwhile.
 */
export async function migratePlugin(db: Kysely<DB>, plugin: string, prefix: string, migrations: Readonly<Record<string, Migration>>): Promise<string[]> {
  const recorded = async (q: Kysely<DB>) => new Set((await q.selectFrom('plugin_migrations').select('name').where('plugin', '=', plugin).execute()).map((r) => r.name));
  // without the lock: a plugin whose migrations have all run (every start but the first) waits for no one
  const done = await recorded(db);
  const ran: string[] = [];
  for (const name of Object.keys(migrations).sort()) {
    if (done.has(name)) continue;
    try {
      const run = await db.transaction().execute(async (trx) => {
        await lockUntilCommit(trx, PLUGIN_MIGRATIONS_LOCK);
        if ((await recorded(trx)).has(name)) return false;
        const before = new Set(await tableNames(trx));
        await migrations[name].up(trx);
        const foreign = (await tableNames(trx)).filter((t) => !before.has(t) && !isOwnTable(t, prefix));
        if (foreign.length) throw new Error(`it created ${foreign.join(', ')}, but a plugin's tables must be named ${prefix} or ${prefix}_*`);
        await trx.insertInto('plugin_migrations').values({ plugin, name, executed_at: new Date().toISOString() }).execute();
        return true;
      });
      if (run) ran.push(name);
    } catch (e) {
      throw new PluginMigrationError(plugin, name, e instanceof Error ? e.message : String(e));
    }
  }
  return ran;
}

/** The core's tables (schema.ts's DB: the type makes this list complete) and the migrator's: never a plugin's, whatever its prefix. */
const CORE_TABLES: Record<keyof DB, true> = {
  options: true, users: true, user_meta: true, posts: true, post_meta: true, comments: true, comment_meta: true, terms: true, term_relationships: true,
  term_meta: true, app_passwords: true, plugin_migrations: true, state_versions: true, login_failures: true, cron_events: true,
};
const NEVER_A_PLUGINS = new Set([...Object.keys(CORE_TABLES), 'kysely_migration', 'kysely_migration_lock']);

/**
 * Undoes what a plugin's migrations made, for its uninstall: drops its tables and forgets which
 * migrations ran, so an install of it again starts afresh. Its tables are those named with its
 * prefix (the only ones migratePlugin lets it create), less the core's and those of another
 * plugin whose longer prefix starts with it (`code` must not take `code_snippets_*`). Returns the
 * tables dropped.
 */
export async function dropPluginData(db: Kysely<DB>, plugin: string, prefix: string, otherPrefixes: readonly string[]): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const own = (await tableNames(trx)).filter((t) => isOwnTable(t, prefix) && !NEVER_A_PLUGINS.has(t) && !otherPrefixes.some((other) => other.length > prefix.length && isOwnTable(t, other)));
    // PostgreSQL refuses to drop a table another of them references unless told to; SQLite has no such word
    for (const table of own) await (isPostgres(trx) ? trx.schema.dropTable(table).ifExists().cascade() : trx.schema.dropTable(table).ifExists()).execute();
    await trx.deleteFrom('plugin_migrations').where('plugin', '=', plugin).execute();
    return own;
  });
}
