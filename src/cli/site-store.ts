import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { Store } from '../store/index.ts';
import { describeLocation, isPostgresUrl } from '../store/db.ts';
import type { UserRow } from '../store/users.ts';
import type { Variant } from '../engine/spec.ts';
import type { StartedSite } from '../core/open.ts';
import { toUser } from '../auth/users.ts';
import { action, CliError } from './errors.ts';
import { PACKAGE_ROOT } from './scaffold.ts';

/** The options every command on a site's database takes. */
export const dbOption = () => new Option('--db <path|url>', 'SQLite database file, or a postgres:// URL').env('CMS_SPEC_DB').default('.cms/site.sqlite');
export const specOption = () => new Option('--spec <dir>', 'spec folder').env('CMS_SPEC_SPEC').default(defaultSpecDir(), "./spec, else the package's own CMS spec");

/** The CMS spec this package ships. */
export const PACKAGE_SPEC = join(PACKAGE_ROOT, 'spec');

/**
 * `./spec` when the working folder has one (a project, or this checkout), else the package's own
 * CMS spec: an installed `cms-spec` (global or a dependency) serves the site from any folder.
 */
export function defaultSpecDir(): string {
  return existsSync(join('spec', 'site.yaml')) ? 'spec' : PACKAGE_SPEC;
}

/** Said once by a command that runs on the package's spec because the working folder has none. */
export const packageSpecNotice = () => `No ./spec here: using the CMS spec of the cms-spec package (${PACKAGE_SPEC}); pass --spec to use another.`;
export const variantOption = () => new Option('--variant <a|b>', 'which variant of the route index to serve').env('CMS_SPEC_VARIANT').choices(['a', 'b', 'A', 'B']).default('a');

/** A command that opens the whole site (its plugins and routes): the options it takes. */
export function siteCommand(parent: Command, nameAndArgs: string, description: string): Command {
  return parent.command(nameAndArgs).description(description).addOption(dbOption()).addOption(specOption()).addOption(variantOption());
}

/** Messages of the site's log go to stderr, so a command's own output stays clean for scripts. */
export const stderrLog = { error: (m: string) => console.error(`[cms-spec] ${m}`), info: () => {} };

/** The installed site a command names (`--db`, `--spec`, `--variant`), started with its plugins: the server's modules load only here. */
export async function startInstalled(store: Store, o: SiteCommandOptions): Promise<StartedSite> {
  const [{ loadSpec }, { startSite }, { mediaSettingsFor }] = await Promise.all([import('../engine/spec.ts'), import('../core/open.ts'), import('../core/media.ts')]);
  return startSite({ spec: loadSpec(o.spec), store, variant: (o.variant ?? 'a').toUpperCase() as Variant, log: stderrLog, media: mediaSettingsFor(o.db) });
}

/** Opens an installed site's database; a missing or never-served one is an error, not a new empty site. */
export async function openInstalled(path: string): Promise<Store> {
  const shown = describeLocation(path);
  const notInstalled = new CliError(`The database ${shown} holds no site yet. Run \`cms-spec serve --db ${shown}\` once to install it.`);
  if (path === ':memory:' || (!isPostgresUrl(path) && !existsSync(path))) throw notInstalled;
  const store = await Store.open(path);
  if ((await store.options.get('siteurl')) === undefined) {
    await store.close();
    throw notInstalled;
  }
  return store;
}

type SiteCommandOptions = { db: string; spec: string; variant?: string };

/** Commander passes a command's arguments, then its options, then the command itself. */
const optionsOf = <A extends unknown[]>(args: A) => args[args.length - 2] as SiteCommandOptions;

/**
 * Runs a command against an installed site's database, closing it afterwards; known failures
 * become one `Error:` line and exit code 1.
 */
export function withStore<A extends unknown[]>(fn: (store: Store, ...args: A) => Promise<void>) {
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

/** Like withStore, with the whole site started: its plugins active as stored, its routes compiled. */
export function withSite<A extends unknown[]>(fn: (site: StartedSite, ...args: A) => Promise<void>) {
  return withStore(async (store, ...args: A) => fn(await startInstalled(store, optionsOf(args)), ...args));
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
  constructor(private readonly started: StartedSite) {}

  /** One request as `user`; a refusal becomes a CliError with the API's message. */
  async request(method: string, path: string, as: UserRow, body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const { engine, site } = this.started;
    const outcome = await engine.handle({ method, path, query: {}, body: {}, json: body, headers: { 'content-type': 'application/json' }, ip: '127.0.0.1' }, toUser(as, site.roles));
    const data = outcome.data as Record<string, unknown>;
    if (outcome.status >= 400) {
      const params = (data?.data as { params?: Record<string, string> } | undefined)?.params;
      const detail = params ? ` (${Object.values(params).join(' ')})` : '';
      throw new CliError(typeof data?.message === 'string' ? `${data.message}${detail}` : `the API answered ${outcome.status}`);
    }
    return data;
  }
}
