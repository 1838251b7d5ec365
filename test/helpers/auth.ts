import { randomUUID } from 'node:crypto';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { generatePassword, hashPassword } from '../../src/auth/passwords.ts';
import { basicAuth, type TestServer } from './server.ts';

/** Makes an application password for a user straight through the store and returns its Basic header value. */
async function appPasswordAuth(server: TestServer, userId: number, login: string): Promise<string> {
  const { password } = await createAppPassword(server.app.store, userId, { name: `test ${randomUUID()}` });
  return basicAuth(login, password);
}

/** An `Authorization` header value for the site's `admin` user (a fresh application password each call). */
export async function adminAuth(server: TestServer): Promise<string> {
  const admin = await server.app.store.users.byLogin('admin');
  if (!admin) throw new Error('the test site has no admin user: installContent (src/store/install.ts) did not create one');
  return appPasswordAuth(server, admin.id, admin.login);
}

export interface TestUser {
  auth: string;
  userId: number;
  login: string;
  /** The account password, for the authorization page's login form. */
  password: string;
}

/** Creates a user of `role` (administrator, editor, author, contributor, subscriber) with an application password. */
export async function userAuth(server: TestServer, role: string): Promise<TestUser> {
  const login = `${role}-${randomUUID().slice(0, 8)}`;
  const password = generatePassword(16);
  const userId = await server.app.store.users.insert({
    login,
    email: `${login}@example.test`,
    display_name: login,
    role,
    password_hash: await hashPassword(password),
  });
  return { auth: await appPasswordAuth(server, userId, login), userId, login, password };
}
