import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useServer } from '{{helpers}}/server.ts';

describe('{{namespace}} (plugin {{name}})', () => {
  const site = useServer({ spec: join(import.meta.dirname, '{{spec}}') });

  test('an administrator adds an item; anyone lists it', async () => {
    assert.deepEqual(await site.json('{{namespace}}/items', { auth: undefined }), []);
    assert.deepEqual(await site.json('{{namespace}}/items', { method: 'POST', json: { title: 'First' } }, 201), { id: 1, title: 'First' });
    assert.deepEqual(await site.json('{{namespace}}/items', { auth: undefined }), [{ id: 1, title: 'First' }]);
  });

  test('a visitor may not add one; an empty title is refused', async () => {
    await site.error('{{namespace}}/items', { method: 'POST', json: { title: 'Mine' } }, 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    const refused = await site.json('{{namespace}}/items', { method: 'POST', json: { title: '' } }, 400);
    assert.equal(refused.code, 'rest_invalid_param');
  });
});
