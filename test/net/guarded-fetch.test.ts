import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedFetch } from '../../src/net/fetch.ts';
import { OutboundForbiddenAddressError, OutboundNetworkError, OutboundStatusError, OutboundTooLargeError, OutboundUrlError } from '../../src/net/errors.ts';

describe('guardedFetch, the outbound client', () => {
  let server: Server;
  let port: number;
  const seen: { path: string; authorization?: string }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
      const hops = /^\/loop\/(\d+)$/.exec(req.url ?? '');
      if (hops) return res.writeHead(302, { location: `/loop/${Number(hops[1]) + 1}` }).end();
      if (req.url === '/to-ip') return res.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end();
      if (req.url === '/to-ok') return res.writeHead(301, { location: '/ok' }).end();
      if (req.url === '/big') return res.end('y'.repeat(5000));
      if (req.url === '/gone') return res.writeHead(410).end('gone for good');
      if (req.url === '/busy') return res.writeHead(429, { 'Retry-After': '30' }).end('slow down');
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses loopback by address, by IPv4-mapped IPv6 address and by name', async () => {
    for (const url of [`http://127.0.0.1:${port}/ok`, `http://[::ffff:127.0.0.1]:${port}/ok`, `http://localhost:${port}/ok`])
      await assert.rejects(guardedFetch(url, { allow: [] }), OutboundForbiddenAddressError, url);
  });

  it('reaches what the allow-list names: an address, a CIDR range or a host name', async () => {
    for (const allow of [['127.0.0.1'], ['127.0.0.0/8'], ['localhost']]) {
      const host = allow[0] === 'localhost' ? 'localhost' : '127.0.0.1';
      const res = await guardedFetch(`http://${host}:${port}/ok`, { allow });
      assert.equal(res.text(), 'ok', allow[0]);
    }
  });

  it('follows redirects, checking every hop', async () => {
    const res = await guardedFetch(`http://localhost:${port}/to-ok`, { allow: ['localhost'] });
    assert.equal(res.url, `http://localhost:${port}/ok`);
    // allowed by name only: the redirect to the bare loopback address is refused
    await assert.rejects(guardedFetch(`http://localhost:${port}/to-ip`, { allow: ['localhost'] }), OutboundForbiddenAddressError);
  });

  it('stops after five redirects', async () => {
    await assert.rejects(guardedFetch(`http://127.0.0.1:${port}/loop/0`, { allow: ['127.0.0.1'] }), OutboundNetworkError);
    assert.ok(seen.some((s) => s.path === '/loop/5'));
    assert.ok(!seen.some((s) => s.path === '/loop/6'));
  });

  it('does not carry credentials to another origin', async () => {
    seen.length = 0;
    await guardedFetch(`http://localhost:${port}/to-ip`, { allow: ['localhost', '127.0.0.1'], headers: { Authorization: 'Bearer secret' } });
    assert.deepEqual(seen.map((s) => [s.path, s.authorization]), [['/to-ip', 'Bearer secret'], ['/ok', undefined]]);
  });

  it('caps the body: an error, or the first bytes when truncating', async () => {
    await assert.rejects(guardedFetch(`http://127.0.0.1:${port}/big`, { allow: ['127.0.0.1'], maxBytes: 1000 }), OutboundTooLargeError);
    const res = await guardedFetch(`http://127.0.0.1:${port}/big`, { allow: ['127.0.0.1'], maxBytes: 1000, oversize: 'truncate' });
    assert.equal(res.body.length, 1000);
    assert.equal(res.truncated, true);
  });

  it('reports a non-2xx answer with its status and body', async () => {
    const err = await guardedFetch(`http://127.0.0.1:${port}/gone`, { allow: ['127.0.0.1'] }).catch((e) => e);
    assert.ok(err instanceof OutboundStatusError);
    assert.equal(err.status, 410);
    assert.equal(err.body, 'gone for good');
    const busy = await guardedFetch(`http://127.0.0.1:${port}/busy`, { allow: ['127.0.0.1'] }).catch((e) => e);
    assert.ok(busy instanceof OutboundStatusError);
    assert.equal(busy.status, 429);
    assert.equal(busy.headers['retry-after'], '30', 'the headers travel with the error, names lower-cased');
  });

  it('fetches only http and https URLs without credentials', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.org/', `http://user:pw@127.0.0.1:${port}/ok`, 'not a url'])
      await assert.rejects(guardedFetch(url, { allow: ['127.0.0.1'] }), OutboundUrlError, url);
  });
});
