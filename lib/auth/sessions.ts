// Browser sessions: signing in stores a session (keyed by the sha256 of a random token) and hands
// the token out in the signed cookie; signing out deletes it. A session is valid only while its
// row exists, so every way of ending one (sign-out, sign out everywhere, password reset, disable)
// is a DELETE that all instances see on their next request, and a copied cookie dies with its row.
import { withAccountAudit, type AccountAudit } from './account-audit';
import type { Queries } from '../db';
import { UnauthorizedError } from './errors';
import {
  createSessionValue,
  readCookie,
  SESSION_COOKIE,
  SESSION_TTL_S,
  sessionCookieHeader,
  verifySessionValue,
} from './session-cookie';
import { generateSessionToken, hashToken } from './tokens';

export interface StartSessionInput {
  q: Pick<Queries, 'sessions'>;
  userId: string;
  /** The cookie-signing secret (resolveSessionSecret). */
  secret: string;
  /** The request came over https: the cookie gets `Secure`. */
  secure: boolean;
  now?: number;
  ttlS?: number;
}

/** The Set-Cookie header value of a new session for `userId` and the session's id; refused (401) for a disabled or unknown user. */
export async function startSession({
  q,
  userId,
  secret,
  secure,
  now = Date.now(),
  ttlS = SESSION_TTL_S,
}: StartSessionInput): Promise<{ cookie: string; sessionId: string }> {
  const token = generateSessionToken();
  const sessionId = hashToken(token);
  const row = await q.sessions.createSession({ id: sessionId, userId, ttlS });
  // The user was disabled between the password check and here.
  if (!row) throw new UnauthorizedError('unauthorized:disabled', 'This account is disabled');
  return {
    cookie: sessionCookieHeader(createSessionValue({ token, secret, now, ttlS }), { secure, maxAgeS: ttlS }),
    sessionId,
  };
}

/** The session id a Cookie header names, when its value is well-formed, signed with `secret` and unexpired. */
export function sessionIdFromCookie(
  cookieHeader: string | null | undefined,
  { secret, now = Date.now() }: { secret: string; now?: number },
): string | undefined {
  const value = readCookie(cookieHeader, SESSION_COOKIE);
  const claims = value ? verifySessionValue(value, { secret, now }) : undefined;
  return claims ? hashToken(claims.token) : undefined;
}

/** Sign-out: ends the session the Cookie header names, if any. Whether one ended. */
export async function endSession({
  q,
  cookieHeader,
  secret,
  now,
}: {
  q: Pick<Queries, 'sessions'>;
  cookieHeader: string | null | undefined;
  secret: string;
  now?: number;
}): Promise<boolean> {
  const id = sessionIdFromCookie(cookieHeader, { secret, now });
  return id ? (await q.sessions.deleteSession({ id })) !== undefined : false;
}

/** Sign out everywhere: ends every session of `userId` (but `exceptId`); how many ended. API tokens are not sessions and stay. */
export async function endUserSessions({
  q,
  userId,
  exceptId,
  audit,
}: {
  q: Queries;
  userId: string;
  exceptId?: string;
  audit?: AccountAudit<number>;
}): Promise<number> {
  return withAccountAudit(q, audit, (tx) => tx.sessions.deleteUserSessions({ userId, exceptId }));
}
