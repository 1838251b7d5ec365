import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The layering of src/ as imports, read from the sources as text, type imports included, so the
 * rule holds for what a reader sees, not just what runs. A room is a folder (or a file) right
 * under src/; a file may import its own room and the rooms of the floors below its own, never a
 * room of its own floor or above.
 */
export const FLOORS: readonly (readonly string[])[] = [
  // the spec-first framework: knows no CMS
  ['engine'],
  // WordPress's formatting functions, the process's configuration, the spec's generated handler types
  ['format', 'config.ts', 'generated'],
  ['store'],
  ['auth', 'net'],
  ['core'],
  // the rendered site; the importer (WXR files, a live site) that writes content through the core
  ['site', 'import'],
  ['handlers', 'plugins', 'admin'],
  // the application (the server assembled), then the command line that starts it
  ['app.ts'],
  ['cli'],
];

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const SOURCE = /\.tsx?$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : SOURCE.test(path) ? [path] : [];
  });
}

/** Each source file under `srcDir` (relative to it) with the source files it imports. */
export function importGraph(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(srcDir)) {
    const targets: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), m[1] ?? m[2]);
      if (SOURCE.test(target)) targets.push(relative(srcDir, target));
    }
    graph.set(relative(srcDir, file), targets);
  }
  return graph;
}

/** The room of a file (relative to src/): its first folder, or itself when it sits right under src/. */
export const room = (file: string) => file.split('/')[0];

/**
 * Every import that breaks the order, as `file → target (room, floor n → room, floor m)`, and
 * every file whose room is on no floor (a new room must be given its place). `exempt` names files
 * whose imports are not held to the order.
 */
export function layerViolations(graph: Map<string, string[]>, exempt: ReadonlySet<string> = new Set()): string[] {
  const floorOf = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((r) => [r, floor] as const)));
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    const from = floorOf.get(room(file));
    if (from === undefined) {
      problems.push(`${file}: its room ${room(file)} is on no floor`);
      continue;
    }
    if (exempt.has(file)) continue;
    for (const target of targets) {
      if (room(target) === room(file)) continue;
      const to = floorOf.get(room(target));
      if (to === undefined || to >= from) problems.push(`${file} → ${target} (${room(file)}, floor ${from} → ${room(target)}, floor ${to ?? 'none'})`);
    }
  }
  return problems;
}

/** Every import circle, as `a → b → … → a`. */
export function importCycles(graph: Map<string, string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const t of graph.get(file) ?? []) {
      if (state.get(t) === 'open') cycles.push([...stack.slice(stack.indexOf(t)), t].join(' → '));
      else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}
