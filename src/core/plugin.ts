import type { Command } from 'commander';
import type { Kysely, Migration } from 'kysely';
import type { Grants, MetaCapabilities } from '../auth/roles.ts';
import type { Engine } from '../engine/engine.ts';
import type { Mount } from '../engine/server.ts';
import type { Spec } from '../engine/spec.ts';
import type { Store } from '../store/index.ts';
import type { UserRow } from '../store/users.ts';
import type { PostTypeInfo, TaxonomyInfo } from './content-types.ts';
import type { ContentEvent, CronJob, RestFieldGroup, Site, SiteHooks } from './site.ts';
import type { RegisteredMeta } from './content-types.ts';
import type { BlockPattern, BlockPatternCategory, BlockTypeDefinition } from './blocks.ts';

/** What a plugin's CLI command runs against: the installed site, opened for the command with its plugins started. */
export interface CliSite {
  store: Store;
  site: Site;
  engine: Engine<Store, Site>;
}

/**
 * How a plugin adds commands to `cms-spec`, and what the command line lends them of its own
 * tools (src/cli/plugins.ts provides it): a plugin never imports src/cli, which sits above it.
 */
export interface PluginCli {
  /** A `cms-spec <name>` command with the options every site command has (`--db`, `--spec`, `--variant`). */
  command(nameAndArgs: string, description: string): Command;
  /**
   * An action that opens the site first: `fn` gets it, then what commander passes (arguments,
   * options). A RestError or an error made by `error` it throws prints one line and exits 1.
   */
  withSite<A extends unknown[]>(fn: (site: CliSite, ...args: A) => Promise<void>): (...args: A) => Promise<void>;
  /** The command line's own error (a CliError): thrown, it prints `message` as one line and exits 1. */
  error(message: string): Error;
  /** Prints rows as the core's list commands do: an aligned table, JSON or CSV of the named fields. */
  printRows(rows: Record<string, unknown>[], fields: string[], format: PluginListFormat): void;
  /** A progress bar on stderr, as the core's long commands show: "indexed 500/1000 objects". */
  progress(total: number, verb: string, noun: string): { update(done: number): void; finish(): void };
  /** A user named by login, email or ID; an error naming it when there is none. */
  userNamed(store: Store, name: string): Promise<UserRow>;
}

/** The formats a plugin's list command may offer (`--format`). */
export type PluginListFormat = 'table' | 'json' | 'csv';

/**
 * One plugin, as `src/plugins/<name>/plugin.ts` default-exports it through `definePlugin`. This
 * object is all the core knows of a plugin: the registry reads it, checks it, and while the plugin
 * is active serves its namespaces (whose YAML is `spec/namespaces/*.yaml`), runs its migrations,
 * gives handlers its repository, calls its site hooks, and adds its types and capabilities.
 */
export interface PluginDefinition<R = unknown> {
  /** The plugin's folder name: lower-case letters, digits and hyphens. Its WordPress id is `name/name`. */
  name: string;
  /** Shown as the plugin's `name` on the plugins screen and in `cms/v2/plugins`. */
  title: string;
  version: string;
  description: string;
  author?: string;
  pluginUri?: string;
  authorUri?: string;
  /** Plugins that must be active before this one can be (checked at load, as Fastify checks `dependencies`). */
  dependsOn?: readonly string[];
  /** The namespaces it serves; each must have its YAML under spec/namespaces/. */
  namespaces?: readonly string[];
  /**
   * Its tables' migrations by name, run in name order when it is first activated and recorded
   * per plugin, so each runs once. Every table it creates must be named with its prefix
   * (`tablePrefix(name)`), so no two plugins and no core table can clash.
   */
  migrations?: Readonly<Record<string, Migration>>;
  /** Its store repository, bound to the handler's store (and transaction): `ctx.store.plugin(thisPlugin)`. */
  repo?(db: Kysely<any>): R;
  /** Its hooks into the rendered site, called while it is active. */
  site?: SiteHooks;
  /**
   * Told after each change to stored content (a post or term saved or deleted, by the API, the CLI
   * or a batch), with the store the change was made in; a throw is logged, the change stands.
   */
  onContentChange?(event: ContentEvent, store: Store, site: Site): Promise<void> | void;
  /**
   * Post meta it registers (register_post_meta): shown and written through `cms/v2` posts' `meta`,
   * while active. A function gets the spec the site runs with (its folder is `spec.dir`), for a
   * plugin whose keys are declared in files there (a field-group plugin's field groups); it runs
   * once per activation, and a throw leaves the plugin inactive with the message as its error.
   */
  postMeta?: readonly RegisteredMeta[] | ((spec: Spec) => readonly RegisteredMeta[]);
  /**
   * REST fields it computes for posts, terms, users and post types (register_rest_field with a
   * get_callback), while active: each group computed only when the request's `_fields` asks for one of its fields.
   */
  restFields?: readonly RestFieldGroup[];
  /** Adds its commands to `cms-spec` (`cms-spec seo index`...); they run with the installed site open, and only while the plugin is active. */
  cli?(cli: PluginCli): void;
  /**
   * Protocols it serves beside the REST routes while it is active, each at a path under the API
   * root (the abilities plugin's MCP server at `/mcp`): made at its activation, given the site's
   * engine, and closed at its deactivation.
   */
  mounts?(engine: Engine<Store, Site>): readonly Mount[];
  /**
   * Its recurring work (wp_schedule_event), run while it is active by the site's scheduler, each
   * run once across the instances sharing the database; `cms-spec cron list` shows them.
   */
  jobs?: readonly CronJob[];
  /** What it caches in the store, for `cms-spec cache flush`: each cache says what one entry is and empties itself. */
  caches?: readonly { entry: string; flush(store: Store): Promise<number> }[];
  /** Options it owns, with the defaults written when it is first activated (add_option: existing values are kept). */
  settings?: Readonly<Record<string, string>>;
  /** Capabilities it grants to roles (role → capabilities), while active. */
  capabilities?: Grants;
  /** Meta capabilities it maps (map_meta_cap), while active: held through the primitive one named, never stored on a role. */
  metaCapabilities?: MetaCapabilities;
  /** Post types and taxonomies it registers, while active. */
  postTypes?: readonly PostTypeInfo[];
  taxonomies?: readonly TaxonomyInfo[];
  /** Block types it registers (register_block_type), while active: listed at cms/v2/block-types, rendered in content (dynamic ones by their `render`). */
  blocks?: readonly BlockTypeDefinition[];
  /** Block patterns and pattern categories it registers, while active (cms/v2/block-patterns). */
  patterns?: readonly BlockPattern[];
  patternCategories?: readonly BlockPatternCategory[];
  /**
   * What it asks of the outbound-fetch guard (src/net): the hosts it talks to with the site's
   * current settings (for site health's reachability check), and its own limits where they differ
   * from the guard's defaults.
   */
  outbound?: {
    /**
     * Given the current values of its `settings`, the hosts it talks to: host names (reached over
     * https) or origins (`http://intranet.example:8080`).
     */
    hosts?(options: Readonly<Record<string, string>>): string[];
    timeoutMs?: number;
    maxBytes?: number;
  };
}

/** The table prefix of a plugin: its name with hyphens as underscores (`code-snippets` → `code_snippets`). */
export const tablePrefix = (name: string): string => name.replace(/-/g, '_');

/** Declares a plugin; the identity function that gives it its type (and its repository's type to `ctx.store.plugin`). */
export function definePlugin<R = undefined>(definition: PluginDefinition<R>): PluginDefinition<R> {
  return definition;
}
