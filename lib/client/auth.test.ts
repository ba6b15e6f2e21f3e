import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { formatWait, loginErrorMessage, safeNextPath } from './auth';

describe('safeNextPath keeps the login page from being an open redirect', () => {
  it.each([
    ['/users', '/users'],
    ['/runs?status=waiting#top', '/runs?status=waiting#top'],
    ['/?run=abc', '/?run=abc'],
    ['/a/../audit', '/audit'],
  ])('keeps the same-site path %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each<[string | null, string]>([
    [null, 'no next'],
    ['', 'empty'],
    ['users', 'relative without a slash'],
    ['https://evil.example/', 'absolute URL'],
    ['//evil.example/path', 'protocol-relative URL'],
    ['/\\evil.example', 'slash-backslash (browsers read it as //)'],
    ['/ok\\..\\evil', 'a backslash anywhere'],
    ['/a/../..//evil.example', 'dot segments that collapse into //host'],
    ['/\tevil', 'a control character'],
    ['javascript:alert(1)', 'a javascript: URL'],
    ['/login', 'the login page itself (a loop)'],
  ])('falls back to / for %s (%s)', (next) => {
    expect(safeNextPath(next)).toBe('/');
  });
});

describe('formatWait', () => {
  it.each([
    [0, '1 s'],
    [45, '45 s'],
    [60, '1 min'],
    [61, '2 min'],
    [300, '5 min'],
    [3600, '1 h'],
    [3900, '1 h 5 min'],
  ])('%i s reads as %s', (seconds, expected) => {
    expect(formatWait(seconds)).toBe(expected);
  });
});

describe('loginErrorMessage', () => {
  const apiError = (status: number, code: string, body: Record<string, unknown> = {}) =>
    new ApiError(status, code, 'server text', [], body);

  it('gives the throttled wait from retryAfterS', () => {
    expect(loginErrorMessage(apiError(429, 'rate_limited:login', { retryAfterS: 287 }))).toBe(
      'Too many sign-in attempts. Try again in 5 min.',
    );
  });

  it('names the other refusals in words a person can act on', () => {
    expect(loginErrorMessage(apiError(401, 'unauthorized:credentials'))).toBe('Wrong username or password.');
    expect(loginErrorMessage(apiError(401, 'unauthorized:disabled'))).toMatch(/disabled/);
    expect(loginErrorMessage(apiError(401, 'unauthorized:login_token'))).toMatch(/invalid, expired or already used/);
    expect(loginErrorMessage(apiError(500, 'internal'))).toBe('server text');
    expect(loginErrorMessage(new TypeError('Failed to fetch'))).toMatch(/Could not reach the server/);
  });
});
