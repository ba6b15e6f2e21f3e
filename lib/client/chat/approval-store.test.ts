// The approval queue's notices: what a relay decided elsewhere says when it leaves, and when it
// leaves silently (our own answer, or history replayed on reload).
import { beforeEach, describe, expect, it } from 'vitest';
import { outcomeNotice, useApprovalStore } from './approval-store';
import type { RelayRequest } from '@/lib/contract';

const relay = (id: string, createdAt: number): RelayRequest =>
  ({
    id,
    kind: 'permission',
    runId: 'run-1',
    sessionId: 's1',
    agentId: 'main',
    parents: [],
    toolCallId: `c-${id}`,
    tool: 'bash',
    params: { command: 'ls' },
    risk: 'write',
    decision: { action: 'ask', reason: 'risk_default', explanation: 'ask' },
    suggestedRules: [],
    prompt: 'Run?',
    createdAt,
    expiresAt: createdAt + 1000,
  }) as RelayRequest;

describe('outcomeNotice', () => {
  it.each([
    ['approved', 'grant', 'Covered by an Always Allow rule'],
    ['approved', 'alice', 'Approved elsewhere by alice'],
    ['approved', 'user', 'Approved elsewhere'],
    ['denied', 'alice', 'Denied elsewhere by alice'],
    ['denied', '', 'Denied elsewhere'],
    ['expired', 'system', 'Timed out'],
    ['cancelled', 'system', 'Cancelled: the run was stopped'],
    ['something-new', 'system', 'Decided elsewhere (something-new)'],
  ])('%s by %s: %s', (status, decidedBy, text) => {
    expect(outcomeNotice(status, decidedBy)).toBe(text);
  });
});

describe('approval queue notices', () => {
  beforeEach(() => useApprovalStore.getState().reset());
  const store = () => useApprovalStore.getState();

  it('keeps the queue oldest first, and a relay covered by a new grant leaves with the grant notice', () => {
    store().add(relay('b', 2));
    store().add(relay('a', 1));
    store().add(relay('a', 1));
    expect(store().queue.map((r) => r.id)).toEqual(['a', 'b']);
    store().resolved('b', { status: 'approved', decidedBy: 'grant' }, true);
    expect(store().queue.map((r) => r.id)).toEqual(['a']);
    expect(store().notice?.text).toBe('Covered by an Always Allow rule');
  });

  it('our own answer in flight, or a replayed resolution, leaves without a notice', () => {
    store().add(relay('a', 1));
    store().add(relay('b', 2));
    store().startSubmit('a');
    store().resolved('a', { status: 'approved', decidedBy: 'alice' }, true);
    store().resolved('b', { status: 'expired', decidedBy: 'system' }, false);
    expect(store().queue).toEqual([]);
    expect(store().notice).toBeUndefined();
  });

  it('a resolution for a relay not in the queue changes nothing', () => {
    store().add(relay('a', 1));
    const before = store().queue;
    store().resolved('zzz', { status: 'denied', decidedBy: 'bob' }, true);
    expect(store().queue).toBe(before);
    expect(store().notice).toBeUndefined();
  });
});

describe('closing the dialog without deciding', () => {
  beforeEach(() => useApprovalStore.getState().reset());
  const store = () => useApprovalStore.getState();

  it('keeps the calls pending; reopening shows them again, and a new call reopens it by itself', () => {
    store().add(relay('a', 1));
    store().dismiss();
    expect(store().dismissed).toBe(true);
    expect(store().queue.map((r) => r.id)).toEqual(['a']);
    store().reopen();
    expect(store().dismissed).toBe(false);
    store().dismiss();
    // The same relay again (a replay) does not reopen it; a new call does.
    store().add(relay('a', 1));
    expect(store().dismissed).toBe(true);
    store().add(relay('b', 2));
    expect(store().dismissed).toBe(false);
  });
});
