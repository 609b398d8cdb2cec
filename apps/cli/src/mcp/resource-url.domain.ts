import { BlockList, isIP } from 'node:net';

/**
 * Which URLs `pay_for_resource` may send a request to, decided before anything is sent. The tool
 * runs next to its operator's services and hands the answer to a model that a web page may steer, so
 * the URL's host must be one the agent's spend policy allows paying (`allowed_recipients`), as the
 * service checks it for the payment itself (agent-policy-service's recipient-pattern.domain.ts; an
 * app, so not importable here — the rules are repeated, keep them in step):
 * - `*`              any host, but not a loopback, private or link-local one (below): name it exactly;
 * - `example.com`    that host exactly (`127.0.0.1` too), case-insensitive;
 * - `*.example.com`  its subdomains at any depth, not the apex;
 * - a raw address    any public host, as `*` does: the service then pays only that payee (`payTo`);
 * - `@handle`        never matches a URL's host.
 * Plain http only to a loopback host: on any other network whoever is on the path could rewrite the
 * 402 answer's payee, and the policy, which checks only the host, would let it be paid.
 */

export type ResourceCheck =
  | { ok: true; host: string }
  | { ok: false; host: string; reason: 'recipient_not_allowed' | 'https_required'; why: string };

const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3], // multicast, reserved, broadcast
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4'); // also checks IPv4-mapped IPv6 (::ffff:a.b.c.d)
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b::', 96], // NAT64: an IPv4 address inside
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The host as the service matches it: lower case, no trailing dot, IPv6 without its brackets. */
export function resourceHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.$/, '');
}

function blocked(list: BlockList, host: string): boolean | null {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(bare);
  return family === 0 ? null : list.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** Loopback: 127.0.0.0/8, ::1, localhost (RFC 6761). */
export function isLoopbackHost(host: string): boolean {
  return blocked(LOOPBACK, host) ?? isLocalhostName(host);
}

/** A loopback, private, link-local or otherwise not public address, or a localhost name. */
export function isInternalHost(host: string): boolean {
  return blocked(INTERNAL, host) ?? isLocalhostName(host);
}

/** Whether one `allowed_recipients` pattern allows the URL host `host` (as `resourceHost` gives it). */
export function patternAllowsHost(pattern: string, host: string): boolean {
  if (pattern === '*') {
    return !isInternalHost(host);
  }
  if (pattern.startsWith('@')) {
    return false;
  }
  if (ADDRESS.test(pattern)) {
    // The payee is learnt from the 402 answer and checked by the service against this address.
    return !isInternalHost(host);
  }
  const p = pattern.toLowerCase();
  if (p.startsWith('*.')) {
    return host.endsWith(p.slice(1)) && host.length > p.length - 1 && !host.startsWith('.');
  }
  return host === p;
}

/** May the tool send a request to `url` under these patterns (the policy's `allowed_recipients`)? */
export function checkResourceUrl(url: URL, patterns: readonly string[]): ResourceCheck {
  const host = resourceHost(url);
  if (!patterns.some((pattern) => patternAllowsHost(pattern, host))) {
    const why =
      patterns.length === 0
        ? `the policy allows no recipient at all, so no host ("${host}")`
        : patterns.includes('*') || patterns.some((p) => ADDRESS.test(p))
          ? `"${host}" is a loopback, private or link-local host, which "*" and payee addresses do not reach: the owner must name it in allowed_recipients`
          : `the host "${host}" matches none of the allowed recipients ${patterns.map((p) => `"${p}"`).join(', ')} (@handles never match a URL's host)`;
    return { ok: false, host, reason: 'recipient_not_allowed', why };
  }
  if (url.protocol !== 'https:' && !isLoopbackHost(host)) {
    return {
      ok: false,
      host,
      reason: 'https_required',
      why: `plain http is taken only from a loopback host; use https://${url.host}${url.pathname}${url.search}`,
    };
  }
  return { ok: true, host };
}
