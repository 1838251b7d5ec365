import type { Kysely, Migration } from 'kysely';
import { addIdColumn } from '../../store/portable.ts';

/**
 * `design_library_cache`: what the library's services answered (catalogues, categories, image
 * lists, verticals, starter catalogues), by a key of what was asked, until it expires.
 * `design_library_ai_jobs`: the AI content job of each context, its state and, once done, its content.
 * `design_library_events`: the editor's analytics events, kept, and whether they were forwarded.
 */
const createTables: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('design_library_cache')
      .addColumn('cache_key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      // seconds since the epoch
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('design_library_ai_jobs')
      .addColumn('context', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('job_id', 'varchar(191)', (c) => c.notNull())
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('content', 'text')
      .addColumn('updated_at', 'varchar(19)', (c) => c.notNull())
      .execute();
    await addIdColumn(db.schema.createTable('design_library_events'), db)
      .addColumn('label', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('context', 'text', (c) => c.notNull())
      .addColumn('source', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('forwarded_at', 'varchar(19)')
      .addColumn('forward_error', 'text')
      .execute();
  },
};

/**
 * `design_library_imports`: what the starter library's imports made or changed, so that
 * remove-content undoes exactly that: what it created (by REST route, or a post by id), an option
 * it changed (with the value before, null when there was none).
 */
const createImports: Migration = {
  async up(db: Kysely<any>) {
    await addIdColumn(db.schema.createTable('design_library_imports'), db)
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('ref', 'varchar(191)', (c) => c.notNull())
      .addColumn('previous', 'text')
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .execute();
  },
};

export const migrations: Record<string, Migration> = { '001-tables': createTables, '002-imports': createImports };
