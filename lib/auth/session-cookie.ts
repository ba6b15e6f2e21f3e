// The session cookie: `<userId>.<generation>.<issuedAt>.<expiresAt>.<mac>` (times in Unix
// seconds, mac = HMAC-SHA256 over the rest, base64url), httpOnly and SameSite=Lax. Stateless: the
// server keeps no session table. A session ends at its expiry, when the user is disabled, or when
// the user's session generation moves on (password reset, disable); authenticate.ts checks those.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'gh_session';
export const SESSION_TTL_S = 7 * 24 * 60 * 60;

export interface SessionClaims {
  userId: string;
  generation: number;
  /** Unix seconds. */
  issuedAt: number;
  expiresAt: number;
}

// Domain separation: the secret may sign other things later, never interchangeably with a session.
const MAC_CONTEXT = 'gatehouse session v1\n';
const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

function mac(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(MAC_CONTEXT + payload).digest();
}

export function createSessionValue({ userId, generation, secret, now = Date.now(), ttlS = SESSION_TTL_S }: { userId: string; generation: number; secret: string; now?: number; ttlS?: number }): string {
  if (!ID_PATTERN.test(userId)) throw new TypeError('A user id in a session cookie must be URL-safe and dot-free');
  const issuedAt = Math.floor(now / 1000);
  const payload = `${userId}.${generation}.${issuedAt}.${issuedAt + ttlS}`;
  return `${payload}.${mac(payload, secret).toString('base64url')}`;
}

/** The claims of a well-formed, correctly signed, unexpired value; undefined otherwise. */
export function verifySessionValue(value: string, { secret, now = Date.now() }: { secret: string; now?: number }): SessionClaims | undefined {
  const parts = value.split('.');
  if (parts.length !== 5) return undefined;
  const [userId, generation, issuedAt, expiresAt, signature] = parts as [string, string, string, string, string];
  if (!ID_PATTERN.test(userId) || ![generation, issuedAt, expiresAt].every((n) => /^\d{1,12}$/.test(n))) return undefined;
  const expected = mac(parts.slice(0, 4).join('.'), secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const claims = { userId, generation: Number(generation), issuedAt: Number(issuedAt), expiresAt: Number(expiresAt) };
  return claims.expiresAt > Math.floor(now / 1000) ? claims : undefined;
}

/** The Set-Cookie header value for a new session. `secure`: the request came over https. */
export function sessionCookieHeader(value: string, { secure, maxAgeS = SESSION_TTL_S }: { secure: boolean; maxAgeS?: number }): string {
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeS}`, ...(secure ? ['Secure'] : [])].join('; ');
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

/** The Set-Cookie header value that signs `user` in (after loginWithPassword or exchangeLoginToken). */
export function sessionCookieFor(user: { id: string; sessionGeneration: number }, { secret, secure, now = Date.now(), ttlS = SESSION_TTL_S }: { secret: string; secure: boolean; now?: number; ttlS?: number }): string {
  return sessionCookieHeader(createSessionValue({ userId: user.id, generation: user.sessionGeneration, secret, now, ttlS }), { secure, maxAgeS: ttlS });
}
