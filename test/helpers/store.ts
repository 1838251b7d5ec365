import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/index.ts';

/**
 * The database the tests of this run use: SQLite files, or, when the runner sets
 * CMS_SPEC_TEST_STORE=postgres, schemas of the PostgreSQL database CMS_SPEC_TEST_PG names (one
 * schema per test database, so test files run in parallel on one server).
 */
export const TEST_STORE: 'sqlite' | 'postgres' = process.env.CMS_SPEC_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
export const PG_BASE = process.env.CMS_SPEC_TEST_PG ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  /** What `--db` / Store.open take: a file path, or a `postgres://` URL whose connections work in the test's schema. */
  location: string;
  /** Removes the database (the file's folder, or the schema with everything in it). */
  drop(): Promise<void>;
}

type Pg = typeof import('pg');

/**
 * Runs one statement on its own connection to the PostgreSQL server the tests use: outside any
 * test schema, or in the one `location` (a test database's) names. Not through a store: no table
 * version moves and no process is told.
 */
export async function onTestServer(statement: string, location = PG_BASE): Promise<void> {
  const { default: pg } = (await import('pg')) as unknown as { default: Pg };
  const client = new pg.Client({ connectionString: location });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

let pgAnswers: Promise<boolean> | undefined;

/** Whether the PostgreSQL server the tests use answers (for tests that need one whatever store this run tests). */
export function postgresAnswers(): Promise<boolean> {
  pgAnswers ??= onTestServer('select 1').then(
    () => true,
    () => false,
  );
  return pgAnswers;
}

/** A fresh, empty database: of the store this run tests, or of the one named. */
export async function testDatabase(store: 'sqlite' | 'postgres' = TEST_STORE): Promise<TestDatabase> {
  if (store === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'cms-spec-db-'));
    return { location: join(dir, 'site.sqlite'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await onTestServer(`create schema ${schema}`);
  const url = new URL(PG_BASE);
  // a commit does not wait for its WAL to reach the disk (synchronous_commit=off, these connections
  // only): what one connection committed is as visible to the others at once, and only a crash of
  // the PostgreSQL server itself, which no test causes, could lose it
  url.searchParams.set('options', `-c search_path=${schema} -c synchronous_commit=off`);
  return { location: url.href, drop: () => onTestServer(`drop schema ${schema} cascade`) };
}

/** A store on a fresh test database, dropped with it on close. */
export async function openTestStore(): Promise<Store & { dropDatabase(): Promise<void> }> {
  const database = await testDatabase();
  const store = await Store.open(database.location);
  return Object.assign(store, {
    async dropDatabase() {
      await store.close();
      await database.drop();
    },
  });
}
