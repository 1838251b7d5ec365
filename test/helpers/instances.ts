import { after, before } from 'node:test';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { Store } from '../../src/store/index.ts';
import { serve, type Serving } from '../cli/run.ts';
import { basicAuth } from './server.ts';
import { testDatabase, type TestDatabase } from './store.ts';

/** Two `serve` processes on one PostgreSQL test database (as on two machines), and the administrator's Basic credentials. */
export interface TwoInstances {
  a: Serving;
  b: Serving;
  admin: string;
}

/**
 * Starts two instances before the suite's tests (each with `args` besides `--db`) and stops them
 * and drops their database after; the fields are filled once `before` has run.
 */
export function useTwoInstances(args: string[], passwordName: string): TwoInstances {
  const fixture = {} as TwoInstances;
  let db: TestDatabase | undefined;
  before(async () => {
    db = await testDatabase('postgres');
    fixture.a = await serve(['--db', db.location, ...args]);
    fixture.b = await serve(['--db', db.location, ...args]);
    const store = await Store.open(db.location);
    try {
      const user = (await store.users.byLogin('admin'))!;
      fixture.admin = basicAuth('admin', (await createAppPassword(store, user.id, { name: passwordName })).password);
    } finally {
      await store.close();
    }
  });
  after(async () => {
    await fixture.a?.stop();
    await fixture.b?.stop();
    await db?.drop();
  });
  return fixture;
}
