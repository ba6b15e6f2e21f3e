import { describe, expect, it } from 'vitest';
import { addressKey, clientIp, LoginThrottle, RateLimiter } from './rate-limit';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('RateLimiter', () => {
  it('allows `limit` attempts per window, then refuses with the time left', () => {
    const c = clock();
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000, now: c.now });
    expect([1, 2, 3].map(() => limiter.hit('k').ok)).toEqual([true, true, true]);
    c.advance(20_000);
    expect(limiter.hit('k')).toEqual({ ok: false, remaining: 0, retryAfterS: 40 });
    expect(limiter.hit('other').ok).toBe(true);
    c.advance(40_000);
    expect(limiter.hit('k')).toEqual({ ok: true, remaining: 2, retryAfterS: 0 });
  });

  it('forgets a key on reset', () => {
    const limiter = new RateLimiter({ limit: 1 });
    limiter.hit('k');
    expect(limiter.hit('k').ok).toBe(false);
    limiter.reset('k');
    expect(limiter.hit('k').ok).toBe(true);
  });

  it('keeps memory bounded: expired windows go first, then the oldest keys', () => {
    const c = clock();
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000, maxKeys: 100, now: c.now });
    for (let i = 0; i < 100; i++) limiter.hit(`old${i}`);
    c.advance(1000);
    limiter.hit('blocked');
    expect(limiter.hit('blocked').ok).toBe(false);
    expect(limiter.size).toBeLessThanOrEqual(100);
    for (let i = 0; i < 10_000; i++) limiter.hit(`flood${i}`);
    expect(limiter.size).toBe(100);
  });
});

describe('LoginThrottle', () => {
  it('limits one address across usernames, and one username across addresses (10 per 5 minutes by default)', () => {
    const c = clock();
    const throttle = new LoginThrottle({ now: c.now });
    for (let i = 0; i < 10; i++) expect(throttle.attempt({ ip: '1.1.1.1', username: `user${i}` }).ok).toBe(true);
    expect(throttle.attempt({ ip: '1.1.1.1', username: 'fresh' })).toEqual({ ok: false, retryAfterS: 300 });
    for (let i = 0; i < 10; i++) expect(throttle.attempt({ ip: `2.2.2.${i}`, username: 'Alice' }).ok).toBe(true);
    expect(throttle.attempt({ ip: '3.3.3.3', username: 'alice ' }).ok).toBe(false);
    c.advance(5 * 60_000);
    expect(throttle.attempt({ ip: '1.1.1.1', username: 'alice' }).ok).toBe(true);
  });

  it('a successful login resets the username count, not the address count', () => {
    const throttle = new LoginThrottle({ limit: 2 });
    throttle.attempt({ ip: 'a', username: 'bob' });
    throttle.attempt({ ip: 'b', username: 'bob' });
    throttle.succeeded({ username: 'BOB' });
    expect(throttle.attempt({ ip: 'c', username: 'bob' }).ok).toBe(true);
    throttle.attempt({ ip: 'a', username: 'x' });
    expect(throttle.attempt({ ip: 'a', username: 'y' }).ok).toBe(false);
  });
});

describe('LoginThrottle one-time links', () => {
  it('count against the address only, in the same budget as passwords', () => {
    const throttle = new LoginThrottle({ limit: 3 });
    throttle.attempt({ ip: 'a', username: 'bob' });
    expect(throttle.attemptLink({ ip: 'a' }).ok).toBe(true);
    expect(throttle.attemptLink({ ip: 'a' }).ok).toBe(true);
    expect(throttle.attemptLink({ ip: 'a' })).toEqual({ ok: false, retryAfterS: 300 });
    expect(throttle.attempt({ ip: 'a', username: 'carol' }).ok).toBe(false);
    expect(throttle.attemptLink({ ip: 'b' }).ok).toBe(true);
    // No username was counted by the links: bob still has two tries left from elsewhere.
    expect(throttle.attempt({ ip: 'c', username: 'bob' }).ok).toBe(true);
  });

  it('a link that worked is taken back, so only failures add up', () => {
    const throttle = new LoginThrottle({ limit: 2 });
    for (let i = 0; i < 5; i++) {
      expect(throttle.attemptLink({ ip: 'a' }).ok).toBe(true);
      throttle.linkSucceeded({ ip: 'a' });
    }
    expect(throttle.attemptLink({ ip: 'a' }).ok).toBe(true);
    expect(throttle.attemptLink({ ip: 'a' }).ok).toBe(true);
    expect(throttle.attemptLink({ ip: 'a' }).ok).toBe(false);
  });
});

describe('RateLimiter.refund', () => {
  it('takes back one attempt of the current window, never below zero, and not from an expired one', () => {
    const c = clock();
    const limiter = new RateLimiter({ limit: 1, windowMs: 1000, now: c.now });
    limiter.refund('unknown');
    limiter.hit('k');
    limiter.refund('k');
    limiter.refund('k');
    expect(limiter.hit('k')).toEqual({ ok: true, remaining: 0, retryAfterS: 0 });
    expect(limiter.hit('k').ok).toBe(false);
    c.advance(1000);
    limiter.refund('k');
    expect(limiter.hit('k').ok).toBe(true);
    expect(limiter.hit('k').ok).toBe(false);
  });
});

describe('clientIp', () => {
  const h = (headers: Record<string, string>) => new Headers(headers);
  it('takes the right-most X-Forwarded-For entry, skipping trusted proxies', () => {
    expect(clientIp(h({ 'x-forwarded-for': '10.0.0.1' }))).toBe('10.0.0.1');
    expect(clientIp(h({ 'x-forwarded-for': 'spoofed, 203.0.113.7' }))).toBe('203.0.113.7');
    expect(clientIp(h({ 'x-forwarded-for': 'spoofed, 203.0.113.7, 10.0.0.2' }), { trustedProxies: 1 })).toBe(
      '203.0.113.7',
    );
    expect(clientIp(h({ 'x-real-ip': '192.0.2.1' }))).toBe('192.0.2.1');
    expect(clientIp(h({}))).toBe('unknown');
  });
});

describe('addressKey: an IPv6 host is counted by its /64', () => {
  it.each([
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::a', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['203.0.113.9', '203.0.113.9'],
    ['unknown', 'unknown'],
    ['1:2:3', '1:2:3'],
  ])('%s -> %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });

  it('addresses of one /64 share one budget: the 11th failure from a new address of it is refused', () => {
    const throttle = new LoginThrottle({ limit: 10, windowMs: 60_000 });
    for (let i = 1; i <= 10; i++)
      expect(throttle.attempt({ ip: `2001:db8:1:2::${i.toString(16)}`, username: `u${i}` }).ok).toBe(true);
    expect(throttle.attempt({ ip: '2001:db8:1:2:ffff::99', username: 'u11' }).ok).toBe(false);
    expect(throttle.attempt({ ip: '2001:db8:1:3::1', username: 'u12' }).ok).toBe(true);
  });
});
