// The session cookie: `<token>.<issuedAt>.<expiresAt>.<mac>` (token: 32 random bytes, times in
// Unix seconds, mac = HMAC-SHA256 over the rest, base64url), httpOnly and SameSite=Lax. The token
// names a row of the sessions table (by its sha256, lib/auth/sessions.ts): the signature keeps
// forged values away from the database, the row makes a session revocable (sign-out, sign out
// everywhere, password reset, disable). authenticate.ts checks both.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'gh_session';
export const SESSION_TTL_S = 7 * 24 * 60 * 60;

export interface SessionClaims {
  /** The session's secret; its sha256 is the session's id in the database. */
  token: string;
  /** Unix seconds. */
  issuedAt: number;
  expiresAt: number;
}

// Domain separation: the secret may sign other things later, never interchangeably with a session.
// v2: the value names a stored session (v1 named a user and a generation, and is refused now).
const MAC_CONTEXT = 'gatehouse session v2\n';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

function mac(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret)
    .update(MAC_CONTEXT + payload)
    .digest();
}

export function createSessionValue({
  token,
  secret,
  now = Date.now(),
  ttlS = SESSION_TTL_S,
}: {
  token: string;
  secret: string;
  now?: number;
  ttlS?: number;
}): string {
  if (!TOKEN_PATTERN.test(token)) throw new TypeError('A session token must be 16-128 URL-safe, dot-free characters');
  const issuedAt = Math.floor(now / 1000);
  const payload = `${token}.${issuedAt}.${issuedAt + ttlS}`;
  return `${payload}.${mac(payload, secret).toString('base64url')}`;
}

/** The claims of a well-formed, correctly signed, unexpired value; undefined otherwise. */
export function verifySessionValue(
  value: string,
  { secret, now = Date.now() }: { secret: string; now?: number },
): SessionClaims | undefined {
  const parts = value.split('.');
  if (parts.length !== 4) return undefined;
  const [token, issuedAt, expiresAt, signature] = parts as [string, string, string, string];
  if (!TOKEN_PATTERN.test(token) || ![issuedAt, expiresAt].every((n) => /^\d{1,12}$/.test(n))) return undefined;
  const expected = mac(parts.slice(0, 3).join('.'), secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const claims = { token, issuedAt: Number(issuedAt), expiresAt: Number(expiresAt) };
  return claims.expiresAt > Math.floor(now / 1000) ? claims : undefined;
}

/** The Set-Cookie header value for a new session. `secure`: the request came over https. */
export function sessionCookieHeader(
  value: string,
  { secure, maxAgeS = SESSION_TTL_S }: { secure: boolean; maxAgeS?: number },
): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeS}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The Set-Cookie header value that signs out (expires the cookie now). */
export function clearSessionCookieHeader({ secure }: { secure: boolean }): string {
  return sessionCookieHeader('', { secure, maxAgeS: 0 });
}

/** One cookie's value from a Cookie header; the first one of that name wins. */
export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    if (pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Whether the browser reached us over https: the request URL, or `X-Forwarded-Proto` as set by a
 * proxy in front (Next sets it from the socket when no proxy did). A forged header can only add
 * `Secure`, which at worst stops the forger's own cookie from being sent over http.
 */
export function isSecureRequest(request: Pick<Request, 'url' | 'headers'>): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (forwarded) return forwarded === 'https';
  return new URL(request.url).protocol === 'https:';
}
