import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Roles } from '../auth/roles.ts';
import type { Engine } from '../engine/engine.ts';
import { formatDiagnostic, SpecError } from '../engine/diagnostics.ts';
import { RestError } from '../engine/errors.ts';
import { importModule } from '../engine/load-module.ts';
import { loadSpec, type Spec } from '../engine/spec.ts';
import { config } from '../config.ts';
import type { Mount } from '../engine/server.ts';
import type { Logger } from '../engine/types.ts';
import type { Store } from '../store/index.ts';
import { ContentTypes, type RegisteredMeta } from './content-types.ts';
import { BlockRegistry } from './blocks.ts';
import { CORE_BLOCKS } from './block-library/core-blocks.ts';
import { tablePrefix, type PluginDefinition } from './plugin.ts';
import { installFromSource } from './plugin-source.ts';
import type { PluginControl, PluginStatus, Site } from './site.ts';

/** The option holding the active plugins' ids, as WordPress keeps `active_plugins` (a JSON list here). */
export const ACTIVE_PLUGINS_OPTION = 'active_plugins';

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A plugin folder found on disk: its definition, or why it could not be used. */
interface Installed {
  name: string;
  /** WordPress's plugin id, `folder/file`. */
  id: string;
  /** The folder it was found in. */
  folder: string;
  def?: PluginDefinition;
  /** Its post meta as registered for this site's spec (`postMeta` resolved at activation). */
  postMeta?: readonly RegisteredMeta[];
  /** Set when the plugin cannot be activated: it failed to load, its migration failed, its routes do not compile. */
  error?: string;
}

/** The folders the spec names for plugins (site.yaml `plugins:`, relative to the spec folder). */
export function pluginDirs(spec: Spec): string[] {
  const raw = spec.settings.plugins;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list.map((d) => resolve(spec.dir, String(d)));
}

/** The definition file of a plugin folder: plugin.ts from the sources, plugin.js when run from dist/. */
function definitionFile(folder: string): string | undefined {
  return ['plugin.ts', 'plugin.js'].map((f) => join(folder, f)).find(existsSync);
}

/** Checks what the core relies on in a definition, the way Fastify's plugin-utils checks a plugin's metadata. */
function contractProblem(name: string, def: unknown): string | null {
  if (!def || typeof def !== 'object') return 'plugin.ts has no default export made with definePlugin()';
  const d = def as Partial<PluginDefinition>;
  if (d.name !== name) return `its definition is named '${String(d.name)}', but its folder is '${name}'`;
  for (const key of ['title', 'version', 'description'] as const) if (typeof d[key] !== 'string' || !d[key]) return `its definition has no ${key}`;
  for (const key of ['namespaces', 'dependsOn'] as const) if (d[key] !== undefined && !(Array.isArray(d[key]) && d[key]!.every((x) => typeof x === 'string'))) return `its ${key} must be a list of names`;
  if (d.repo !== undefined && typeof d.repo !== 'function') return 'its repo must be a function of the database';
  if (d.postMeta !== undefined && !Array.isArray(d.postMeta) && typeof d.postMeta !== 'function') return 'its postMeta must be a list of keys or a function of the spec';
  if (d.migrations !== undefined && (typeof d.migrations !== 'object' || Object.values(d.migrations).some((m) => typeof m?.up !== 'function'))) return 'each of its migrations must have an up() function';
  if (d.jobs !== undefined && !(Array.isArray(d.jobs) && d.jobs.every((j) => typeof j?.hook === 'string' && j.hook && Number.isInteger(j.interval) && j.interval > 0 && typeof j.run === 'function')))
    return 'each of its jobs must have a hook, an interval in whole seconds and a run() function';
  // register_block_type's rule for names, which block-renderer's route also relies on
  if (d.blocks !== undefined && !(Array.isArray(d.blocks) && d.blocks.every((b) => typeof b?.name === 'string' && /^[a-z0-9-]+\/[a-z0-9-]+$/.test(b.name) && typeof b.title === 'string' && (b.render === undefined || typeof b.render === 'function'))))
    return 'each of its blocks must have a name (namespace/name, lower-case letters, digits and hyphens), a title and, when dynamic, a render() function';
  return null;
}

