// Loaded into each test file's process by run-tests.js (`--import`, after tsx), which builds dist/
// first when it is out of date.
//
// The tests import the project's TypeScript (`src/...ts`); every test file runs in a process of
// its own, and through tsx each of those processes resolved, transformed and loaded the ~500
// modules of src/ again: about 1.3 s of CPU for the first server of each file, most of it in tsx's
// hooks (a message to the loader thread and back per module) rather than in the project's code,
// paid by every one of the ~280 test file runs of `npm test`. When dist/ was built from src/ as it
// is now (scripts/build.js: the same esbuild transform tsx makes, types stripped, data files
// beside), a module of src/ is loaded from its dist/ twin instead, and dist/'s own relative imports
// are resolved and loaded here without asking tsx: the process runs what `npx cms-spec serve` runs
// (bin/cms-spec.js also picks dist/ when it is up to date), one copy of each module, with test
// files and fixtures still going through tsx. A src/ file without a twin (the admin's browser
// code, bundled apart) is loaded from src/. When dist/ is out of date nothing is redirected.
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distIsFresh } from './build.js';

const PROJECT = join(import.meta.dirname, '..');
const SRC = pathToFileURL(join(PROJECT, 'src')).href + '/';
const DIST = pathToFileURL(join(PROJECT, 'dist')).href + '/';

/** The loader hooks, run on Node's loader thread; registered last, so they run before tsx's. */
const hooks = `
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
const SRC = ${JSON.stringify(SRC)};
const DIST = ${JSON.stringify(DIST)};
const relative = (specifier) => specifier.startsWith('./') || specifier.startsWith('../');
export async function resolve(specifier, context, next) {
  // dist/ imports its own files by relative .js paths (and its bundled vendor .cjs): nothing for tsx to do
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

if (existsSync(join(PROJECT, 'dist')) && distIsFresh()) register(`data:text/javascript,${encodeURIComponent(hooks)}`);
