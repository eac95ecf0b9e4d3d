/**
 * What kind of address an IP literal is, for server-side fetches of client-supplied URLs (SSRF):
 * only `public` addresses may be fetched. Covers IPv4 special-purpose ranges (RFC 6890 and its
 * updates, including 169.254.169.254 cloud metadata and 100.64/10 carrier NAT) and IPv6 loopback,
 * unique-local, site-local, link-local, multicast, documentation and the other special-purpose ranges,
 * and the IPv4-mapped, NAT64 and 6to4 forms, which are judged by the IPv4 address they carry.
 * @module
 */

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved' | 'invalid';

/** [first octets as a 32-bit number, prefix length, kind] */
const IPV4_RANGES: readonly [string, number, Exclude<AddressKind, 'public' | 'invalid'>][] = [
  ['0.0.0.0', 8, 'reserved'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'reserved'],
  ['240.0.0.0', 4, 'reserved'],
];

/** An IPv4 literal in strict dotted-decimal as a 32-bit number, or null. */
export function ipv4ToNumber(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

function ipv4Kind(value: number): AddressKind {
  for (const [base, prefix, kind] of IPV4_RANGES) {
    const size = 2 ** (32 - prefix);
    const start = ipv4ToNumber(base)!;
    if (value >= start && value < start + size) return kind;
  }
  return 'public';
}

/** The eight 16-bit groups of an IPv6 literal (with `::` and a trailing dotted IPv4), or null. */
export function ipv6Groups(ip: string): number[] | null {
  let text = ip.replace(/^\[|\]$/g, '').toLowerCase();
  if (text.includes('%')) return null; // zone ids never name a public address
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4ToNumber(dotted[1]!);
    if (v4 === null) return null;
    text = `${text.slice(0, -dotted[1]!.length)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
    return groups.map((g) => parseInt(g, 16));
  };
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !rest) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest];
}

function ipv6Kind(groups: number[]): AddressKind {
  const [a, b, c, d, e, f, g, h] = groups as [number, number, number, number, number, number, number, number];
  const embeddedV4 = g * 65536 + h;
  if (groups.every((x) => x === 0)) return 'reserved';
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && g === 0 && h === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach the IPv4 address they carry.
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff) return ipv4Kind(embeddedV4);
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return ipv4Kind(embeddedV4);
  // 6to4 (2002:AABB:CCDD::/48, RFC 3056) relays to the IPv4 address in its second and third groups.
  if (a === 0x2002) return ipv4Kind(b * 65536 + c);
  // Local-use NAT64 (RFC 8215) translates into whatever network the operator chose: never public.
  if (a === 0x64 && b === 0xff9b && c === 1) return 'private';
  if ((a & 0xfe00) === 0xfc00) return 'private';
  // Site-local (fec0::/10, deprecated by RFC 3879 but still routed inside some networks).
  if ((a & 0xffc0) === 0xfec0) return 'private';
  if ((a & 0xffc0) === 0xfe80) return 'link-local';
  if ((a & 0xff00) === 0xff00) return 'reserved';
  // IETF protocol assignments (2001::/23: Teredo, benchmarking, ORCHID), documentation (2001:db8::/32,
  // 3fff::/20), discard-only (100::/64) and SRv6 SIDs (5f00::/16): IANA's special-purpose registry.
  if (a === 0x2001 && b < 0x0200) return 'reserved';
  if (a === 0x2001 && b === 0x0db8) return 'reserved';
  if ((a & 0xfff0) === 0x3ff0) return 'reserved';
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return 'reserved';
  if (a === 0x5f00) return 'reserved';
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0) return 'reserved'; // deprecated IPv4-compatible
  // Anything else outside 2000::/3, the only global unicast space IANA allocates, is not public.
  if ((a & 0xe000) !== 0x2000) return 'reserved';
  return 'public';
}

/** The kind of an IP literal (IPv6 may be bracketed). Anything that does not parse is `invalid`. */
export function addressKind(ip: string): AddressKind {
  const v4 = ipv4ToNumber(ip);
  if (v4 !== null) return ipv4Kind(v4);
  const groups = ipv6Groups(ip);
  return groups ? ipv6Kind(groups) : 'invalid';
}

/** Addresses that one client controls together: a single IPv4 address, or an IPv6 /64. */
export const IPV6_CLIENT_PREFIX_BITS = 64;

/**
 * The network a client address stands for, as a canonical string: an IPv4 address as itself
 * (IPv4-mapped IPv6 included), an IPv6 address as its /64 (`2001:db8:1:2::/64`). Per-client limits
 * key on this: a /64 is what one subscriber line, one cloud VM or one phone is given (RFC 6177 /
 * RFC 7934 practice), so keying on the full IPv6 address would give one client 2^64 buckets. A /56
 * would also be defensible (some ISPs delegate one per home); a /64 never joins two subscribers.
 * Anything that does not parse is returned as is (it still keys consistently).
 */
export function clientNetwork(ip: string): string {
  const trimmed = ip.trim();
  if (ipv4ToNumber(trimmed) !== null) return trimmed;
  const groups = ipv6Groups(trimmed);
  if (!groups) return trimmed;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const v4 = groups[6]! * 65536 + groups[7]!;
    return [v4 >>> 24, (v4 >>> 16) & 255, (v4 >>> 8) & 255, v4 & 255].join('.');
  }
  return `${groups
    .slice(0, IPV6_CLIENT_PREFIX_BITS / 16)
    .map((g) => g.toString(16))
    .join(':')}::/${IPV6_CLIENT_PREFIX_BITS}`;
}