/** Finds and imports every plugin under the folders; a plugin that throws or breaks the contract is kept, with its error. */
export async function discoverPlugins(dirs: readonly string[]): Promise<Installed[]> {
  const found: Installed[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const folder = join(dir, name);
      if (!statSync(folder).isDirectory()) continue;
      const file = definitionFile(folder);
      if (!file) continue;
      const entry: Installed = { name, id: `${name}/${name}`, folder };
      if (!NAME.test(name)) entry.error = `its folder name '${name}' must be lower-case letters, digits and hyphens`;
      else if (found.some((p) => p.name === name)) entry.error = `a plugin named ${name} is installed twice`;
      else {
        try {
          const def = ((await importModule(file)) as { default?: unknown }).default;
          const problem = contractProblem(name, def);
          if (problem) entry.error = problem;
          else entry.def = def as PluginDefinition;
        } catch (e) {
          entry.error = `loading it failed: ${e instanceof Error ? e.message : String(e)}`;
        }
      }
      found.push(entry);
    }
  }
  return found;
}

export interface RegistryOptions {
  engine: Engine<Store, Site>;
  store: Store;
  site: Site;
  log: Logger;
}

/**
 * The installed plugins and which of them are active, per site (like WordPress's `active_plugins`).
 * Activating runs the plugin's pending migrations, adds its settings' defaults, and rebuilds the
 * engine's routes and index with its namespaces, in-process; deactivating drops its namespaces,
 * hooks, types and capabilities and keeps its data. The core knows plugins only through here.
 */
export class PluginRegistry implements PluginControl {
  private readonly byName: Map<string, Installed>;
  private active = new Set<string>();
  /** Activation changes run one at a time, in the order asked. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly engine: Engine<Store, Site>;
  private readonly store: Store;
  private readonly site: Site;
  private readonly log: Logger;
  /** The protocols of the active plugins, by plugin, kept across changes of the others (their sessions live on). */
  private readonly mounted = new Map<string, readonly Mount[]>();
  private mountList: readonly Mount[] = [];

  constructor(installed: readonly Installed[], o: RegistryOptions) {
    this.byName = new Map(installed.map((p) => [p.name, p]));
    this.engine = o.engine;
    this.store = o.store;
    this.site = o.site;
    this.log = o.log;
  }

  /** Loads the plugins of the spec's folders and serves the core's namespaces with the active plugins'. */
  static async start(o: RegistryOptions): Promise<PluginRegistry> {
    const registry = new PluginRegistry(await discoverPlugins(pluginDirs(o.engine.spec)), o);
    await registry.activateAtStart();
    o.site.plugins = registry;
    o.site.shared.on('plugins', () => registry.catchUp());
    return registry;
  }

  private get known(): Set<string> {
    return new Set(this.engine.knownNamespaces);
  }

  /** Plugins this variant offers: those serving one of its namespaces, or none at all. */
  private available(p: Installed): boolean {
    const namespaces = p.def?.namespaces ?? [];
    return namespaces.length === 0 || namespaces.some((ns) => this.known.has(ns));
  }

  /** Problems visible before activation: unknown dependencies, namespaces without YAML or claimed twice. */
  private checkStatic(): void {
    const inSpec = new Set(this.engine.spec.namespaces.map((n) => n.name));
    const claimed = new Map<string, string>();
    for (const p of this.byName.values()) {
      if (!p.def) continue;
      const missingDep = (p.def.dependsOn ?? []).find((d) => !this.byName.get(d)?.def);
      const noYaml = (p.def.namespaces ?? []).find((ns) => !inSpec.has(ns));
      const twice = (p.def.namespaces ?? []).find((ns) => claimed.has(ns));
      if (missingDep) p.error = `it depends on ${missingDep}, which is not installed or failed to load`;
      else if (noYaml) p.error = `it serves ${noYaml}, but the spec has no namespace file for it`;
      else if (twice) p.error = `it serves ${twice}, which plugin ${claimed.get(twice)} serves already`;
      for (const ns of p.def.namespaces ?? []) if (!claimed.has(ns)) claimed.set(ns, p.name);
    }
  }

  private async activateAtStart(): Promise<void> {
    this.checkStatic();
    for (const p of this.byName.values()) if (p.error) this.log.error(`plugin ${p.name} is not active: ${p.error}`);
    await this.activateStored();
  }

  /**
   * Another process changed the active plugins: serve what the site now says. A plugin this one
   * has never seen (made by `cms-spec new plugin` while it serves) is looked for with the spec read
   * again, so its routes come at the next request, not at a restart; so is any new plugin of a
   * site that never chose its plugins (all of them are active there), and any plugin another
   * instance installed or deleted (the plugin folders hold other plugins than this one knows).
   */
  async catchUp(): Promise<void> {
    const stored = await this.store.options.get(ACTIVE_PLUGINS_OPTION);
    if (stored !== undefined && parseActive(stored).every((name) => this.byName.has(name)) && !this.foldersChanged()) return this.reload();
    let problems;
    try {
      problems = await this.engine.reload(loadSpec(this.engine.spec.dir));
    } catch (e) {
      if (!(e instanceof SpecError)) throw e;
      problems = e.problems;
    }
    if (!problems.length) return this.rescan();
    for (const d of problems) this.log.error(`a newly active plugin cannot be served yet: ${formatDiagnostic(d)}`);
    return this.reload();
  }

