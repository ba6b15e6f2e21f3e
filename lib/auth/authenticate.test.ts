import { sql } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { emptyAuthTablesBeforeEach } from '../db/test-support/auth-tables';
import { describeStores, type StoreContext } from '../db/test-support/stores';
import { authenticate, cachedTokenUser, TOKEN_CACHE_TTL_MS } from './authenticate';
import { createSessionValue } from './session-cookie';
import { endSession, endUserSessions, startSession } from './sessions';
import { generateSessionToken, hashToken } from './tokens';
import { createApiToken, resetPassword, setDisabled } from './users';

const secret = 'authenticate-test-secret-0123456789';
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const headers = (h: Record<string, string>) => new Headers(h);
/** Signs `user` in (a stored session) and returns the Cookie header the browser would send, and the session's id. */
async function signIn(q: StoreContext['q'], user: { id: string }, now = Date.now()) {
  const { cookie, sessionId } = await startSession({ q, userId: user.id, secret, secure: false, now });
  return { cookie: cookie.split(';')[0]!, sessionId };
}
const cookieOnly = ({ cookie }: { cookie: string }) => ({ cookie });

async function twoUsers({ q }: StoreContext) {
  const a = await q.users.createUser({ username: 'alice', role: 'user' });
  const b = await q.users.createUser({ username: 'root', role: 'admin' });
  if (!a.ok || !b.ok) throw new Error('not created');
  return { alice: a.user, admin: b.user };
}

