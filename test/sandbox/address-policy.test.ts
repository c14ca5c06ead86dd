import { describe, expect, it } from '@jest/globals';
import { canonicalAddress, publicOnly } from '../../src/sandbox/address-policy.js';

describe('publicOnly (the setup egress address policy)', () => {
  const refused: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:7F00:0001', 'loopback'],
    ['0:0:0:0:0:ffff:127.0.0.1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['169.254.169.254', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:c0a8:101', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fec0::1', 'private'],
    ['64:ff9b:1::1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['::2', 'unspecified'],
    ['::1.2.3.4', 'reserved'],
    ['100::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['localhost', 'not-an-ip'],
    ['0x7f000001', 'not-an-ip'],
    ['', 'not-an-ip'],
  ];

  it.each(refused)('refuses %s as %s', (address, reason) => {
    expect(publicOnly(address)).toBe(reason);
  });

  const allowed = [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '104.16.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '11.0.0.1',
    '223.255.255.254',
    '2606:4700::1',
    '2a00:1450:4001:82a::200e',
    '2001:4860:4860::8888',
    '::ffff:93.184.216.34',
    '64:ff9b::808:808',
    '2002:5db8:d822::1',
    // Documentation ranges: not routed publicly, and where these CI machines' egress gateway lives.
    '203.0.113.80',
    '192.0.2.1',
    '198.51.100.7',
    '2001:db8::1',
  ];

  it.each(allowed)('allows the public address %s', (address) => {
    expect(publicOnly(address)).toBeNull();
  });
});

describe('canonicalAddress', () => {
  it('spells an address one way: IPv4-mapped and -compatible as IPv4, IPv6 as eight words without a zone', () => {
    expect(canonicalAddress('192.0.2.2')).toBe('192.0.2.2');
    expect(canonicalAddress('::ffff:192.0.2.2')).toBe('192.0.2.2');
    expect(canonicalAddress('::ffff:c000:202')).toBe('192.0.2.2');
    expect(canonicalAddress('::192.0.2.2')).toBe('192.0.2.2');
    expect(canonicalAddress('FD00::2')).toBe('fd00:0:0:0:0:0:0:2');
    expect(canonicalAddress('fe80::1%eth0')).toBe('fe80:0:0:0:0:0:0:1');
    expect(canonicalAddress('::1')).toBe('0:0:0:0:0:0:0:1');
    expect(canonicalAddress('example.test')).toBeNull();
  });
});
