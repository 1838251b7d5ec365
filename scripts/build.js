// Builds dist/: every file of src/ as plain JavaScript (types stripped, `./x.ts` imports rewritten
// to `./x.js`) beside copies of its data files. bin/cms-spec.js runs dist/ when it is up to date,
// so start-up needs no TypeScript loader; otherwise it runs src/ through tsx. `npm install` runs
// this (prepare). Plain JavaScript, because bin/cms-spec.js calls distIsFresh() before any loader.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const PROJECT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = '.source-state.json';

/** Relative `.ts` specifiers in static imports, re-exports and dynamic imports. */
const TS_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g;

/**
 * Dependencies every start loads that come as hundreds of small CommonJS modules (kysely's build
 * alone is 262): resolving, reading and wrapping each cost more start-up time than running them.
 * Each is bundled into one file, dist/vendor/<name>.cjs, and dist/'s imports and requires of it
 * point there. The sources (run by tsx and the tests) use the packages as installed.
 */
const VENDORED = ['kysely', 'ajv', 'yaml'];
const VENDORED_SPECIFIER = new RegExp(`(\\bfrom\\s*|\\bimport\\s*\\(\\s*|\\)\\s*\\(\\s*|\\brequire\\s*\\(\\s*)(['"])(${VENDORED.join('|')})\\2`, 'g');

async function bundleVendored(esbuild, out) {
  const require = createRequire(import.meta.url);
  await esbuild.build({
    entryPoints: Object.fromEntries(VENDORED.map((name) => [name, require.resolve(name)])),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: out,
    outExtension: { '.js': '.cjs' },
    logLevel: 'error',
  });
}

/** The admin's browser code (React, WordPress's components and block editor), bundled apart from the server's files. */
const ADMIN_APP = join('admin', 'app');
export const ADMIN_BUNDLE = 'admin-app';

/**
 * Bundles the admin (src/admin/app/main.tsx) with the WordPress packages it uses into
 * `out/admin.js` and `out/admin.css`, for the browser, minified, with no import left to load from
 * anywhere at run time. Those packages are development dependencies: an install without them
 * (production only) builds no admin, and the admin page says so.
 */
export async function bundleAdmin(esbuild, root, out) {
  const entry = join(root, 'src', ADMIN_APP, 'main.tsx');
  try {
    createRequire(entry).resolve('@wordpress/block-editor');
  } catch {
    console.warn('cms-spec build: the admin is not built (its @wordpress packages are not installed: npm install without --omit=dev)');
    return false;
  }
  await esbuild.build({
    // the editor is an entry of its own, so its stylesheet has a name the admin can load with it
    entryPoints: { admin: entry, editor: join(root, 'src', ADMIN_APP, 'editor.tsx') },
    bundle: true,
    platform: 'browser',
    // an ES module with the editor in a chunk of its own, loaded by the screens that edit
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    target: 'es2020',
    minify: true,
    jsx: 'automatic',
    outdir: out,
    loader: { '.svg': 'dataurl', '.png': 'dataurl', '.woff': 'dataurl', '.woff2': 'dataurl' },
    define: { 'process.env.NODE_ENV': '"production"', 'globalThis.IS_GUTENBERG_PLUGIN': 'false', 'globalThis.SCRIPT_DEBUG': 'false', 'process.env.IS_GUTENBERG_PLUGIN': 'false' },
    plugins: [packageStyles(root)],
    metafile: true,
    legalComments: 'none',
    logLevel: 'error',
  });
  return true;
}

/**
 * The WordPress packages' stylesheets (`@wordpress/NAME/build-style/*.css`) by their file: some
 * packages' `exports` list only their scripts, which would hide the stylesheet from the resolver.
 */
function packageStyles(root) {
  return {
    name: 'wordpress-package-styles',
    setup(build) {
      build.onResolve({ filter: /^@wordpress\/[^/]+\/build-style\/[\w-]+\.css$/ }, (args) => ({ path: join(root, 'node_modules', args.path) }));
    },
  };
}

