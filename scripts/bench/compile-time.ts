/**
 * Spec compile time alone, in a fresh process: loading the YAML, importing the handler modules
 * and compiling the routes of variant A, as src/app.ts does before listening. Prints JSON.
 */
import { loadSpec } from '../../src/engine/spec.ts';
import { compileRoutes, loadHandlerModules } from '../../src/engine/compile.ts';

const specDir = process.argv[2];
const t0 = performance.now();
const spec = loadSpec(specDir);
const t1 = performance.now();
const { modules, problems } = await loadHandlerModules(spec);
if (problems.length) throw new Error(problems.join('\n'));
const t2 = performance.now();
const table = compileRoutes(spec, 'A', modules, (p) => `http://127.0.0.1/cms-json${p}`);
const t3 = performance.now();
console.log(JSON.stringify({ routes: table.routes.length, loadSpecMs: t1 - t0, loadHandlersMs: t2 - t1, compileMs: t3 - t2 }));
