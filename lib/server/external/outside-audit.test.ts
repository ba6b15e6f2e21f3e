// A deferred record carries what its audit rows are made from, not the rows: made at store time,
// they must be the rows the decision would have written then, the same on every store (a record
// stored again after a restart is recognised by its first row's id), at the decision's time.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../contract';
import type { Decision } from '../../policy';
import { auditIds, auditOf, auditSource, deferredAudit } from './outside-audit';

const run = { id: 'run-1', sessionId: 'sess-1', source: 'mcp', externalId: 'mcp-session-9', title: '/work' };
const policy = { version: 4, rules: 2 };
const allow: Decision = {
  action: 'allow',
  reason: 'matched_rule',
  rule: { index: 0, action: 'allow' },
  explanation: 'allowed by rule 1',
};
const call = (toolCallId: string, decision: Decision = allow): RunEvent => ({
  type: 'tool_call',
  runId: run.id,
  agentId: 'claude-code',
  parents: [],
  toolCallId,
  name: 'mcp__up__echo',
  params: { text: 'hi' },
  decision,
});
const result: RunEvent = {
  type: 'tool_result',
  runId: run.id,
  agentId: 'claude-code',
  parents: [],
  toolCallId: 'a',
  name: 'mcp__up__echo',
  output: 'hi',
  isError: false,
  denied: false,
};

describe('audit rows made at store time', () => {
  it('are the rows the decision would have written, at the time it was decided', () => {
    const events = [call('a')];
    const decidedAt = new Date('2026-01-02T03:04:05.678Z');
    const source = auditSource(run, events, policy, decidedAt);
    const rows = deferredAudit(source, events);
    const direct = auditOf(run, events, policy);
    expect(rows).toHaveLength(1);
    expect(rows.map(({ id: _id, at: _at, ...row }) => row)).toEqual(direct);
    expect(rows[0]).toMatchObject({
      id: source.id,
      at: decidedAt,
      kind: 'decision',
      action: 'allow',
      tool: 'mcp__up__echo',
      details: { source: 'mcp', session: 'mcp-session-9', cwd: '/work' },
    });
  });

  it('are the same on every store: the same ids, so a second store is recognised', () => {
    const events = [call('a'), call('b')];
    const source = auditSource(run, events, policy);
    const first = deferredAudit(source, events);
    expect(deferredAudit(JSON.parse(JSON.stringify(source)), events)).toEqual(first);
    expect(first.map((row) => row.id)).toEqual([source.id, `${source.id}.1`]);
    expect(auditIds({ audit: [], auditFrom: source })).toEqual([source.id]);
  });

  it('cover only the events the source was made for: a result merged after them adds no row', () => {
    const events = [call('a')];
    const source = auditSource(run, events, policy);
    expect(deferredAudit(source, [...events, call('later'), result])).toHaveLength(1);
  });

  it('keep the run as it was when decided, not as it is when stored', () => {
    const mutable = { ...run };
    const events = [call('a')];
    const source = auditSource(mutable, events, policy);
    mutable.title = 'renamed';
    expect(deferredAudit(source, events)[0]!.details).toMatchObject({ cwd: '/work' });
  });

  it('a record written with its rows (an older journal) is still recognised by them', () => {
    const rows = [{ id: 'row-1' }, { id: 'row-2' }];
    expect(auditIds({ audit: rows })).toEqual(['row-1', 'row-2']);
  });
});
