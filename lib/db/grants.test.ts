import { expect, it } from 'vitest';
import type { Rule } from '../policy/types';
import { describeStores } from './test-support/stores';

const rule = (command: string, extra: Partial<Rule> = {}): Rule => ({
  action: 'allow',
  tool: 'bash',
  params: { command },
  ...extra,
});

describeStores('grants', (store) => {
  it("lists a session's grants with the global ones, not other sessions'", async () => {
    const { q } = store();
    const g = await q.grants.createGrant({ rule: rule('ls *'), scope: 'global', createdBy: 'admin' });
    const s1 = await q.grants.createGrant({
      rule: rule('git *'),
      scope: 'session',
      sessionId: 's1',
      createdBy: 'alice',
    });
    const s2 = await q.grants.createGrant({ rule: rule('npm *'), scope: 'session', sessionId: 's2', createdBy: 'bob' });
    expect(g).toMatchObject({ scope: 'global', sessionId: null, once: false, revokedAt: null });
    expect((await q.grants.listGrants({ sessionId: 's1' })).map((x) => x.id).sort()).toEqual([g.id, s1.id].sort());
    expect((await q.grants.listGrants({ sessionId: 's2' })).map((x) => x.rule)).toEqual(
      expect.arrayContaining([rule('ls *'), rule('npm *')]),
    );
    expect((await q.grants.listGrants({ sessionId: 'nobody' })).map((x) => x.id)).toEqual([g.id]);
    expect((await q.grants.listGrants()).map((x) => x.id).sort()).toEqual([g.id, s1.id, s2.id].sort());
  });

  it('needs a session id for a session grant', async () => {
    const { q } = store();
    await expect(q.grants.createGrant({ rule: rule('x'), scope: 'session', createdBy: 'a' })).rejects.toThrow(
      /sessionId/,
    );
  });

  it('revokes once, records who, and hides revoked grants unless asked', async () => {
    const { q } = store();
    const g = await q.grants.createGrant({
      rule: rule('git *'),
      scope: 'session',
      sessionId: 's1',
      createdBy: 'alice',
    });
    const revoked = await q.grants.revokeGrant({ id: g.id, revokedBy: 'admin' });
    expect(revoked).toMatchObject({ id: g.id, revokedBy: 'admin', consumedAt: null });
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    expect(await q.grants.revokeGrant({ id: g.id, revokedBy: 'someone' })).toBeUndefined();
    expect(await q.grants.revokeGrant({ id: 'missing', revokedBy: 'someone' })).toBeUndefined();
    expect(await q.grants.listGrants({ sessionId: 's1' })).toEqual([]);
    expect((await q.grants.listGrants({ sessionId: 's1', includeRevoked: true })).map((x) => x.revokedBy)).toEqual([
      'admin',
    ]);
    expect((await q.grants.getGrant({ id: g.id }))?.revokedBy).toBe('admin');
  });

  it('a revoke and its audit row are one transaction: a failed audit leaves the grant unrevoked', async () => {
    const { q } = store();
    const g = await q.grants.createGrant({
      rule: rule('git *'),
      scope: 'session',
      sessionId: 's1',
      createdBy: 'alice',
    });
    const taken = await q.audit.recordAudit({ kind: 'grant_revoked', decidedBy: 'earlier' });
    // The audit row cannot be written (its id is taken): nothing is revoked.
    await expect(
      q.grants.revokeGrant({
        id: g.id,
        revokedBy: 'admin',
        audit: (row) => ({ id: taken.id, kind: 'grant_revoked', decidedBy: 'admin', rule: row.rule }),
      }),
    ).rejects.toThrow();
    expect(await q.grants.getGrant({ id: g.id })).toMatchObject({ revokedAt: null, revokedBy: null });
    const revoked = await q.grants.revokeGrant({
      id: g.id,
      revokedBy: 'admin',
      audit: (row) => ({
        kind: 'grant_revoked',
        sessionId: row.sessionId ?? undefined,
        decidedBy: 'admin',
        rule: row.rule,
        details: { grantId: row.id },
      }),
    });
    expect(revoked).toMatchObject({ id: g.id, revokedBy: 'admin' });
    expect((await q.audit.listAudit({})).items.filter((a) => a.decidedBy === 'admin')).toMatchObject([
      { kind: 'grant_revoked', details: { grantId: g.id } },
    ]);
  });

  it('consumes an allow-once grant exactly once, even under concurrency', async () => {
    const { q } = store();
    const once = await q.grants.createGrant({
      rule: rule('echo *', { once: true }),
      scope: 'session',
      sessionId: 's1',
      createdBy: 'alice',
    });
    const always = await q.grants.createGrant({
      rule: rule('ls'),
      scope: 'session',
      sessionId: 's1',
      createdBy: 'alice',
    });
    expect(once.once).toBe(true);
    expect(await q.grants.consumeGrant({ id: always.id })).toBeUndefined();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => q.grants.consumeGrant({ id: once.id, consumedBy: 'run:r1' })),
    );
    const consumed = results.filter((r) => r !== undefined);
    expect(consumed).toHaveLength(1);
    expect(consumed[0]).toMatchObject({ revokedBy: 'run:r1' });
    expect(consumed[0]?.consumedAt).toBeInstanceOf(Date);
    expect((await q.grants.listGrants({ sessionId: 's1' })).map((x) => x.id)).toEqual([always.id]);
  });
});
