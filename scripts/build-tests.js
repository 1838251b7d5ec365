// Builds .built-tests/: the test files (and the scripts/ modules they import) as plain JavaScript
// that imports src/ from its dist/ twins, so that a test file's process needs no module loader.
//
// Why: every test file runs in a process of its own, and a process with loader hooks registered
// (tsx, or the built-sources hooks of test-built-sources.js) sends each module it loads to the
// loaders' thread and back, even the ~500 of dist/ the hooks only pass through: about 0.4 s of CPU
// per file (1.46 s against 1.05 s for a file that starts one server and asks it once), paid by each
// of the ~275 file runs of `npm test`. Built like this, a test file's process loads the same
// modules without hooks. A handler module in TypeScript outside src/ (a fixture's) still loads,
// through the engine's own loaders (src/engine/load-module.ts), in the files that use one.
//
// The tree mirrors test/ at the same depth (test/helpers/server.ts is .built-tests/helpers/server.js),
// so that a test's paths made from its own folder (`resolve(import.meta.dirname, '../..')` for the
// checkout, `../fixtures/…`) lead where they did: .built-tests/fixtures is a link to test/fixtures.
// Only import specifiers are rewritten (esbuild resolves them): `../../src/app.ts` becomes
// `../../dist/app.js`, a test module's `./x.ts` becomes `./x.js`, and a scripts/ module's TypeScript
// is built into .built-tests/_scripts/. Text that merely looks like an import is left as written.
import { symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAside, builtFrom, sourceFiles, sourceState } from './build.js';

const PROJECT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUILT_TESTS = '.built-tests';
const STAMP = '.source-state.json';
const SCRIPTS_OUT = '_scripts';

/** The TypeScript the built tree is made from: test/ but its fixtures (linked, not built), and scripts/. */
function sources(root) {
  const test = sourceFiles(join(root, 'test')).filter((f) => !f.startsWith(join(root, 'test', 'fixtures') + sep) && f.endsWith('.ts'));
  const scripts = sourceFiles(join(root, 'scripts')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  return { test, scripts };
}

/** Where a file of the checkout runs from once built: src/ from dist/, test/ and scripts/ TypeScript from the built tree; anything else where it is. */
function builtPathOf(root, file) {
  const rel = relative(root, file);
  const [top] = rel.split(sep);
  if (!file.endsWith('.ts') || rel.startsWith('..')) return file;
  if (top === 'src') return join(root, 'dist', rel.slice('src'.length + 1)).replace(/\.ts$/, '.js');
  if (top === 'test' && !rel.startsWith(join('test', 'fixtures') + sep)) return join(root, BUILT_TESTS, rel.slice('test'.length + 1)).replace(/\.ts$/, '.js');
  if (top === 'scripts') return join(root, BUILT_TESTS, SCRIPTS_OUT, rel.slice('scripts'.length + 1)).replace(/\.ts$/, '.js');
  return file;
}

/** The built file of a test file (a path under test/), or undefined for a file outside test/ or in its fixtures. */
export function builtTestOf(file, root = PROJECT) {
  const built = builtPathOf(root, file);
  return built.startsWith(join(root, BUILT_TESTS) + sep) ? built : undefined;
}

/** The test file a built one was made from (for the reporter's lines); other paths as they are. */
export function sourceOfBuiltTest(file, root = PROJECT) {
  const prefix = join(root, BUILT_TESTS) + sep;
  if (!file.startsWith(prefix) || file.startsWith(prefix + SCRIPTS_OUT + sep)) return file;
  return join(root, 'test', file.slice(prefix.length)).replace(/\.js$/, '.ts');
}

/** True when the built tree was made from test/ and scripts/ as they are now. */
export function builtTestsAreFresh(root = PROJECT) {
  return builtFrom(join(root, BUILT_TESTS, STAMP), () => {
    const { test, scripts } = sources(root);
    return [...test, ...scripts];
  });
}

/** Builds the tree beside the old one and swaps it in (a runner starting meanwhile never sees half of it). */
export async function buildTests(root = PROJECT) {
  const esbuild = await import('esbuild');
  const { test, scripts } = sources(root);
  const state = sourceState([...test, ...scripts]);
  const target = join(root, BUILT_TESTS);
  await buildAside(target, async (staging) => {
    // specifiers are written as the built files will find each other once the tree is in place
    const rewrite = {
      name: 'built-specifiers',
      setup(build) {
        build.onResolve({ filter: /^\.{1,2}\// }, (args) => {
          const resolved = join(dirname(args.importer), args.path);
          const from = dirname(builtPathOf(root, args.importer));
          let spec = relative(from, builtPathOf(root, resolved)).split(sep).join('/');
          if (!spec.startsWith('.')) spec = `./${spec}`;
          return { path: spec, external: true };
        });
      },
    };
    await esbuild.build({
      entryPoints: [...test, ...scripts].map((file) => ({ in: file, out: relative(target, builtPathOf(root, file)).replace(/\.js$/, '') })),
      outdir: staging,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'esnext',
      plugins: [rewrite],
      logLevel: 'error',
    });
    symlinkSync(join('..', 'test', 'fixtures'), join(staging, 'fixtures'));
    writeFileSync(join(staging, STAMP), JSON.stringify(state));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildTests();
