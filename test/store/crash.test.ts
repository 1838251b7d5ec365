import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Store } from '../../src/store/index.ts';
import { testDatabase } from '../helpers/store.ts';

const STORE_MODULE = pathToFileURL(resolve(import.meta.dirname, '../../src/store/index.ts')).href;

// The writer: opens the store and inserts posts forever, printing each id only after its commit returned.
const WRITER = `
const { Store } = await import(${JSON.stringify(STORE_MODULE)});
const store = await Store.open(process.argv[1]);
for (let i = 0; ; i++) {
  const id = await store.posts.insert({ title: 'Crash test ' + i, content: 'x'.repeat(2000) });
  await store.posts.meta.set(id, 'n', String(i));
  process.stdout.write(id + '\\n');
}
`;

test('kill -9 during a write loop loses no acknowledged write', { timeout: 60_000 }, async () => {
  const database = await testDatabase();
  const dbPath = database.location;
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', WRITER, dbPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const acknowledged: number[] = [];
    let buffer = '';
    await new Promise<void>((done, fail) => {
      child.on('exit', (code, signal) => (signal === 'SIGKILL' ? done() : fail(new Error(`writer exited by itself (${code}): ${stderr}`))));
      child.stdout.on('data', (d: Buffer) => {
        buffer += d.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        acknowledged.push(...lines.map(Number));
        if (acknowledged.length >= 300 && !child.killed) child.kill('SIGKILL');
      });
    });
    assert.ok(acknowledged.length >= 300);

    const store = await Store.open(dbPath);
    try {
      const found = await store.posts.getMany(acknowledged);
      const missing = acknowledged.filter((id) => !found.some((p) => p.id === id));
      assert.deepEqual(missing, [], 'every acknowledged post is there');
      const meta = await store.posts.meta.ofMany(acknowledged.slice(-5), ['n']);
      for (const [id, m] of meta) assert.ok(m.n !== undefined, `post ${id} kept its meta`);
      // the store still takes writes after the crash
      const after = await store.posts.insert({ title: 'After the crash' });
      assert.ok(after > Math.max(...acknowledged));
    } finally {
      await store.close();
    }
  } finally {
    await database.drop();
  }
});
