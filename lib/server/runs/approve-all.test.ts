// "Approve this and all later calls": the run's whole queue of calls Auto-approve allows is
// approved, each as the caller's own decision; a call under an ask rule keeps waiting for its own.
import { describe, expect, it } from 'vitest';
import type { Queries } from '../../db';
import { RelayAlreadyResolvedError } from '../../relay';
import { describeStores } from '../../db/test-support/stores';
import { loadPolicy, savePolicyVersion } from '../stores/policy-store';
import { approveAllPending, APPROVE_ALL_REASON } from './approve-all';
import { followRun, testRunManager, useTempWorkspace } from '../test-support/run-manager';

const workspace = useTempWorkspace('gatehouse-approve-all-');

describeStores('approve all', (store) => {
  it('approves the run’s whole queue that Auto-approve allows, as the caller; an ask rule’s call waits for its own decision', async () => {
    const { q } = store();
    const { version, policy } = await loadPolicy(q);
    await savePolicyVersion(q, {
      policy: {
        ...policy,
        rules: [...(policy.rules ?? []), { action: 'ask', tool: 'bash', params: { command: 'echo gated *' } }],
      },
      expectedVersion: version,
      createdBy: 'admin',
    });
    const m = testRunManager(q, workspace());
    const { runId } = await m.start({
      messages: [{ role: 'user', content: '$ echo one\n$ echo two\n$ echo three\n$ echo gated four' }],
      owner: 'u1',
    });
    const relays: string[] = [];
    const done = followRun(m, runId, 0, (event) => {
      if (event.type === 'relay') relays.push(event.id);
    });
    await expect.poll(() => relays.length).toBe(4);

    const result = await approveAllPending(m, q, runId, 'alice');
    expect(result.approved).toHaveLength(3);
    expect(result.left).toHaveLength(1);
    const gated = await q.relays.getRelay({ id: result.left[0]! });
    expect(gated?.request.params).toEqual({ command: 'echo gated four' });
    expect(gated?.status).toBe('pending');
    for (const id of result.approved)
      expect(await q.relays.getRelay({ id })).toMatchObject({
        status: 'approved',
        decidedBy: 'alice',
        reason: APPROVE_ALL_REASON,
      });
    expect((await q.runs.getRun({ id: runId }))?.mode).toBe('bypassPermissions');

    await m.decideChecked(result.left[0]!, { approved: false }, 'alice');
    await done;
  }, 30_000);
});

describe('approve all, when a relay is decided meanwhile', () => {
  it('the broker’s own 409 for one relay (decided elsewhere) does not stop the rest of the queue', async () => {
    const decided: string[] = [];
    const runs = {
      setMode: async () => undefined,
      decideChecked: async (id: string) => {
        if (id === 'r1') throw new RelayAlreadyResolvedError('r1', { status: 'expired' } as never);
        decided.push(id);
        return undefined as never;
      },
    };
    const row = (id: string) => ({ id, request: { autoApprove: true } });
    const q = { relays: { listPendingRelays: async () => [row('r1'), row('r2')] } } as unknown as Queries;
    const result = await approveAllPending(runs as never, q, 'run-1', 'alice');
    expect(result).toEqual({ approved: ['r2'], left: [] });
    expect(decided).toEqual(['r2']);
  });
});
