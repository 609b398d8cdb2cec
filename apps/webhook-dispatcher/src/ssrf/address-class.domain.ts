import { cidr, type Cidr, inCidr, ipv4FromBits, type IpAddress, parseIp } from './ip-address.domain';

/**
 * Where an address leads, for the SSRF rules (ARCHITECTURE §6: https only, no private, loopback or
 * link-local targets unless a development setting allows them).
 * - `public`: globally routable unicast.
 * - `loopback`, `private` (RFC 1918, CGNAT, unique-local, site-local), `link_local`: refused unless
 *   WEBHOOK_ALLOW_PRIVATE_NETWORKS.
 * - `metadata` (cloud instance metadata), `unspecified`, `multicast`, `reserved`: always refused.
 */
export type AddressClass =
  'public' | 'loopback' | 'private' | 'link_local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

const table = (entries: [string, AddressClass][]): [Cidr, AddressClass][] =>
  entries.map(([range, kind]) => [cidr(range), kind]);

// Cloud metadata endpoints (AWS, GCP, Azure, Oracle, Alibaba, ECS task metadata, Azure wireserver).
const METADATA = table([
  ['169.254.169.254/32', 'metadata'],
  ['169.254.169.253/32', 'metadata'],
  ['169.254.170.2/32', 'metadata'],
  ['168.63.129.16/32', 'metadata'],
  ['100.100.100.200/32', 'metadata'],
  ['192.0.0.192/32', 'metadata'],
  ['fd00:ec2::254/128', 'metadata'],
  ['fd00:ec2::23/128', 'metadata'],
]);

// First match wins, so the narrower ranges come first.
const IPV4 = table([
  ['0.0.0.0/8', 'unspecified'],
  ['127.0.0.0/8', 'loopback'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['100.64.0.0/10', 'private'],
  ['169.254.0.0/16', 'link_local'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'reserved'],
  ['192.88.99.0/24', 'reserved'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

const IPV6 = table([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'private'],
  ['100::/64', 'reserved'],
  ['2001::/32', 'reserved'],
  ['2001:db8::/32', 'reserved'],
  ['2001:10::/28', 'reserved'],
  ['2001:20::/28', 'reserved'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'private'],
  ['ff00::/8', 'multicast'],
]);

const GLOBAL_UNICAST_V6 = cidr('2000::/3');
// IPv6 forms that carry an IPv4 address a packet may end up at: classify that address instead.
const IPV4_MAPPED = cidr('::ffff:0:0/96');
const IPV4_COMPATIBLE = cidr('::/96');
const NAT64 = cidr('64:ff9b::/96');
const SIX_TO_FOUR = cidr('2002::/16');

function embeddedIpv4(ip: IpAddress): IpAddress | null {
  if (inCidr(ip, IPV4_MAPPED) || inCidr(ip, NAT64) || inCidr(ip, IPV4_COMPATIBLE)) {
    return ipv4FromBits(ip.value);
  }
  if (inCidr(ip, SIX_TO_FOUR)) {
    return ipv4FromBits(ip.value >> 80n);
  }
  return null;
}

function lookup(ip: IpAddress, ranges: [Cidr, AddressClass][]): AddressClass | undefined {
  return ranges.find(([range]) => inCidr(ip, range))?.[1];
}

export function classifyIp(ip: IpAddress): AddressClass {
  const metadata = lookup(ip, METADATA);
  if (metadata) {
    return metadata;
  }
  if (ip.family === 4) {
    return lookup(ip, IPV4) ?? 'public';
  }
  const special = lookup(ip, IPV6);
  if (special) {
    return special;
  }
  const embedded = embeddedIpv4(ip);
  if (embedded) {
    return classifyIp(embedded);
  }
  return inCidr(ip, GLOBAL_UNICAST_V6) ? 'public' : 'reserved';
}

/** Classifies an IP literal; null when the text is not one. */
export function classifyAddress(text: string): AddressClass | null {
  const ip = parseIp(text);
  return ip ? classifyIp(ip) : null;
}

const DEVELOPMENT_ONLY: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'link_local']);

/** Whether a webhook may connect to an address of this class. */
export function isAllowedAddressClass(kind: AddressClass, allowPrivateNetworks: boolean): boolean {
  return kind === 'public' || (allowPrivateNetworks && DEVELOPMENT_ONLY.has(kind));
}
