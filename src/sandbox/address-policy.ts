import { isIP, isIPv4 } from 'node:net';

/**
 * Which IP addresses the setup step's egress proxy may connect to: public unicast only. Pure
 * classification of an address string (nothing is resolved or connected here).
 */
export type RefusalReason =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'not-an-ip';

/** Returns why `address` is refused, or null when it is a public unicast address. */
export type AddressPolicy = (address: string) => RefusalReason | null;

interface Range4 {
  base: number;
  bits: number;
  reason: RefusalReason;
}

const v4 = (cidr: string, reason: RefusalReason): Range4 => {
  const [ip, bits] = cidr.split('/') as [string, string];
  return { base: ipv4ToInt(ip), bits: Number(bits), reason };
};

/** IANA's special-purpose IPv4 registry, narrowed to what must never be reached from setup. */
const IPV4_REFUSED: readonly Range4[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'private'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  // Not refused: the documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 and
  // 2001:db8::/32). They are never routed on the internet, so no one's internal service lives
  // there by allocation, and sandboxed CI hosts (these machines) put their egress gateway there.
  // Reaching that gateway is reaching the internet, which is what setup is allowed anyway.
  v4('224.0.0.0/4', 'multicast'),
  v4('255.255.255.255/32', 'broadcast'),
  v4('240.0.0.0/4', 'reserved'),
];

/** The default policy: public unicast IPv4 and global unicast IPv6 (2000::/3) only. */
export const publicOnly: AddressPolicy = (address) => {
  const kind = isIP(address);
  if (kind === 4) return classifyIpv4(ipv4ToInt(address));
  if (kind === 6) return classifyIpv6(ipv6ToWords(address));
  return 'not-an-ip';
};

/**
 * One spelling per address, for comparing two: IPv4 dotted; IPv6 as eight lower-case hex words
 * without a zone, and an IPv4-mapped or -compatible one as the IPv4 address it reaches. Null when
 * `address` is not an IP.
 */
export function canonicalAddress(address: string): string | null {
  const kind = isIP(address.replace(/%.*$/, ''));
  if (kind === 4) return address;
  if (kind !== 6) return null;
  const w = ipv6ToWords(address);
  const embedsV4 = w.slice(0, 5).every((x) => x === 0) && (w[5] === 0xffff || (w[5] === 0 && (w[6] !== 0 || w[7]! > 1)));
  if (embedsV4) return [w[6]! >> 8, w[6]! & 0xff, w[7]! >> 8, w[7]! & 0xff].join('.');
  return w.map((x) => x.toString(16)).join(':');
}

function classifyIpv4(n: number): RefusalReason | null {
  for (const range of IPV4_REFUSED) {
    const mask = range.bits === 0 ? 0 : (0xffffffff << (32 - range.bits)) >>> 0;
    if (((n & mask) >>> 0) === ((range.base & mask) >>> 0)) return range.reason;
  }
  return null;
}

/** Eight 16-bit words. */
function classifyIpv6(w: readonly number[]): RefusalReason | null {
  const zeroUpTo = (n: number) => w.slice(0, n).every((x) => x === 0);
  const embedded = () => ((w[6]! << 16) | w[7]!) >>> 0;
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && w[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible) reach the embedded IPv4 address.
  if (zeroUpTo(5) && w[5] === 0xffff) return classifyIpv4(embedded());
  if (zeroUpTo(6)) return classifyIpv4(embedded()) ?? 'reserved';
  // NAT64 (64:ff9b::/96) is translated to the embedded IPv4 address by a gateway.
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) return classifyIpv4(embedded()) ?? null;
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1) return 'private';
  const first = w[0]!;
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'private';
  if ((first & 0xfe00) === 0xfc00) return 'private';
  if ((first & 0xe000) !== 0x2000) return 'reserved';
  // 2002::/16 (6to4) embeds an IPv4 address in words 1-2.
  if (first === 0x2002) return classifyIpv4(((w[1]! << 16) | w[2]!) >>> 0);
  if (first === 0x2001 && w[1]! < 0x200) return 'reserved'; // 2001::/23 incl. Teredo
  return null;
}

function ipv4ToInt(address: string): number {
  return address.split('.').reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);
}

function ipv6ToWords(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (isIPv4(last)) {
    const n = ipv4ToInt(last);
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  const gap = text.indexOf('::');
  if (gap < 0) return parse(text);
  const head = parse(text.slice(0, gap));
  const rest = parse(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}
