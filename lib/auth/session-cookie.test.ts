import { describe, expect, it } from 'vitest';
import {
  clearSessionCookieHeader,
  createSessionValue,
  isSecureRequest,
  readCookie,
  SESSION_TTL_S,
  sessionCookieHeader,
  verifySessionValue,
} from './session-cookie';

const secret = 'a-test-secret-that-is-long-enough-000';
const now = Date.UTC(2030, 0, 1);
const token = 'Hk3k1sB0hT3c6m2q9y_8zZxR-4vW1a2b3c4d5e6f7g8';

describe('session cookie value', () => {
  it('round-trips the claims while unexpired', () => {
    const value = createSessionValue({ token, secret, now });
    expect(value.split('.')).toHaveLength(4);
    expect(verifySessionValue(value, { secret, now: now + 1000 })).toEqual({
      token,
      issuedAt: now / 1000,
      expiresAt: now / 1000 + SESSION_TTL_S,
    });
  });

  it('expires after 7 days by default', () => {
    const value = createSessionValue({ token, secret, now });
    expect(verifySessionValue(value, { secret, now: now + (SESSION_TTL_S - 1) * 1000 })).toBeDefined();
    expect(verifySessionValue(value, { secret, now: now + SESSION_TTL_S * 1000 })).toBeUndefined();
  });

  it('refuses another secret', () => {
    const value = createSessionValue({ token, secret, now });
    expect(verifySessionValue(value, { secret: `${secret}x`, now })).toBeUndefined();
  });

  it.each([
    ['another token', (v: string) => v.replace(token, `X${token.slice(1)}`)],
    [
      'a later expiry',
      (v: string) => {
        const p = v.split('.');
        p[2] = String(Number(p[2]) + 86_400);
        return p.join('.');
      },
    ],
    ['a truncated mac', (v: string) => v.slice(0, -2)],
    ['no mac', (v: string) => v.split('.').slice(0, 3).join('.')],
    [
      'a signed value of the old format (user id and generation)',
      (v: string) => {
        const p = v.split('.');
        return ['user-1', '0', ...p].join('.');
      },
    ],
    ['an extra part', (v: string) => `${v}.x`],
    ['garbage', () => 'not a cookie'],
    ['empty', () => ''],
  ])('refuses a tampered value: %s', (_name, tamper) => {
    const value = createSessionValue({ token, secret, now });
    expect(verifySessionValue(tamper(value), { secret, now })).toBeUndefined();
  });

  it('refuses tokens that would break the format', () => {
    expect(() => createSessionValue({ token: 'a.b', secret })).toThrow(TypeError);
    expect(() => createSessionValue({ token: 'short', secret })).toThrow(TypeError);
  });
});

describe('Set-Cookie headers', () => {
  it('is httpOnly, SameSite=Lax, Path=/, with Max-Age; Secure only over https', () => {
    expect(sessionCookieHeader('v', { secure: false })).toBe(
      `gh_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_S}`,
    );
    expect(sessionCookieHeader('v', { secure: true })).toBe(
      `gh_session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_S}; Secure`,
    );
  });

  it('clears with an empty value and Max-Age=0', () => {
    expect(clearSessionCookieHeader({ secure: false })).toBe('gh_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
  });
});

describe('readCookie and isSecureRequest', () => {
  it('reads one cookie among several', () => {
    expect(readCookie('a=1; gh_session=abc.def; b=2', 'gh_session')).toBe('abc.def');
    expect(readCookie('gh_session_x=1', 'gh_session')).toBeUndefined();
    expect(readCookie(null, 'gh_session')).toBeUndefined();
  });

  it('knows https from the URL or X-Forwarded-Proto', () => {
    expect(isSecureRequest(new Request('https://g.example/api'))).toBe(true);
    expect(isSecureRequest(new Request('http://g.example/api'))).toBe(false);
    expect(isSecureRequest(new Request('http://g.example/api', { headers: { 'x-forwarded-proto': 'https' } }))).toBe(
      true,
    );
    expect(isSecureRequest(new Request('https://g.example/api', { headers: { 'x-forwarded-proto': 'http' } }))).toBe(
      false,
    );
  });
});
