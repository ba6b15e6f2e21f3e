// Which resolved addresses fetch_url refuses unless the administrator's policy names them:
// loopback, private, CGNAT, link-local, unique-local, unspecified, multicast, reserved and cloud
// metadata. Every IPv6 form that carries an IPv4 address is unwrapped and the IPv4 address
// checked (mapped, compatible, IPv4-translated, NAT64, 6to4, Teredo), so `::7f00:1`,
// `64:ff9b::7f00:1` and `2002:7f00:1::` are loopback too.
import { isIPv4, isIPv6 } from 'node:net';

type Range = readonly [network: readonly number[], prefixBits: number, label: string];

// More specific entries first: the metadata address sits inside link-local / unique-local.
const V4: readonly Range[] = [
  [[169, 254, 169, 254], 32, 'cloud metadata'],
  [[0, 0, 0, 0], 8, 'unspecified'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'shared (CGNAT)'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved (benchmarking)'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'],
];

const V6: readonly Range[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 128, 'unspecified'],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'],
  [[0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54], 128, 'cloud metadata'],
  [[0xfc], 7, 'unique-local'],
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfe, 0xc0], 10, 'site-local'],
  [[0xff], 8, 'multicast'],
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'discard'],
  // Local-use NAT64 (RFC 8215): translated to IPv4 addresses the operator chose, which may be private.
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'local-use NAT64'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'documentation'],
];

/** Why the address may not be fetched without an explicit rule, or undefined for a public one. */
export function restrictedRange(address: string): string | undefined {
  if (isIPv4(address)) return match(address.split('.').map(Number), V4);
  const bare = address.replace(/%.*$/, ''); // zone index (fe80::1%eth0)
  if (!isIPv6(bare)) return 'not an IP address';
  const bytes = ipv6Bytes(bare);
  for (const embedded of embeddedIpv4(bytes)) {
    const range = match(embedded, V4);
    if (range) return range;
  }
  return match(bytes, V6);
}

function match(bytes: readonly number[], ranges: readonly Range[]): string | undefined {
  for (const [network, bits, label] of ranges) if (inPrefix(bytes, network, bits)) return label;
  return undefined;
}

function inPrefix(bytes: readonly number[], network: readonly number[], bits: number): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const mask = bits - i * 8 >= 8 ? 0xff : (0xff << (8 - (bits - i * 8))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((network[i] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * The IPv4 addresses an IPv6 address carries, each of which is checked: ::ffff:a.b.c.d (mapped),
 * ::ffff:0:a.b.c.d (translated), ::a.b.c.d (compatible), 64:ff9b::a.b.c.d (NAT64),
 * 2002:aabb:ccdd:: (6to4: the IPv4 address after the prefix) and 2001:0::/32 (Teredo: the server
 * after the prefix, the client in the last 32 bits, inverted).
 */
function embeddedIpv4(bytes: readonly number[]): number[][] {
  const head = bytes.slice(0, 12);
  const tail = bytes.slice(12);
  const zeros = (from: number, to: number) => head.slice(from, to).every((b) => b === 0);
  const mapped = zeros(0, 10) && head[10] === 0xff && head[11] === 0xff;
  const translated = zeros(0, 8) && head[8] === 0xff && head[9] === 0xff && zeros(10, 12);
  const nat64 = head[0] === 0x00 && head[1] === 0x64 && head[2] === 0xff && head[3] === 0x9b && zeros(4, 12);
  // :: and ::1 have their own meaning; anything else in ::/96 is the deprecated compatible form.
  const compatible = zeros(0, 12) && !(tail.slice(0, 3).every((b) => b === 0) && (tail[3] ?? 0) <= 1);
  if (mapped || translated || nat64 || compatible) return [tail];
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return [bytes.slice(2, 6)];
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x00 && bytes[3] === 0x00)
    return [bytes.slice(4, 8), tail.map((b) => b ^ 0xff)];
  return [];
}

/** The 16 bytes of a valid IPv6 literal (with `::` and an optional dotted IPv4 tail). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  let v4Tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    v4Tail = text
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [left = '', right] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const head = groups(left);
  const tail = right === undefined ? [] : groups(right);
  const words = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = words.flatMap((w) => [(w >> 8) & 0xff, w & 0xff]);
  if (v4Tail.length === 4) bytes.splice(12, 4, ...v4Tail);
  return bytes;
}
