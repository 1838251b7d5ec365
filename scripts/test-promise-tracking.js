// Loaded into each test file's process by run-tests.js (`--import`), before the file imports
// node:test.
//
// node:test (Node 20) finds the test an uncaught error or a nested `test()` belongs to through an
// async_hooks hook that maps every async resource to its test, with a `destroy` callback to forget
// it again. A destroy callback makes Node track the collection of every promise (a weak callback
// on each, `promiseInitHookWithDestroyTracking` / `registerDestroyHook` in a profile) and the
// garbage collector pay for it. The tests run their server in their own process, and a request
// makes hundreds of promises on both sides: the route fuzz spent a third of its CPU there (150 s
// on SQLite, 105 s without it; see docs/testing.md); a file whose time goes elsewhere gains little.
//
// The harness is handed, in place of its hook, one that maps every async resource but promises
// and has no destroy callback. What that changes: an error thrown by a callback scheduled after an
// `await` inside a test (a timer, an event) is reported as the file's own failure ("a resource
// generated asynchronous activity after the test ended", exit code 1) rather than as that test's;
// it still fails the file and the run. A `test()`/`it()` called after an `await` inside an async
// `describe` body would land at the top level (no test here does: describe bodies are
// synchronous). The map keeps the ids of the non-promise resources it saw (timers, sockets) until
// the file's process ends. Any other hook (AsyncLocalStorage's, the server's own) is left as it is.
import asyncHooks from 'node:async_hooks';

const createHook = asyncHooks.createHook;
asyncHooks.createHook = function createHookOutsidePromises(callbacks) {
  const caller = new Error().stack?.split('\n')[2] ?? '';
  if (!caller.includes('node:internal/test_runner/harness') || typeof callbacks?.init !== 'function') return createHook.call(this, callbacks);
  const { init } = callbacks;
  return createHook.call(this, {
    init(asyncId, type, triggerAsyncId, resource) {
      if (type !== 'PROMISE') init(asyncId, type, triggerAsyncId, resource);
    },
  });
};
