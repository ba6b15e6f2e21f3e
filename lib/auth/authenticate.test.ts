import { sql } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { emptyAuthTablesBeforeEach } from '../db/test-support/auth-tables';
import { describeStores, type StoreContext } from '../db/test-support/stores';
import { authenticate, TOKEN_CACHE_TTL_MS } from './authenticate';
import { createSessionValue } from './session-cookie';
import { hashToken } from './tokens';
import { createApiToken, resetPassword, setDisabled } from './users';

const secret = 'authenticate-test-secret-0123456789';
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const headers = (h: Record<string, string>) => new Headers(h);
const cookieFor = (user: { id: string; sessionGeneration: number }, now = Date.now()) => ({ cookie: `gh_session=${createSessionValue({ userId: user.id, generation: user.sessionGeneration, secret, now })}` });

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
    expect(await authenticate({ q, headers: headers(cookieFor(alice)), secret })).toEqual({ id: alice.id, username: 'alice', displayName: 'alice', role: 'user', via: 'session' });
    await q.users.updateUser({ id: alice.id, role: 'approver' });
    expect((await authenticate({ q, headers: headers(cookieFor(alice)), secret }))?.role).toBe('approver');
  });

  it('refuses a forged, expired or foreign-secret cookie', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const old = Date.now() - 8 * 24 * 3600 * 1000;
    expect(await authenticate({ q, headers: headers(cookieFor(alice, old)), secret })).toBeUndefined();
    expect(await authenticate({ q, headers: headers(cookieFor(alice)), secret: `${secret}-other` })).toBeUndefined();
    expect(await authenticate({ q, headers: headers({ cookie: `gh_session=${alice.id}.0.1.99999999999.AAAA` }), secret })).toBeUndefined();
  });

  it('a cookie stops working when the user is disabled (also after re-enabling) or resets the password', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    const before = cookieFor(alice);
    await setDisabled({ q, id: alice.id, disabled: true });
    expect(await authenticate({ q, headers: headers(before), secret })).toBeUndefined();
    const enabled = await setDisabled({ q, id: alice.id, disabled: false });
    expect(enabled.disabled).toBe(false);
    expect(await authenticate({ q, headers: headers(before), secret })).toBeUndefined();
    const current = (await q.users.getUser({ id: alice.id }))!;
    const fresh = cookieFor(current);
    expect(await authenticate({ q, headers: headers(fresh), secret })).toBeDefined();
    await resetPassword({ q, scrypt: FAST, id: alice.id, password: 'a brand new password' });
    expect(await authenticate({ q, headers: headers(fresh), secret })).toBeUndefined();
  });

  it('a cookie of a deleted user is nobody', async () => {
    const { q, db } = store();
    const { alice } = await twoUsers(store());
    const cookie = cookieFor(alice);
    await db.execute(sql`DELETE FROM users WHERE id = ${alice.id}`);
    expect(await authenticate({ q, headers: headers(cookie), secret })).toBeUndefined();
  });

  it('a Bearer API token is its user, and records the use', async () => {
    const { q } = store();
    const { admin } = await twoUsers(store());
    const { token, id } = await createApiToken({ q, userId: admin.id, name: 'cli' });
    const user = await authenticate({ q, headers: headers({ authorization: `Bearer ${token}` }), secret });
    expect(user).toEqual({ id: admin.id, username: 'root', displayName: 'root', role: 'admin', via: 'token', tokenId: id });
    expect((await q.tokens.listApiTokens({ userId: admin.id }))[0]?.lastUsedAt).toBeInstanceOf(Date);
    expect(await authenticate({ q, headers: headers({ authorization: `bearer   ${token}` }), secret })).toBeDefined();
  });

  it('refuses a revoked, expired or unknown token, or a disabled user\'s', async () => {
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
      await setDisabled({ q, id: alice.id, disabled: true });
      expect(await as()).toBeUndefined();
      await setDisabled({ q, id: alice.id, disabled: false });
      expect(await as()).toBeDefined();
      await q.tokens.revokeApiToken({ id });
      expect(await as()).toBeUndefined();
      expect(find).toHaveBeenCalledTimes(4);
    } finally {
      find.mockRestore();
    }
  });

  it('sees a change made behind the queries\' back (another instance) within the TTL, and never caches an unknown token', async () => {
    const { q, db } = store();
    const { alice } = await twoUsers(store());
    const { token, id } = await createApiToken({ q, userId: alice.id, name: 'cli' });
    const t0 = Date.now();
    const as = (now: number, bearer = token) => authenticate({ q, headers: headers({ authorization: `Bearer ${bearer}` }), secret, now });
    expect(await as(t0)).toBeDefined();
    await db.execute(sql`UPDATE api_tokens SET revoked_at = now() WHERE id = ${id}`);
    expect(await as(t0 + TOKEN_CACHE_TTL_MS - 1)).toBeDefined();
    expect(await as(t0 + TOKEN_CACHE_TTL_MS)).toBeUndefined();
    // Created behind the queries' back: found on first use, since a miss is not remembered.
    const missing = 'gh_created-elsewhere';
    expect(await as(t0, missing)).toBeUndefined();
    await db.execute(sql`INSERT INTO api_tokens (id, user_id, name, token_hash) VALUES ('t-elsewhere', ${alice.id}, 'x', ${hashToken(missing)})`);
    expect(await as(t0, missing)).toBeDefined();
  });

  it('a present but bad Authorization header never falls back to the cookie', async () => {
    const { q } = store();
    const { alice } = await twoUsers(store());
    expect(await authenticate({ q, headers: headers({ ...cookieFor(alice), authorization: 'Bearer nope' }), secret })).toBeUndefined();
    expect(await authenticate({ q, headers: headers({ ...cookieFor(alice), authorization: 'Basic YTpi' }), secret })).toBeUndefined();
  });
});
