import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const project = fileURLToPath(new URL('..', import.meta.url));
const cli = fileURLToPath(import.meta.resolve('cms-spec/bin/cms-spec.js'));
let server;
let api;

// the API as its users get it: `cms-spec serve` on a free port
before(async () => {
  server = spawn(process.execPath, [cli, 'serve', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'] });
  api = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const listening = /^cms-spec listening on (\S+)$/m.exec(out);
      if (listening) resolve(listening[1]);
    });
    server.on('exit', (code) => reject(new Error(`cms-spec serve exited with ${code}`)));
  });
});

after(async () => {
  server.kill();
  if (server.exitCode === null) await once(server, 'exit');
});

test('GET hello greets the world, or whoever is named', async () => {
  assert.deepEqual(await (await fetch(`${api}{{namespace}}/hello`)).json(), { greeting: 'Hello, world!' });
  assert.deepEqual(await (await fetch(`${api}{{namespace}}/hello?name=Ada`)).json(), { greeting: 'Hello, Ada!' });
});

test('a name longer than 40 characters is refused before the handler runs', async () => {
  const res = await fetch(`${api}{{namespace}}/hello?name=${'x'.repeat(41)}`);
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.code, 'rest_invalid_param');
  assert.equal(body.message, 'Invalid parameter(s): name');
});

test('the index lists this API alone', async () => {
  const index = await (await fetch(api)).json();
  assert.deepEqual(index.namespaces, ['{{namespace}}']);
});
