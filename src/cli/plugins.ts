import { Option, type Command } from 'commander';
import type { PluginStatus } from '../core/site.ts';
import { CliError } from './errors.ts';
import { LIST_FORMATS, printRows, type ListFormat } from './output.ts';
import { Progress } from './progress.ts';
import { siteCommand, userNamed, withSite } from './site-store.ts';

const describe = (p: PluginStatus) => `${p.title} (${p.plugin})`;
const FIELDS = ['name', 'status', 'version', 'title'];

/** `cms-spec plugin list|activate|deactivate`, as wp-cli's plugin commands: they change the site's active plugins in its database. */
export function registerPluginCommands(program: Command): void {
  const plugin = program.command('plugin').description("list the site's plugins and activate or deactivate them");

  siteCommand(plugin, 'list', 'list the installed plugins and whether each is active')
    .addOption(new Option('--format <format>', 'output format').choices([...LIST_FORMATS]).default('table'))
    .action(
      withSite(async ({ plugins }, o: { format: ListFormat }) => {
        const list = plugins.list();
        const rows = list.map((p) => ({ ...p, status: p.error && o.format === 'table' ? `${p.status} (broken)` : p.status }));
        printRows(rows, o.format === 'json' ? [...FIELDS, 'plugin', 'error'] : FIELDS, o.format, 'name');
        if (o.format === 'table') for (const p of list) if (p.error) console.log(`\n${p.name}: ${p.error}`);
      }),
    );

  for (const [action, active] of [['activate', true], ['deactivate', false]] as const) {
    siteCommand(plugin, `${action} <name>`, `${action} a plugin (its name, or its id folder/file)`).action(
      withSite(async ({ plugins }, name: string) => {
        const before = plugins.get(name);
        if (!before) throw new CliError(`There is no plugin "${name}". \`cms-spec plugin list\` shows the installed ones.`);
        if ((before.status === 'active') === active) return console.log(`Plugin ${describe(before)} is already ${before.status}.`);
        const after = await plugins.setActive(name, active);
        console.log(`Plugin ${describe(after)} ${action}d.`);
      }),
    );
  }
}

/**
 * The commands of the installed plugins (their definitions' `cli`), added when the command line
 * asks for none of the core's. Plugins' definitions are read from the spec's plugin folders; the
 * command itself refuses to run while its plugin is inactive.
 */
export async function registerPluginProvidedCommands(program: Command, specDir: string): Promise<void> {
  const [{ loadSpec }, { SpecError }, { discoverPlugins, pluginDirs }] = await Promise.all([import('../engine/spec.ts'), import('../engine/diagnostics.ts'), import('../core/plugins.ts')]);
  let dirs: string[];
  try {
    dirs = pluginDirs(loadSpec(specDir));
  } catch (e) {
    // the spec's problems are told by the command that needs the spec; without one there are no plugin commands
    if (e instanceof SpecError) return;
    throw e;
  }
  for (const installed of await discoverPlugins(dirs)) {
    const def = installed.def;
    if (!def?.cli) continue;
    def.cli({
      command: (nameAndArgs, description) => siteCommand(program, nameAndArgs, description),
      withSite: (fn) =>
        withSite(async (site, ...args) => {
          if (site.plugins.get(def.name)?.status !== 'active') throw new CliError(`The plugin ${def.name} is not active. Run \`cms-spec plugin activate ${def.name}\` first.`);
          await fn(site, ...args);
        }),
      error: (message) => new CliError(message),
      printRows,
      progress: (total, verb, noun) => new Progress(total, verb, noun),
      userNamed,
    });
  }
}
