import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPublicAddress } from '../../src/net/addresses.ts';
import { guardedFetch } from '../../src/net/fetch.ts';
import { OutboundForbiddenAddressError } from '../../src/net/errors.ts';

/** Teredo keeps the client's IPv4 address in the last 32 bits, each bit inverted. */
const teredo = (ipv4: string) => {
  const n = ipv4.split('.').reduce((acc, o) => (acc << 8) | Number(o), 0) >>> 0;
  const inverted = (~n >>> 0).toString(16).padStart(8, '0');
  return `2001:0:4136:e378:8000:63bf:${inverted.slice(0, 4)}:${inverted.slice(4)}`;
};

/** IPv6 forms that carry an IPv4 address, each holding loopback, a private and a public one. */
const EMBEDDING: [string, (ipv4: string) => string][] = [
  ['IPv4-compatible ::/96, dotted', (v4) => `::${v4}`],
  ['IPv4-compatible ::/96, hex', (v4) => `::${hex32(v4)}`],
  ['NAT64 64:ff9b::/96', (v4) => `64:ff9b::${hex32(v4)}`],
  ['NAT64 64:ff9b::/96, dotted', (v4) => `64:ff9b::${v4}`],
  ['6to4 2002::/16', (v4) => `2002:${hex32(v4)}::1`],
  ['Teredo 2001::/32', teredo],
  ['IPv4-translated ::ffff:0:0:0/96', (v4) => `::ffff:0:${hex32(v4)}`],
];
function hex32(ipv4: string): string {
  const [a, b, c, d] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

describe('isPublicAddress with IPv4 inside IPv6', () => {
  for (const [name, form] of EMBEDDING) {
    it(`${name}: refused when the IPv4 address inside is not public`, () => {
      for (const v4 of ['127.0.0.1', '10.1.2.3', '192.168.0.1', '169.254.169.254', '0.0.0.0']) assert.equal(isPublicAddress(form(v4)), false, `${form(v4)} carries ${v4}`);
      assert.equal(isPublicAddress(form('8.8.8.8')), true, `${form('8.8.8.8')} carries 8.8.8.8`);
    });
  }

  it('refuses the whole local-use NAT64 prefix 64:ff9b:1::/48, which is not globally reachable', () => {
    for (const ip of ['64:ff9b:1::7f00:1', '64:ff9b:1::a01:203', '64:ff9b:1:7f00:1::', '64:ff9b:1::808:808']) assert.equal(isPublicAddress(ip), false, ip);
  });

  it('still tells plain addresses apart', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '2001:db8::1', '192.0.2.1']) assert.equal(isPublicAddress(ip), false, ip);
    // every IPv4 address was refused while the list held ::ffff:0:0/96: BlockList checks IPv4 against IPv6 ranges in mapped form
    for (const ip of ['8.8.8.8', '1.1.1.1', '::ffff:8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e', '2001:4860:4860::8888']) assert.equal(isPublicAddress(ip), true, ip);
  });
});

describe('guardedFetch refuses URLs whose IPv6 address carries a non-public IPv4 one', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses each form before connecting', async () => {
    const hosts = ['::127.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b:1::7f00:1', '2002:7f00:1::', teredo('127.0.0.1'), '::ffff:0:7f00:1'];
    for (const host of hosts) {
      const url = `http://[${host}]:${port}/`;
      await assert.rejects(guardedFetch(url, { allow: [], timeoutMs: 2000 }), OutboundForbiddenAddressError, url);
    }
  });
});