/** Whether dist/'s admin bundle is older than any file of the admin's sources (or missing). */
export function adminBundleStale(root = PROJECT) {
  let built;
  try {
    built = statSync(join(root, 'dist', ADMIN_BUNDLE, 'admin.js')).mtimeMs;
  } catch {
    return true;
  }
  return sourceFiles(join(root, 'src', ADMIN_APP)).some((f) => statSync(f).mtimeMs > built);
}

/** Builds the admin bundle alone when its sources changed since (the tests' browser runs it from dist/). */
export async function ensureAdminBundle(root = PROJECT) {
  if (!adminBundleStale(root)) return;
  const esbuild = await import('esbuild');
  const out = join(root, 'dist', ADMIN_BUNDLE);
  mkdirSync(dirname(out), { recursive: true });
  await buildAside(out, (staging) => bundleAdmin(esbuild, root, staging));
}

/**
 * Has `fill` write a new copy of `target` in a folder beside it, then swaps it in, so a process
 * reading the old one, or a build running at once, never sees half of it. A fill that throws
 * leaves `target` as it was.
 */
export async function buildAside(target, fill) {
  const staging = mkdtempSync(`${target}.build-`);
  try {
    await fill(staging);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  const old = `${staging}.old`;
  try {
    renameSync(target, old);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  try {
    renameSync(staging, target);
  } catch (e) {
    // a build running beside this one put its copy in place first, from the same sources
    if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
    rmSync(staging, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

/** A dist/ file's code with its vendored specifiers pointing into dist/vendor/. */
function toVendored(code, rel) {
  const up = dirname(rel) === '.' ? './' : `${relative(dirname(rel), '.')}/`;
  return code.replace(VENDORED_SPECIFIER, (_, before, quote, name) => `${before}${quote}${up}vendor/${name}.cjs${quote}`);
}

export function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(path) : [path];
  });
}

/** What dist/ was built from: the number of source files and the newest modification time. */
export function sourceState(files) {
  let newest = 0;
  for (const f of files) newest = Math.max(newest, statSync(f).mtimeMs);
  return { files: files.length, newest };
}

/** True when the stamp a build wrote (sourceState of its sources) says these files as they are now: none added, removed or changed since. */
export function builtFrom(stamp, files) {
  try {
    const built = JSON.parse(readFileSync(stamp, 'utf8'));
    const now = sourceState(files());
    return built.files === now.files && built.newest === now.newest;
  } catch {
    return false;
  }
}

/** True when dist/ was built from src/ as it is now. */
export function distIsFresh(root = PROJECT) {
  return builtFrom(join(root, 'dist', STAMP), () => sourceFiles(join(root, 'src')));
}

/** Writes dist/ next to the old one and swaps it in, so a process starting meanwhile never sees half a build. */
export async function build(root = PROJECT) {
  const esbuild = await import('esbuild');
  const src = join(root, 'src');
  const dist = join(root, 'dist');
  const files = sourceFiles(src);
  const state = sourceState(files);
  await buildAside(dist, async (staging) => {
    for (const file of files) {
      const rel = relative(src, file);
      if (rel.startsWith(`${ADMIN_APP}/`)) continue;
      const out = join(staging, rel);
      mkdirSync(dirname(out), { recursive: true });
      if (!rel.endsWith('.ts')) {
        copyFileSync(file, out);
        continue;
      }
      const { code } = await esbuild.transform(readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'esnext', sourcefile: rel });
      writeFileSync(out.replace(/\.ts$/, '.js'), toVendored(code.replace(TS_SPECIFIER, '$1$2$3.js$2'), rel));
    }
    await bundleVendored(esbuild, join(staging, 'vendor'));
    await bundleAdmin(esbuild, root, join(staging, ADMIN_BUNDLE));
    writeFileSync(join(staging, STAMP), JSON.stringify(state));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await build();
