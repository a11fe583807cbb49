import { describe, expect, it } from 'vitest';
import { addressKind, createAddressPolicy } from './address-policy.js';

describe('addressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrier-nat'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['2606:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });
});

describe('createAddressPolicy', () => {
  it('allows only public addresses by default', () => {
    const policy = createAddressPolicy({});
    expect(policy.allows('93.184.215.14', 'example.com')).toBe(true);
    expect(policy.allows('127.0.0.1', 'localhost')).toBe(false);
    expect(policy.allows('::ffff:127.0.0.1', 'x')).toBe(false);
  });

  it('lets the person open named hosts, exact IPs and IPv4 ranges, nothing more', () => {
    const policy = createAddressPolicy({ allowHosts: ['nas.local', '127.0.0.1', '192.168.1.0/24', '::1'] });
    expect(policy.allows('192.168.7.20', 'nas.local')).toBe(true);
    expect(policy.allows('127.0.0.1', 'anything')).toBe(true);
    expect(policy.allows('0:0:0:0:0:0:0:1', 'x')).toBe(true);
    expect(policy.allows('192.168.1.77', 'printer')).toBe(true);
    expect(policy.allows('192.168.2.1', 'router')).toBe(false);
    expect(policy.allows('169.254.169.254', 'metadata')).toBe(false);
    expect(policy.allows('::ffff:127.0.0.1', 'mapped')).toBe(false);
  });

  it('allows everything with allowPrivateNetwork', () => {
    expect(createAddressPolicy({ allowPrivateNetwork: true }).allows('10.0.0.1', 'x')).toBe(true);
  });
});
