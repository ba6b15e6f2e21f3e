// An approver's edit is judged by the approvals its own call needs (RunManager.decideChecked, as
// POST /api/chat/relay/:id calls it with the caller's username, grant authority and role): an
// edit into a call whose ask rule wants more approvers, or other roles, than the relay was asked
// with is refused (409), so one person's approval never runs a call that needs several.
import { expect, it } from 'vitest';
import { describeStores } from '../../db/test-support/stores';
import type { RelayResponse } from '../../relay';
import { toAppError } from '../http/errors';
import { loadPolicy, savePolicyVersion } from '../stores/policy-store';
import { followRun, ofType, testRunManager, useTempWorkspace } from '../test-support/run-manager';
import type { RunManager } from './run-manager';

const workspace = useTempWorkspace('gatehouse-edit-approvals-');
const plainUser = { mayManageGrants: false };

describeStores('an edited call and the approvals it needs', (store) => {
  const manager = () => testRunManager(store().q, workspace());

  async function withRules(rules: unknown[]) {
    const { version, policy } = await loadPolicy(store().q);
    await savePolicyVersion(store().q, {
      policy: { ...policy, rules: [...rules, ...policy.rules] },
      expectedVersion: version,
      createdBy: 'admin',
    });
  }

  async function run(m: RunManager, command: string, decide: (relayId: string) => Promise<void>) {
    const started = await m.start({ messages: [{ role: 'user', content: `$ ${command}` }], owner: 'u1' });
    return followRun(m, started.runId, 0, async (event) => {
      if (event.type === 'relay') await decide(event.id);
    });
  }

  const attempt = (p: Promise<unknown>) =>
    p.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error: toAppError(error) }),
    );
  const status = async (relayId: string) => (await store().q.relays.getRelay({ id: relayId }))?.status;

  it('an edit cannot turn a one-approval call into one whose ask rule needs two admins: one user approving it alone never runs it', async () => {
    // The policy: `echo pay*` needs two admins. The agent asks for a harmless `echo hello` (a plain ask).
    await withRules([
      { action: 'ask', tool: 'bash', params: { command: 'echo pay*' }, approvals: { count: 2, roles: ['admin'] } },
    ]);
    const m = manager();
    // Control: the agent asking for that call directly raises a relay that needs two admins.
    const direct: unknown[] = [];
    const started = await m.start({ messages: [{ role: 'user', content: '$ echo pay-1000000' }], owner: 'u1' });
    await followRun(m, started.runId, 0, async (event) => {
      if (event.type !== 'relay') return;
      direct.push((event as { approvals?: unknown }).approvals);
      await m.decideChecked(event.id, { approved: false }, 'u1-user', plainUser, 'user');
    });
    expect(direct).toEqual([{ count: 2, roles: ['admin'] }]);
    const outcomes: unknown[] = [];
    const events = await run(m, 'echo hello', async (relayId) => {
      // The run's owner (role user, no grants:manage) edits the call into the two-admin call and approves it alone.
      const response: RelayResponse = { approved: true, params: { command: 'echo pay-1000000' } };
      const result = await attempt(m.decideChecked(relayId, response, 'u1-user', plainUser, 'user'));
      outcomes.push(result.ok ? 'decided' : result.error.status);
      if (result.ok) return;
      expect(await status(relayId)).toBe('pending');
      await m.decideChecked(relayId, { approved: false, reason: 'refused edit' }, 'u1-user', plainUser, 'user');
    });
    // The edited call must not have run on one user's approval.
    expect(ofType(events, 'tool_result').some((r) => r.output.endsWith('\npay-1000000\n'))).toBe(false);
    expect(outcomes[0]).not.toBe('decided');
  });
});
