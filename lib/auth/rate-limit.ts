// Login throttling: fixed windows per key (client address, username), in memory. Each process
// counts alone, which is enough for the embedded single-process set-up; several instances behind
// a balancer each allow `limit` per window. Memory is bounded: past `maxKeys`, expired windows are
// dropped first, then the live window with the fewest attempts (the oldest of those): forgetting
// the oldest instead let a flood of made-up keys push a refused username out and reopen it.

export interface RateLimitResult {
  ok: boolean;
  /** Attempts left in this window after this one. */
  remaining: number;
  /** Seconds until the window resets (0 when ok). */
  retryAfterS: number;
}

export interface RateLimiterOptions {
  limit?: number;
  windowMs?: number;
  maxKeys?: number;
  now?: () => number;
}

export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;
  /** Insertion order is window start order: a key is re-inserted when its window restarts. */
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor({ limit = 10, windowMs = 5 * 60_000, maxKeys = 10_000, now = Date.now }: RateLimiterOptions = {}) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.maxKeys = maxKeys;
    this.now = now;
  }

  /** Counts one attempt for `key`. */
  hit(key: string): RateLimitResult {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.delete(key);
      // Room is made before the new key goes in, so the key being counted is never the one dropped.
      this.evict(now, this.maxKeys - 1);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    const ok = window.count <= this.limit;
    return {
      ok,
      remaining: Math.max(0, this.limit - window.count),
      retryAfterS: ok ? 0 : Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)),
    };
  }

  /** Takes back one attempt of `key`'s current window (one that turned out not to be a failure). */
  refund(key: string): void {
    const window = this.windows.get(key);
    if (window && window.count > 0 && this.now() - window.start < this.windowMs) window.count -= 1;
  }

  /** Forgets `key` (e.g. a username after a successful login). */
  reset(key: string): void {
    this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  /** Shrinks to `room` keys: expired windows first, then the live ones with the fewest attempts. */
  private evict(now: number, room: number): void {
    if (this.windows.size <= room) return;
    // Oldest windows come first, so expired ones are a prefix.
    for (const [key, window] of this.windows) {
      if (this.windows.size <= room) return;
      if (now - window.start >= this.windowMs) this.windows.delete(key);
      else break;
    }
    // A key near or past its limit is what an attacker wants forgotten; one attempt is what a
    // flood of made-up keys has each, so those go first and the scan usually stops at once.
    while (this.windows.size > room) {
      let fewest: { key: string; count: number } | undefined;
      for (const [key, window] of this.windows) {
        if (!fewest || window.count < fewest.count) fewest = { key, count: window.count };
        if (fewest.count <= 1) break;
      }
      if (!fewest) return;
      this.windows.delete(fewest.key);
    }
  }
}

/**
 * Two limiters: one per client address, one per username (lowercased). A password attempt must pass
 * both; a one-time link attempt names no user and counts against the address alone, in the same
 * budget as passwords, so guesses cannot alternate between the two routes to get twice the tries.
 */
/**
 * The key an address is counted under: an IPv6 address by its /64 (one subscriber's network: a
 * single host can use any address in it, so counting each one alone would count nothing), an
 * IPv4 address (also written IPv4-mapped) and anything else as it is.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.toLowerCase().split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  // Only a well-formed address is shortened; anything else keys as written.
  if (tail === undefined ? left.length !== 8 : left.length + right.length > 7) return ip;
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return ip;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export class LoginThrottle {
  private readonly byIp: RateLimiter;
  private readonly byUsername: RateLimiter;

  constructor(options: RateLimiterOptions = {}) {
    this.byIp = new RateLimiter(options);
    this.byUsername = new RateLimiter(options);
  }

  /** Counts one attempt against both keys. */
  attempt({ ip, username }: { ip: string; username: string }): { ok: true } | { ok: false; retryAfterS: number } {
    const results = [this.byIp.hit(addressKey(ip)), this.byUsername.hit(username.trim().toLowerCase())];
    const refused = results.filter((r) => !r.ok);
    return refused.length === 0
      ? { ok: true }
      : { ok: false, retryAfterS: Math.max(...refused.map((r) => r.retryAfterS)) };
  }

  /** After a successful login the username's count starts over; the address's does not. */
  succeeded({ username }: { username: string }): void {
    this.byUsername.reset(username.trim().toLowerCase());
  }

  /**
   * Counts one one-time link attempt against the address, before the token is looked up (so
   * parallel guesses are counted too); `linkSucceeded` takes it back, so only failures add up.
   */
  attemptLink({ ip }: { ip: string }): { ok: true } | { ok: false; retryAfterS: number } {
    const result = this.byIp.hit(addressKey(ip));
    return result.ok ? { ok: true } : { ok: false, retryAfterS: result.retryAfterS };
  }

  /** A link that signed someone in is not a failed attempt. */
  linkSucceeded({ ip }: { ip: string }): void {
    this.byIp.refund(addressKey(ip));
  }
}

/**
 * The client address for rate limiting: the right-most X-Forwarded-For entry, skipping
 * `trustedProxies` entries added by proxies of our own (0: nothing in front of Next, which then sets
 * the header from the socket when the client did not send one; 1: one reverse proxy that appends).
 * Without a proxy a client can choose this value, so the per-username limit is the one that holds.
 */
export function clientIp(
  headers: Pick<Headers, 'get'>,
  { trustedProxies = 0 }: { trustedProxies?: number } = {},
): string {
  const chain = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return chain[chain.length - 1 - trustedProxies] ?? chain[0] ?? headers.get('x-real-ip')?.trim() ?? 'unknown';
}
