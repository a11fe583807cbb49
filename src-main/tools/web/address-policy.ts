import { isIP } from 'node:net';

/**
 * Which kind of address an IP is, for SSRF checks: anything but `public` is refused unless
 * the policy allows it. IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`,
 * NAT64 `64:ff9b::`, 6to4 `2002:`, IPv4-compatible `::a.b.c.d`) are judged by that address.
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'carrier-nat'
  | 'multicast'
  | 'reserved'
  | 'unique-local';

const v4Ranges: [number, number, AddressKind][] = [
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'carrier-nat'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'], // 169.254.169.254: cloud metadata
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('192.0.2.0'), 24, 'reserved'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'],
  [v4('198.51.100.0'), 24, 'reserved'],
  [v4('203.0.113.0'), 24, 'reserved'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

export function addressKind(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return v4Kind(v4(bare));
  if (family === 6) return v6Kind(v6(bare));
  throw new Error(`not an IP address: ${address}`);
}

function v4Kind(value: number): AddressKind {
  for (const [base, bits, kind] of v4Ranges) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === base) return kind;
  }
  return 'public';
}

function v6Kind(groups: number[]): AddressKind {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const zeroTo = (n: number) => groups.slice(0, n).every((group) => group === 0);
  if (zeroTo(8)) return 'unspecified';
  if (zeroTo(7) && g7 === 1) return 'loopback';
  if (zeroTo(5) && g5 === 0xffff) return v4Kind(embedded); // ::ffff:a.b.c.d
  if (zeroTo(6)) return v4Kind(embedded); // ::a.b.c.d (deprecated IPv4-compatible)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4Kind(embedded);
  if (g0 === 0x2002) return v4Kind(((g1 << 16) | g2) >>> 0);
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // site-local, deprecated
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'reserved';
  return 'public';
}

function v4(address: string): number {
  return address.split('.').reduce((acc, part) => ((acc << 8) | Number(part)) >>> 0, 0);
}

function v6(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const value = v4(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [left = '', right] = text.split('::');
  const head = left === '' ? [] : left.split(':');
  const tail = right === undefined || right === '' ? [] : right.split(':');
  const fill = right === undefined ? [] : new Array(8 - head.length - tail.length).fill('0');
  return [...head, ...fill, ...tail].map((group) => Number.parseInt(group, 16));
}

/** What may be reached; built from `tools.web` or injected by tests. */
export interface AddressPolicy {
  /** True when a connection to `address` (resolved from `host`) may be made. */
  allows(address: string, host: string): boolean;
}

/**
 * Public addresses only, unless `allowPrivateNetwork` (everything) or the host or address is
 * listed in `allowHosts` (names like `nas.local`, exact IPs, or IPv4 CIDRs like `192.168.1.0/24`).
 */
export function createAddressPolicy(options: {
  allowPrivateNetwork?: boolean;
  allowHosts?: readonly string[];
}): AddressPolicy {
  const names = new Set<string>();
  const cidrs: [number, number][] = [];
  const exact = new Set<string>();
  for (const entry of options.allowHosts ?? []) {
    const cidr = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(entry);
    if (cidr?.[1] && cidr[2]) cidrs.push([v4(cidr[1]), Number(cidr[2])]);
    else if (isIP(entry.replace(/^\[|\]$/g, ''))) exact.add(canonical(entry));
    else names.add(entry.toLowerCase());
  }
  return {
    allows(address, host) {
      if (options.allowPrivateNetwork || addressKind(address) === 'public') return true;
      if (names.has(host.toLowerCase()) || exact.has(canonical(address))) return true;
      if (isIP(address) !== 4) return false;
      const value = v4(address);
      return cidrs.some(([base, bits]) => {
        const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
        return (value & mask) >>> 0 === (base & mask) >>> 0;
      });
    },
  };
}

function canonical(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '');
  return isIP(bare) === 6 ? v6(bare).join(':') : bare;
}
