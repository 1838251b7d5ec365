import type { Kysely } from 'kysely';

/**
 * Application passwords, one row each (WordPress keeps them as a serialized array in the
 * `_application_passwords` user meta; a table lets authentication look up a user's hashes and
 * record usage without rewriting the whole list). Times are unix seconds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('app_passwords')
    .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('app_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('last_used', 'bigint')
    .addColumn('last_ip', 'varchar(45)')
    .execute();
  await db.schema.createIndex('app_passwords_user').on('app_passwords').columns(['user_id', 'created']).execute();
}
