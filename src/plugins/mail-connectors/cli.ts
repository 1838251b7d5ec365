import { readFileSync } from 'node:fs';
import { Argument, Option } from 'commander';
import type { CliSite, PluginCli, PluginListFormat } from '../../core/plugin.ts';
import { readConnector } from './connector.ts';
import { at, PROVIDERS, providerNamed, type Provider } from './providers.ts';
import { baseUrlProblem, readSettings, saveSettings } from './settings.ts';

interface ConnectorOptions {
  key?: string;
  baseUrl?: string;
  endpoint?: string;
  format: PluginListFormat;
}

const ACTIONS = ['list', 'set', 'test'] as const;
type Action = (typeof ACTIONS)[number];

/** How many items `connector test` names. */
const SHOWN_ITEMS = 10;

/**
 * `cms-spec connector list|set|test`: the connectors' stored keys and base URLs, and a live call
 * to a provider. A key is never printed; `--key -` reads it from standard input, so it stays out
 * of the shell's history and the process list.
 */
export function connectorCommands(cli: PluginCli): void {
  cli
    .command('connector', "the mail connectors (kb-mail-a/v1 … kb-mail-g/v1): list them, store a provider's key and base URL, or test a provider")
    .addArgument(new Argument('<action>', 'list: each connector and what is stored; set: store --key and/or --base-url; test: call the provider and report what it answered').choices(ACTIONS))
    .argument('[name]', `the connector: ${PROVIDERS.map((p) => p.id).join(', ')} (or its namespace, e.g. kb-mail-a)`)
    .option('--key <key>', "set: the provider's key ('-' reads it from standard input, '' removes it); test: a key to try instead of the stored one")
    .option('--base-url <url>', "set: the provider's API root, or your own gateway to it ('' restores the provider's own)")
    .option('--endpoint <endpoint>', 'test: the endpoint to read (default: the provider’s lists)')
    .addOption(new Option('--format <format>', 'list: output format').choices(['table', 'json', 'csv']).default('table'))
    .action(cli.withSite((site, action: Action, name: string | undefined, o: ConnectorOptions) => run(cli, site, action, name, o)));
}

async function run(cli: PluginCli, { store }: CliSite, action: Action, name: string | undefined, o: ConnectorOptions): Promise<void> {
  if (action === 'list') return list(cli, store, o.format);
  if (!name) throw cli.error(`Name the connector to ${action}: one of ${PROVIDERS.map((p) => p.id).join(', ')}.`);
  const provider = providerNamed(name);
  if (!provider) throw cli.error(`There is no mail connector "${name}". The connectors are ${PROVIDERS.map((p) => p.id).join(', ')}.`);
  return action === 'set' ? set(cli, store, provider, o) : test(store, provider, o);
}

async function list(cli: PluginCli, store: CliSite['store'], format: PluginListFormat): Promise<void> {
  const rows = [];
  for (const p of PROVIDERS) {
    const s = await readSettings(store, p);
    const defaultBase = p.api(s.key).defaultBaseUrl;
    rows.push({
      name: p.id,
      namespace: p.namespace,
      provider: p.title,
      key: s.key ? 'stored' : p.key === 'request' ? 'per request' : 'not set',
      base_url: s.baseUrl || (defaultBase ? `${defaultBase} (default)` : 'not set'),
    });
  }
  cli.printRows(rows, ['name', 'namespace', 'provider', 'key', 'base_url'], format);
}

async function set(cli: PluginCli, store: CliSite['store'], p: Provider, o: ConnectorOptions): Promise<void> {
  if (o.key === undefined && o.baseUrl === undefined) throw cli.error(`Give --key, --base-url or both to store for ${p.id}.`);
  const key = o.key === '-' ? readFileSync(0, 'utf8').trim() : o.key?.trim();
  const current = await readSettings(store, p);
  const baseUrl = o.baseUrl?.trim();
  if (baseUrl) {
    const problem = baseUrlProblem(baseUrl);
    if (problem) throw cli.error(problem);
  }
  if (key) {
    const effectiveBase = (baseUrl !== undefined ? baseUrl : current.baseUrl) || p.api(key).defaultBaseUrl || '';
    const problem = p.keyProblem?.(key, effectiveBase);
    if (problem) throw cli.error(problem);
  }
  await saveSettings(store, p, { key, baseUrl });
  const after = await readSettings(store, p);
  const said = [
    key !== undefined ? (key ? `${p.keyName} stored` : `${p.keyName} removed`) : '',
    baseUrl !== undefined ? `base URL ${after.baseUrl || "reset to the provider's own"}` : '',
  ].filter(Boolean);
  console.log(`Success: ${p.title} connector (${p.namespace}): ${said.join(', ')}.`);
}

async function test(store: CliSite['store'], p: Provider, o: ConnectorOptions): Promise<void> {
  const endpoint = o.endpoint ?? p.testEndpoint;
  const stored = await readSettings(store, p);
  const answer = await readConnector(p, { ...stored, key: o.key?.trim() || stored.key }, { endpoint, page: 1, perPage: SHOWN_ITEMS });
  const total = answer.total !== undefined && answer.total !== answer.items.length ? ` (${answer.total} in all)` : '';
  console.log(`Success: ${answer.api} (${p.namespace}) at ${answer.root} answered ${endpoint} with ${answer.items.length} item${answer.items.length === 1 ? '' : 's'}${total}.`);
  for (const item of answer.items.slice(0, SHOWN_ITEMS)) console.log(`- ${describe(item)}`);
}

/** One line for an item of a provider's list: its name and its id, whichever the provider calls them. */
function describe(item: unknown): string {
  const label = ['name', 'title', 'label', 'tag', 'key'].map((k) => at(item, k)).find((v) => typeof v === 'string' && v !== '');
  const id = ['id', 'campaignId', 'tagId', 'customFieldId', 'field_key', 'slug'].map((k) => at(item, k)).find((v) => v !== undefined && v !== null && v !== '');
  if (label === undefined && id === undefined) return JSON.stringify(item).slice(0, 120);
  return `${label ?? '(no name)'}${id !== undefined ? ` (${String(id)})` : ''}`;
}
