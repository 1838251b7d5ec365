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
  ['192.168.0.0', 16, 'ipv4'], // RFC 1918
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['::ffff:0:0', 96, 'ipv6'], // IPv4-mapped: whatever IPv4 address they carry
  ['64:ff9b::', 96, 'ipv6'], // NAT64 can reach private IPv4 space
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const nonPublic = new BlockList();
for (const [net, prefix, family] of NON_PUBLIC_RANGES) nonPublic.addSubnet(net, prefix, family);

const familyOf = (ip: string): 'ipv4' | 'ipv6' => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

// BlockList matches IPv4-mapped IPv6 addresses against IPv4 entries itself.
export function isPublicAddress(ip: string): boolean {
  return !nonPublic.check(ip, familyOf(ip));
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
