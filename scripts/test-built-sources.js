// Loaded by run-tests.js (`--import`, after tsx) into the process of a test file that runs from its
// TypeScript: one from outside test/, or one run by hand (`node --import tsx --import
// ./scripts/test-built-sources.js --test FILE`). The files of test/ run as built instead, with no
// loader at all (build-tests.js). run-tests.js builds dist/ first when it is out of date.
//
// The tests import the project's TypeScript (`src/...ts`); every test file runs in a process of
// its own, and through tsx each of those processes resolved, transformed and loaded the ~500
// modules of src/ again: about 1.3 s of CPU for the first server of each file, most of it in tsx's
// hooks (a message to the loader thread and back per module) rather than in the project's code,
// paid by every one of the ~280 test file runs of `npm test`. When dist/ was built from src/ as it
// is now (scripts/build.js: the same esbuild transform tsx makes, types stripped, data files
// beside), the engine's built-sources hooks (src/engine/load-module.ts, the ones a handler module
// outside src/ is loaded through when cms-spec runs from dist/) load each module of src/ from its
// dist/ twin and dist/'s own imports without asking tsx: the process runs what `npx cms-spec
// serve` runs (bin/cms-spec.js also picks dist/ when it is up to date), one copy of each module,
// with test files and fixtures still going through tsx. A src/ file without a twin (the admin's
// browser code, bundled apart) is loaded from src/. When dist/ is out of date nothing is redirected.
import { register } from 'node:module';
import { distIsFresh } from './build.js';
import { builtSourcesHooks } from '../src/engine/load-module.ts';

if (distIsFresh()) register(`data:text/javascript,${encodeURIComponent(builtSourcesHooks())}`);
