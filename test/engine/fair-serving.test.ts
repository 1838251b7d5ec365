import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, useServer, type TestServer } from '../helpers/server.ts';
import { adminAuth } from '../helpers/auth.ts';
import { AnswerReader, openConnection } from '../../scripts/bench/raw-http.ts';
import { serve } from '../cli/run.ts';
import type { InternalRequest } from '../../src/engine/pipeline.ts';

/**
 * One client must not stall everyone (issue 40). Each test is proven by the order things happen
 * in, under a bounded load on the loopback that stops by itself, never by how long they took.
 */

/** `count` GETs of `path(i)` in one write, pipelined on one connection. */
function pipelined(count: number, path: (i: number) => string, headers = ''): string {
  let text = '';
  for (let i = 0; i < count; i++) text += `GET /cms-json/${path(i)} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;
  return text;
}

/**
 * Holds the answers of the requests `held` picks, made (what they read is read), until
 * `release()`; counts every request the engine handles, per path. The server runs in this
 * process: this is the engine the server calls.
 */
function holdRequests(server: TestServer, held: (req: InternalRequest) => boolean) {
  const engine = server.app.engine;
  const handle = engine.handle.bind(engine);
  const handled = new Map<string, number>();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const heldOne = new Promise<void>((resolve) => (reached = resolve));
  engine.handle = (req, user, store) => {
    handled.set(req.path, (handled.get(req.path) ?? 0) + 1);
    if (!held(req)) return handle(req, user, store);
    const answer = handle(req, user, store);
    reached();
    return released.then(() => answer);
  };
  return { handled, release, heldOne, restore: () => void (engine.handle = handle) };
}

describe('one client must not stall everyone', () => {
  const site = useServer();

  it('answers an authenticated create before the last of 2,000 pipelined anonymous misses', { timeout: 300_000 }, async () => {
    const burst = await openConnection(site.home);
    const reader = new AnswerReader(burst);
    // each a miss (its own query), each kept and offered for compression
    burst.write(pipelined(2000, (i) => `cms/v2/types?miss=${i}`, 'Accept-Encoding: br, gzip\r\n'));
    // the burst is being served
    await reader.until(1);
    const created = await site.call('cms/v2/tags', { method: 'POST', json: { name: 'made during the burst' }, auth: site.admin });
    const burstAnsweredBefore = reader.answers.length;
    assert.equal(created.status, 201, await created.text());
    const answers = await reader.until(2000);
    burst.destroy();
    assert.ok(
      answers.every((a) => a.status === 200),
      `every miss answered 200, not ${answers.find((a) => a.status !== 200)?.status}`,
    );
    assert.ok(burstAnsweredBefore < 2000, `the create was answered before the last miss (after ${burstAnsweredBefore} of 2,000)`);
  });

  it('makes concurrent misses of the same answer once (single flight)', { timeout: 60_000 }, async () => {
    const path = 'cms/v2/posts?per_page=5&single=flight';
    const hold = holdRequests(site, (req) => req.path === '/cms/v2/posts');
    const requests = 50;
    let arrived = 0;
    const allArrived = new Promise<void>((resolve) => {
      const count = (req: { url?: string }) => {
        if (req.url !== `/cms-json/${path}`) return;
        if (++arrived < requests) return;
        site.app.server.off('request', count);
        resolve();
      };
      site.app.server.on('request', count);
    });
    try {
      const connections = await Promise.all(Array.from({ length: 5 }, () => openConnection(site.home)));
      const readers = connections.map((c) => new AnswerReader(c));
      for (const c of connections) c.write(pipelined(requests / connections.length, () => path));
      // the first miss is being made, and every other one has come while it is
      await hold.heldOne;
      await allArrived;
      // each has gone on to its lookup, which it reaches without waiting on anything
      await new Promise((resolve) => setImmediate(resolve));
      hold.release();
      const answers = (await Promise.all(readers.map((r) => r.until(requests / connections.length)))).flat();
      for (const c of connections) c.destroy();
      assert.equal(answers.length, requests);
      assert.ok(answers.every((a) => a.status === 200));
      assert.equal(new Set(answers.map((a) => a.headers.etag)).size, 1, 'one answer, kept, for every request');
      assert.equal(hold.handled.get('/cms/v2/posts'), 1, 'the posts list was made once for the 50 concurrent misses');
    } finally {
      hold.restore();
    }
  });

  it('makes a miss again when something it read was written while it was made', { timeout: 60_000 }, async () => {
    const path = 'cms/v2/tags?single=stale';
    const hold = holdRequests(site, (req) => req.path === '/cms/v2/tags' && req.method === 'GET');
    try {
      const first = fetch(`${site.api}${path}`);
      await hold.heldOne;
      // written while the first miss is being made: what it read may be older than this
      await site.json('cms/v2/tags', { method: 'POST', json: { name: 'written meanwhile' } }, 201);
      const second = fetch(`${site.api}${path}`);
      hold.release();
      const [, after] = await Promise.all([first, second]);
      const names = ((await after.json()) as { name: string }[]).map((t) => t.name);
      assert.ok(names.includes('written meanwhile'), `the second miss shows the write: ${names.join(', ')}`);
    } finally {
      hold.restore();
    }
  });
});

describe('shutdown', () => {
  it('answers a request in flight with Connection: close, and runs no request that comes after on its connection', { timeout: 60_000 }, async () => {
    const server = await startTestServer();
    const auth = await adminAuth(server);
    const hold = holdRequests(server, (req) => req.path === '/cms/v2/posts' && req.method === 'GET');
    try {
      const connection = await openConnection(server.home);
      const reader = new AnswerReader(connection);
      connection.write(`GET /cms-json/cms/v2/posts HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n\r\n`);
      await hold.heldOne;
      // what SIGTERM does (cms-spec serve's signal handler calls it)
      const closing = server.close();
      // a create sent on the same connection after the shutdown began, come while the first is still held
      const body = JSON.stringify({ name: 'after the signal' });
      const cameAfter = new Promise((resolve) => server.app.server.once('request', resolve));
      connection.write(`POST /cms-json/cms/v2/tags HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      await cameAfter;
      hold.release();
      await reader.until(2);
      await Promise.all([closing, reader.closed]);
      const [inFlight, after] = reader.answers;
      assert.equal(inFlight.status, 200, 'the request in flight is answered');
      assert.equal(after.status, 503);
      assert.equal(JSON.parse(after.body.toString()).code, 'rest_service_unavailable');
      assert.equal(after.headers.connection, 'close');
      assert.equal(hold.handled.get('/cms/v2/tags'), undefined, 'the create after the signal was not run');
    } finally {
      hold.restore();
    }
  });

  it('closes a connection kept alive with one request after another once its request in flight is answered', { timeout: 60_000 }, async () => {
    const server = await startTestServer();
    const hold = holdRequests(server, (req) => req.path === '/cms/v2/posts');
    try {
      const connection = await openConnection(server.home);
      const reader = new AnswerReader(connection);
      connection.write('GET /cms-json/cms/v2/posts HTTP/1.1\r\nHost: x\r\n\r\n');
      await hold.heldOne;
      const closing = server.close();
      hold.release();
      const [answer] = await reader.until(1);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.connection, 'close', 'the answer in flight says the connection closes');
      await Promise.all([closing, reader.closed]);
    } finally {
      hold.restore();
    }
  });
});

describe('a body over the limit', () => {
  it('is answered 413, readable by a client that sent 10 MB with Content-Length', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-spec-413-'));
    // a server of its own process: with the client in the same one, the race the reset comes from is rarely run
    const served = await serve(['--db', join(dir, 'site.sqlite'), '--body-limit', String(1024 * 1024)]);
    try {
      const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
      const outcomes: string[] = [];
      for (let i = 0; i < 10; i++) {
        outcomes.push(
          await new Promise<string>((resolve) => {
            const req = request(`${served.api}cms/v2/posts`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
              let text = '';
              res.on('data', (c) => (text += c));
              res.on('end', () => resolve(`${res.statusCode} ${JSON.parse(text).code}`));
              res.on('error', (e) => resolve(`error while reading the answer: ${e.message}`));
            });
            req.on('error', (e: NodeJS.ErrnoException) => resolve(`error: ${e.code ?? e.message}`));
            req.end(body);
          }),
        );
      }
      assert.deepEqual(outcomes, Array(10).fill('413 rest_payload_too_large'));
    } finally {
      await served.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
