import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { Option, type Command } from 'commander';
import type { Store } from '../store/index.ts';
import type { UserPatch, UserRow } from '../store/users.ts';
import { sanitizeSlug } from '../store/transact.ts';
import { chunkAppPassword, createAppPassword, revokeAppPassword } from '../auth/app-passwords.ts';
import { generatePassword, hashPassword } from '../auth/passwords.ts';
import { isRole, ROLES } from '../auth/roles.ts';
import { CliError } from './errors.ts';
import { fieldsOption, LIST_FORMATS, printRows, table, type ListFormat } from './output.ts';
import { dbOption, userNamed, withStore } from './site-store.ts';

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

/** wp-cli's user fields. */
const USER_FIELDS = ['ID', 'user_login', 'display_name', 'user_email', 'user_registered', 'roles', 'user_nicename', 'user_url'];
const USER_LIST_FIELDS = ['ID', 'user_login', 'display_name', 'user_email', 'user_registered', 'roles'];
const userFields = (u: UserRow) => ({ ID: u.id, user_login: u.login, display_name: u.display_name, user_email: u.email, user_registered: u.registered, roles: u.role, user_nicename: u.nicename, user_url: u.url });

function checkedRole(role: string): string {
  if (!isRole(role)) throw new CliError(`Unknown role "${role}". The roles are ${ROLES.join(', ')}.`);
  return role;
}

/** get_option('default_role'): the role new accounts get, subscriber unless the site says otherwise. */
async function defaultRole(store: Store): Promise<string> {
  const role = await store.options.get('default_role');
  return role && isRole(role) ? role : 'subscriber';
}

/** Asks a yes/no question on a terminal; anywhere else the answer must come from --yes. */
async function confirm(question: string, flag: string): Promise<boolean> {
  if (!process.stdin.isTTY) throw new CliError(`${question} Pass ${flag} to confirm when not on a terminal.`);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await new Promise<string>((resolve) => rl.question(`${question} [y/n] `, resolve));
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}

