import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { useServer } from '../helpers/server.ts';
import { lintSpec } from '../../src/engine/lint.ts';
import { CRITICAL_ERROR_MESSAGE } from '../../src/engine/critical-error.ts';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/lazy-handlers');
const imported = () => (globalThis as { lazyHandlersImported?: number }).lazyHandlersImported ?? 0;

// Start-up imports no handler module (issue 29, S5): a route's module is imported at its first call.
describe('handler modules imported at their first call', () => {
  const server = useServer({ spec: FIXTURE });

  test('the server starts without importing a handler module; the first call imports it, once', async () => {
    assert.equal(imported(), 0, 'not imported by the start');
    assert.deepEqual(await server.json('lazy/v1/answer', { auth: undefined }), { answer: 42 });
    assert.equal(imported(), 1);
    assert.deepEqual(await server.json('lazy/v1/answer', { auth: undefined }), { answer: 42 });
    assert.equal(imported(), 1, 'imported once');
  });

  test('a handler its module does not export answers 500 when called, and lint finds it before', async () => {
    await server.error('lazy/v1/missing', {}, 500, 'internal_server_error', CRITICAL_ERROR_MESSAGE);
    assert.ok(server.errors.some((e) => e.includes("handler 'lazy.missing' not found")), server.errors.join('\n'));
    const findings = (await lintSpec(FIXTURE)).filter((f) => f.severity === 'error');
    assert.deepEqual(
      findings.map((f) => [f.rule, f.message]),
      [['handler-exists', "/lazy/v1/missing GET names handler 'lazy.missing', which module 'lazy' does not export"]],
    );
  });
});
