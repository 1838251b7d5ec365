/**
 * Copies of a spec folder that work from any other folder: the paths a spec file names (site.yaml's
 * `handlers` and `plugins`, a namespace file's `handlers`) are relative to that file, so a copy
 * names them absolutely. The benchmarks' synthetic specs and the tests' composed sites use these.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const SITE_HANDLERS = /^handlers:\s*(\S+)\s*$/m;
const SITE_PLUGINS = /^plugins:\s*(\S+)\s*$/m;
const NAMESPACE_HANDLERS = /^handlers:\s*(\S+)\s*$/m;

/** site.yaml of `fromDir`, its folders made absolute; `plugins` replaces its plugin folders. */
export function siteYamlCopy(fromDir: string, o: { plugins?: string[]; handlers?: string } = {}): string {
  const text = readFileSync(join(fromDir, 'site.yaml'), 'utf8');
  return text
    .replace(SITE_HANDLERS, (_, rel: string) => `handlers: ${JSON.stringify(o.handlers ?? resolve(fromDir, rel))}`)
    .replace(SITE_PLUGINS, (_, rel: string) => `plugins: ${JSON.stringify(o.plugins ?? [resolve(fromDir, rel)])}`);
}

/** A namespace file's text with its handler folder made absolute; `handlers` names another folder instead. */
export function namespaceYamlCopy(file: string, handlers?: string): string {
  return readFileSync(file, 'utf8').replace(NAMESPACE_HANDLERS, (_, rel: string) => `handlers: ${JSON.stringify(handlers ?? resolve(dirname(file), rel))}`);
}

export interface ExtraNamespace {
  /** A namespace YAML file. */
  file: string;
  /** The folder its handlers are in, when not where its `handlers:` line says. */
  handlers?: string;
}

/** `toDir` becomes `fromDir`'s spec with other plugin folders, more namespace files and field groups (`fields/*.yaml`). Returns `toDir`. */
export function composeSpec(fromDir: string, toDir: string, o: { plugins?: string[]; extraNamespaces?: ExtraNamespace[]; fields?: string[] } = {}): string {
  mkdirSync(join(toDir, 'namespaces'), { recursive: true });
  if (o.fields?.length) mkdirSync(join(toDir, 'fields'), { recursive: true });
  for (const file of o.fields ?? []) writeFileSync(join(toDir, 'fields', file.split('/').pop()!), readFileSync(file, 'utf8'));
  writeFileSync(join(toDir, 'site.yaml'), siteYamlCopy(fromDir, { plugins: o.plugins }));
  const nsDir = join(fromDir, 'namespaces');
  for (const f of readdirSync(nsDir).filter((n) => n.endsWith('.yaml'))) writeFileSync(join(toDir, 'namespaces', f), namespaceYamlCopy(join(nsDir, f)));
  for (const extra of o.extraNamespaces ?? []) writeFileSync(join(toDir, 'namespaces', extra.file.split('/').pop()!), namespaceYamlCopy(extra.file, extra.handlers));
  return toDir;
}
