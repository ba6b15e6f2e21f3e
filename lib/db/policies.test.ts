import { expect, it } from 'vitest';
import type { Policy } from '../policy/types';
import { describeStores } from './test-support/stores';

const policy = (tool: string): Policy => ({ defaultAction: 'ask', rules: [{ action: 'allow', tool }] });

describeStores('policies', (store) => {
  it('starts empty, then numbers every save', async () => {
    const { q } = store();
    expect(await q.policies.getLatestPolicy()).toBeUndefined();
    const first = await q.policies.savePolicy({
      policy: policy('read_file'),
      expectedVersion: 0,
      createdBy: 'alice',
      note: 'initial',
    });
    expect(first).toMatchObject({
      ok: true,
      version: { version: 1, createdBy: 'alice', note: 'initial', policy: policy('read_file') },
    });
    const second = await q.policies.savePolicy({ policy: policy('bash'), expectedVersion: 1, createdBy: 'bob' });
    expect(second).toMatchObject({ ok: true, version: { version: 2, note: null } });
    expect(await q.policies.getLatestPolicy()).toMatchObject({ version: 2, policy: policy('bash') });
    expect((await q.policies.getPolicyVersion({ version: 1 }))?.policy).toEqual(policy('read_file'));
    expect(await q.policies.getPolicyVersion({ version: 9 })).toBeUndefined();
    expect((await q.policies.listPolicyVersions()).map((v) => v.version)).toEqual([2, 1]);
    expect((await q.policies.listPolicyVersions({ beforeVersion: 2 })).map((v) => v.version)).toEqual([1]);
  });

  it('refuses a save based on a stale or unknown version', async () => {
    const { q } = store();
    await q.policies.savePolicy({ policy: policy('a'), expectedVersion: 0, createdBy: 'alice' });
    await q.policies.savePolicy({ policy: policy('b'), expectedVersion: 1, createdBy: 'alice' });
    expect(await q.policies.savePolicy({ policy: policy('c'), expectedVersion: 1, createdBy: 'bob' })).toEqual({
      ok: false,
      currentVersion: 2,
    });
    expect(await q.policies.savePolicy({ policy: policy('c'), expectedVersion: 5, createdBy: 'bob' })).toEqual({
      ok: false,
      currentVersion: 2,
    });
    expect(await q.policies.savePolicy({ policy: policy('c'), expectedVersion: 0, createdBy: 'bob' })).toEqual({
      ok: false,
      currentVersion: 2,
    });
    expect((await q.policies.getLatestPolicy())?.policy).toEqual(policy('b'));
  });

  it('lets exactly one of concurrent saves on the same version win', async () => {
    const { q } = store();
    await q.policies.savePolicy({ policy: policy('a'), expectedVersion: 0, createdBy: 'alice' });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        q.policies.savePolicy({ policy: policy(`t${i}`), expectedVersion: 1, createdBy: `u${i}` }),
      ),
    );
    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual(Array.from({ length: 9 }, () => ({ ok: false, currentVersion: 2 })));
    expect((await q.policies.listPolicyVersions()).map((v) => v.version)).toEqual([2, 1]);
  });
});
