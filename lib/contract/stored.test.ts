import { describe, expect, it } from 'vitest';
import { LoggedEventSchema } from './events';
import { upgradeStoredEvent } from './stored';

const decision = { action: 'ask', reason: 'risk_default', explanation: 'bash asks' };
const relay = {
  id: 'rl1',
  kind: 'permission',
  runId: 'r1',
  sessionId: 's1',
  agentId: 'main',
  parents: [],
  toolCallId: 'c1',
  tool: 'bash',
  params: { command: 'ls' },
  decision,
  suggestedRules: [{ action: 'allow', tool: 'bash', params: { command: 'ls *' } }],
  prompt: 'Run?',
  createdAt: 1,
  expiresAt: 2,
};
const row = (seq: number, type: string, data: unknown) => ({ runId: 'r1', seq, type, data });

describe('upgradeStoredEvent reads every shape an earlier version stored', () => {
  it('text: the old `delta` (stored without runId or parents) becomes `content`', () => {
    expect(upgradeStoredEvent(row(1, 'text', { delta: 'hi', agentId: 'main' }))).toEqual({
      type: 'text',
      runId: 'r1',
      agentId: 'main',
      parents: [],
      content: 'hi',
      seq: 1,
    });
  });

  it('tool_call and tool_result: the old `tool` becomes `name`', () => {
    const call = upgradeStoredEvent(
      row(2, 'tool_call', {
        type: 'tool_call',
        runId: 'r1',
        agentId: 'main',
        parents: [],
        toolCallId: 'c1',
        tool: 'bash',
        params: { command: 'ls' },
        decision,
      }),
    );
    expect(call).toEqual({
      type: 'tool_call',
      runId: 'r1',
      agentId: 'main',
      parents: [],
      toolCallId: 'c1',
      name: 'bash',
      params: { command: 'ls' },
      decision,
      seq: 2,
    });
    const result = upgradeStoredEvent(
      row(3, 'tool_result', {
        type: 'tool_result',
        runId: 'r1',
        agentId: 'reviewer',
        parents: ['main'],
        toolCallId: 'c1',
        tool: 'bash',
        output: 'x',
        isError: false,
        denied: false,
      }),
    );
    expect(result).toMatchObject({ name: 'bash', agentId: 'reviewer', parents: ['main'] });
    expect(result).not.toHaveProperty('tool');
  });

  it('relay: the old nested `relay` becomes the event itself', () => {
    const upgraded = upgradeStoredEvent(
      row(4, 'relay', { type: 'relay', runId: 'r1', agentId: 'main', parents: [], relay }),
    );
    expect(upgraded).toEqual({ ...relay, type: 'relay', seq: 4 });
  });

  it('mode_changed without agentId or parents gets the main agent', () => {
    expect(upgradeStoredEvent(row(5, 'mode_changed', { type: 'mode_changed', runId: 'r1', mode: 'plan' }))).toEqual({
      type: 'mode_changed',
      runId: 'r1',
      agentId: 'main',
      parents: [],
      mode: 'plan',
      seq: 5,
    });
  });

  it("today's shapes pass unchanged", () => {
    const events = [
      { type: 'text', runId: 'r1', agentId: 'main', parents: [], content: 'hi' },
      {
        type: 'tool_call',
        runId: 'r1',
        agentId: 'main',
        parents: [],
        toolCallId: 'c1',
        name: 'bash',
        params: {},
        decision,
      },
      { ...relay, type: 'relay' },
      {
        type: 'tool_result',
        runId: 'r1',
        agentId: 'main',
        parents: [],
        toolCallId: 'c1',
        name: 'bash',
        output: '',
        isError: false,
        denied: false,
      },
      { type: 'done', runId: 'r1', agentId: 'main', parents: [], finishReason: 'stop', text: '' },
    ];
    events.forEach((event, i) =>
      expect(upgradeStoredEvent(row(i + 1, event.type, event))).toEqual({ ...event, seq: i + 1 }),
    );
  });

  it('every upgraded old row is a valid logged event', () => {
    const old = [
      row(1, 'text', { delta: 'hi', agentId: 'main' }),
      row(2, 'tool_call', {
        type: 'tool_call',
        runId: 'r1',
        agentId: 'main',
        parents: [],
        toolCallId: 'c1',
        tool: 'bash',
        params: {},
        decision,
      }),
      row(3, 'relay', { type: 'relay', runId: 'r1', agentId: 'main', parents: [], relay }),
      row(4, 'relay_resolved', {
        type: 'relay_resolved',
        runId: 'r1',
        agentId: 'main',
        parents: [],
        relayId: 'rl1',
        toolCallId: 'c1',
        status: 'approved',
        decidedBy: 'alice',
        always: false,
      }),
      row(5, 'tool_result', {
        type: 'tool_result',
        runId: 'r1',
        agentId: 'main',
        parents: [],
        toolCallId: 'c1',
        tool: 'bash',
        output: 'x',
        isError: false,
        denied: false,
      }),
      row(6, 'mode_changed', { type: 'mode_changed', runId: 'r1', mode: 'plan' }),
      row(7, 'resumed', { type: 'resumed', runId: 'r1', agentId: 'main', parents: [] }),
      row(8, 'done', { runId: 'r1', agentId: 'main', parents: [], type: 'done', finishReason: 'stop', text: 'hi' }),
    ];
    for (const r of old) expect(LoggedEventSchema.safeParse(upgradeStoredEvent(r)).error).toBeUndefined();
  });

  it('a row that is not an object still yields an event of its type and run (never throws)', () => {
    expect(upgradeStoredEvent(row(9, 'resumed', null))).toEqual({
      type: 'resumed',
      runId: 'r1',
      agentId: 'main',
      parents: [],
      seq: 9,
    });
  });
});
