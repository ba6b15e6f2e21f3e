// Edit, then approve, and quorum through the server's decision path (RunManager.decideChecked, as
// POST /api/chat/relay/:id calls it): a refused edit (schema: 400 by field; deny rule: 409 with the
// decision) leaves the relay pending; the edited call runs once and the audit records both; a
// quorum relay stays pending after the first approval, refuses the same person twice and a role
// the rule does not name, and runs after the second person's approval, every approver audited; an
// edit into a call that needs more approvers than its relay was asked with is refused (409).
import { expect, it } from 'vitest';
import { describeStores } from '../../db/test-support/stores';
import type { RelayResponse } from '../../relay';
import { toAppError, type AppError } from '../http/errors';
import { loadPolicy, savePolicyVersion } from '../stores/policy-store';
import { followRun, ofType, testRunManager, useTempWorkspace } from '../test-support/run-manager';
import type { RunManager } from './run-manager';

const workspace = useTempWorkspace('gatehouse-edit-');
const admin = { mayManageGrants: true };

describeStores('edit and quorum on the server', (store) => {
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

  const refusal = (m: RunManager, relayId: string, response: RelayResponse) =>
    m.decideChecked(relayId, response, 'alice', admin, 'admin').then(
      () => undefined,
      (error: unknown) => toAppError(error),
    );
  const status = async (relayId: string) => (await store().q.relays.getRelay({ id: relayId }))?.status;

  it('an edit of the wrong shape is a 400 naming the field; one a deny rule matches is a 409; both leave it pending', async () => {
    await withRules([{ action: 'deny', tool: 'bash', params: { command: 'rm -rf *' } }]);
    const m = manager();
    const events = await run(m, 'echo original', async (relayId) => {
      const bad = await refusal(m, relayId, { approved: true, params: { command: 42 } });
      expect(bad).toMatchObject({ status: 400, details: { fields: [{ path: 'response.params.command' }] } });
      const denied = await refusal(m, relayId, { approved: true, params: { command: 'rm -rf build' } });
      expect(denied).toMatchObject({
        status: 409,
        code: 'conflict:edit_denied',
        details: { decision: { action: 'deny' } },
      });
      expect(await status(relayId)).toBe('pending');
      await m.decideChecked(relayId, { approved: true, params: { command: 'echo edited' } }, 'alice', admin, 'admin');
    });
    const results = ofType(events, 'tool_result');
    expect(results).toHaveLength(1);
    expect(results[0]!.output).toContain('edited\n');
    expect(ofType(events, 'relay_resolved')[0]).toMatchObject({ params: { command: 'echo edited' } });
    const audit = await store().q.audit.listAudit({});
    const human = audit.items.find((row) => row.decidedBy === 'alice');
    expect(human).toMatchObject({
      params: { command: 'echo original' },
      details: { editedParams: { command: 'echo edited' } },
    });
  });

  it('two approvers: pending after the first, the same person twice 409, a user role 403, the second runs it', async () => {
    await withRules([{ action: 'ask', tool: 'bash', params: { command: 'echo deploy*' }, approvals: { count: 2 } }]);
    const m = manager();
    const answers: unknown[] = [];
    const events = await run(m, 'echo deploy-prod', async (relayId) => {
      answers.push(await m.decideChecked(relayId, { approved: true }, 'alice', admin, 'approver'));
      expect(await refusal(m, relayId, { approved: true })).toMatchObject({
        status: 409,
        code: 'conflict:relay_same_approver',
      });
      const asUser = await m
        .decideChecked(relayId, { approved: true }, 'carol', admin, 'user')
        .catch((error: unknown) => toAppError(error));
      expect(asUser).toMatchObject({ status: 403 });
      // approve-all never counts (no person's role)
      expect(
        await m.decideChecked(relayId, { approved: true }, 'dave', admin).catch((error: unknown) => toAppError(error)),
      ).toMatchObject({ status: 409, code: 'conflict:relay_quorum' });
      expect(await status(relayId)).toBe('pending');
      answers.push(await m.decideChecked(relayId, { approved: true }, 'bob', admin, 'admin'));
    });
    expect(answers).toMatchObject([{ status: 'partial', progress: { needed: 2 } }, { status: 'decided' }]);
    expect(ofType(events, 'relay_progress')[0]).toMatchObject({ approvals: [{ by: 'alice' }], needed: 2 });
    expect(ofType(events, 'tool_result')[0]?.output).toBe('deploy-prod\n');
    const audit = await store().q.audit.listAudit({});
    const human = audit.items.find((row) => row.decidedBy === 'bob');
    expect(human?.details).toMatchObject({ approvers: [{ by: 'alice' }, { by: 'bob' }] });
  });

  it('an edit into a call whose ask rule wants more approvers than the relay was asked with is refused (409), and never runs', async () => {
    // `echo pay*` needs two admins; the agent asks for a harmless `echo hello` (one approval).
    await withRules([
      { action: 'ask', tool: 'bash', params: { command: 'echo pay*' }, approvals: { count: 2, roles: ['admin'] } },
    ]);
    const m = manager();
    const refused: (AppError | undefined)[] = [];
    const events = await run(m, 'echo hello', async (relayId) => {
      refused.push(await refusal(m, relayId, { approved: true, params: { command: 'echo pay-1000000' } }));
      expect((await store().q.relays.getRelay({ id: relayId }))?.status).toBe('pending');
      await m.decideChecked(relayId, { approved: false, reason: 'refused edit' }, 'alice', admin, 'admin');
    });
    expect(refused[0]).toMatchObject({
      status: 409,
      code: 'conflict:edit_needs_approvals',
      details: { approvals: { count: 2, roles: ['admin'] } },
    });
    expect(ofType(events, 'tool_result').some((r) => r.output.includes('pay-1000000'))).toBe(false);
  });
});
