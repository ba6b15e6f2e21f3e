// The audit says where the rule that decided a call came from: the stored policy, the run's own
// `permissions` (the overlay a caller passes to POST /api/chat), or an Always Allow grant.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../agent';
import type { Decision } from '../../policy';
import { describeStores } from '../../db/test-support/stores';
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
});
