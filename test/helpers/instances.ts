import { after, before } from 'node:test';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { Store } from '../../src/store/index.ts';
import { serve, type Serving } from '../cli/run.ts';
import { basicAuth } from './server.ts';
import { startSlowLink, type SlowLink } from './slow-link.ts';
import { testDatabase, type TestDatabase } from './store.ts';

/** Two `serve` processes on one PostgreSQL test database (as on two machines), and the administrator's Basic credentials. */
export interface TwoInstances {
  a: Serving;
  b: Serving;
  admin: string;
  /** The relay between b and the database, with `slowLinkToB`. */
  link?: SlowLink;
}

/**
 * Starts two instances before the suite's tests (each with `args` besides `--db`) and stops them
 * and drops their database after; the fields are filled once `before` has run. With `slowLinkToB`,
 * b reaches the database through a relay (`link`) whose delay the test sets once both have started.
 */
export function useTwoInstances(args: string[], passwordName: string, o: { slowLinkToB?: boolean } = {}): TwoInstances {
  const fixture = {} as TwoInstances;
  let db: TestDatabase | undefined;
  let link: SlowLink | undefined;
  before(async () => {
    db = await testDatabase('postgres');
    if (o.slowLinkToB) fixture.link = link = await startSlowLink(db.location);
    fixture.a = await serve(['--db', db.location, ...args]);
    fixture.b = await serve(['--db', link ? link.through(db.location) : db.location, ...args]);
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
    await link?.close();
    await db?.drop();
  });
  return fixture;
}