export function registerUserCommands(program: Command): void {
  const user = program.command('user').description('manage the accounts of the site');

  user
    .command('add <login>')
    .description('create an account (asks for its password on a terminal, else generates and prints one)')
    .addOption(new Option('--role <role>', "its role (default: the site's default_role, subscriber)").choices([...ROLES]))
    .option('--email <email>', 'its email address (default: LOGIN@example.com)')
    .option('--display_name <name>', 'its public name (default: the login)')
    .option('--porcelain', 'print only the new user ID (the generated password is not shown)')
    .addOption(dbOption())
    .action(
      withStore(async (store, login: string, o: { role?: string; email?: string; display_name?: string; porcelain?: boolean; db: string }) => {
        if (!LOGIN.test(login) || login.trim() !== login) throw new CliError('A login may hold only letters, digits, spaces and _ . - @ (at most 60), with no space at either end.');
        const role = checkedRole(o.role ?? (await defaultRole(store)));
        const email = o.email ?? `${login.replace(/[^A-Za-z0-9_.-]/g, '') || 'user'}@example.com`;
        if (!EMAIL.test(email)) throw new CliError(`"${email}" is not an email address.`);
        if (await store.users.byLogin(login)) throw new CliError('Sorry, that username already exists!');
        if (await store.users.byEmail(email)) throw new CliError('Sorry, that email address is already used!');
        const interactive = !o.porcelain && process.stdin.isTTY && process.stdout.isTTY;
        const password = interactive ? await askNewPassword() : generatePassword(24);
        const id = await store.users.insert({ login, email, display_name: o.display_name ?? login, role, password_hash: await hashPassword(password) });
        if (o.porcelain) return void console.log(id);
        console.log(`Success: Created user ${id}: ${login} (${role}, ${email}).`);
        if (!interactive) console.log(`Password: ${password}\nIt is shown only this once.`);
      }),
    );

  user
    .command('list')
    .description('list the accounts')
    .option('--role <role>', 'only accounts with this role')
    .option('--fields <fields>', `fields to show (${USER_FIELDS.join(', ')})`)
    .addOption(new Option('--format <format>', 'output format').choices([...LIST_FORMATS]).default('table'))
    .addOption(dbOption())
    .action(
      withStore(async (store, o: { role?: string; fields?: string; format: ListFormat }) => {
        const { rows } = await store.users.list({ roles: o.role ? [checkedRole(o.role)] : undefined, orderby: 'id', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
        printRows(rows.map(userFields), fieldsOption(o.fields, USER_LIST_FIELDS, USER_FIELDS), o.format);
      }),
    );

  user
    .command('update <user>')
    .description('change an account (login, email or ID)')
    .option('--user_email <email>', 'its email address')
    .option('--display_name <name>', 'its public name')
    .option('--user_url <url>', 'its website')
    .option('--user_nicename <slug>', 'its URL name (the author archive is /author/NICENAME/)')
    .option('--user_pass <password>', 'a new password (ends its sessions; visible in the shell history: prefer reset-password)')
    .addOption(new Option('--role <role>', 'its role').choices([...ROLES]))
    .addOption(dbOption())
    .action(
      withStore(async (store, name: string, o: { user_email?: string; display_name?: string; user_url?: string; user_nicename?: string; user_pass?: string; role?: string }) => {
        const u = await userNamed(store, name);
        const patch: UserPatch = {};
        if (o.user_email !== undefined) {
          if (!EMAIL.test(o.user_email)) throw new CliError(`"${o.user_email}" is not an email address.`);
          const holder = await store.users.byEmail(o.user_email);
          if (holder && holder.id !== u.id) throw new CliError('Sorry, that email address is already used!');
          patch.email = o.user_email;
        }
        if (o.display_name !== undefined) patch.display_name = o.display_name;
        if (o.user_url !== undefined) patch.url = o.user_url;
        if (o.user_nicename !== undefined) {
          const nicename = sanitizeSlug(o.user_nicename).slice(0, 50);
          if (!nicename) throw new CliError(`"${o.user_nicename}" leaves no URL name; use letters, digits and hyphens.`);
          const holder = await store.users.bySlug(nicename);
          if (holder && holder.id !== u.id) throw new CliError(`The URL name "${nicename}" is already used by ${holder.login}.`);
          patch.nicename = nicename;
        }
        if (o.user_pass !== undefined) {
          if (!o.user_pass) throw new CliError('The password cannot be empty.');
          patch.password_hash = await hashPassword(o.user_pass);
        }
        if (o.role !== undefined) patch.role = checkedRole(o.role);
        if (!Object.keys(patch).length) throw new CliError('Nothing to update: give at least one field, such as --display_name.');
        await store.users.update(u.id, patch);
        console.log(`Success: Updated user ${u.id}.`);
      }),
    );

  user
    .command('delete <users...>')
    .description("delete accounts; their posts go to --reassign, or are deleted with them")
    .option('--reassign <user>', 'give their posts to this user (login, email or ID)')
    .option('--yes', 'delete their posts without asking (when not reassigning)')
    .addOption(dbOption())
    .action(
      withStore(async (store, names: string[], o: { reassign?: string; yes?: boolean }) => {
        const users = [];
        for (const name of names) users.push(await userNamed(store, name));
        const heir = o.reassign ? await userNamed(store, o.reassign) : undefined;
        if (heir && users.some((u) => u.id === heir.id)) throw new CliError(`Cannot reassign posts to ${heir.login}, who is being deleted.`);
        if (!heir && !o.yes && !(await confirm('--reassign not given: the posts of these users will be deleted too. Proceed?', '--yes'))) throw new CliError('Nothing was deleted.');
        for (const u of users) {
          await store.users.delete(u.id, heir?.id);
          console.log(`Success: Removed user ${u.id} (${u.login})${heir ? `; their posts now belong to ${heir.login}` : ''}.`);
        }
      }),
    );

  user
    .command('set-role <user> [role]')
    .description("give an account a role (default: the site's default_role, subscriber)")
    .addOption(dbOption())
    .action(
      withStore(async (store, name: string, role: string | undefined) => {
        const u = await userNamed(store, name);
        const next = checkedRole(role ?? (await defaultRole(store)));
        await store.users.update(u.id, { role: next });
        console.log(`Success: ${u.login} (${u.id}) is now ${/^[aeiou]/i.test(next) ? 'an' : 'a'} ${next}.`);
      }),
    );

  user
    .command('reset-password <users...>')
    .description('give accounts a new generated password, ending their sessions (application passwords stay)')
    .option('--porcelain', 'print only the new password (one user)')
    .addOption(dbOption())
    .action(
      withStore(async (store, names: string[], o: { porcelain?: boolean }) => {
        if (o.porcelain && names.length !== 1) throw new CliError('--porcelain prints one password: name one user.');
        for (const name of names) {
          const u = await userNamed(store, name);
          const password = generatePassword(24);
          await store.users.update(u.id, { password_hash: await hashPassword(password) });
          if (o.porcelain) console.log(password);
          else console.log(`Success: Reset the password of ${u.login} (${u.id}). New password, shown only this once: ${password}`);
        }
      }),
    );

  const appPassword = program.command('app-password').description("manage a user's application passwords");

  appPassword
    .command('create <login> <name>')
    .description('create an application password and print it (only this once)')
    .addOption(dbOption())
    .action(
      withStore(async (store, login: string, name: string) => {
        const u = await userNamed(store, login);
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
        const u = await userNamed(store, login);
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
        const u = await userNamed(store, login);
        const row = await revokeAppPassword(store, u.id, uuid);
        console.log(`Revoked "${row.name}" (${row.uuid}) of ${u.login}.`);
      }),
    );
}