  /** Whether the plugin folders hold other plugins than the ones this instance found. */
  private foldersChanged(): boolean {
    const onDisk = new Set(pluginDirs(this.engine.spec).flatMap((dir) => (existsSync(dir) ? readdirSync(dir).filter((name) => definitionFile(join(dir, name))) : [])));
    return onDisk.size !== this.byName.size || [...this.byName.keys()].some((name) => !onDisk.has(name));
  }

  /** Serves what the site's stored active plugins say now. */
  reload(): Promise<void> {
    const run = this.queue.then(async () => {
      this.active.clear();
      await this.activateStored();
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * The plugin folders or the spec changed (`serve --watch`, after the engine took the new spec):
   * plugins added since the start are found, one whose folder is gone is forgotten, one that could
   * not be used is looked at again (its namespace file may have come, its handler been fixed), and
   * the site's active plugins are served anew. Their routes may have changed (an arg, a route), so
   * the answers kept from before (the index, a route's) go: the plugins' topic moves.
   */
  rescan(): Promise<void> {
    const run = this.queue.then(async () => {
      for (const p of [...this.byName.values()]) if (!existsSync(p.folder)) this.byName.delete(p.name);
      for (const p of await discoverPlugins(pluginDirs(this.engine.spec))) {
        const known = this.byName.get(p.name);
        if (!known || known.error) this.byName.set(p.name, p);
      }
      this.checkStatic();
      this.active.clear();
      await this.activateStored();
      await this.site.shared.changed('plugins');
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * POST plugins: copies the slug's plugin from the trusted source into the first of the spec's
   * plugin folders, and finds it (inactive). WordPress's answers when it cannot: no folder to
   * write to is its unavailable filesystem, a slug the source lacks its unreachable directory.
   */
  install(slug: string): Promise<PluginStatus> {
    const run = this.queue.then(async () => {
      const into = pluginDirs(this.engine.spec)[0];
      if (!into) throw new RestError('fs_unavailable', 'The filesystem is currently unavailable for managing plugins.', 500);
      const installed = this.byName.get(slug);
      installFromSource(config().pluginSource, slug, into, installed?.folder);
      // a site that never chose its plugins runs all of them: it chooses now, so the new one stays inactive
      if ((await this.store.options.get(ACTIVE_PLUGINS_OPTION)) === undefined) await this.storeActive();
      const found = (await discoverPlugins([into])).find((p) => p.name === slug);
      if (!found) {
        // a folder without a definition file is no plugin: WordPress's upgrader finds no plugin file in it
        rmSync(join(into, slug), { recursive: true, force: true });
        throw new RestError('unable_to_determine_installed_plugin', 'Unable to determine what plugin was installed.', 500);
      }
      this.byName.set(slug, found);
      this.checkStatic();
      await this.site.shared.changed('plugins');
      this.log.info(`plugin ${slug} installed`);
      return this.status(found);
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * DELETE plugins/{plugin}: WordPress's delete_plugins, which runs the plugin's uninstall and
   * removes its folder. What its uninstall removes here is what the core knows it made: its tables
   * (its migrations may create only those named with its prefix), its migration records and the
   * options its `settings` declare. An active plugin is refused, as WordPress refuses it.
   */
  uninstall(pluginOrName: string): Promise<PluginStatus> {
    const run = this.queue.then(async () => {
      const p = this.find(pluginOrName);
      if (!p) throw new RestError('rest_plugin_not_found', 'Plugin not found.', 404);
      if (this.active.has(p.name)) throw new RestError('rest_cannot_delete_active_plugin', 'Cannot delete an active plugin. Please deactivate it first.', 400);
      const status = this.status(p);
      if (p.def) {
        const others = [...this.byName.keys()].filter((name) => name !== p.name).map(tablePrefix);
        const dropped = await this.store.dropPluginData(p.name, tablePrefix(p.name), others);
        for (const option of Object.keys(p.def.settings ?? {})) await this.store.options.delete(option);
        if (dropped.length) this.log.info(`plugin ${p.name}: dropped tables ${dropped.join(', ')}`);
      }
      rmSync(p.folder, { recursive: true, force: true });
      this.byName.delete(p.name);
      this.checkStatic();
      await this.site.shared.changed('plugins');
      this.log.info(`plugin ${p.name} deleted`);
      return status;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private storeActive(): Promise<void> {
    return this.store.options.set(ACTIVE_PLUGINS_OPTION, JSON.stringify([...this.byName.values()].filter((x) => this.active.has(x.name)).map((x) => x.id)));
  }

  /** Activates what the site's option lists (every plugin the variant offers when it lists none), each after its dependencies. */
  private async activateStored(): Promise<void> {
    const stored = await this.store.options.get(ACTIVE_PLUGINS_OPTION);
    const wanted = stored === undefined ? [...this.byName.values()].filter((p) => this.available(p)).map((p) => p.name) : parseActive(stored);
    for (const name of this.dependencyOrder(wanted)) {
      const p = this.byName.get(name);
      if (!p?.def || p.error || !this.available(p)) continue;
      const missing = (p.def.dependsOn ?? []).find((d) => !this.active.has(d));
      if (missing) {
        this.log.error(`plugin ${name} is not active: it needs ${missing}, which is not active`);
        continue;
      }
      if (await this.prepare(p)) this.active.add(name);
    }
    await this.apply();
  }

  /** Names with each plugin's dependencies before it. */
  private dependencyOrder(names: readonly string[]): string[] {
    const out: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (out.includes(name) || path.includes(name)) return;
      for (const dep of this.byName.get(name)?.def?.dependsOn ?? []) visit(dep, [...path, name]);
      if (names.includes(name)) out.push(name);
    };
    for (const n of names) visit(n, []);
    return out;
  }

  /**
   * A post type of the plugin whose name or REST base is taken already (by the core or an active
   * plugin): its routes would be shadowed by the other's, so the plugin cannot be active with it.
   */
  private typeClash(def: PluginDefinition): string | null {
    const others = [...new ContentTypes().postTypes, ...[...this.active].flatMap((n) => this.byName.get(n)?.def?.postTypes ?? [])];
    for (const t of def.postTypes ?? []) {
      const other = others.find((o) => o.slug === t.slug || o.restBase === t.restBase);
      if (other) return `its post type ${t.slug} (REST base ${t.restBase}) clashes with the post type ${other.slug} (REST base ${other.restBase})`;
    }
    return null;
  }

  /** What activation does before the routes change: migrations, settings' defaults, a trial compile of its routes. False (and the plugin marked broken) when any fails. */
  private async prepare(p: Installed): Promise<boolean> {
    const def = p.def!;
    const clash = this.typeClash(def);
    if (clash) return this.broken(p, clash);
    try {
      const ran = await this.store.migratePlugin(def.name, tablePrefix(def.name), def.migrations ?? {});
      if (ran.length) this.log.info(`plugin ${def.name}: ran migrations ${ran.join(', ')}`);
      if (def.settings) await this.store.options.addMissing({ ...def.settings });
      p.postMeta = typeof def.postMeta === 'function' ? def.postMeta(this.engine.spec) : def.postMeta;
    } catch (e) {
      return this.broken(p, e instanceof Error ? e.message : String(e));
    }
    const problems = await this.engine.check(def.namespaces ?? []);
    if (problems.length) return this.broken(p, `its routes do not compile:\n${problems.map(formatDiagnostic).join('\n')}`);
    return true;
  }

  private broken(p: Installed, error: string): false {
    p.error = error;
    this.log.error(`plugin ${p.name} is not active: ${error}`);
    return false;
  }

  /** Serves the core's namespaces and the active plugins', and hands the site their hooks, types and capabilities. */
  private async apply(): Promise<void> {
    const plugins = [...this.byName.values()];
    const claimed = new Set(plugins.flatMap((p) => p.def?.namespaces ?? []));
    const core = this.engine.knownNamespaces.filter((ns) => !claimed.has(ns));
    const activePlugins = plugins.filter((p) => this.active.has(p.name));
    const active = activePlugins.map((p) => p.def!);
    // the types first: the core's routes for each plugin post type are compiled from them
    this.site.types = new ContentTypes(activePlugins.map((p) => ({ postTypes: p.def!.postTypes, taxonomies: p.def!.taxonomies, postMeta: p.postMeta })));
    await this.engine.serve([...core, ...active.flatMap((d) => d.namespaces ?? [])]);
    this.site.hooks = active.filter((d) => d.site).map((d) => ({ plugin: d.name, hooks: d.site! }));
    this.site.restFields = active.flatMap((d) => d.restFields ?? []);
    this.site.contentListeners = active.filter((d) => d.onContentChange).map((d) => ({ plugin: d.name, listener: d.onContentChange!.bind(d) }));
    this.site.jobs = active.flatMap((d) => d.jobs ?? []);
    for (const [name, mounts] of this.mounted)
      if (!this.active.has(name)) {
        this.mounted.delete(name);
        for (const m of mounts) await m.close?.();
      }
    for (const d of active) if (d.mounts && !this.mounted.has(d.name)) this.mounted.set(d.name, d.mounts(this.engine));
    this.mountList = [...this.mounted.values()].flat();
    this.site.roles = new Roles(active.flatMap((d) => (d.capabilities ? [d.capabilities] : [])), active.flatMap((d) => (d.metaCapabilities ? [d.metaCapabilities] : [])));
    this.site.blocks = new BlockRegistry([CORE_BLOCKS, ...active.map((d) => ({ owner: d.name, blocks: d.blocks, patterns: d.patterns, patternCategories: d.patternCategories }))], this.log);
  }

  list(): PluginStatus[] {
    return [...this.byName.values()].filter((p) => !p.def || this.available(p)).map((p) => this.status(p));
  }

  get(pluginOrName: string): PluginStatus | undefined {
    const p = this.find(pluginOrName);
    return p && this.status(p);
  }

  /** The protocols the active plugins serve beside the REST routes (their `mounts`). */
  get mounts(): readonly Mount[] {
    return this.mountList;
  }

  /** Active plugins' definitions, in load order (for their CLI commands and outbound hosts). */
  activeDefinitions(): PluginDefinition[] {
    return [...this.byName.values()].filter((p) => this.active.has(p.name)).map((p) => p.def!);
  }

  private find(pluginOrName: string): Installed | undefined {
    const p = this.byName.get(pluginOrName.split('/')[0]);
    return p && (p.name === pluginOrName || p.id === pluginOrName) && (!p.def || this.available(p)) ? p : undefined;
  }

  private status(p: Installed): PluginStatus {
    const d = p.def;
    return {
      plugin: p.id,
      name: p.name,
      title: d?.title ?? p.name,
      version: d?.version ?? '',
      description: d?.description ?? '',
      author: d?.author ?? '',
      pluginUri: d?.pluginUri ?? '',
      authorUri: d?.authorUri ?? '',
      status: this.active.has(p.name) ? 'active' : 'inactive',
      dependsOn: d?.dependsOn ?? [],
      ...(p.error ? { error: p.error } : {}),
    };
  }

  setActive(pluginOrName: string, active: boolean): Promise<PluginStatus> {
    const run = this.queue.then(() => this.change(pluginOrName, active));
    this.queue = run.catch(() => {});
    return run;
  }

  private async change(pluginOrName: string, activate: boolean): Promise<PluginStatus> {
    const p = this.find(pluginOrName);
    if (!p) throw new RestError('rest_plugin_not_found', 'Plugin not found.', 404);
    if (this.active.has(p.name) === activate) return this.status(p);
    if (activate) {
      if (!p.def || p.error) throw new RestError('rest_plugin_cannot_activate', `The plugin cannot be activated: ${p.error}`, 500);
      const missing = (p.def.dependsOn ?? []).filter((d) => !this.active.has(d));
      if (missing.length) throw new RestError('plugin_missing_dependencies', `${p.def.title} requires ${missing.join(', ')} to be active first.`, 400, { missing });
      if (!(await this.prepare(p))) throw new RestError('rest_plugin_cannot_activate', `The plugin cannot be activated: ${p.error}`, 500);
      this.active.add(p.name);
    } else {
      const dependents = [...this.active].filter((n) => this.byName.get(n)?.def?.dependsOn?.includes(p.name));
      if (dependents.length) throw new RestError('plugin_required', `${p.def?.title ?? p.name} is required by ${dependents.join(', ')}; deactivate those first.`, 400, { dependents });
      this.active.delete(p.name);
    }
    try {
      await this.apply();
    } catch (e) {
      // the routes could not be rebuilt: keep serving what was served, and say so
      if (activate) this.active.delete(p.name);
      else this.active.add(p.name);
      await this.apply();
      throw e;
    }
    await this.storeActive();
    await this.site.shared.changed('plugins');
    this.log.info(`plugin ${p.name} ${activate ? 'activated' : 'deactivated'}`);
    return this.status(p);
  }
}

/** The stored list: ids (`folder/file`) as WordPress writes them, or bare names. */
export function parseActive(stored: string): string[] {
  try {
    const list = JSON.parse(stored) as unknown;
    return Array.isArray(list) ? list.map((x) => String(x).split('/')[0]) : [];
  } catch {
    return [];
  }
}
