import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('options')
    .addColumn('name', 'varchar(191)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('autoload', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
