// Who is calling: `Authorization: Bearer <token>` (an API token, looked up by hash) or the session
// cookie (signature and expiry, then its stored session, lib/auth/sessions.ts). A session and its
// user are read from the database on every request, in one statement, so an ended session or a
// disabled user is refused at once on every instance. A token's row and user are kept for up to TOKEN_CACHE_TTL_MS:
// any change to users or tokens made through the same queries (revoke, disable, role change, ...)
// drops them at once; a change made elsewhere (another instance, SQL by hand) is seen within the
// TTL. Returns undefined for "nobody"; callers turn that into 401 with requireUser/assertCan.
import type { TokenPurpose } from '../contract';
import type { ApiTokenRow, ChangeCounter, Queries, UserRole, UserRow } from '../db';
import { sessionIdFromCookie } from './sessions';
import { hashToken } from './tokens';

const TOUCH_INTERVAL_S = 60;
/** How long a token's rows are reused while nothing changed users or tokens through these queries. */
export const TOKEN_CACHE_TTL_MS = 5_000;
const TOKEN_CACHE_MAX = 1_000;

export interface AuthUser {
  id: string;
  username: string;
  displayName: string;
  role: UserRole;
  /** How this request authenticated: a browser session (then `sessionId`), or an API token (then `tokenId`). */
  via: 'session' | 'token';
  tokenId?: string;
  /** The token's purpose (with `tokenId`): an `agent` token is refused by every route that does not accept it. */
  tokenPurpose?: TokenPurpose;
  sessionId?: string;
}

export interface AuthenticateInput {
  /** With `credentials` (createQueries has it), token lookups are cached; without, every request reads them. */
  q: Pick<Queries, 'tokens' | 'sessions'> & Partial<Pick<Queries, 'credentials'>>;
  headers: Pick<Headers, 'get'>;
  /** The cookie-signing secret (resolveSessionSecret). */
  secret: string;
  now?: number;
}

export const toAuthUser = (
  user: UserRow,
  via: AuthUser['via'],
  { tokenId, tokenPurpose, sessionId }: { tokenId?: string; tokenPurpose?: TokenPurpose; sessionId?: string } = {},
): AuthUser => ({
  id: user.id,
  username: user.username,
  displayName: user.displayName,
  role: user.role,
  via,
  ...(tokenId ? { tokenId } : {}),
  ...(tokenPurpose ? { tokenPurpose } : {}),
  ...(sessionId ? { sessionId } : {}),
});

/** A present but malformed or unknown Authorization header is "nobody", never a fallback to the cookie. */
export async function authenticate({
  q,
  headers,
  secret,
  now = Date.now(),
}: AuthenticateInput): Promise<AuthUser | undefined> {
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match ? authenticateToken(q, match[1]!, now) : undefined;
  }
  const sessionId = sessionIdFromCookie(headers.get('cookie'), { secret, now });
  if (!sessionId) return undefined;
  const found = await q.sessions.findSession({ id: sessionId });
  if (!found || found.user.disabled) return undefined;
  return toAuthUser(found.user, 'session', { sessionId });
}

async function authenticateToken(q: AuthenticateInput['q'], token: string, now: number): Promise<AuthUser | undefined> {
  const found = await findToken(q, hashToken(token), now);
  if (!found || !usable(found, now)) return undefined;
  const { token: row } = found;
  // Most requests skip the write: the use is recorded at most once a minute (the query re-checks).
  if (!touchedLately(row, now)) {
    await q.tokens.touchApiToken({ id: row.id, minIntervalS: TOUCH_INTERVAL_S });
    row.lastUsedAt = new Date(now);
  }
  return tokenUser(found);
}

/**
 * `authenticate` for a Bearer `authorization` header without waiting for anything (the MCP express
 * lane): the token's user when its rows are in the cache and fresh, it is usable, and its use was
 * recorded lately (nothing to write); else undefined, and the caller authenticates as usual. Never
 * a different answer than `authenticate` would give from the same cache.
 */
export function cachedTokenUser(
  q: Pick<AuthenticateInput['q'], 'credentials'>,
  authorization: string,
  now = Date.now(),
): AuthUser | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const found = match && q.credentials ? freshInCache(q.credentials, hashToken(match[1]!), now) : undefined;
  return found && usable(found, now) && touchedLately(found.token, now) ? tokenUser(found) : undefined;
}

const usable = ({ token: row, user }: FoundToken, now: number) =>
  !row.revokedAt && !(row.expiresAt && row.expiresAt.getTime() <= now) && !user.disabled;

const touchedLately = (row: ApiTokenRow, now: number) =>
  row.lastUsedAt !== null && now - row.lastUsedAt.getTime() < TOUCH_INTERVAL_S * 1000;

const tokenUser = ({ token: row, user }: FoundToken) =>
  toAuthUser(user, 'token', { tokenId: row.id, tokenPurpose: row.purpose });

interface FoundToken {
  token: ApiTokenRow;
  user: UserRow;
}

interface CachedToken {
  found: FoundToken;
  /** `credentials.version` before the rows were read: a change made meanwhile makes the entry stale. */
  version: number;
  at: number;
}

/** One cache per set of queries (per database): the server has one. Unknown tokens are never cached. */
const tokenCaches = new WeakMap<ChangeCounter, Map<string, CachedToken>>();

async function findToken(q: AuthenticateInput['q'], tokenHash: string, now: number): Promise<FoundToken | undefined> {
  const counter = q.credentials;
  if (!counter) return q.tokens.findApiToken({ tokenHash });
  const hit = freshInCache(counter, tokenHash, now);
  if (hit) return hit;
  let cache = tokenCaches.get(counter);
  if (!cache) tokenCaches.set(counter, (cache = new Map()));
  const version = counter.version;
  const found = await q.tokens.findApiToken({ tokenHash });
  if (!found) {
    cache.delete(tokenHash);
    return undefined;
  }
  if (cache.size >= TOKEN_CACHE_MAX) cache.clear();
  cache.set(tokenHash, { found, version, at: now });
  return found;
}

/** The cached rows of a token while nothing changed users or tokens and the TTL has not run out. */
function freshInCache(counter: ChangeCounter, tokenHash: string, now: number): FoundToken | undefined {
  const hit = tokenCaches.get(counter)?.get(tokenHash);
  return hit && hit.version === counter.version && now >= hit.at && now - hit.at < TOKEN_CACHE_TTL_MS
    ? hit.found
    : undefined;
}
