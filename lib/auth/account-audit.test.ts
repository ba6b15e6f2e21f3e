// An account change and its audit row are one transaction: the row is written with the change,
// a change that fails writes no row, and a row that cannot be written undoes the change.
import { expect, it } from 'vitest';
import { emptyAuthTablesBeforeEach } from '../db/test-support/auth-tables';
import { describeStores } from '../db/test-support/stores';
import { endUserSessions, startSession } from './sessions';
import { createApiToken, createUser, revokeApiToken, updateAccount } from './users';

const FAST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };

describeStores("account auditing inside the change's transaction", (store) => {
  emptyAuthTablesBeforeEach(store);

  const auditOf = async (kind: string) =>
    (await store().q.audit.listAudit({})).items.filter((row) => row.kind === kind);

  it('writes the row with the change, from its result', async () => {
    const { q } = store();
    const bob = await createUser({
      q,
      scrypt: FAST_SCRYPT,
      username: 'bob',
      role: 'user',
      audit: { by: 'admin', kind: 'user_created', details: (u) => ({ userId: u.id, username: u.username }) },
    });
    expect(await auditOf('user_created')).toMatchObject([
      { decidedBy: 'admin', details: { userId: bob.id, username: 'bob' } },
    ]);
    const token = await createApiToken({
      q,
      userId: bob.id,
      name: 'ci',
      audit: { by: 'bob', kind: 'token_created', details: (t) => ({ tokenId: t.id }) },
    });
    await revokeApiToken({
      q,
      id: token.id,
      userId: bob.id,
      audit: { by: 'bob', kind: 'token_revoked', details: (t) => t && { tokenId: token.id } },
    });
    // Nothing revoked, nothing recorded.
    expect(
      await revokeApiToken({
        q,
        id: token.id,
        userId: bob.id,
        audit: { by: 'bob', kind: 'token_revoked', details: (t) => t && { tokenId: token.id } },
      }),
    ).toBeUndefined();
    expect((await auditOf('token_revoked')).map((row) => row.details)).toEqual([{ tokenId: token.id }]);
  });

  it('a failed audit row leaves the change unmade (the user is not created, the role not changed)', async () => {
    const { q } = store();
    // PostgreSQL's jsonb refuses a NUL character: the audit insert fails.
    const unstorable = { note: 'a\u0000b' };
    await expect(
      createUser({
        q,
        scrypt: FAST_SCRYPT,
        username: 'carol',
        role: 'user',
        audit: { by: 'admin', kind: 'user_created', details: () => unstorable },
      }),
    ).rejects.toThrow();
    expect(await q.users.getUserByUsername({ username: 'carol' })).toBeUndefined();
    const dave = await createUser({ q, scrypt: FAST_SCRYPT, username: 'dave', role: 'user' });
    await expect(
      updateAccount({
        q,
        id: dave.id,
        role: 'approver',
        audit: { by: 'admin', kind: 'user_changed', details: () => unstorable },
      }),
    ).rejects.toThrow();
    expect(await q.users.getUser({ id: dave.id })).toMatchObject({ role: 'user' });
    expect(await auditOf('user_created')).toEqual([]);
  });

  it('a credential change inside the transaction is announced once it committed, not when it failed', async () => {
    const { q } = store();
    const erin = await createUser({ q, scrypt: FAST_SCRYPT, username: 'erin', role: 'user' });
    await startSession({ q, userId: erin.id, secret: 's'.repeat(32), secure: false });
    const before = q.credentials.version;
    await expect(
      endUserSessions({
        q,
        userId: erin.id,
        audit: { by: 'erin', kind: 'user_sessions_ended', details: () => ({ note: 'a\u0000b' }) },
      }),
    ).rejects.toThrow();
    expect(q.credentials.version).toBe(before);
    expect(
      await endUserSessions({
        q,
        userId: erin.id,
        audit: { by: 'erin', kind: 'user_sessions_ended', details: (n) => ({ ended: n }) },
      }),
    ).toBe(1);
    expect(q.credentials.version).toBeGreaterThan(before);
    expect((await auditOf('user_sessions_ended')).map((row) => row.details)).toEqual([{ ended: 1 }]);
  });
});
