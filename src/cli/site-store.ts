import { existsSync } from 'node:fs';
import { Option } from 'commander';
import { Store } from '../store/index.ts';
import type { UserRow } from '../store/users.ts';
import { loadSpec, SpecError } from '../engine/spec.ts';
import type { Engine } from '../engine/engine.ts';
import { Site } from '../engine/site.ts';
import { toUser } from '../auth/users.ts';
import { action, CliError } from './errors.ts';

/** The options every command on a site's database takes. */
export const dbOption = () => new Option('--db <path>', 'SQLite database file').env('CMS_SPEC_DB').default('.cms/site.sqlite');
export const specOption = () => new Option('--spec <dir>', 'spec folder').env('CMS_SPEC_SPEC').default('spec');

/** Opens an installed site's database; a missing or never-served one is an error, not a new empty site. */
export async function openInstalled(path: string): Promise<Store> {
  const notInstalled = new CliError(`The database ${path} holds no site yet. Run \`cms-spec serve --db ${path}\` once to install it.`);
  if (path === ':memory:' || !existsSync(path)) throw notInstalled;
  const store = await Store.open(path);
  if ((await store.options.get('siteurl')) === undefined) {
    await store.close();
    throw notInstalled;
  }
  return store;
}

/**
 * Runs a command against an installed site's database (commander passes the options second to
 * last), closing it afterwards; known failures become one `Error:` line and exit code 1.
 */
export function withStore<A extends unknown[]>(fn: (store: Store, ...args: A) => Promise<void>) {
  const optionsOf = (args: A) => args[args.length - 2] as { db: string; spec?: string };
  return action(
    (...args: A) => optionsOf(args),
    async (...args: A) => {
      const store = await openInstalled(optionsOf(args).db);
      try {
        await fn(store, ...args);
      } finally {
        await store.close();
      }
    },
  );
}

/** A user named by login, email or id. */
export async function userNamed(store: Store, name: string): Promise<UserRow> {
  const user = /^\d+$/.test(name) ? await store.users.get(Number(name)) : await store.users.byLoginOrEmail(name);
  if (!user) throw new CliError(`There is no user "${name}".`);
  return user;
}

/** The user a write runs as: `--user`, else the first administrator (wp-cli runs as no one; the API needs someone). */
export async function actingUser(store: Store, name: string | undefined): Promise<UserRow> {
  if (name) return userNamed(store, name);
  const { rows } = await store.users.list({ roles: ['administrator'], orderby: 'id', order: 'asc', offset: 0, limit: 1 });
  if (!rows[0]) throw new CliError('The site has no administrator to act as; name a user with --user.');
  return rows[0];
}

/**
 * The site's REST API in this process, without HTTP: writes from the CLI go through the same
 * handlers, checks and defaults as the API's (wp-cli likewise calls WordPress's own functions).
 */
export class LocalApi {
  private constructor(
    readonly engine: Engine,
    readonly site: Site,
  ) {}

  static async open(store: Store, specDir: string): Promise<LocalApi> {
    // the route compiler and the handlers load only for the commands that write through the API
    const [{ compileRoutes, loadHandlerModules }, { Engine }] = await Promise.all([import('../engine/compile.ts'), import('../engine/engine.ts')]);
    const spec = loadSpec(specDir);
    const { modules, problems } = await loadHandlerModules(spec);
    if (problems.length) throw new SpecError(problems);
    const site = new Site(spec, store);
    await site.refresh();
    const table = compileRoutes(spec, 'A', modules, (p) => site.restUrl(p));
    const log = { error: (m: string) => console.error(m), info: () => {} };
    return new LocalApi(new Engine(spec, table, site, store, log), site);
  }

  /** One request as `user`; a refusal becomes a CliError with the API's message. */
  async request(method: string, path: string, as: UserRow, body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const outcome = await this.engine.handle({ method, path, query: {}, body: {}, json: body, headers: { 'content-type': 'application/json' }, ip: '127.0.0.1' }, toUser(as));
    const data = outcome.data as Record<string, unknown>;
    if (outcome.status >= 400) {
      const params = (data?.data as { params?: Record<string, string> } | undefined)?.params;
      const detail = params ? ` (${Object.values(params).join(' ')})` : '';
      throw new CliError(typeof data?.message === 'string' ? `${data.message}${detail}` : `the API answered ${outcome.status}`);
    }
    return data;
  }
}
