/**
 * Spec compile time alone, in a fresh process: loading the YAML, finding the handler modules
 * (imported at their routes' first call, not before listening) and compiling the routes of
 * variant A, as the engine does before listening. Prints JSON.
 */
import { loadSpec, routesForVariant } from '../../src/engine/spec.ts';
import { compileRoutes, HandlerModules } from '../../src/engine/compile.ts';
import { ApiRoot } from '../../src/engine/api-root.ts';
import { formatDiagnostic } from '../../src/engine/diagnostics.ts';

const specDir = process.argv[2];
const t0 = performance.now();
const spec = loadSpec(specDir);
const routes = routesForVariant(spec, 'A');
const t1 = performance.now();
const modules = new HandlerModules();
// the built-ins are the engine's own functions; any function stands in for them here
const builtins = new Map(['@index', '@namespace_index', '@batch'].map((name) => [name, () => null]));
const problems = await modules.load(routes, builtins, false);
if (problems.length) throw new Error(problems.map(formatDiagnostic).join('\n'));
const t2 = performance.now();
const root = new ApiRoot('cms-json');
root.url = 'http://127.0.0.1/cms-json/';
const table = await compileRoutes(routes, 'A', modules, builtins, [root]);
const t3 = performance.now();
console.log(JSON.stringify({ routes: table.routes.length, loadSpecMs: t1 - t0, loadHandlersMs: t2 - t1, compileMs: t3 - t2 }));
