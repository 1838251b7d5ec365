import { createReadStream, createWriteStream, fstatSync, openSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { Option, type Command } from 'commander';
import type { Migration } from 'kysely';
import { tablePrefix, type PluginDefinition } from '../core/plugin.ts';
import { Store } from '../store/index.ts';
import { connectDatabase, coreMigrationNames, describeLocation, migrateCore } from '../store/db.ts';
import { exportSite, filledTables, importSite, migrationState, parseHeader, type MigrationState, type TransferHeader } from '../store/transfer.ts';
import { action, CliError } from './errors.ts';
import { Progress } from './progress.ts';
import { dbOption, openInstalled, specOption, startInstalled, variantOption } from './site-store.ts';
import { plural } from './output.ts';
import type { WxrImportCommandOptions } from './wxr-import.ts';
import type { WxrExportCommandOptions } from './wxr-export.ts';

export function registerTransferCommands(program: Command): void {
  program
    .command('migrate')
    .description("run the core's and the active plugins' pending migrations without serving (for deploys)")
    .addOption(dbOption())
    .addOption(specOption())
    .addOption(variantOption())
    .action(action((o: MigrateOptions) => o, migrateCommand));
  program
    .command('export')
    .description("write the whole site (every core and plugin table) as JSON Lines, to move it to another database, or (--format wxr) as WordPress's export file")
    .addOption(dbOption())
    .addOption(specOption())
    .addOption(new Option('--out <file|->', 'where to write it; - is standard output').default('-'))
    .addOption(new Option('--format <format>', "jsonl: this site's tables; wxr: WordPress's export (WXR 1.2), which WordPress's importer reads").choices(['jsonl', 'wxr']).default('jsonl'))
    .addOption(new Option('--post-type <type>', 'WXR: only this post type (all by default)'))
    .addOption(new Option('--author <login|id>', 'WXR: only posts by this user (with --post-type post, page or attachment, as WordPress)'))
    .addOption(new Option('--start-date <YYYY-MM-DD>', 'WXR: only posts dated from this day on (with --post-type post, page or attachment)'))
    .addOption(new Option('--end-date <YYYY-MM-DD>', "WXR: only posts dated before the month after this day (WordPress's end month; with --post-type post, page or attachment)"))
    .addOption(new Option('--status <status>', 'WXR: only posts of this status (with --post-type post or page)'))
    .action(action((o: ExportOptions) => o, exportCommand));
  program
    .command('import')
    .description("load a site written by export into a new database (or, with --replace, instead of the site a database holds), or a WordPress export (WXR, recognised from the file) into an installed site")
    .argument('[file|-]', 'the export; - reads standard input (JSON Lines only)')
    .addOption(dbOption())
    .addOption(specOption())
    .addOption(new Option('--replace', 'delete the site the database holds first (in the same transaction)'))
    .addOption(new Option('--authors <create|skip|file.csv>', "WXR: the file's authors become users (create, the default), the importing user (skip), or the users a CSV of old_login,new_login lines names"))
    .addOption(new Option('--dry-run', 'WXR: read and check the file and report what it holds; write nothing'))
    .addOption(new Option('--uploads <dir>', "WXR: a copy of the old site's wp-content/uploads to take attachments' files from"))
    .addOption(new Option('--no-attachments', 'WXR: do not download attachments (they are reported and skipped unless --uploads has their files)'))
    .addOption(new Option('--user <login|id>', 'WXR: the importing user, who gets what has no author of its own (default: the first administrator)'))
    .addOption(new Option('--from <url>', "instead of a file, a live WordPress read over its REST API (its address, e.g. https://old.example)"))
    .addOption(new Option('--auth <user:app-password>', "--from: a user of the old site and one of their application passwords (without it, only what the public sees is read)"))
    .addOption(new Option('--allow-private', '--from: let the old site be at a non-public address (this machine, a private network)'))
    .action(action((_file: string | undefined, o: ImportOptions) => o, importCommand));
}

interface MigrateOptions {
  db: string;
  spec: string;
  variant: string;
}

interface ExportOptions extends WxrExportCommandOptions {
  format: 'jsonl' | 'wxr';
}

interface ImportOptions extends WxrImportCommandOptions {
  replace?: boolean;
}


/**
 * The core's migrations, then the site's plugins started as `serve` starts them (the active ones,
 * or every one a new site activates), which runs theirs; prints each migration applied. A plugin
 * the site wants that could not be started fails the command, as it would fail the site.
 */
async function migrateCommand(o: MigrateOptions): Promise<void> {
  // the server's modules load only for the commands that start the site
  const { ACTIVE_PLUGINS_OPTION, parseActive } = await import('../core/plugins.ts');
  const store = new Store(await connectDatabase(o.db));
  try {
    const applied = (await migrateCore(store.db)).map((name) => `core ${name}`);
    const before = (await migrationState(store.db)).plugins;
    const { plugins } = await startInstalled(store, o);
    const after = await migrationState(store.db);
    for (const [plugin, names] of Object.entries(after.plugins)) for (const name of names) if (!before[plugin]?.includes(name)) applied.push(`plugin ${plugin} ${name}`);
    for (const line of applied) console.log(`applied ${line}`);
    const where = describeLocation(o.db);
    const state = `${plural(after.core.length, 'core migration')}; plugins: ${Object.entries(after.plugins).map(([p, n]) => `${p} ${n.length}`).join(', ') || 'none'}`;
    console.log(applied.length ? `Migrated ${where}: ${plural(applied.length, 'migration')} applied (${state}).` : `Nothing to migrate: ${where} is up to date (${state}).`);

    const stored = await store.options.get(ACTIVE_PLUGINS_OPTION);
    const statuses = plugins.list();
    const wanted = stored === undefined ? statuses.map((s) => s.name) : parseActive(stored);
    const failed = statuses.filter((s) => wanted.includes(s.name) && s.status !== 'active');
    if (failed.length) throw new CliError(`The site's plugins ${failed.map((s) => s.name).join(', ')} could not be started (see the messages above); the site would serve without them.`);
  } finally {
    await store.close();
  }
}

/** Where an export goes: a chunk at a time, waiting while the reader is behind. */
interface Sink {
  write(chunk: string): Promise<void>;
  /** Everything is written: flushes it, or throws what failed. */
  done(): Promise<void>;
  /** The export failed: a file it began is removed. */
  abandon(): void;
}

/** A stream the export is written to, whose failure (a full disk, a reader gone) ends the export as one line. */
function streamSink(out: Writable, describe: (e: NodeJS.ErrnoException) => string, finish: () => Promise<void>, abandon: () => void): Sink {
  let failure: CliError | undefined;
  out.on('error', (e: NodeJS.ErrnoException) => {
    failure ??= new CliError(describe(e));
  });
  return {
    async write(chunk) {
      if (failure) throw failure;
      // waiting for drain ends with an error event too, which the listener above has told
      if (!out.write(chunk)) await once(out, 'drain').catch(() => {});
      if (failure) throw failure;
    },
    async done() {
      if (failure) throw failure;
      await finish();
      if (failure) throw failure;
    },
    abandon,
  };
}

function stdoutSink(): Sink {
  const describe = (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' ? 'The program reading standard output closed it before the export was written.' : `Writing standard output failed: ${e.message}`);
  return streamSink(process.stdout, describe, async () => {}, () => {});
}

/** A file (or a device or pipe named by a path); a failed export removes the file it began, so no partial export is taken for a whole one. */
function fileSink(path: string): Sink {
  const cannot = (e: NodeJS.ErrnoException) => `Cannot write ${path}: ${e.code === 'ENOENT' ? 'its folder does not exist' : e.message}.`;
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (e) {
    throw new CliError(cannot(e as NodeJS.ErrnoException));
  }
  const regular = fstatSync(fd).isFile();
  const out = createWriteStream(path, { fd });
  return streamSink(
    out,
    cannot,
    async () => {
      out.end();
      // a failure is the error event's to tell
      await finished(out).catch(() => {});
    },
    () => {
      out.destroy();
      if (regular) rmSync(path, { force: true });
    },
  );
}

/** A progress bar for `total` rows, made when the first rows are done (there may be none). */
function rowProgress(verb: string) {
  let bar: Progress | undefined;
  return {
    update: (done: number, total: number) => (bar ??= new Progress(total, verb, 'rows')).update(done),
    finish: () => bar?.finish(),
  };
}

async function exportCommand(o: ExportOptions): Promise<void> {
  if (o.format === 'wxr') return wxrExport(o);
  const store = await openInstalled(o.db);
  const started = Date.now();
  try {
    const sink = o.out === '-' ? stdoutSink() : fileSink(o.out);
    const progress = rowProgress('exported');
    let header: TransferHeader;
    try {
      header = await exportSite(store.db, (chunk) => sink.write(chunk), progress.update);
      await sink.done();
    } catch (e) {
      sink.abandon();
      throw e;
    } finally {
      progress.finish();
    }
    const rows = header.tables.reduce((n, t) => n + t.rows, 0);
    const summary = `Exported ${plural(rows, 'row')} of ${plural(header.tables.length, 'table')} from ${describeLocation(o.db)}${o.out === '-' ? '' : ` to ${o.out}`} in ${((Date.now() - started) / 1000).toFixed(1)} s.`;
    // the summary stays off standard output when the export itself is written there
    if (o.out === '-') console.error(summary);
    else console.log(summary);
  } finally {
    await store.close();
  }
}

/** The site as a WordPress export, to a file or standard output (the summary kept off the export's way). */
async function wxrExport(o: ExportOptions): Promise<void> {
  const { wxrExportCommand } = await import('./wxr-export.ts');
  const sink = o.out === '-' ? stdoutSink() : fileSink(o.out);
  let summary: string;
  try {
    summary = await wxrExportCommand(o, (chunk) => sink.write(chunk));
    await sink.done();
  } catch (e) {
    sink.abandon();
    throw e;
  }
  if (o.out === '-') console.error(summary);
  else console.log(summary);
}

/**
 * The file's migrations, each known to this build and its installed plugins (a file from a
 * newer schema is refused before anything is opened); returns the definitions of the file's plugins.
 */
async function pluginsOfFile(state: MigrationState, specDir: string): Promise<Map<string, PluginDefinition>> {
  const knownCore = new Set(coreMigrationNames());
  const unknownCore = state.core.find((name) => !knownCore.has(name));
  if (unknownCore) throw new CliError(`The file comes from a newer cms-spec: its site ran core migration ${unknownCore}, which this version does not have. Import it with that version or a newer one.`);
  const [{ loadSpec }, { discoverPlugins, pluginDirs }] = await Promise.all([import('../engine/spec.ts'), import('../core/plugins.ts')]);
  const installed = new Map((await discoverPlugins(pluginDirs(loadSpec(specDir)))).map((p) => [p.name, p]));
  const defs = new Map<string, PluginDefinition>();
  for (const [plugin, names] of Object.entries(state.plugins)) {
    const p = installed.get(plugin);
    if (!p) throw new CliError(`The file holds the tables of plugin ${plugin}, which is not installed in the spec "${specDir}"; import it with a spec that has the plugin.`);
    if (!p.def) throw new CliError(`The file holds the tables of plugin ${plugin}, which cannot be loaded: ${p.error}.`);
    const unknown = names.find((name) => !p.def!.migrations?.[name]);
    if (unknown) throw new CliError(`The file comes from a newer version of plugin ${plugin}: its site ran the plugin's migration ${unknown}, which the installed version ${p.def.version} does not have.`);
    defs.set(plugin, p.def);
  }
  return defs;
}

/** A database that ran a migration the file's site never ran has a newer schema than the file's rows fit, and the migrations have no way back. */
function checkNotAhead(target: MigrationState, file: MigrationState, location: string): void {
  const ahead = [
    ...target.core.filter((name) => !file.core.includes(name)).map((name) => `core migration ${name}`),
    ...Object.entries(file.plugins).flatMap(([plugin, names]) => (target.plugins[plugin] ?? []).filter((name) => !names.includes(name)).map((name) => `plugin ${plugin}'s migration ${name}`)),
  ];
  if (ahead.length) {
    throw new CliError(`The database ${describeLocation(location)} has a newer schema than the file's (it ran ${ahead[0]}, which the exported site had not): run \`cms-spec migrate\` on the site the file came from and export it again, or import into a new database.`);
  }
}

/** The input's lines; a failure to read it (no such file, a folder) ends them as one line's error. */
async function* linesOf(input: Readable, file: string): AsyncGenerator<string> {
  let failure: CliError | undefined;
  const lines = createInterface({ input, crlfDelay: Infinity });
  input.on('error', (e: NodeJS.ErrnoException) => {
    failure ??= new CliError(`Cannot read ${file}: ${e.code === 'ENOENT' ? 'there is no such file' : e.message}.`);
    lines.close();
  });
  try {
    for await (const line of lines) {
      if (failure) break;
      yield line;
    }
  } catch (e) {
    // readline passes the input's error on too
    throw failure ?? e;
  }
  if (failure) throw failure;
}

const only = (migrations: Readonly<Record<string, Migration>>, names: readonly string[]) => Object.fromEntries(names.map((name) => [name, migrations[name]]));

/**
 * Reads the header, refuses what cannot be imported before the database is touched, brings the
 * database's schema to the file's (its core and its plugins' migrations, as far as the file's
 * site had run them), loads the rows in one transaction, then runs the migrations the file's
 * site had not run yet.
 */
async function importCommand(file: string | undefined, o: ImportOptions): Promise<void> {
  if (o.from !== undefined) {
    if (file !== undefined) throw new CliError('Give a file or --from, not both.');
    return (await import('./wxr-import.ts')).restImportCommand(o);
  }
  if (file === undefined) throw new CliError('Give the file to import (an export of this site, or a WordPress export), or --from URL to read a live WordPress.');
  if (file !== '-') {
    // the WXR importer and the site it starts load only for a WXR
    const wxr = await import('./wxr-import.ts');
    if (await wxr.isXmlFile(file)) return wxr.wxrImportCommand(file, o);
  }
  const input = file === '-' ? process.stdin : createReadStream(file);
  try {
    const lines = linesOf(input, file);
    const header = parseHeader((await lines.next()).value as string | undefined);
    const plugins = await pluginsOfFile(header.migrations, o.spec);
    const store = new Store(await connectDatabase(o.db));
    try {
      checkNotAhead(await migrationState(store.db), header.migrations, o.db);
      const filled = o.replace ? [] : await filledTables(store.db);
      if (filled.length) throw new CliError(`The database ${describeLocation(o.db)} already holds a site (rows in ${filled.join(', ')}); import into a new database, or pass --replace to delete what it holds first.`);
      await migrateCore(store.db, header.migrations.core.at(-1));
      for (const [plugin, names] of Object.entries(header.migrations.plugins)) await store.migratePlugin(plugin, tablePrefix(plugin), only(plugins.get(plugin)!.migrations!, names));

      const started = Date.now();
      const progress = rowProgress('imported');
      try {
        await importSite(store.db, header, lines, { replace: o.replace, progress: progress.update });
      } finally {
        progress.finish();
      }
      const rows = header.tables.reduce((n, t) => n + t.rows, 0);
      console.log(`Imported ${plural(rows, 'row')} of ${plural(header.tables.length, 'table')} into ${describeLocation(o.db)} (a ${header.dialect} site exported ${header.exportedAt}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);

      const applied = (await migrateCore(store.db)).map((name) => `core ${name}`);
      for (const [plugin, def] of plugins) applied.push(...(await store.migratePlugin(plugin, tablePrefix(plugin), def.migrations!)).map((name) => `plugin ${plugin} ${name}`));
      for (const line of applied) console.log(`applied ${line}`);
    } finally {
      await store.close();
    }
  } finally {
    input.destroy();
  }
}
