import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../helpers/server.ts';

/**
 * The layering as imports: the engine is a framework that knows no CMS, the core never names a
 * plugin, and no file reaches itself through its imports. Read from the sources as text, type
 * imports included, so the rule holds for what a reader sees, not just what runs.
 */

const SRC = join(ROOT, 'src');
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Each source file (relative to src/) with the source files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), m[1] ?? m[2]);
      if (target.endsWith('.ts')) targets.push(relative(SRC, target));
    }
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

const graph = importGraph();
const layer = (file: string) => file.split('/')[0];

test('the graph was read (the test cannot pass on nothing)', () => {
  assert.ok(graph.size > 50);
  assert.ok(graph.get('app.ts')!.includes('core/open.ts'));
  assert.ok(graph.get('plugins/code-snippets/handlers/snippets.ts')!.includes('plugins/code-snippets/plugin.ts'));
});

/**
 * The generated answers of every handler (`cms-spec types`): the compiler's check of the handlers
 * against the spec must see each of them, plugins' too. It may, because no module that runs
 * reaches it: only the check itself imports it, and nothing imports the check.
 */
const HANDLER_ANSWERS = 'generated/endpoints.answers.ts';
const ANSWERS_CHECK = 'core/handler-answers.ts';

test('the handlers’ generated answers are imported by their check alone, and the check by nothing', () => {
  const importers = (target: string) => [...graph].filter(([, targets]) => targets.includes(target)).map(([file]) => file);
  assert.deepEqual(importers(HANDLER_ANSWERS), [ANSWERS_CHECK]);
  assert.deepEqual(importers(ANSWERS_CHECK), []);
  assert.ok(graph.get(HANDLER_ANSWERS)!.includes('plugins/code-snippets/handlers/snippets.ts'));
});

test('no core file imports a plugin: engine, store, site, auth, core, handlers, net, cli and app reach plugins only through the registry', () => {
  const offenders = [...graph].flatMap(([file, targets]) => (layer(file) === 'plugins' || file === HANDLER_ANSWERS ? [] : targets.filter((t) => layer(t) === 'plugins').map((t) => `${file} → ${t}`)));
  assert.deepEqual(offenders, []);
});

test('the engine imports nothing but itself: no store, site, auth, core, plugin or configuration', () => {
  const offenders = [...graph].filter(([file]) => layer(file) === 'engine').flatMap(([file, targets]) => targets.filter((t) => layer(t) !== 'engine').map((t) => `${file} → ${t}`));
  assert.deepEqual(offenders, []);
});

test('a plugin imports no other plugin', () => {
  const plugin = (file: string) => (layer(file) === 'plugins' ? file.split('/')[1] : null);
  const offenders = [...graph].flatMap(([file, targets]) => targets.filter((t) => plugin(file) && plugin(t) && plugin(t) !== plugin(file)).map((t) => `${file} → ${t}`));
  assert.deepEqual(offenders, []);
});

test('no import cycles anywhere in src/ (the site and its plugins, engine.ts and batch.ts included)', () => {
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
  assert.deepEqual(cycles, []);
});
