import { expect, it } from 'vitest';
import { emptyAuthTablesBeforeEach } from './test-support/auth-tables';
import { describeStores } from './test-support/stores';

describeStores('users', (store) => {
  emptyAuthTablesBeforeEach(store);

  it('creates a user and finds it by id and by username ignoring case', async () => {
    const { q } = store();
    const created = await q.users.createUser({ username: 'Alice', role: 'approver', passwordHash: 'scrypt$x' });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.user).toMatchObject({
      username: 'Alice',
      displayName: 'Alice',
      role: 'approver',
      disabled: false,
      passwordHash: 'scrypt$x',
    });
    expect(created.user.createdAt).toBeInstanceOf(Date);
    expect((await q.users.getUser({ id: created.user.id }))?.username).toBe('Alice');
    expect((await q.users.getUserByUsername({ username: 'aLICE' }))?.id).toBe(created.user.id);
    expect(await q.users.getUserByUsername({ username: 'bob' })).toBeUndefined();
    expect(await q.users.countUsers()).toBe(1);
  });

  it('refuses a username taken in another case, also when creates race', async () => {
    const { q } = store();
    expect((await q.users.createUser({ username: 'bob', role: 'user' })).ok).toBe(true);
    expect(await q.users.createUser({ username: 'BOB', role: 'admin' })).toEqual({
      ok: false,
      reason: 'username_taken',
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => q.users.createUser({ username: i % 2 ? 'Carol' : 'carol', role: 'user' })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await q.users.countUsers()).toBe(2);
  });

  it('rejects an unknown role in the database too', async () => {
    const { q } = store();
    await expect(q.users.createUser({ username: 'x', role: 'root' as never })).rejects.toThrow();
  });

  it('lists oldest first, by role, without disabled users when asked', async () => {
    const { q } = store();
    const ids: string[] = [];
    for (const [username, role] of [
      ['a', 'admin'],
      ['b', 'user'],
      ['c', 'user'],
    ] as const) {
      const r = await q.users.createUser({ username, role });
      if (r.ok) ids.push(r.user.id);
    }
    await q.users.updateUser({ id: ids[2]!, disabled: true });
    expect((await q.users.listUsers()).map((u) => u.username)).toEqual(['a', 'b', 'c']);
    expect((await q.users.listUsers({ role: 'user' })).map((u) => u.username)).toEqual(['b', 'c']);
    expect((await q.users.listUsers({ includeDisabled: false })).map((u) => u.username)).toEqual(['a', 'b']);
  });

  it('updates only what is given, bumps updated_at, and ends sessions on request', async () => {
    const { q } = store();
    const created = await q.users.createUser({ username: 'dave', role: 'user', passwordHash: 'old' });
    if (!created.ok) throw new Error('not created');
    const { user } = created;
    for (const id of ['s1', 's2', 's3']) await q.sessions.createSession({ id, userId: user.id, ttlS: 60 });
    const renamed = await q.users.updateUser({ id: user.id, displayName: 'Dave D.' });
    expect(renamed).toMatchObject({ ok: true, user: { displayName: 'Dave D.', passwordHash: 'old', role: 'user' } });
    expect(await q.sessions.findSession({ id: 's1' })).toBeDefined();
    await q.users.updateUser({ id: user.id, passwordHash: 'newer', endSessions: { except: 's3' } });
    expect(await q.sessions.findSession({ id: 's1' })).toBeUndefined();
    expect(await q.sessions.findSession({ id: 's3' })).toBeDefined();
    const reset = await q.users.updateUser({ id: user.id, passwordHash: 'new', endSessions: true });
    expect(reset).toMatchObject({ ok: true, user: { passwordHash: 'new' } });
    expect(await q.sessions.findSession({ id: 's3' })).toBeUndefined();
    if (reset.ok) expect(reset.user.updatedAt.getTime()).toBeGreaterThanOrEqual(user.updatedAt.getTime());
    expect(await q.users.updateUser({ id: user.id, passwordHash: null })).toMatchObject({
      ok: true,
      user: { passwordHash: null },
    });
    expect(await q.users.updateUser({ id: 'missing', role: 'admin' })).toEqual({ ok: false, reason: 'not_found' });
  });

  it('never leaves zero enabled admins: demoting or disabling the last one is refused', async () => {
    const { q } = store();
    const a = await q.users.createUser({ username: 'root', role: 'admin' });
    if (!a.ok) throw new Error('not created');
    expect(await q.users.updateUser({ id: a.user.id, role: 'user' })).toEqual({ ok: false, reason: 'last_admin' });
    expect(await q.users.updateUser({ id: a.user.id, disabled: true })).toEqual({ ok: false, reason: 'last_admin' });
    expect(await q.users.updateUser({ id: a.user.id, role: 'admin', displayName: 'Root' })).toMatchObject({ ok: true });
    const b = await q.users.createUser({ username: 'second', role: 'admin' });
    if (!b.ok) throw new Error('not created');
    expect(await q.users.updateUser({ id: a.user.id, disabled: true })).toMatchObject({
      ok: true,
      user: { disabled: true },
    });
    expect(await q.users.updateUser({ id: b.user.id, role: 'approver' })).toEqual({ ok: false, reason: 'last_admin' });
    expect((await q.users.firstEnabledAdmin())?.id).toBe(b.user.id);
  });

  it('of two admins demoting each other at once, exactly one succeeds', async () => {
    const { q } = store();
    const ids: string[] = [];
    for (const username of ['x1', 'x2']) {
      const r = await q.users.createUser({ username, role: 'admin' });
      if (r.ok) ids.push(r.user.id);
    }
    const results = await Promise.all([
      q.users.updateUser({ id: ids[0]!, role: 'user' }),
      q.users.updateUser({ id: ids[1]!, disabled: true }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'last_admin' }]);
    expect(await q.users.listUsers({ role: 'admin', includeDisabled: false })).toHaveLength(1);
  });

  it('finds the oldest enabled admin, optionally excluding one', async () => {
    const { q } = store();
    expect(await q.users.firstEnabledAdmin()).toBeUndefined();
    const a = await q.users.createUser({ username: 'a1', role: 'admin' });
    await new Promise((resolve) => setTimeout(resolve, 5)); // created_at has millisecond precision: no tie
    const b = await q.users.createUser({ username: 'a2', role: 'admin' });
    if (!a.ok || !b.ok) throw new Error('not created');
    expect((await q.users.firstEnabledAdmin())?.id).toBe(a.user.id);
    expect((await q.users.firstEnabledAdmin({ exceptId: a.user.id }))?.id).toBe(b.user.id);
  });
});
