// Shadow mode in the server, on both stores: a run's real decisions are compared with the shadow
// and the differences stored, without changing what the run does; set, clear and promote.
import { expect, it } from 'vitest';
import { describeStores } from '../../db/test-support/stores';
import type { ShadowBatch } from '../../db';
import type { Policy } from '../../policy';
import { followRun, ofType, testRunManager, useTempWorkspace } from '../test-support/run-manager';
import { loadPolicy } from '../stores/policy-store';
import { ShadowMonitor, type ShadowWriter } from './monitor';
import { clearShadow, promoteShadow, setShadow, type ShadowContext } from './shadow-store';

const workspace = useTempWorkspace('gatehouse-shadow-');
const denyList: Policy = {
  defaultAction: 'ask',
  riskDefaults: { read_only: 'allow' },
  rules: [{ action: 'deny', tool: 'list_files' }],
};

describeStores('shadow mode', (store) => {
  function setup(writer?: ShadowWriter) {
    const { q, db } = store();
    const monitor = new ShadowMonitor({ writer: writer ?? q.shadow, writeDelayMs: 60_000 });
    const ctx: ShadowContext = { q, db, monitor };
    const m = testRunManager(q, workspace(), { observerFor: (policy) => monitor.observerFor(policy) });
    const run = async (content: string) => {
      const { runId } = await m.start({ messages: [{ role: 'user', content }] });
      return { runId, events: await followRun(m, runId) };
    };
    return { q, ctx, monitor, run };
  }

  it("a run's real decision is compared with the shadow: the difference is stored, the run unchanged", async () => {
    const { q, ctx, monitor, run } = setup();
    await loadPolicy(q);
    const shadow = await setShadow(ctx, { policy: denyList, createdBy: 'alice', note: 'no listing' });
    expect(shadow).toMatchObject({ baseVersion: 1, createdBy: 'alice' });
    const { runId, events } = await run('ls');
    expect(ofType(events, 'tool_call')[0]?.decision?.action).toBe('allow');
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ name: 'list_files', denied: false, isError: false });
    await monitor.flush();
    const diffs = await q.shadow.listShadowDiffs({ shadowId: shadow.id });
    expect(diffs.items).toEqual([
      expect.objectContaining({
        runId,
        agentId: 'main',
        tool: 'list_files',
        liveAction: 'allow',
        shadowAction: 'deny',
      }),
    ]);
    expect(await q.shadow.getShadow()).toMatchObject({ compared: 1, same: 0 });
  }, 30_000); // the first run of a file starts the bash helper; a run takes well under 1 s after

  it('a writer that fails changes nothing a run does', async () => {
    const batches: ShadowBatch[] = [];
    const failing: ShadowWriter = {
      recordShadowBatch: async (batch) => {
        batches.push(batch);
        throw new Error('database down');
      },
    };
    const plain = setup();
    await loadPolicy(plain.q);
    const before = (await plain.run('ls')).events;
    const broken = setup(failing);
    broken.monitor.set({ id: 'sh-x', policy: denyList });
    const after = (await broken.run('ls')).events;
    await broken.monitor.flush();
    expect(batches).toHaveLength(1);
    const shape = (events: typeof before) =>
      ofType(events, 'tool_result').map((e) => ({ name: e.name, denied: e.denied, isError: e.isError }));
    expect(shape(after)).toEqual(shape(before));
    expect(ofType(after, 'tool_call')[0]?.decision?.action).toBe('allow');
  }, 30_000);

  it('promote makes the shadow the live policy in one step: 412 on a stale version, then a new version, the shadow cleared, then 404', async () => {
    const { q, ctx } = setup();
    const live = await loadPolicy(q);
    await setShadow(ctx, { policy: denyList, createdBy: 'alice' });
    await expect(promoteShadow(ctx, { expectedVersion: live.version + 5, promotedBy: 'bob' })).rejects.toMatchObject({
      status: 412,
      code: 'conflict:policy_version',
    });
    expect(await q.shadow.getShadow()).toBeDefined();
    const promoted = await promoteShadow(ctx, { expectedVersion: live.version, promotedBy: 'bob' });
    expect(promoted.version).toBe(live.version + 1);
    expect((await loadPolicy(q)).policy.rules).toEqual(denyList.rules);
    expect(await q.shadow.getShadow()).toBeUndefined();
    expect(ctx.monitor.shadowId).toBeUndefined();
    const [edit] = (await q.audit.listAudit({ kind: 'policy_edit', limit: 1 })).items;
    expect(edit).toMatchObject({
      decidedBy: 'bob',
      details: { version: promoted.version, note: expect.stringContaining('Promoted from the shadow set by alice') },
    });
    await expect(promoteShadow(ctx, { expectedVersion: promoted.version, promotedBy: 'bob' })).rejects.toMatchObject({
      status: 404,
      code: 'not_found:shadow',
    });
  });

  it('an invalid shadow is refused with its fields, and clear removes only the shadow it names', async () => {
    const { q, ctx } = setup();
    await loadPolicy(q);
    await expect(setShadow(ctx, { policy: { rules: [{ action: 'deny' }] }, createdBy: 'alice' })).rejects.toMatchObject(
      { code: 'invalid_policy', issues: [expect.objectContaining({ path: 'rules.0.tool' })] },
    );
    const shadow = await setShadow(ctx, { policy: denyList, createdBy: 'alice' });
    await expect(clearShadow(ctx, 'another')).rejects.toMatchObject({ status: 404 });
    expect(ctx.monitor.shadowId).toBe(shadow.id);
    await clearShadow(ctx, shadow.id);
    expect(await q.shadow.getShadow()).toBeUndefined();
    expect(ctx.monitor.shadowId).toBeUndefined();
  });
});
