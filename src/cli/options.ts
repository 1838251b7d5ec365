import { Option, type Command } from 'commander';
import { CliError } from './errors.ts';
import { ITEM_FORMATS, printRows, type ListFormat } from './output.ts';
import { dbOption, withStore } from './site-store.ts';

/** Options whose value is the site's address: an absolute http(s) URL, kept without a trailing slash. */
const URL_OPTIONS = new Set(['home', 'siteurl']);

function checkedValue(name: string, value: string): string {
  if (!URL_OPTIONS.has(name)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`${name} must be an absolute URL such as http://127.0.0.1:8080, not "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`${name} must be an http or https URL, not "${value}".`);
  if (url.search || url.hash) throw new CliError(`${name} cannot have a query or fragment: "${value}".`);
  return value.replace(/\/+$/, '');
}

/** `*` at either end of the --search pattern is a wildcard, as in wp-cli. */
function matches(pattern: string | undefined, name: string): boolean {
  if (!pattern) return true;
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`).test(name);
}

export function registerOptionCommands(program: Command): void {
  const option = program.command('option').description("read and change the site's options (home, siteurl, blogname, permalink_structure...)");

  option
    .command('get <name>')
    .description("print an option's value")
    .addOption(new Option('--format <format>', 'output format').choices(['plain', 'json']).default('plain'))
    .addOption(dbOption())
    .action(
      withStore(async (store, name: string, o: { format: string }) => {
        const value = await store.options.get(name);
        if (value === undefined) throw new CliError(`Could not get '${name}' option. Does it exist?`);
        console.log(o.format === 'json' ? JSON.stringify(value) : value);
      }),
    );

  option
    .command('update <name> <value>')
    .description('set an option (created when missing); a running server answers with it from its next request')
    .addOption(dbOption())
    .action(
      withStore(async (store, name: string, value: string) => {
        const stored = checkedValue(name, value);
        if ((await store.options.get(name)) === stored) return void console.log(`Success: Value passed for '${name}' option is unchanged.`);
        await store.options.set(name, stored);
        // a server running on this database reloads its options at its next request
        await store.topicChanged('options', () => {});
        console.log(`Success: Updated '${name}' option.`);
      }),
    );

  option
    .command('list')
    .description('list the options')
    .option('--search <pattern>', 'only names matching this pattern (`*` is a wildcard)')
    .addOption(new Option('--format <format>', 'output format').choices([...ITEM_FORMATS, 'count']).default('table'))
    .addOption(dbOption())
    .action(
      withStore(async (store, o: { search?: string; format: ListFormat }) => {
        const rows = (await store.options.all()).filter((r) => matches(o.search, r.name)).map((r) => ({ option_name: r.name, option_value: r.value }));
        printRows(rows, ['option_name', 'option_value'], o.format, 'option_name');
      }),
    );
}
