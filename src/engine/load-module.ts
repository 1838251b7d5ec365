import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The engine runs from its TypeScript sources through tsx, or from the JavaScript that
 * scripts/build.js writes to dist/ (bin/cms-spec.js picks dist/ when it is up to date). Handler
 * modules are found by path at run time, so they are imported through here. From dist/, a file
 * under src/ is swapped for its built twin, so the process holds one copy of the engine's classes
 * (a handler's RestError must be the engine's RestError).
 */
const here = fileURLToPath(import.meta.url);
const runsBuilt = here.endsWith('.js');
const root = join(dirname(here), '..', '..');
const SRC = join(root, 'src');
const DIST = join(root, 'dist');

/**
 * Loader hooks that load each module of src/ from its dist/ twin (one without a twin, from src/),
 * and resolve and load dist/'s own relative imports without asking the loaders after them (tsx):
 * for TypeScript handler modules outside src/ (a fixture's, a benchmark's) when the engine runs
 * from dist/, and for the test files' processes (scripts/test-built-sources.js).
 */
export function builtSourcesHooks(): string {
  return `
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
const SRC = ${JSON.stringify(pathToFileURL(SRC).href + '/')};
const DIST = ${JSON.stringify(pathToFileURL(DIST).href + '/')};
const relative = (specifier) => specifier.startsWith('./') || specifier.startsWith('../');
export async function resolve(specifier, context, next) {
  if (context.parentURL?.startsWith(DIST) && relative(specifier)) return { url: new URL(specifier, context.parentURL).href, shortCircuit: true };
  const resolved = await next(specifier, context);
  if (!resolved.url.startsWith(SRC) || !resolved.url.endsWith('.ts')) return resolved;
  const twin = DIST + resolved.url.slice(SRC.length, -3) + '.js';
  return existsSync(new URL(twin)) ? { url: twin, format: 'module', shortCircuit: true } : resolved;
}
export async function load(url, context, next) {
  if (url.startsWith(DIST) && url.endsWith('.js')) return { format: 'module', source: await readFile(new URL(url)), shortCircuit: true };
  return next(url, context);
}`;
}

let loaders: Promise<void> | undefined;

/**
 * tsx for TypeScript (its CommonJS hook too: a .ts file outside a package of type "module" is
 * CommonJS to tsx), then builtSourcesHooks, which run first and so see tsx's resolution.
 */
function registerLoaders(): Promise<void> {
  return (loaders ??= Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]).then(([esm, cjs]) => {
    esm.register();
    cjs.register();
    register(`data:text/javascript,${encodeURIComponent(builtSourcesHooks())}`);
  }));
}

/**
 * Imports a module by path. With a `version` (serve --watch, after its file changed) it is a new
 * module, under a URL of its own: ESM keeps every URL it imported, so the same URL would give the
 * old code. A new version comes from the file itself, never from a dist/ twin built before the edit.
 */
export async function importModule(file: string, version?: string): Promise<Record<string, unknown>> {
  let target = file;
  if (runsBuilt) {
    const rel = relative(SRC, file);
    const twin = rel.startsWith('..') || isAbsolute(rel) || version !== undefined ? null : join(DIST, rel.replace(/\.ts$/, '.js'));
    if (twin && existsSync(twin)) target = twin;
    else if (file.endsWith('.ts')) await registerLoaders();
  }
  const url = pathToFileURL(target).href;
  const module = (await import(version === undefined ? url : `${url}?v=${version}`)) as Record<string, unknown>;
  // a TypeScript file outside a package of type "module" (a plugin folder installed from a source,
  // a fixture in a temporary folder) is compiled as CommonJS: its exports are the module's default
  const commonJs = module.default as { __esModule?: unknown } | undefined;
  return commonJs !== null && typeof commonJs === 'object' && commonJs.__esModule === true ? (commonJs as Record<string, unknown>) : module;
}
