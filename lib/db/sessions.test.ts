import { asc, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sessions as sessionsTable } from './schema';
import { sessionQueries } from './sessions';
import { emptyAuthTablesBeforeEach } from './test-support/auth-tables';
import { describeStores, type StoreContext } from './test-support/stores';

async function aUser({ q }: StoreContext, username = 'alice') {
  const created = await q.users.createUser({ username, role: 'user' });
  if (!created.ok) throw new Error('not created');
  return created.user;
}

describeStores('sessions', (store) => {
  emptyAuthTablesBeforeEach(store);

  it('a stored session finds its user until it expires (database clock)', async () => {
    const { q, db } = store();
    const user = await aUser(store());
    const row = await q.sessions.createSession({ id: 's1', userId: user.id, ttlS: 60 });
    expect(row).toMatchObject({ id: 's1', userId: user.id });
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(await q.sessions.findSession({ id: 's1' })).toMatchObject({
      session: { id: 's1' },
      user: { id: user.id, username: 'alice' },
    });
    expect(await q.sessions.findSession({ id: 'unknown' })).toBeUndefined();
    await db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = 's1'`);
    expect(await q.sessions.findSession({ id: 's1' })).toBeUndefined();
  });

  it('is not created for a disabled or unknown user', async () => {
    const { q } = store();
    const user = await aUser(store());
    await q.users.updateUser({ id: user.id, disabled: true });
    expect(await q.sessions.createSession({ id: 's1', userId: user.id, ttlS: 60 })).toBeUndefined();
    expect(await q.sessions.createSession({ id: 's2', userId: 'no-such-user', ttlS: 60 })).toBeUndefined();
  });

  it("a new session removes everyone's expired ones", async () => {
    const { q, db } = store();
    const [alice, bob] = [await aUser(store()), await aUser(store(), 'bob')];
    await q.sessions.createSession({ id: 'old', userId: bob.id, ttlS: 60 });
    await db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = 'old'`);
    await q.sessions.createSession({ id: 'new', userId: alice.id, ttlS: 60 });
    const rows = await db.select({ id: sessionsTable.id }).from(sessionsTable).orderBy(asc(sessionsTable.id));
    expect(rows.map((r) => r.id)).toEqual(['new']);
  });

  it("ends one session, or all of a user's but one, and names the user to the change listener", async () => {
    const { db } = store();
    const changed: string[] = [];
    const sessions = sessionQueries(db, (userId) => changed.push(userId));
    const [alice, bob] = [await aUser(store()), await aUser(store(), 'bob')];
    for (const id of ['a1', 'a2', 'a3']) await sessions.createSession({ id, userId: alice.id, ttlS: 60 });
    await sessions.createSession({ id: 'b1', userId: bob.id, ttlS: 60 });
    expect(changed).toEqual([]);
    expect(await sessions.deleteSession({ id: 'a1' })).toMatchObject({ id: 'a1', userId: alice.id });
    expect(await sessions.deleteSession({ id: 'a1' })).toBeUndefined();
    expect(changed).toEqual([alice.id]);
    expect(await sessions.deleteUserSessions({ userId: alice.id, exceptId: 'a3' })).toBe(1);
    expect(await sessions.findSession({ id: 'a3' })).toBeDefined();
    expect(await sessions.deleteUserSessions({ userId: alice.id })).toBe(1);
    expect(await sessions.findSession({ id: 'a3' })).toBeUndefined();
    expect(await sessions.findSession({ id: 'b1' })).toBeDefined();
    expect(changed).toEqual([alice.id, alice.id, alice.id]);
  });
});