describeStores('authenticate', (store) => {
  emptyAuthTablesBeforeEach(store);

  it('nobody without a cookie or token', async () => {
    expect(await authenticate({ q: store().q, headers: headers({}), secret })).toBeUndefined();
  });

  it('a valid session cookie is its user, loaded fresh (role changes apply at once)', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const session = await signIn(q, alice);
    expect(await authenticate({ q, headers: headers(cookieOnly(session)), secret })).toEqual({
      id: alice.id,
      username: 'alice',
      displayName: 'alice',
      role: 'user',
      via: 'session',
      sessionId: session.sessionId,
    });
    await q.users.updateUser({ id: alice.id, role: 'approver' });
    expect((await authenticate({ q, headers: headers(cookieOnly(session)), secret }))?.role).toBe('approver');
  });

  it('refuses a forged, expired or foreign-secret cookie, and a signed one that names no stored session', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const old = Date.now() - 8 * 24 * 3600 * 1000;
    expect(
      await authenticate({ q, headers: headers(cookieOnly(await signIn(q, alice, old))), secret }),
    ).toBeUndefined();
    expect(
      await authenticate({ q, headers: headers(cookieOnly(await signIn(q, alice))), secret: `${secret}-other` }),
    ).toBeUndefined();
    expect(
      await authenticate({ q, headers: headers({ cookie: `gh_session=${alice.id}.0.1.99999999999.AAAA` }), secret }),
    ).toBeUndefined();
    const unstored = createSessionValue({ token: generateSessionToken(), secret });
    expect(await authenticate({ q, headers: headers({ cookie: `gh_session=${unstored}` }), secret })).toBeUndefined();
  });

  it('signing out ends the session: a copy of its cookie is refused, other sessions go on', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const laptop = await signIn(q, alice);
    const phone = await signIn(q, alice);
    const copy = { ...laptop };
    expect(await endSession({ q, cookieHeader: laptop.cookie, secret })).toBe(true);
    expect(await authenticate({ q, headers: headers(cookieOnly(copy)), secret })).toBeUndefined();
    expect(await authenticate({ q, headers: headers(cookieOnly(phone)), secret })).toMatchObject({ id: alice.id });
    expect(await endSession({ q, cookieHeader: laptop.cookie, secret })).toBe(false);
  });

  it('signing out everywhere ends every session of that user only (but the one kept)', async () => {
    const { q } = store();
    const { alice, admin } = await twoUsers(store());
    const [a1, a2, a3] = [await signIn(q, alice), await signIn(q, alice), await signIn(q, alice)];
    const root = await signIn(q, admin);
    expect(await endUserSessions({ q, userId: alice.id, exceptId: a3.sessionId })).toBe(2);
    for (const ended of [a1, a2])
      expect(await authenticate({ q, headers: headers(cookieOnly(ended)), secret })).toBeUndefined();
    expect(await authenticate({ q, headers: headers(cookieOnly(a3)), secret })).toBeDefined();
    expect(await authenticate({ q, headers: headers(cookieOnly(root)), secret })).toBeDefined();
    expect(await endUserSessions({ q, userId: alice.id })).toBe(1);
    expect(await authenticate({ q, headers: headers(cookieOnly(a3)), secret })).toBeUndefined();
  });

  it('a session stored as expired (database clock) is refused though its cookie is not', async () => {
    const { q, db } = store();
    const { alice } = await twoUsers(store());
    const session = await signIn(q, alice);
    await db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = ${session.sessionId}`);
    expect(await authenticate({ q, headers: headers(cookieOnly(session)), secret })).toBeUndefined();
  });

  it('a cookie stops working when the user is disabled (also after re-enabling) or their password is reset', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const before = await signIn(q, alice);
    await setDisabled({ q, id: alice.id, disabled: true });
    expect(await authenticate({ q, headers: headers(cookieOnly(before)), secret })).toBeUndefined();
    await expect(signIn(q, alice)).rejects.toMatchObject({ code: 'unauthorized:disabled' });
    const enabled = await setDisabled({ q, id: alice.id, disabled: false });
    expect(enabled.disabled).toBe(false);
    expect(await authenticate({ q, headers: headers(cookieOnly(before)), secret })).toBeUndefined();
    const fresh = await signIn(q, alice);
    expect(await authenticate({ q, headers: headers(cookieOnly(fresh)), secret })).toBeDefined();
    await resetPassword({ q, scrypt: FAST, id: alice.id, password: 'a brand new password' });
    expect(await authenticate({ q, headers: headers(cookieOnly(fresh)), secret })).toBeUndefined();
  });

  it("resetting one's own password keeps the session it was done from", async () => {
    const { q } = store();
    const { admin } = await twoUsers(store());
    const here = await signIn(q, admin);
    const elsewhere = await signIn(q, admin);
    await resetPassword({
      q,
      scrypt: FAST,
      id: admin.id,
      password: 'a brand new password',
      keepSessionId: here.sessionId,
    });
    expect(await authenticate({ q, headers: headers(cookieOnly(here)), secret })).toBeDefined();
    expect(await authenticate({ q, headers: headers(cookieOnly(elsewhere)), secret })).toBeUndefined();
  });

  it('a cookie of a deleted user is nobody', async () => {
    const { q, db } = store();
    const { alice } = await twoUsers(store());
    const session = await signIn(q, alice);
    await db.execute(sql`DELETE FROM users WHERE id = ${alice.id}`);
    expect(await authenticate({ q, headers: headers(cookieOnly(session)), secret })).toBeUndefined();
  });

  it('a Bearer API token is its user, and records the use', async () => {
    const { q } = store();
    const { admin } = await twoUsers(store());
    const { token, id } = await createApiToken({ q, userId: admin.id, name: 'cli' });
    const user = await authenticate({ q, headers: headers({ authorization: `Bearer ${token}` }), secret });
    expect(user).toEqual({
      id: admin.id,
      username: 'root',
      displayName: 'root',
      role: 'admin',
      via: 'token',
      tokenId: id,
      tokenPurpose: 'full',
    });
    expect((await q.tokens.listApiTokens({ userId: admin.id }))[0]?.lastUsedAt).toBeInstanceOf(Date);
    expect(await authenticate({ q, headers: headers({ authorization: `bearer   ${token}` }), secret })).toBeDefined();
  });

  it("an agent token's purpose reaches the caller, so every route can refuse it", async () => {
    const { q } = store();
    const { admin } = await twoUsers(store());
    const { token } = await createApiToken({ q, userId: admin.id, name: 'hook', purpose: 'agent' });
    const user = await authenticate({ q, headers: headers({ authorization: `Bearer ${token}` }), secret });
    expect(user).toMatchObject({ id: admin.id, role: 'admin', via: 'token', tokenPurpose: 'agent' });
  });

  it("refuses a revoked, expired or unknown token, or a disabled user's", async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const revoked = await createApiToken({ q, userId: alice.id, name: 'r' });
    await q.tokens.revokeApiToken({ id: revoked.id });
    const expired = await createApiToken({ q, userId: alice.id, name: 'e', expiresAt: new Date(Date.now() - 1000) });
    const live = await createApiToken({ q, userId: alice.id, name: 'l' });
    const as = (token: string) => authenticate({ q, headers: headers({ authorization: `Bearer ${token}` }), secret });
    expect(await as(revoked.token)).toBeUndefined();
    expect(await as(expired.token)).toBeUndefined();
    expect(await as('gh_unknown')).toBeUndefined();
    expect(await as(live.token)).toBeDefined();
    await setDisabled({ q, id: alice.id, disabled: true });
    expect(await as(live.token)).toBeUndefined();
  });

  it('disabling a user revokes their API tokens: re-enabling brings none back', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const { token } = await createApiToken({ q, userId: alice.id, name: 'cli' });
    const as = () => authenticate({ q, headers: headers({ authorization: `Bearer ${token}` }), secret });
    expect(await as()).toBeDefined();
    await setDisabled({ q, id: alice.id, disabled: true });
    await setDisabled({ q, id: alice.id, disabled: false });
    expect(await as()).toBeUndefined();
    expect(await q.tokens.listApiTokens({ userId: alice.id })).toEqual([]);
    expect((await q.tokens.listApiTokens({ userId: alice.id, includeRevoked: true }))[0]?.revokedAt).toBeInstanceOf(
      Date,
    );
  });

  it('reads a token once within the cache TTL; a revoke or a disable through the queries applies at once', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const { token, id } = await createApiToken({ q, userId: alice.id, name: 'cli' });
    const find = vi.spyOn(q.tokens, 'findApiToken');
    try {
      const as = () => authenticate({ q, headers: headers({ authorization: `Bearer ${token}` }), secret });
      expect(await as()).toBeDefined();
      expect(await as()).toBeDefined();
      expect(find).toHaveBeenCalledTimes(1);
      await q.tokens.revokeApiToken({ id });
      expect(await as()).toBeUndefined();
      expect(find).toHaveBeenCalledTimes(2);
      const second = await createApiToken({ q, userId: alice.id, name: 'cli 2' });
      const as2 = () => authenticate({ q, headers: headers({ authorization: `Bearer ${second.token}` }), secret });
      expect(await as2()).toBeDefined();
      await setDisabled({ q, id: alice.id, disabled: true });
      expect(await as2()).toBeUndefined();
      expect(find).toHaveBeenCalledTimes(4);
    } finally {
      find.mockRestore();
    }
  });

  it("sees a change made behind the queries' back (another instance) within the TTL, and never caches an unknown token", async () => {
    const { q, db } = store();
    const { alice } = await twoUsers(store());
    const { token, id } = await createApiToken({ q, userId: alice.id, name: 'cli' });
    const t0 = Date.now();
    const as = (now: number, bearer = token) =>
      authenticate({ q, headers: headers({ authorization: `Bearer ${bearer}` }), secret, now });
    expect(await as(t0)).toBeDefined();
    await db.execute(sql`UPDATE api_tokens SET revoked_at = now() WHERE id = ${id}`);
    expect(await as(t0 + TOKEN_CACHE_TTL_MS - 1)).toBeDefined();
    expect(await as(t0 + TOKEN_CACHE_TTL_MS)).toBeUndefined();
    // Created behind the queries' back: found on first use, since a miss is not remembered.
    const missing = 'gh_created-elsewhere';
    expect(await as(t0, missing)).toBeUndefined();
    await db.execute(
      sql`INSERT INTO api_tokens (id, user_id, name, token_hash) VALUES ('t-elsewhere', ${alice.id}, 'x', ${hashToken(missing)})`,
    );
    expect(await as(t0, missing)).toBeDefined();
  });

  it('cachedTokenUser (the MCP express lane) answers only from a fresh cache entry, as authenticate would', async () => {
    const { q, db } = store();
    const { alice } = await twoUsers(store());
    const { token, id } = await createApiToken({ q, userId: alice.id, name: 'cli' });
    const bearer = `Bearer ${token}`;
    const t0 = Date.now();
    // Never read, so never cached: the lane hands the request to the usual path.
    expect(cachedTokenUser(q, bearer, t0)).toBeUndefined();
    const user = await authenticate({ q, headers: headers({ authorization: bearer }), secret, now: t0 });
    expect(cachedTokenUser(q, bearer, t0)).toEqual(user);
    expect(cachedTokenUser(q, `bearer   ${token}`, t0)).toEqual(user);
    for (const bad of ['', token, `Bearer ${token}x`, `Basic ${token}`, 'Bearer gh_unknown'])
      expect(cachedTokenUser(q, bad, t0)).toBeUndefined();
    // The TTL runs out as for authenticate, and a change behind the queries' back is then seen.
    expect(cachedTokenUser(q, bearer, t0 + TOKEN_CACHE_TTL_MS)).toBeUndefined();
    expect(cachedTokenUser(q, bearer, t0 - 1)).toBeUndefined();
    // A use not recorded for a minute needs a write: that is the usual path's.
    await db.execute(sql`UPDATE api_tokens SET last_used_at = now() - interval '2 minutes' WHERE id = ${id}`);
    expect(cachedTokenUser(q, bearer, t0)).toEqual(user);
    expect(cachedTokenUser(q, bearer, t0 + 60_000)).toBeUndefined();
    // A revoke through the queries empties the cache at once.
    await q.tokens.revokeApiToken({ id });
    expect(cachedTokenUser(q, bearer, t0)).toBeUndefined();
  });

  it('cachedTokenUser refuses a cached token of a disabled user or one past its expiry', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const expiresAt = new Date(Date.now() + 60_000);
    const { token } = await createApiToken({ q, userId: alice.id, name: 'soon', expiresAt });
    const bearer = `Bearer ${token}`;
    const now = Date.now();
    expect(await authenticate({ q, headers: headers({ authorization: bearer }), secret, now })).toBeDefined();
    expect(cachedTokenUser(q, bearer, now)).toBeDefined();
    expect(cachedTokenUser(q, bearer, expiresAt.getTime())).toBeUndefined();
    await setDisabled({ q, id: alice.id, disabled: true });
    expect(cachedTokenUser(q, bearer, now)).toBeUndefined();
  });

  it('a present but bad Authorization header never falls back to the cookie', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const session = cookieOnly(await signIn(q, alice));
    expect(
      await authenticate({ q, headers: headers({ ...session, authorization: 'Bearer nope' }), secret }),
    ).toBeUndefined();
    expect(
      await authenticate({ q, headers: headers({ ...session, authorization: 'Basic YTpi' }), secret }),
    ).toBeUndefined();
  });
});
