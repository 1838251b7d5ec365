import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { SpecError } from '../engine/diagnostics.ts';
import { RestError } from '../engine/errors.ts';
import type { Variant } from '../engine/spec.ts';
import type { OpenSite } from '../core/open.ts';

/** A failure the user can fix, told in one line, exit code 1. */
export class CliError extends Error {}

export const dbOption = () => new Option('--db <path>', 'SQLite database file').env('CMS_SPEC_DB').default('.cms/site.sqlite');
export const specOption = () => new Option('--spec <dir>', 'spec folder').env('CMS_SPEC_SPEC').default('spec');
export const variantOption = () => new Option('--variant <a|b>', 'which variant of the route index to serve').env('CMS_SPEC_VARIANT').choices(['a', 'b', 'A', 'B']).default('a');

/** The options every command that opens the site takes. */
export function siteCommand(parent: Command, nameAndArgs: string, description: string): Command {
  return parent.command(nameAndArgs).description(description).addOption(dbOption()).addOption(specOption()).addOption(variantOption());
}

interface SiteCommandOptions {
  db: string;
  spec: string;
  variant: string;
}

/** Messages of the site's log go to stderr, so a command's own output stays clean for scripts. */
const stderrLog = { error: (m: string) => console.error(`[cms-spec] ${m}`), info: () => {} };

/**
 * Wraps an action: opens the site (`--db`, `--spec`, `--variant`), runs `fn`, closes it. A
 * failure the user can act on (CliError, RestError, a broken spec) is one line on stderr and
 * exit code 1; anything else is a bug and keeps its stack.
 */
export function withSite<A extends unknown[]>(fn: (site: OpenSite, ...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    // commander passes the command's arguments, then its options, then the command itself
    const o = args[args.length - 2] as SiteCommandOptions;
    let site: OpenSite | undefined;
    try {
      const notInstalled = new CliError(`The database ${o.db} holds no site yet. Run \`cms-spec serve --db ${o.db}\` once to install it.`);
      if (o.db === ':memory:' || !existsSync(o.db)) throw notInstalled;
      // loaded here, not at start: the CLI's other commands never need the server's modules
      const { openSite } = await import('../core/open.ts');
      site = await openSite({ specDir: o.spec, dbPath: o.db, variant: o.variant.toUpperCase() as Variant, log: stderrLog });
      if ((await site.store.options.get('siteurl')) === undefined) throw notInstalled;
      await fn(site, ...args);
    } catch (e) {
      if (!(e instanceof CliError || e instanceof RestError || e instanceof SpecError)) throw e;
      console.error(`Error: ${e.message}`);
      process.exitCode = 1;
    } finally {
      await site?.close();
    }
  };
}
