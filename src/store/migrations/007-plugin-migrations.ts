import type { Kysely } from 'kysely';

/** The record of which plugin migrations have run, one row per plugin and migration name. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plugin_migrations')
    .addColumn('plugin', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(191)', (c) => c.notNull())
    .addColumn('executed_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('plugin_migrations_pk', ['plugin', 'name'])
    .execute();
}
