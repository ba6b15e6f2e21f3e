import { describe, expect, it } from 'vitest';
import { assertSameOrigin, checkOrigin, isSameOrigin, ownOrigins } from './origin';

const req = (method: string, headers: Record<string, string> = {}, url = 'http://127.0.0.1:3000/api/policy') =>
  new Request(url, { method, headers });

describe('checkOrigin', () => {
  it.each([
    ['GET without any header', req('GET'), 'safe_method'],
    ['HEAD', req('HEAD', { origin: 'https://evil.example' }), 'safe_method'],
    ['POST from the same origin', req('POST', { origin: 'http://127.0.0.1:3000' }), 'origin_match'],
    [
      'PUT from the Host the browser used',
      req('PUT', { origin: 'http://localhost:3000', host: 'localhost:3000' }),
      'origin_match',
    ],
    [
      'DELETE behind a TLS proxy',
      req('DELETE', {
        origin: 'https://gate.example',
        'x-forwarded-host': 'gate.example',
        'x-forwarded-proto': 'https',
      }),
      'origin_match',
    ],
    [
      'default port spelled out',
      req('POST', {
        origin: 'https://gate.example:443',
        'x-forwarded-host': 'gate.example',
        'x-forwarded-proto': 'https',
      }),
      'origin_match',
    ],
    ['no Origin, Sec-Fetch-Site same-origin', req('POST', { 'sec-fetch-site': 'same-origin' }), 'fetch_site'],
    ['a script with a Bearer token and no Origin', req('POST', { authorization: 'Bearer gh_abc' }), 'bearer'],
  ])('allows %s', (_name, request, reason) => {
    expect(checkOrigin(request)).toEqual({ ok: true, reason });
  });

  it.each([
    ['POST from another site', req('POST', { origin: 'https://evil.example' }), 'origin_mismatch'],
    ['PATCH from another port', req('PATCH', { origin: 'http://127.0.0.1:4000' }), 'origin_mismatch'],
    ['POST from another scheme', req('POST', { origin: 'https://127.0.0.1:3000' }), 'origin_mismatch'],
    ['Origin: null (sandboxed frame)', req('POST', { origin: 'null' }), 'origin_mismatch'],
    [
      'a Bearer token with a foreign Origin',
      req('POST', { origin: 'https://evil.example', authorization: 'Bearer gh_abc' }),
      'origin_mismatch',
    ],
    ['a look-alike host', req('POST', { origin: 'http://127.0.0.1:3000.evil.example' }), 'origin_mismatch'],
    ['no Origin, Sec-Fetch-Site cross-site', req('POST', { 'sec-fetch-site': 'cross-site' }), 'cross_site'],
    ['no Origin, Sec-Fetch-Site same-site', req('DELETE', { 'sec-fetch-site': 'same-site' }), 'cross_site'],
    ['no Origin and nothing else (a cookie-only client)', req('POST', { cookie: 'gh_session=x' }), 'no_origin'],
    ['a Basic Authorization header instead of Bearer', req('POST', { authorization: 'Basic YTpi' }), 'no_origin'],
  ])('refuses %s', (_name, request, reason) => {
    expect(checkOrigin(request)).toEqual({ ok: false, reason });
  });

  it('accepts configured extra origins', () => {
    expect(
      isSameOrigin(req('POST', { origin: 'https://ui.example' }), { allowedOrigins: ['https://ui.example/'] }),
    ).toBe(true);
  });

  it('assertSameOrigin throws forbidden:origin (403)', () => {
    expect(() => assertSameOrigin(req('POST', { origin: 'https://evil.example' }))).toThrow(
      expect.objectContaining({ code: 'forbidden:origin', status: 403 }),
    );
    expect(() => assertSameOrigin(req('POST', { origin: 'http://127.0.0.1:3000' }))).not.toThrow();
  });

  it('derives the own origins from the URL, Host and X-Forwarded-*', () => {
    const origins = ownOrigins(
      req('POST', {
        host: 'internal:3000',
        'x-forwarded-host': 'gate.example, proxy.local',
        'x-forwarded-proto': 'https',
      }),
    );
    expect([...origins]).toEqual(
      expect.arrayContaining(['http://127.0.0.1:3000', 'https://gate.example', 'https://internal:3000']),
    );
    expect(origins.has('https://proxy.local')).toBe(false);
  });
});
