/**
 * IP literals as numbers, without DNS or sockets: enough to tell where a webhook would connect.
 * IPv4 is 32 bits, IPv6 128 bits, both as bigint so one range check serves both families.
 */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

const IPV4_PART = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export function parseIpv4(text: string): IpAddress | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => IPV4_PART.test(part))) {
    return null;
  }
  return { family: 4, value: parts.reduce((acc, part) => (acc << 8n) | BigInt(part), 0n) };
}

function parseHextets(text: string): number[] | null {
  if (text === '') {
    return [];
  }
  const groups = text.split(':');
  const out: number[] = [];
  for (const [index, group] of groups.entries()) {
    if (index === groups.length - 1 && group.includes('.')) {
      const v4 = parseIpv4(group);
      if (!v4) {
        return null;
      }
      out.push(Number(v4.value >> 16n), Number(v4.value & 0xffffn));
    } else if (/^[0-9a-f]{1,4}$/i.test(group)) {
      out.push(parseInt(group, 16));
    } else {
      return null;
    }
  }
  return out;
}

/** `::1`, `fe80::1%eth0`, `::ffff:127.0.0.1`, `[2001:db8::1]` (brackets as in a URL's host). */
export function parseIpv6(input: string): IpAddress | null {
  const text = input.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const halves = text.split('::');
  if (halves.length > 2) {
    return null;
  }
  const head = parseHextets(halves[0] ?? '');
  const tail = halves.length === 2 ? parseHextets(halves[1] ?? '') : [];
  if (!head || !tail) {
    return null;
  }
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) {
    return null;
  }
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return { family: 6, value: groups.reduce((acc, group) => (acc << 16n) | BigInt(group), 0n) };
}

export function parseIp(text: string): IpAddress | null {
  return parseIpv4(text) ?? parseIpv6(text);
}

export interface Cidr {
  family: 4 | 6;
  base: bigint;
  prefix: number;
}

export function cidr(text: string): Cidr {
  const [address = '', prefix = ''] = text.split('/');
  const ip = parseIp(address);
  if (!ip) {
    throw new Error(`invalid CIDR ${text}`);
  }
  return { family: ip.family, base: ip.value, prefix: Number(prefix) };
}

export function inCidr(ip: IpAddress, range: Cidr): boolean {
  if (ip.family !== range.family) {
    return false;
  }
  const bits = BigInt(ip.family === 4 ? 32 : 128);
  const shift = bits - BigInt(range.prefix);
  return ip.value >> shift === range.base >> shift;
}

export function ipv4FromBits(value: bigint): IpAddress {
  return { family: 4, value: value & 0xffffffffn };
}
