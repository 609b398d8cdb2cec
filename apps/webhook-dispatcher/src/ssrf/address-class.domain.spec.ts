import fc from 'fast-check';
import { classifyAddress, isAllowedAddressClass } from './address-class.domain';
import { parseIpv4, parseIpv6 } from './ip-address.domain';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.215.14', 'public'],
    ['1.1.1.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.10.10', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ])('IPv4 %s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['100::1', 'reserved'],
    ['3fff::1', 'public'],
    ['4000::1', 'reserved'],
  ])('IPv6 %s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['::127.0.0.1', 'loopback'],
  ])('an IPv6 address carrying an IPv4 one (%s) is classified by that IPv4 address: %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('classifies an IPv4-mapped IPv6 address exactly like the IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(classifyAddress(`::ffff:${v4}`)).toBe(classifyAddress(v4));
      }),
    );
  });

  it.each([
    'example.com',
    '1.2.3',
    '256.1.1.1',
    '01.2.3.4',
    '1::2::3',
    '12345::',
    'gggg::1',
    '',
    '1.2.3.4.5',
  ])('is null for %p (not an IP literal)', (text) => {
    expect(classifyAddress(text)).toBeNull();
  });

  it('parses every address fast-check generates, in both families', () => {
    fc.assert(fc.property(fc.ipV4(), (ip) => expect(parseIpv4(ip)).not.toBeNull()));
    fc.assert(fc.property(fc.ipV6(), (ip) => expect(parseIpv6(ip)).not.toBeNull()));
  });
});

describe('isAllowedAddressClass', () => {
  it('allows only public addresses by default', () => {
    expect(isAllowedAddressClass('public', false)).toBe(true);
    for (const kind of [
      'loopback',
      'private',
      'link_local',
      'metadata',
      'unspecified',
      'multicast',
      'reserved',
    ] as const) {
      expect(isAllowedAddressClass(kind, false)).toBe(false);
    }
  });

  it('lets the development setting open loopback, private and link-local, never metadata and the like', () => {
    for (const kind of ['public', 'loopback', 'private', 'link_local'] as const) {
      expect(isAllowedAddressClass(kind, true)).toBe(true);
    }
    for (const kind of ['metadata', 'unspecified', 'multicast', 'reserved'] as const) {
      expect(isAllowedAddressClass(kind, true)).toBe(false);
    }
  });
});
