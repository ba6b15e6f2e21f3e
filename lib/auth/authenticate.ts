// Who is calling: `Authorization: Bearer <token>` (an API token, looked up by hash) or the session
// cookie (signature, expiry and the user's session generation). Either way the user is loaded from
// the database on every request, so disabling a user or changing a role takes effect at once.
// Returns undefined for "nobody"; callers turn that into 401 with requireUser/assertCan.
import type { Queries, UserRole, UserRow } from '../db';
import { readCookie, SESSION_COOKIE, verifySessionValue } from './session-cookie';
import { hashToken } from './tokens';

const TOUCH_INTERVAL_S = 60;

export interface AuthUser {
  id: string;
  username: string;
  displayName: string;
  role: UserRole;
  /** How this request authenticated: a browser session, or an API token (then `tokenId`). */
  via: 'session' | 'token';
  tokenId?: string;
}

export interface AuthenticateInput {
  q: Pick<Queries, 'users' | 'tokens'>;
  headers: Pick<Headers, 'get'>;
  /** The cookie-signing secret (resolveSessionSecret). */
  secret: string;
  now?: number;
}

export const toAuthUser = (user: UserRow, via: AuthUser['via'], tokenId?: string): AuthUser => ({
  id: user.id,
  username: user.username,
  displayName: user.displayName,
  role: user.role,
  via,
  ...(tokenId ? { tokenId } : {}),
});

/** A present but malformed or unknown Authorization header is "nobody", never a fallback to the cookie. */
export async function authenticate({ q, headers, secret, now = Date.now() }: AuthenticateInput): Promise<AuthUser | undefined> {
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match ? authenticateToken(q, match[1]!, now) : undefined;
  }
  const cookie = readCookie(headers.get('cookie'), SESSION_COOKIE);
  if (!cookie) return undefined;
  const claims = verifySessionValue(cookie, { secret, now });
  if (!claims) return undefined;
  const user = await q.users.getUser({ id: claims.userId });
  if (!user || user.disabled || user.sessionGeneration !== claims.generation) return undefined;
  return toAuthUser(user, 'session');
}

async function authenticateToken(q: AuthenticateInput['q'], token: string, now: number): Promise<AuthUser | undefined> {
  const found = await q.tokens.findApiToken({ tokenHash: hashToken(token) });
  if (!found) return undefined;
  const { token: row, user } = found;
  if (row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now) || user.disabled) return undefined;
  // Most requests skip the write: the use is recorded at most once a minute (the query re-checks).
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= TOUCH_INTERVAL_S * 1000) await q.tokens.touchApiToken({ id: row.id, minIntervalS: TOUCH_INTERVAL_S });
  return toAuthUser(user, 'token', row.id);
}
