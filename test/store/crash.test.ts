import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Store } from '../../src/store/index.ts';
import { testDatabase } from '../helpers/store.ts';
import { basicAuth, ROOT } from '../helpers/server.ts';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { serveIn } from '../cli/serve-in.ts';

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

/** Clients creating posts at once, each sending its next create as soon as the last is answered. */
const CLIENTS = 50;

test('kill -9 of the server under concurrent creates loses no post it answered 201', { timeout: 120_000 }, async () => {
  const database = await testDatabase();
  const server = await serveIn(ROOT, ['--db', database.location]);
  try {
    const setup = await Store.open(database.location);
    let auth: string;
    try {
      const admin = (await setup.users.byLogin('admin'))!;
      auth = basicAuth('admin', (await createAppPassword(setup, admin.id, { name: 'crash test' })).password);
    } finally {
      await setup.close();
    }
    // each post answered 201, with the title it was created with
    const acknowledged = new Map<number, string>();
    let sent = 0;
    let killing: Promise<void> | undefined;
    const client = async () => {
      while (!killing) {
        const title = `Crash test ${sent++}`;
        let res: Response;
        try {
          res = await fetch(`${server.api}cms/v2/posts`, {
            method: 'POST',
            headers: { authorization: auth, 'content-type': 'application/json' },
            body: JSON.stringify({ title, content: 'x'.repeat(2000), status: 'publish' }),
          });
        } catch {
          return; // the server died with this request in flight: never acknowledged
        }
        const body = (await res.json().catch(() => null)) as { id?: number } | null;
        if (res.status !== 201 || !body?.id) {
          if (killing) return;
          throw new Error(`create answered ${res.status}: ${JSON.stringify(body)}`);
        }
        acknowledged.set(body.id, title);
        if (acknowledged.size >= 300) killing ??= server.kill();
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    await killing;
    assert.ok(acknowledged.size >= 300);

    const store = await Store.open(database.location);
    try {
      const found = new Map((await store.posts.getMany([...acknowledged.keys()])).map((p) => [p.id, p.title]));
      const lost = [...acknowledged].filter(([id, title]) => found.get(id) !== title);
      assert.deepEqual(lost, [], 'every post answered 201 is there, with its title');
    } finally {
      await store.close();
    }
  } finally {
    await server.kill();
    await database.drop();
  }
});
