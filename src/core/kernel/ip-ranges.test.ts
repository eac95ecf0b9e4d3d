import { describe, expect, it } from 'vitest';
import { addressKind, clientNetwork } from './ip-ranges.ts';

describe('addressKind', () => {
  it.each([
    ['93.184.216.34', 'public'],
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'reserved'],
    ['fd00:ec2::254', 'private'],
    ['fc00::1', 'private'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    // 6to4 carries its IPv4 address in groups 2-3.
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a00:1::', 'private'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['2002:808:808::1', 'public'],
    ['64:ff9b:1::a00:1', 'private'],
    ['64:ff9b:1:abcd::808:808', 'private'],
    ['fec0::1', 'private'],
    ['feff::1', 'private'],
    // A unique-local address is private whatever its low 32 bits look like.
    ['fd00::ffff:808:808', 'private'],
    ['fd00::808:808', 'private'],
    ['2001::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2001:4860:4860::8888', 'public'],
    ['3fff::1', 'reserved'],
    ['100::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['::8.8.8.8', 'reserved'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1%eth0', 'invalid'],
    ['0x7f.1', 'invalid'],
    ['127.1', 'invalid'],
    ['2130706433', 'invalid'],
    ['010.0.0.1', 'invalid'],
    ['1::2::3', 'invalid'],
    ['not an ip', 'invalid'],
  ])('%s is %s', (ip, kind) => expect(addressKind(ip)).toBe(kind));
});

describe('addressKind: each rule at its edges', () => {
  it.each([
    // IPv4: the first address past a range is public; strict dotted-decimal only.
    ['11.0.0.0', 'public'],
    ['9.255.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['127.255.255.255', 'loopback'],
    ['128.0.0.0', 'public'],
    ['256.0.0.1', 'invalid'],
    ['1.2.3.999', 'invalid'],
    // Brackets only around the whole literal.
    ['::[1]', 'invalid'],
    ['[::]1]', 'invalid'],
    // A dotted IPv4 tail must itself be valid.
    ['::ffff:999.1.1.1', 'invalid'],
    // Groups: 1-4 hex digits, eight of them, or fewer around one "::".
    ['1:2:3:4:5:6:7:zz', 'invalid'],
    ['1:2:3:4:5:6:7:12345', 'invalid'],
    ['1:2:3:4:5:6:7:1x', 'invalid'],
    ['1:2:3:4:5:6:7', 'invalid'],
    ['1:2:3:4:5:6:7:8:9', 'invalid'],
    ['1:2:3:4::5:6:7:8', 'invalid'],
    ['2606:4700:1::2:3:4:5', 'public'],
    // ::1 is loopback only exactly: one group more anywhere is not.
    ['1::1', 'reserved'],
    ['0:1::1', 'reserved'],
    ['0:0:1::1', 'reserved'],
    ['0:0:0:1::1', 'reserved'],
    ['::1:0:0:1', 'reserved'],
    ['::1:0:1', 'reserved'],
    ['::1:1', 'reserved'],
    ['::2', 'reserved'],
    // IPv4-mapped only under ::ffff:0:0/96.
    ['1::ffff:808:808', 'reserved'],
    ['0:1::ffff:808:808', 'reserved'],
    ['0:0:1::ffff:808:808', 'reserved'],
    ['0:0:0:1::ffff:808:808', 'reserved'],
    ['::1:ffff:808:808', 'reserved'],
    // NAT64 only under 64:ff9b::/96; the local-use block 64:ff9b:1::/48 is private.
    ['64:1::808:808', 'reserved'],
    ['1:ff9b::808:808', 'reserved'],
    ['64:ff9b:2::808:808', 'reserved'],
    ['64:ff9b:0:1::808:808', 'reserved'],
    ['64:ff9b::1:0:808:808', 'reserved'],
    ['64:ff9b::1:808:808', 'reserved'],
    ['64:1:1::1', 'reserved'],
    ['1:ff9b:1::1', 'reserved'],
    ['2606:4700:1::1', 'public'],
    // IETF (2001::/23) and documentation (2001:db8::/32) blocks end where they end.
    ['2001:1ff::1', 'reserved'],
    ['2001:200::1', 'public'],
    ['2606:1ff::1', 'public'],
    ['2606:db8::1', 'public'],
    // Global unicast with zero middle groups is public.
    ['2a00::1', 'public'],
    ['2a00:1::1', 'public'],
    ['2a00::808:808', 'public'],
  ])('%s is %s', (ip, kind) => expect(addressKind(ip)).toBe(kind));
});

describe('clientNetwork', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:0000:0000:0000:0009', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::5]', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['::1', '0:0:0:0::/64'],
    [' 203.0.113.7 ', '203.0.113.7'],
    [' 2001:db8:1:2::1 ', '2001:db8:1:2::/64'],
    ['::1:ffff:cb00:7107', '0:0:0:0::/64'],
    ['not an ip', 'not an ip'],
  ])('%s → %s', (ip, network) => expect(clientNetwork(ip)).toBe(network));
});
