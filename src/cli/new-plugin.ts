import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { loadSpec, type Variant } from '../engine/spec.ts';
import { pluginDirs } from '../core/plugins.ts';
import { tablePrefix } from '../core/plugin.ts';
import { isPostgresUrl } from '../store/db.ts';
import { CliError } from './errors.ts';
import { importPath, PACKAGE_ROOT, scaffold } from './scaffold.ts';
import { openInstalled, PACKAGE_SPEC, startInstalled } from './site-store.ts';

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface NewPluginOptions {
  spec: string;
  db: string;
  variant: string;
}

/** `My-notes` → `My Notes`: the title a new plugin starts with. */
const titleOf = (name: string) => name.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');

/**
 * `cms-spec new plugin NAME`: the plugin's folder (definition, migration, repository, handlers) in
 * the site's plugins folder, its namespace file `NAME/v1` in the spec, and its test under the
 * project's `test/plugins/NAME/`; then it is activated on the site's database when one is
 * installed (a new database activates every plugin at its first serve).
 */
export async function newPluginCommand(name: string, o: NewPluginOptions): Promise<void> {
  if (!NAME.test(name)) throw new CliError(`A plugin's name is lower-case letters, digits and hyphens (my-plugin), not "${name}".`);
  // with no ./spec, the default is the package's own spec: a plugin is not written into an installed package by accident
  if (o.spec === PACKAGE_SPEC && !existsSync(join('spec', 'site.yaml'))) throw new CliError('There is no ./spec here: run `cms-spec new plugin` in the site\'s project, or name its spec folder with --spec.');
  const spec = loadSpec(o.spec);
  const pluginsDir = pluginDirs(spec)[0];
  if (!pluginsDir) throw new CliError(`The spec in "${o.spec}" has no plugins folder (site.yaml \`plugins:\`), so it serves no plugins.`);
  const namespace = `${name}/v1`;
  if (spec.namespaces.some((n) => n.name === namespace)) throw new CliError(`The spec declares the namespace ${namespace} already.`);
  const folder = join(pluginsDir, name);
  const project = dirname(spec.dir);
  const yaml = join(spec.dir, 'namespaces', `${name}.yaml`);
  const testDir = join(project, 'test', 'plugins', name);
  const written = scaffold(
    [
      { from: 'plugin/plugin', to: folder },
      { from: 'plugin/namespace.yaml', to: yaml },
      { from: 'plugin/test.ts', to: join(testDir, `${name}.test.ts`) },
    ],
    {
      name,
      namespace,
      title: titleOf(name),
      table: `${tablePrefix(name)}_items`,
      yaml: relative(project, yaml),
      src: importPath(folder, join(PACKAGE_ROOT, 'src')),
      handlerSrc: importPath(join(folder, 'handlers'), join(PACKAGE_ROOT, 'src')),
      handlers: importPath(dirname(yaml), join(folder, 'handlers')),
      helpers: importPath(testDir, join(PACKAGE_ROOT, 'test', 'helpers')),
      spec: importPath(testDir, spec.dir),
    },
  );
  console.log(`Plugin ${name} created:\n${written.map((f) => `  ${relative(process.cwd(), f) || f}`).join('\n')}`);
  // in this package's own checkout, the handlers' generated types are checked by `npm test`
  if (spec.dir === PACKAGE_SPEC) console.log('Run `npm run types` to add its handlers to src/generated/endpoints.ts.');
  await activate(name, o);
}

/** Active on the site it was made for: in its database when installed; otherwise at the database's first serve. */
async function activate(name: string, o: NewPluginOptions): Promise<void> {
  if (o.db === ':memory:' || (!isPostgresUrl(o.db) && !existsSync(o.db))) {
    return console.log(`No site at ${o.db} yet: its first \`cms-spec serve\` installs it with ${name} active.`);
  }
  const store = await openInstalled(o.db);
  try {
    const { plugins, site } = await startInstalled(store, { ...o, variant: o.variant as Variant });
    const status = plugins.get(name);
    if (!status) throw new CliError(`The site does not offer the plugin ${name} in variant ${o.variant.toUpperCase()}.`);
    // a site that never chose its plugins has them all active, this one included: a running server
    // must still hear of it, as it has not seen the plugin's folder
    if (status.status === 'active') await site.shared.changed('plugins');
    else await plugins.setActive(name, true);
    console.log(`Plugin ${name} activated on ${o.db}; a \`cms-spec serve\` running on it serves ${name}/v1 from its next request.`);
  } finally {
    await store.close();
  }
}
