// Host normalization and matching. Hosts are compared after normalizing the way a resolver
// would see them: lowercase, no trailing dot, no userinfo or port, IPv4 in dotted-quad form
// whatever numeric spelling was used (0x7f.1, 2130706433, 0177.0.0.1) and IPv4-mapped IPv6
// unwrapped to IPv4. A bare name matches itself and its subdomains; `*.name` only subdomains;
// an IP literal matches itself; CIDR blocks (`10.0.0.0/8`, `fc00::/7`) match their range.

export type HostMatcher = (host: string) => boolean;

const MAX_IPV6_LENGTH = 45;

/** Normalizes a host, or a URL / `host:port` / `user@host` spelling of one. Undefined if there is none. */
export function normalizeHost(input: string): string | undefined {
  let text = input.trim();
  if (text === '') return undefined;
  if (!text.includes('://')) {
    // A bare IPv6 literal has several colons and no brackets.
    const bareIpv6 = !text.includes('[') && !text.includes('@') && (text.match(/:/g)?.length ?? 0) > 1;
    text = bareIpv6 ? `http://[${text}]` : `http://${text}`;
  }
  let hostname: string;
  try {
    hostname = new URL(text).hostname;
  } catch {
    return undefined;
  }
  return canonicalHostname(hostname);
}

/** Canonical form of a WHATWG-parsed hostname. */
export function canonicalHostname(hostname: string): string | undefined {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  while (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '') return undefined;
  if (host.includes(':')) {
    const mapped = ipv4FromMappedIpv6(host);
    if (mapped) return mapped;
  }
  return host;
}

function ipv4FromMappedIpv6(host: string): string | undefined {
  const words = ipv6Words(host);
  if (!words) return undefined;
  const isMapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  if (!isMapped) return undefined;
  const hi = words[6]!;
  const lo = words[7]!;
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** The eight 16-bit words of an IPv6 literal, or undefined. Accepts a dotted IPv4 tail. */
export function ipv6Words(host: string): number[] | undefined {
  // No IPv6 literal is longer (8 groups, or 6 and an IPv4 tail); checking first keeps the regex
  // below from backtracking over a long host name (it is quadratic on a long run of digits).
  if (host.length > MAX_IPV6_LENGTH || !host.includes(':')) return undefined;
  let text = host;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipv4ToInt(v4[1]!);
    if (n === undefined) return undefined;
    tail.push(n >>> 16, n & 0xffff);
    text = text.slice(0, -v4[1]!.length) + (text.endsWith('::' + v4[1]) ? '' : '0');
    if (text.endsWith(':0')) text = text.slice(0, -2);
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (s: string) =>
    s === '' ? [] : s.split(':').map((p) => (/^[0-9a-f]{1,4}$/.test(p) ? parseInt(p, 16) : NaN));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const total = 8 - tail.length;
  if ([...head, ...rest].some(Number.isNaN)) return undefined;
  let words: number[];
  if (halves.length === 2) {
    const fill = total - head.length - rest.length;
    if (fill < 0) return undefined;
    words = [...head, ...new Array<number>(fill).fill(0), ...rest];
  } else {
    words = head;
  }
  words = [...words, ...tail];
  return words.length === 8 ? words : undefined;
}

export function ipv4ToInt(dotted: string): number | undefined {
  const parts = dotted.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const v = Number(part);
    if (v > 255) return undefined;
    n = n * 256 + v;
  }
  return n;
}

function compileCidr(spec: string): HostMatcher | undefined {
  const slash = spec.lastIndexOf('/');
  if (slash < 0) return undefined;
  const bits = Number(spec.slice(slash + 1));
  const base = canonicalHostname(spec.slice(0, slash));
  if (!base || !Number.isInteger(bits)) return undefined;
  const v4 = ipv4ToInt(base);
  if (v4 !== undefined && bits >= 0 && bits <= 32) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    const net = (v4 & mask) >>> 0;
    return (host) => {
      const n = ipv4ToInt(host);
      return n !== undefined && (n & mask) >>> 0 === net;
    };
  }
  const v6 = ipv6Words(base);
  if (v6 && bits >= 0 && bits <= 128) {
    return (host) => {
      const words = ipv6Words(host);
      if (!words) return false;
      for (let bit = 0; bit < bits; bit += 16) {
        const take = Math.min(16, bits - bit);
        const mask = (0xffff << (16 - take)) & 0xffff;
        const i = bit / 16;
        if ((words[i]! & mask) !== (v6[i]! & mask)) return false;
      }
      return true;
    };
  }
  return undefined;
}

/** Compiles one host pattern. Throws on a pattern that is not a host, wildcard host or CIDR block. */
export function compileHostPattern(pattern: string): HostMatcher {
  const spec = pattern.trim().toLowerCase();
  if (spec === '*') return () => true;
  if (spec.includes('/')) {
    const cidr = compileCidr(spec);
    if (!cidr) throw new Error(`"${pattern}" is not a valid CIDR block`);
    return cidr;
  }
  const subdomainsOnly = spec.startsWith('*.');
  const name = normalizeHost(subdomainsOnly ? spec.slice(2) : spec);
  if (!name || name.includes('*')) throw new Error(`"${pattern}" is not a valid host`);
  const isIp = ipv4ToInt(name) !== undefined || name.includes(':');
  if (isIp) return (host) => host === name;
  const suffix = `.${name}`;
  if (subdomainsOnly) return (host) => host.endsWith(suffix);
  return (host) => host === name || host.endsWith(suffix);
}

/** Compiles a comma-separated list of host patterns; a host matches if any pattern does. */
export function compileHostList(list: string): HostMatcher {
  const matchers = splitList(list).map(compileHostPattern);
  if (matchers.length === 0) throw new Error('the host list is empty');
  return (host) => matchers.some((m) => m(host));
}

export function splitList(list: string): string[] {
  return list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
