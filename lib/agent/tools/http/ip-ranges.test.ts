import { describe, expect, it } from 'vitest';
import { restrictedRange } from './ip-ranges';

describe('restrictedRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.255', 'shared (CGNAT)'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fdff::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'cloud metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['not-an-ip', 'not an IP address'],
  ])('%s is refused as %s', (address, label) => {
    expect(restrictedRange(address)).toBe(label);
  });

  // Every IPv6 form that carries an IPv4 address: the IPv4 address inside is what is checked.
  it.each([
    ['IPv4-compatible', '::7f00:1', 'loopback'],
    ['IPv4-compatible, dotted', '::10.0.0.1', 'private'],
    ['IPv4-mapped', '::ffff:7f00:1', 'loopback'],
    ['IPv4-mapped, metadata', '::ffff:169.254.169.254', 'cloud metadata'],
    ['IPv4-translated (SIIT)', '::ffff:0:7f00:1', 'loopback'],
    ['IPv4-translated, dotted', '::ffff:0:192.168.1.1', 'private'],
    ['NAT64 well-known prefix', '64:ff9b::a9fe:a9fe', 'cloud metadata'],
    ['NAT64, dotted', '64:ff9b::10.1.2.3', 'private'],
    ['NAT64 local-use prefix', '64:ff9b:1::7f00:1', 'local-use NAT64'],
    ['6to4 of loopback', '2002:7f00:1::', 'loopback'],
    ['6to4 of a private address, with a host part', '2002:c0a8:101:1::5', 'private'],
    ['6to4 of metadata', '2002:a9fe:a9fe::1', 'cloud metadata'],
    ['Teredo, client loopback (inverted)', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['Teredo, server private', '2001:0:a00:1:8000:63bf:3fff:fdd2', 'private'],
    ['documentation', '2001:db8::1', 'documentation'],
  ])('%s: %s is refused as %s', (_form, address, label) => {
    expect(restrictedRange(address)).toBe(label);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '169.253.1.1',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    'fbff::1',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '::ffff:0:808:808',
  ])('%s is public', (address) => {
    expect(restrictedRange(address)).toBeUndefined();
  });
});
