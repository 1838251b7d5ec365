import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CliError } from './errors.ts';

/** The package's own folder (src/cli and dist/cli both sit two folders below it). */
export const PACKAGE_ROOT = resolve(import.meta.dirname, '../..');

/** The templates `new plugin` and `init` copy (the package's `templates/`). */
export const TEMPLATES = join(PACKAGE_ROOT, 'templates');

/** A relative import specifier from folder `from` to `to`: always starting with `.`, with `/` separators. */
export function importPath(from: string, to: string): string {
  const rel = relative(from, to).split('\\').join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Every file under a template folder, relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix)).flatMap((name) => {
    const rel = prefix ? `${prefix}/${name}` : name;
    return statSync(join(dir, rel)).isDirectory() ? filesUnder(dir, rel) : [rel];
  });
}

/**
 * Writes template files with each `{{key}}` replaced by its value: `copies` maps a template file or
 * folder to where it goes. Nothing is written when any target exists already, so a scaffold never
 * overwrites someone's work. Returns the files written.
 */
export function scaffold(copies: readonly { from: string; to: string }[], values: Readonly<Record<string, string>>): string[] {
  const files = copies.flatMap(({ from, to }) => {
    const source = join(TEMPLATES, from);
    return statSync(source).isDirectory() ? filesUnder(source).map((f) => ({ source: join(source, f), target: join(to, f) })) : [{ source, target: to }];
  });
  const taken = files.find((f) => existsSync(f.target));
  if (taken) throw new CliError(`${relative(process.cwd(), taken.target) || taken.target} exists already; nothing was written.`);
  for (const f of files) {
    const text = readFileSync(f.source, 'utf8').replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
      if (!(key in values)) throw new Error(`template ${f.source} names {{${key}}}, which the scaffold does not fill`);
      return values[key];
    });
    mkdirSync(dirname(f.target), { recursive: true });
    writeFileSync(f.target, text);
  }
  return files.map((f) => f.target);
}
