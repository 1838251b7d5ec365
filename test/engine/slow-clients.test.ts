import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { startTestServer, useServer } from '../helpers/server.ts';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/basic');
const TIMEOUTS = { headersMs: 500, requestMs: 1500, keepAliveMs: 500 };

/** Resolves when the server closes the socket (its answer read and dropped); the test's own timeout fails it if that never happens. */
const closedByServer = (socket: Socket) =>
  new Promise<void>((done) => {
    socket.once('close', () => done());
    // a socket nobody reads never sees the server's FIN
    if (socket.listenerCount('data') === 0) socket.resume();
  });

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    const s = connect(Number(port), hostname, () => done(s));
    s.once('error', fail);
  });
}

/** What the server answered on a raw socket, until it closed it. */
function rawAnswer(socket: Socket, request: Buffer): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (c) => chunks.push(c));
  socket.write(request);
  return closedByServer(socket).then(() => Buffer.concat(chunks).toString('utf8'));
}

describe('slow and broken clients', () => {
  const site = useServer({ spec: FIXTURE, timeouts: TIMEOUTS });

  test('a silent connection and one dripping its headers a byte at a time are closed at the header deadline', { timeout: 10_000 }, async () => {
    const silent = await open(site.home);
    const drip = await open(site.home);
    const text = 'GET /cms-json/ HTTP/1.1\r\nHost: x\r\nX-Slow: ';
    let i = 0;
    const timer = setInterval(() => drip.writable && drip.write(text[i++ % text.length]), 100);
    try {
      await Promise.all([closedByServer(silent), closedByServer(drip)]);
    } finally {
      clearInterval(timer);
    }
    assert.equal((await site.call('')).status, 200, 'the server still answers everyone else');
  });

  test('a body sent a byte at a time is cut at the request deadline', { timeout: 10_000 }, async () => {
    const slow = await open(site.home);
    // 1,000 bytes announced, one sent every 100 ms: the body could not be complete for 100 s
    const answer = rawAnswer(slow, Buffer.from('POST /cms-json/fixture/v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{'));
    const timer = setInterval(() => slow.writable && slow.write(' '), 100);
    try {
      const text = await answer;
      assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.match(text, /\r\nConnection: close\r\n/);
      assert.deepEqual(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)), { code: 'rest_request_timeout', message: 'The request was not received in time.', data: { status: 408 } });
    } finally {
      clearInterval(timer);
    }
  });

  test("what Node's parser refuses is answered in WordPress's error shape", async () => {
    const badPath = await rawAnswer(await open(site.home), Buffer.concat([Buffer.from('GET /cms-json/'), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
    assert.match(badPath, /^HTTP\/1\.1 400 /);
    assert.deepEqual(JSON.parse(badPath.slice(badPath.indexOf('\r\n\r\n') + 4)), { code: 'rest_bad_request', message: 'The request is not valid HTTP, or its URL has characters no URL may have.', data: { status: 400 } });

    const huge = await rawAnswer(await open(site.home), Buffer.from(`GET /cms-json/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    assert.match(huge, /^HTTP\/1\.1 431 /);
    assert.equal(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4)).code, 'rest_header_fields_too_large');

    const longUrl = await fetch(`${site.api}?q=${'b'.repeat(20_000)}`);
    assert.equal(longUrl.status, 431);
    assert.equal(((await longUrl.json()) as { code: string }).code, 'rest_header_fields_too_large');
  });
});

describe('shutdown', () => {
  test('lets a request in flight finish, and closes a connection still uploading at the deadline', { timeout: 10_000 }, async () => {
    const server = await startTestServer({ spec: FIXTURE, shutdownMs: 800, timeouts: { headersMs: 5000, requestMs: 60_000, keepAliveMs: 5000 } });
    const inFlight = server.call('fixture/v1/slow?ms=300&token=shutdown');
    const uploader = await open(server.home);
    uploader.write('POST /cms-json/fixture/v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    const timer = setInterval(() => uploader.writable && uploader.write(' '), 100);
    await new Promise((r) => setTimeout(r, 100));
    try {
      const [report, answer] = await Promise.all([server.close(), inFlight, closedByServer(uploader)]);
      assert.equal(answer.status, 200, 'the request in flight was answered');
      assert.ok(report.forced >= 1, 'the uploading connection was closed at the deadline');
      assert.ok(report.open >= 2);
    } finally {
      clearInterval(timer);
    }
  });
});
