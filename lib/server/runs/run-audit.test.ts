// The audit says where the rule that decided a call came from: the stored policy, the run's own
// `permissions` (the overlay a caller passes to POST /api/chat), or an Always Allow grant.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../agent';
import type { Decision } from '../../policy';
import { describeStores } from '../../db/test-support/stores';
import { loadPolicy, savePolicyVersion } from '../stores/policy-store';
import { auditRowsFor } from './run-audit';
import { followRun, testRunManager, useTempWorkspace } from '../test-support/run-manager';

const workspace = useTempWorkspace('gatehouse-audit-');

const toolCall = (decision: Decision): AgentEvent => ({
  type: 'tool_call',
  runId: 'r',
  agentId: 'main',
  parents: [],
  toolCallId: 't',
  name: 'bash',
  params: { command: 'x' },
  decision,
});
const rowFor = (decision: Decision) =>
  auditRowsFor({ runId: 'r', sessionId: 's' }, toolCall(decision), new Map(), { version: 7, rules: 3 })[0]!;

describe('the source of a deciding rule', () => {
  it.each([
    [
      'a rule of the stored policy',
      { index: 2, action: 'allow' as const },
      { index: 2, action: 'allow', policyVersion: 7, source: 'policy' },
    ],
    [
      'a rule of the run’s permissions (after the stored ones)',
      { index: 3, id: 'mine', action: 'allow' as const },
      { index: 3, id: 'mine', action: 'allow', policyVersion: 7, source: 'run', permissionsIndex: 0 },
    ],
  ])('%s', (_name, rule, expected) => {
    expect(rowFor({ action: rule.action, reason: 'matched_rule', rule, explanation: '' }).rule).toEqual(expected);
  });

  it('a grant', () => {
    expect(
      rowFor({ action: 'allow', reason: 'session_grant', grant: { index: 0, action: 'allow' }, explanation: '' }).rule,
    ).toEqual({ index: 0, action: 'allow', source: 'grant' });
  });

  it('a shell command whose parts were allowed from several sources lists them', () => {
    const row = rowFor({
      action: 'allow',
      reason: 'matched_rule',
      rule: { index: 0, action: 'allow' },
      explanation: '',
      parts: [
        {
          command: 'a',
          program: 'a',
          action: 'allow',
          reason: 'matched_rule',
          rule: { index: 0, action: 'allow' },
          explanation: '',
        },
        {
          command: 'b',
          program: 'b',
          action: 'allow',
          reason: 'matched_rule',
          rule: { index: 4, action: 'allow' },
          explanation: '',
        },
      ],
    });
    expect(row.rule).toMatchObject({ source: 'policy' });
    expect(row.details).toEqual({ sources: ['policy', 'run'] });
  });
});

describeStores('the audit of a run', (store) => {
  it("a call allowed by the run's own permissions has an audit row saying so", async () => {
    const m = testRunManager(store().q, workspace());
    const { runId } = await m.start({
      messages: [{ role: 'user', content: '$ echo by-the-run' }],
      permissions: { allowlist: [{ tool: 'bash', params: { command: 'echo by-the-run' } }] },
    });
    const events = await followRun(m, runId);
    expect(events.some((e) => e.type === 'relay')).toBe(false);
    const rows = (await store().q.audit.listAudit({ runId })).items;
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'allow',
        decidedBy: 'policy',
        rule: expect.objectContaining({ action: 'allow', source: 'run' }),
      }),
    ]);
  });

  it('a decision made after a policy save is audited with the version that made it, not the run’s first', async () => {
    const { q } = store();
    const save = async (rules: unknown[]) => {
      const { version, policy } = await loadPolicy(q);
      return (
        await savePolicyVersion(q, {
          policy: { ...policy, rules: [...rules, ...policy.rules] },
          expectedVersion: version,
          createdBy: 'admin',
        })
      ).version;
    };
    const first = await save([{ action: 'ask', tool: 'task' }]);
    const m = testRunManager(q, workspace());
    const { runId } = await m.start({ messages: [{ role: 'user', content: 'task reviewer: read notes.md' }] });
    let second = 0;
    const events = await followRun(m, runId, 0, async (event) => {
      if (event.type !== 'relay') return;
      second = await save([{ id: 'no-notes', action: 'deny', tool: 'read_file', params: { path: 'notes.md' } }]);
      await m.resolve(event.id, { sessionId: event.sessionId, response: { approved: true }, decidedBy: 'alice' });
    });
    expect(events.find((e) => e.type === 'tool_call' && e.name === 'read_file')).toMatchObject({
      decision: { action: 'deny' },
    });
    const rows = (await q.audit.listAudit({ runId })).items.filter(
      (row) => row.decidedBy === 'policy' || row.action === 'ask',
    );
    const byTool = Object.fromEntries(rows.map((row) => [row.tool, row.rule]));
    expect(byTool.task).toMatchObject({ policyVersion: first, source: 'policy' });
    expect(byTool.read_file).toMatchObject({ id: 'no-notes', policyVersion: second, source: 'policy' });
  });
});
