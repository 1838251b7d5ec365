import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { Option, type Command } from 'commander';
import { Store } from '../store/index.ts';
import { RestError } from '../engine/errors.ts';
import { chunkAppPassword, createAppPassword, revokeAppPassword } from '../auth/app-passwords.ts';
import { generatePassword, hashPassword } from '../auth/passwords.ts';
import { isRole, ROLES } from '../auth/roles.ts';

const dbOption = () => new Option('--db <path>', 'SQLite database file').env('CMS_SPEC_DB').default('.cms/site.sqlite');

class CliError extends Error {}

/** Opens an installed site's database; a missing or never-served one is an error, not a new empty site. */
async function openInstalled(path: string): Promise<Store> {
  const notInstalled = new CliError(`The database ${path} holds no site yet. Run \`cms-spec serve --db ${path}\` once to install it.`);
  if (path === ':memory:' || !existsSync(path)) throw notInstalled;
  const store = await Store.open(path);
  if ((await store.options.get('siteurl')) === undefined) {
    await store.close();
    throw notInstalled;
  }
  return store;
}

/** Runs a command against the database, turning expected failures into a message and exit code 1. */
function withStore<A extends unknown[]>(fn: (store: Store, ...args: A) => Promise<void>) {
  return async (...args: A) => {
    const o = args[args.length - 2] as { db: string };
    let store: Store | undefined;
    try {
      store = await openInstalled(o.db);
      await fn(store, ...args);
    } catch (e) {
      if (!(e instanceof CliError || e instanceof RestError)) throw e;
      console.error(`Error: ${e.message}`);
      process.exitCode = 1;
    } finally {
      await store?.close();
    }
  };
}

async function userByLogin(store: Store, login: string) {
  const user = await store.users.byLoginOrEmail(login);
  if (!user) throw new CliError(`There is no user "${login}".`);
  return user;
}

/** Reads a line without echoing it. */
function askHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _enc, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

async function askNewPassword(): Promise<string> {
  for (;;) {
    const first = await askHidden('Password: ');
    if (!first) throw new CliError('The password cannot be empty.');
    if ((await askHidden('Repeat password: ')) === first) return first;
    console.error('The passwords do not match; try again.');
  }
}

/** sanitize_user( $login, true ): what WordPress accepts as a login name. */
const LOGIN = /^[A-Za-z0-9 _.\-@]{1,60}$/;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

const stamp = (unix: number | null) => (unix === null ? '-' : new Date(unix * 1000).toISOString().slice(0, 19).replace('T', ' '));

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

export function registerUserCommands(program: Command): void {
  const user = program.command('user').description('manage the accounts of the site');

  user
    .command('add <login>')
    .description('create an account (asks for its password on a terminal, else generates and prints one)')
    .addOption(new Option('--role <role>', 'its role').choices([...ROLES]).makeOptionMandatory())
    .option('--email <email>', 'its email address (default: LOGIN@example.com)')
    .addOption(dbOption())
    .action(
      withStore(async (store, login: string, o: { role: string; email?: string; db: string }) => {
        if (!LOGIN.test(login) || login.trim() !== login) throw new CliError('A login may hold only letters, digits, spaces and _ . - @ (at most 60), with no space at either end.');
        if (!isRole(o.role)) throw new CliError(`Unknown role "${o.role}".`);
        const email = o.email ?? `${login.replace(/[^A-Za-z0-9_.-]/g, '') || 'user'}@example.com`;
        if (!EMAIL.test(email)) throw new CliError(`"${email}" is not an email address.`);
        if (await store.users.byLogin(login)) throw new CliError('Sorry, that username already exists!');
        if (await store.users.byEmail(email)) throw new CliError('Sorry, that email address is already used!');
        const interactive = process.stdin.isTTY && process.stdout.isTTY;
        const password = interactive ? await askNewPassword() : generatePassword(24);
        const id = await store.users.insert({ login, email, display_name: login, role: o.role, password_hash: await hashPassword(password) });
        console.log(`Created user ${id}: ${login} (${o.role}, ${email}).`);
        if (!interactive) console.log(`Password: ${password}\nIt is shown only this once.`);
      }),
    );

  user
    .command('list')
    .description('list the accounts')
    .addOption(dbOption())
    .action(
      withStore(async (store) => {
        const { rows } = await store.users.list({ orderby: 'id', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
        console.log(table([['ID', 'LOGIN', 'EMAIL', 'ROLE', 'REGISTERED'], ...rows.map((u) => [String(u.id), u.login, u.email, u.role, u.registered])]));
      }),
    );

  const appPassword = program.command('app-password').description("manage a user's application passwords");

  appPassword
    .command('create <login> <name>')
    .description('create an application password and print it (only this once)')
    .addOption(dbOption())
    .action(
      withStore(async (store, login: string, name: string) => {
        const u = await userByLogin(store, login);
        const { row, password } = await createAppPassword(store, u.id, { name });
        console.log(`Application password "${row.name}" for ${u.login} (uuid ${row.uuid}):\n\n    ${chunkAppPassword(password)}\n\nIt is shown only this once. Use it with HTTP Basic auth as ${u.login}:<password>.`);
      }),
    );

  appPassword
    .command('list <login>')
    .description("list a user's application passwords")
    .addOption(dbOption())
    .action(
      withStore(async (store, login: string) => {
        const u = await userByLogin(store, login);
        const rows = await store.appPasswords.list(u.id);
        if (!rows.length) return console.log(`${u.login} has no application passwords.`);
        console.log(table([['UUID', 'NAME', 'CREATED', 'LAST USED', 'LAST IP'], ...rows.map((r) => [r.uuid, r.name, stamp(r.created), stamp(r.last_used), r.last_ip ?? '-'])]));
      }),
    );

  appPassword
    .command('revoke <login> <uuid>')
    .description('delete an application password')
    .addOption(dbOption())
    .action(
      withStore(async (store, login: string, uuid: string) => {
        const u = await userByLogin(store, login);
        const row = await revokeAppPassword(store, u.id, uuid);
        console.log(`Revoked "${row.name}" (${row.uuid}) of ${u.login}.`);
      }),
    );
}
