/**
 * What is parsed from source files at every start, kept on disk between starts as JSON. Parsing
 * the spec's YAML and placing every endpoint and argument on its source line is most of a
 * server's start (about 0.4 s for this product's 185 routes); reading the same result back takes
 * about a hundredth of it.
 *
 * An entry is found by a hash of everything the result depends on: each source file's name and
 * bytes, the working directory (source positions are relative to it) and the code of the loader
 * and of this cache. Editing any of them misses the cache, so the sources stay the single source
 * of truth. A loader that throws (a spec with problems) keeps nothing: its problems are reported
 * by parsing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** `CMS_SPEC_CACHE_DIR`, else the package's `node_modules/.cache/cms-spec` (where build tools keep theirs). */
function cacheDir(): string {
  return process.env.CMS_SPEC_CACHE_DIR || resolve(import.meta.dirname, '../../node_modules/.cache/cms-spec');
}

function keyOf(files: readonly string[]): string {
  const hash = createHash('sha256').update(`${process.cwd()}\0`);
  for (const f of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(f);
    } catch {
      hash.update(`${f}\0absent\0`);
      continue;
    }
    hash.update(`${f}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex').slice(0, 32);
}

/** Entries kept: every spec folder a test suite makes is a new entry, so the oldest go. */
const KEPT_ENTRIES = 64;

/** Deletes all but the newest entries (and partial writes a killed process left). Runs on a miss only. */
function prune(dir: string): void {
  const entries = readdirSync(dir).map((name) => {
    const path = join(dir, name);
    return { path, used: statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
  });
  entries.sort((a, b) => b.used - a.used);
  for (const e of entries.slice(KEPT_ENTRIES)) rmSync(e.path, { force: true });
}

export interface ParseSource {
  /** Names the entry's file, for a person looking in the cache folder: `spec`, `fields`. */
  kind: string;
  /** The loader's own module file (its `import.meta.filename`): a change to its code must not read old entries. */
  loader: string;
  /** The source files parsed. */
  files: readonly string[];
}

/**
 * `parse()`'s result, from the cache when none of the files changed. It must be plain JSON.
 * `CMS_SPEC_CACHE=off` always parses. A cache that cannot be read or written (a read-only
 * install, a damaged entry) only costs the time it would have saved.
 */
export function cachedParse<T>(source: ParseSource, parse: () => T): T {
  if (process.env.CMS_SPEC_CACHE === 'off') return parse();
  const file = join(cacheDir(), `${source.kind}-${keyOf([import.meta.filename, source.loader, ...source.files])}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    // not kept yet, or unreadable: parse
  }
  const parsed = parse();
  try {
    mkdirSync(cacheDir(), { recursive: true });
    // renamed into place, so a server starting beside this one reads a whole entry or none
    const partial = `${file}.${randomUUID()}.tmp`;
    writeFileSync(partial, JSON.stringify(parsed));
    renameSync(partial, file);
    prune(cacheDir());
  } catch {
    // a read-only install starts without the cache
  }
  return parsed;
}
