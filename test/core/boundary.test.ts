import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT } from '../helpers/server.ts';
import { FLOORS, importCycles, importGraph, layerViolations, room } from '../helpers/import-layers.ts';

/**
 * The layering as imports (the order is test/helpers/import-layers.ts's FLOORS): engine → (format,
 * config, generated types) → store → (auth, net) → core → site → (handlers, plugins, admin) → app
 * → cli, each importing only from the floors below it; the engine is a framework that knows no
 * CMS, the core never names a plugin, and no file reaches itself through its imports. Read from
 * the sources as text, type imports included, so the rule holds for what a reader sees, not just
 * what runs.
 */

const graph = importGraph(join(ROOT, 'src'));

test('the graph was read (the test cannot pass on nothing)', () => {
  assert.ok(graph.size > 50);
  assert.ok(graph.get('app.ts')!.includes('core/open.ts'));
  assert.ok(graph.get('plugins/code-snippets/handlers/snippets.ts')!.includes('plugins/code-snippets/plugin.ts'));
  // type-only imports and the admin's browser code (.tsx) are read too
  assert.ok(graph.get('core/context.ts')!.includes('generated/endpoints.ts'));
  assert.ok(graph.get('admin/app/main.tsx')!.includes('admin/app/screens/posts.tsx'));
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
  const offenders = [...graph].flatMap(([file, targets]) => (room(file) === 'plugins' || file === HANDLER_ANSWERS ? [] : targets.filter((t) => room(t) === 'plugins').map((t) => `${file} → ${t}`)));
  assert.deepEqual(offenders, []);
});

test('the engine imports nothing but itself: no store, site, auth, core, plugin or configuration', () => {
  const offenders = [...graph].filter(([file]) => room(file) === 'engine').flatMap(([file, targets]) => targets.filter((t) => room(t) !== 'engine').map((t) => `${file} → ${t}`));
  assert.deepEqual(offenders, []);
});

test('handlers and plugins reach the engine through its one entry (src/engine/index.ts), as a project of one’s own does', () => {
  const offenders = [...graph].flatMap(([file, targets]) =>
    ['handlers', 'plugins'].includes(room(file)) ? targets.filter((t) => room(t) === 'engine' && t !== 'engine/index.ts').map((t) => `${file} → ${t}`) : [],
  );
  assert.deepEqual(offenders, []);
});

test('a plugin imports no other plugin', () => {
  const plugin = (file: string) => (room(file) === 'plugins' ? file.split('/')[1] : null);
  const offenders = [...graph].flatMap(([file, targets]) => targets.filter((t) => plugin(file) && plugin(t) && plugin(t) !== plugin(file)).map((t) => `${file} → ${t}`));
  assert.deepEqual(offenders, []);
});

test('every import runs down the floors (type-only imports included), and every room of src/ has its floor', () => {
  // the handlers' generated answers import every handler, for the check that nothing imports (tested above)
  assert.deepEqual(layerViolations(graph, new Set([HANDLER_ANSWERS])), []);
  assert.deepEqual(FLOORS.flat().filter((r) => ![...graph.keys()].some((f) => room(f) === r)), [], 'a floor names a room that src/ no longer has');
});

test('the checker catches what it is for: a planted upward type import, an import circle, a room on no floor (test/fixtures/import-layers)', () => {
  const planted = importGraph(join(ROOT, 'test/fixtures/import-layers/src'));
  assert.deepEqual(layerViolations(planted), [
    'store/posts.ts → core/types.ts (store, floor 2 → core, floor 4)',
    'tools/helper.ts: its room tools is on no floor',
  ]);
  assert.deepEqual(importCycles(planted), ['core/menus.ts → core/site.ts → core/menus.ts']);
  // the same tree with the upward import exempted: the downward imports (core → engine, core → store) pass
  assert.deepEqual(layerViolations(planted, new Set(['store/posts.ts'])), ['tools/helper.ts: its room tools is on no floor']);
});

test('no import cycles anywhere in src/ (the site and its plugins, engine.ts and batch.ts, the admin’s browser code included)', () => {
  assert.deepEqual(importCycles(graph), []);
});
