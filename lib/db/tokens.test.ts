import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { emptyAuthTablesBeforeEach } from './test-support/auth-tables';
import { describeStores, type StoreContext } from './test-support/stores';

async function aUser({ q }: StoreContext, username = 'alice') {
  const created = await q.users.createUser({ username, role: 'user' });
  if (!created.ok) throw new Error('not created');
  return created.user;
}

describeStores('tokens', (store) => {
  emptyAuthTablesBeforeEach(store);

  it('stores an API token by hash and finds it with its user', async () => {
    const { q } = store();
    const user = await aUser(store());
    const token = await q.tokens.createApiToken({ userId: user.id, name: 'ci', tokenHash: 'h1' });
    expect(token).toMatchObject({ userId: user.id, name: 'ci', tokenHash: 'h1', lastUsedAt: null, expiresAt: null, revokedAt: null });
    expect(await q.tokens.findApiToken({ tokenHash: 'h1' })).toMatchObject({ token: { id: token!.id }, user: { id: user.id, username: 'alice' } });
    expect(await q.tokens.findApiToken({ tokenHash: 'nope' })).toBeUndefined();
  });

  it('returns undefined for a second token with the same hash (two processes storing GATEHOUSE_ADMIN_TOKEN)', async () => {
    const { q } = store();
    const user = await aUser(store());
    const results = await Promise.all([1, 2, 3].map(() => q.tokens.createApiToken({ userId: user.id, name: 'env', tokenHash: 'same' })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await q.tokens.listApiTokens({ userId: user.id })).toHaveLength(1);
  });

  it('records a use at most once per interval', async () => {
    const { q, db } = store();
    const user = await aUser(store());
    const token = (await q.tokens.createApiToken({ userId: user.id, name: 'ci', tokenHash: 'h' }))!;
    await q.tokens.touchApiToken({ id: token.id });
    const first = (await q.tokens.findApiToken({ tokenHash: 'h' }))!.token.lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await db.execute(sql`select pg_sleep(0.01)`);
    await q.tokens.touchApiToken({ id: token.id });
    expect((await q.tokens.findApiToken({ tokenHash: 'h' }))!.token.lastUsedAt).toEqual(first);
    await q.tokens.touchApiToken({ id: token.id, minIntervalS: 0 });
    expect((await q.tokens.findApiToken({ tokenHash: 'h' }))!.token.lastUsedAt!.getTime()).toBeGreaterThan(first!.getTime());
  });

  it('revokes once, only the owner\'s token when a user is named, and hides revoked tokens unless asked', async () => {
    const { q } = store();
    const alice = await aUser(store());
    const bob = await aUser(store(), 'bob');
    const token = (await q.tokens.createApiToken({ userId: alice.id, name: 'ci', tokenHash: 'h' }))!;
    expect(await q.tokens.revokeApiToken({ id: token.id, userId: bob.id })).toBeUndefined();
    expect((await q.tokens.revokeApiToken({ id: token.id, userId: alice.id }))?.revokedAt).toBeInstanceOf(Date);
    expect(await q.tokens.revokeApiToken({ id: token.id })).toBeUndefined();
    expect(await q.tokens.listApiTokens({ userId: alice.id })).toEqual([]);
    expect(await q.tokens.listApiTokens({ includeRevoked: true })).toHaveLength(1);
  });

  it('consumes a login token exactly once, even under concurrency', async () => {
    const { q } = store();
    const user = await aUser(store());
    const created = await q.tokens.createLoginToken({ tokenHash: 'l1', userId: user.id, ttlS: 60 });
    expect(created.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    const results = await Promise.all(Array.from({ length: 10 }, () => q.tokens.consumeLoginToken({ tokenHash: 'l1' })));
    const winners = results.filter((r) => r !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ userId: user.id });
    expect(winners[0]!.usedAt).toBeInstanceOf(Date);
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'unknown' })).toBeUndefined();
  });

  it('refuses an expired login token and deletes stale ones', async () => {
    const { q } = store();
    const user = await aUser(store());
    await q.tokens.createLoginToken({ tokenHash: 'expired', userId: user.id, ttlS: -1 });
    await q.tokens.createLoginToken({ tokenHash: 'used', userId: user.id, ttlS: 60 });
    await q.tokens.createLoginToken({ tokenHash: 'fresh', userId: user.id, ttlS: 60 });
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'expired' })).toBeUndefined();
    await q.tokens.consumeLoginToken({ tokenHash: 'used' });
    expect(await q.tokens.deleteStaleLoginTokens()).toBe(2);
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'fresh' })).toBeDefined();
  });

  it('keeps the first value of a setting, whoever writes it', async () => {
    const { q } = store();
    expect(await q.settings.getSetting({ key: 'k' })).toBeUndefined();
    const values = await Promise.all(['a', 'b', 'c'].map((value) => q.settings.ensureSetting({ key: 'k', value })));
    expect(new Set(values).size).toBe(1);
    expect(await q.settings.getSetting({ key: 'k' })).toBe(values[0]);
  });
});
