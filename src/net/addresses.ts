import { BlockList, isIP } from 'node:net';

/**
 * Address ranges an outbound request must never reach unless allowed: a URL from a user could
 * otherwise make the server probe itself, its metadata service or the intranet behind it.
 */
const NON_PUBLIC_RANGES: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'], // RFC 1918
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata services
  ['172.16.0.0', 12, 'ipv4'], // RFC 1918
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation (TEST-NET-1)
  ['192.168.0.0', 16, 'ipv4'], // RFC 1918
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation (TEST-NET-2)
  ['203.0.113.0', 24, 'ipv4'], // documentation (TEST-NET-3)
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64 (RFC 8215), not globally reachable, its IPv4 placement is the operator's
  ['100::', 64, 'ipv6'], // discard-only
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const nonPublic = new BlockList();
for (const [net, prefix, family] of NON_PUBLIC_RANGES) nonPublic.addSubnet(net, prefix, family);

const familyOf = (ip: string): 'ipv4' | 'ipv6' => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

/**
 * Whether an outbound connection may go to this address. BlockList matches IPv4-mapped IPv6
 * addresses (`::ffff:a.b.c.d`) against the IPv4 entries itself, and checks an IPv4 address
 * against IPv6 entries in that mapped form (so an entry for `::ffff:0:0/96` would refuse every
 * IPv4 address); the other IPv6 forms that carry an IPv4 address are public only when it is.
 */
export function isPublicAddress(ip: string): boolean {
  const family = familyOf(ip);
  if (nonPublic.check(ip, family)) return false;
  const inner = family === 'ipv6' ? embeddedIPv4(ipv6Groups(ip)) : null;
  return inner === null || !nonPublic.check(inner, 'ipv4');
}

/** The eight 16-bit groups of a valid IPv6 address: `::` expanded, a dotted IPv4 tail as two groups, any zone dropped. */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%')[0];
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const groups = tail === undefined ? part(head) : [...part(head), ...Array(8 - part(head).length - part(tail).length).fill('0'), ...part(tail)];
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The IPv4 address an IPv6 address carries: IPv4-compatible `::a.b.c.d` (`::` and `::1` give
 * 0.0.0.0 and 0.0.0.1, both non-public), IPv4-translated `::ffff:0:a.b.c.d` (RFC 2765), NAT64
 * `64:ff9b::a.b.c.d` (RFC 6052), 6to4 `2002:AABB:CCDD::` (RFC 3056), and Teredo
 * `2001:0:server:flags:port:client` whose client address is stored inverted (RFC 4380).
 */
function embeddedIPv4(g: number[]): string | null {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 6)) return v4(g[6], g[7]);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6], g[7]);
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  if (g[0] === 0x2001 && g[1] === 0) return v4(g[6] ^ 0xffff, g[7] ^ 0xffff);
  return null;
}

/** Strips the brackets of an IPv6 URL host. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** The parsed CMS_SPEC_OUTBOUND_ALLOW: host names, single addresses and CIDR ranges. */
export class AllowList {
  private readonly hosts = new Set<string>();
  private readonly addresses = new BlockList();

  constructor(entries: string[]) {
    for (const raw of entries) {
      const entry = bareHost(raw.trim());
      const [net, prefix] = entry.split('/');
      const family = isIP(net);
      if (family === 0) {
        this.hosts.add(entry);
        continue;
      }
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.addresses.addAddress(net, type);
      else this.addresses.addSubnet(net, Number(prefix), type);
    }
  }

  hasHost(hostname: string): boolean {
    return this.hosts.has(bareHost(hostname));
  }

  hasAddress(ip: string): boolean {
    return this.addresses.check(ip, familyOf(ip));
  }
}

const allowLists = new Map<string, AllowList>();

/** One parsed AllowList per distinct setting, built on first use. */
export function allowListFor(entries: string[]): AllowList {
  const key = entries.join(',');
  let list = allowLists.get(key);
  if (!list) allowLists.set(key, (list = new AllowList(entries)));
  return list;
}
