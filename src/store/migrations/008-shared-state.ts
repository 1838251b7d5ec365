import type { Kysely } from 'kysely';
import { addIdColumn } from '../portable.ts';

/**
 * What instances sharing one database must see alike: a version per topic of in-memory state
 * (site options, active plugins, a plugin's cache), bumped by the instance that changes it and
 * compared by the others; and failed logins, so the throttle counts them across instances.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('state_versions')
    .addColumn('topic', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await addIdColumn(db.schema.createTable('login_failures'), db)
    .addColumn('scope', 'varchar(32)', (c) => c.notNull())
    .addColumn('ip', 'varchar(45)', (c) => c.notNull())
    // milliseconds since the epoch
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_scope_ip_at').on('login_failures').columns(['scope', 'ip', 'at']).execute();
}
