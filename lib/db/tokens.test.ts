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
    expect(token).toMatchObject({
      userId: user.id,
      name: 'ci',
      tokenHash: 'h1',
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    });
    expect(await q.tokens.findApiToken({ tokenHash: 'h1' })).toMatchObject({
      token: { id: token!.id },
      user: { id: user.id, username: 'alice' },
    });
    expect(await q.tokens.findApiToken({ tokenHash: 'nope' })).toBeUndefined();
  });

  it('returns undefined for a second token with the same hash (two processes storing GATEHOUSE_ADMIN_TOKEN)', async () => {
    const { q } = store();
    const user = await aUser(store());
    const results = await Promise.all(
      [1, 2, 3].map(() => q.tokens.createApiToken({ userId: user.id, name: 'env', tokenHash: 'same' })),
    );
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
    expect((await q.tokens.findApiToken({ tokenHash: 'h' }))!.token.lastUsedAt!.getTime()).toBeGreaterThan(
      first!.getTime(),
    );
  });

  it("revokes once, only the owner's token when a user is named, and hides revoked tokens unless asked", async () => {
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
    const created = (await q.tokens.createLoginToken({ tokenHash: 'l1', userId: user.id, ttlS: 60 }))!;
    expect(created.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => q.tokens.consumeLoginToken({ tokenHash: 'l1' })),
    );
    const winners = results.filter((r) => r !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ userId: user.id });
    expect(winners[0]!.usedAt).toBeInstanceOf(Date);
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'unknown' })).toBeUndefined();
  });

  it('refuses an expired login token and deletes stale ones', async () => {
    const { q } = store();
    // One user each: a user's new link deletes their unused older ones.
    const [ann, ben, cat] = [await aUser(store(), 'ann'), await aUser(store(), 'ben'), await aUser(store(), 'cat')];
    await q.tokens.createLoginToken({ tokenHash: 'expired', userId: ann.id, ttlS: -1 });
    await q.tokens.createLoginToken({ tokenHash: 'used', userId: ben.id, ttlS: 60 });
    await q.tokens.createLoginToken({ tokenHash: 'fresh', userId: cat.id, ttlS: 60 });
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'expired' })).toBeUndefined();
    await q.tokens.consumeLoginToken({ tokenHash: 'used' });
    expect(await q.tokens.deleteStaleLoginTokens()).toBe(2);
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'fresh' })).toBeDefined();
  });

  it('only the newest sign-in link of a user is valid; none is issued for a disabled or unknown user', async () => {
    const { q } = store();
    const user = await aUser(store());
    const other = await aUser(store(), 'bob');
    await q.tokens.createLoginToken({ tokenHash: 'first', userId: user.id, ttlS: 60 });
    await q.tokens.createLoginToken({ tokenHash: 'bobs', userId: other.id, ttlS: 60 });
    await q.tokens.createLoginToken({ tokenHash: 'second', userId: user.id, ttlS: 60 });
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'first' })).toBeUndefined();
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'second' })).toMatchObject({ userId: user.id });
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'bobs' })).toMatchObject({ userId: other.id });
    await q.users.updateUser({ id: user.id, disabled: true });
    expect(await q.tokens.createLoginToken({ tokenHash: 'third', userId: user.id, ttlS: 60 })).toBeUndefined();
    expect(await q.tokens.createLoginToken({ tokenHash: 'nobody', userId: 'no-such-user', ttlS: 60 })).toBeUndefined();
  });

  it('disabling with revokeCredentials revokes the API tokens and deletes the unused links of that user only', async () => {
    const { q } = store();
    const user = await aUser(store());
    const other = await aUser(store(), 'bob');
    await q.tokens.createApiToken({ userId: user.id, name: 'ci', tokenHash: 'api-alice' });
    await q.tokens.createApiToken({ userId: other.id, name: 'ci', tokenHash: 'api-bob' });
    await q.tokens.createLoginToken({ tokenHash: 'link-alice', userId: user.id, ttlS: 60 });
    await q.tokens.createLoginToken({ tokenHash: 'link-bob', userId: other.id, ttlS: 60 });
    await q.users.updateUser({ id: user.id, disabled: true, revokeCredentials: true });
    await q.users.updateUser({ id: user.id, disabled: false });
    expect((await q.tokens.findApiToken({ tokenHash: 'api-alice' }))!.token.revokedAt).toBeInstanceOf(Date);
    expect((await q.tokens.findApiToken({ tokenHash: 'api-bob' }))!.token.revokedAt).toBeNull();
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'link-alice' })).toBeUndefined();
    expect(await q.tokens.consumeLoginToken({ tokenHash: 'link-bob' })).toBeDefined();
  });

  it('keeps the first value of a setting, whoever writes it', async () => {
    const { q } = store();
    expect(await q.settings.getSetting({ key: 'k' })).toBeUndefined();
    const values = await Promise.all(['a', 'b', 'c'].map((value) => q.settings.ensureSetting({ key: 'k', value })));
    expect(new Set(values).size).toBe(1);
    expect(await q.settings.getSetting({ key: 'k' })).toBe(values[0]);
  });
});
