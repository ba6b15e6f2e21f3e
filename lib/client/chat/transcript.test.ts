// The transcript reducer: each row is a sequence of run events and what the chat must show.
import { describe, expect, it } from 'vitest';
import {
  emptyTranscript,
  mcpResultOf,
  toMessages,
  transcriptReducer,
  type Transcript,
  type TranscriptAction,
} from './transcript';
import type { LoggedEvent, RelayRequest } from '@/lib/contract';

const RUN = 'run-1';
let seq = 0;
const ev = (event: Record<string, unknown>): TranscriptAction => ({
  type: 'event',
  event: { runId: RUN, seq: ++seq, agentId: 'main', parents: [], ...event } as unknown as LoggedEvent,
});
const relay = (over: Partial<RelayRequest> = {}): RelayRequest =>
  ({
    id: 'r1',
    kind: 'permission',
    runId: RUN,
    sessionId: 's1',
    agentId: 'main',
    parents: [],
    toolCallId: 'c1',
    tool: 'bash',
    params: { command: 'ls' },
    risk: 'write',
    decision: { action: 'ask', reason: 'risk_default', explanation: 'ask' },
    suggestedRules: [],
    prompt: 'Run?',
    createdAt: 1,
    expiresAt: 2,
    ...over,
  }) as RelayRequest;

function play(...actions: TranscriptAction[]): Transcript {
  return actions.reduce(
    transcriptReducer,
    transcriptReducer(transcriptReducer(emptyTranscript, { type: 'send', text: '$ ls' }), {
      type: 'started',
      runId: RUN,
      sessionId: 's1',
    }),
  );
}
const tool = (t: Transcript) => t.items.find((i) => i.kind === 'tool');

describe('transcript', () => {
  it('an approved call moves waiting for approval → running → done with its output', () => {
    const steps = [
      ev({
        type: 'tool_call',
        toolCallId: 'c1',
        name: 'bash',
        params: { command: 'ls' },
        decision: { action: 'ask', reason: 'risk_default', explanation: '' },
      }),
      ev({ ...relay(), type: 'relay' }),
    ];
    expect(tool(play(...steps))).toMatchObject({ status: 'waiting for approval', relayId: 'r1' });
    const approved = [
      ...steps,
      ev({ type: 'relay_resolved', relayId: 'r1', toolCallId: 'c1', status: 'approved', decidedBy: 'user' }),
    ];
    expect(tool(play(...approved))).toMatchObject({ status: 'running' });
    const done = [
      ...approved,
      ev({ type: 'tool_result', toolCallId: 'c1', name: 'bash', output: 'a.txt\n', isError: false, denied: false }),
    ];
    expect(tool(play(...done))).toMatchObject({ status: 'done', output: 'a.txt\n', isError: false });
  });

  it('a denial keeps the human reason, and the denial text does not overwrite it', () => {
    const t = play(
      ev({ type: 'tool_call', toolCallId: 'c1', name: 'bash', params: {} }),
      ev({ ...relay(), type: 'relay' }),
      ev({
        type: 'relay_resolved',
        relayId: 'r1',
        toolCallId: 'c1',
        status: 'denied',
        reason: 'not today',
        decidedBy: 'user',
      }),
      ev({
        type: 'tool_result',
        toolCallId: 'c1',
        name: 'bash',
        output: 'Tool execution denied: not today. Do not retry the same call.',
        isError: true,
        denied: true,
      }),
    );
    expect(tool(t)).toMatchObject({ status: 'denied', reason: 'not today' });
  });

  it('an expired approval stays expired after its denial result', () => {
    const t = play(
      ev({ type: 'tool_call', toolCallId: 'c1', name: 'bash', params: {} }),
      ev({ ...relay(), type: 'relay' }),
      ev({
        type: 'relay_resolved',
        relayId: 'r1',
        toolCallId: 'c1',
        status: 'expired',
        reason: 'Approval timeout',
        decidedBy: 'system',
      }),
      ev({
        type: 'tool_result',
        toolCallId: 'c1',
        name: 'bash',
        output: 'Tool execution denied: Approval timeout. Do not retry the same call.',
        isError: true,
        denied: true,
      }),
    );
    expect(tool(t)).toMatchObject({ status: 'expired', reason: 'Approval timeout' });
  });

  it('a policy deny shows denied with the explanation', () => {
    const t = play(
      ev({
        type: 'tool_call',
        toolCallId: 'c1',
        name: 'bash',
        params: {},
        decision: { action: 'deny', reason: 'matched_rule', explanation: 'Denied by rule #2' },
      }),
    );
    expect(tool(t)).toMatchObject({ status: 'denied', reason: 'Denied by rule #2' });
  });

  it('text deltas of one stretch join into one assistant message; a tool call starts a new one', () => {
    const t = play(
      ev({ type: 'text', content: 'Hel' }),
      ev({ type: 'text', content: 'lo' }),
      ev({ type: 'tool_call', toolCallId: 'c1', name: 'bash', params: {} }),
      ev({ type: 'text', content: 'Bye' }),
    );
    expect(t.items.filter((i) => i.kind === 'assistant').map((i) => (i.kind === 'assistant' ? i.text : ''))).toEqual([
      'Hello',
      'Bye',
    ]);
  });

  it('a replayed event (same or lower sequence) changes nothing', () => {
    const first = ev({ type: 'text', content: 'once' });
    const t = play(first, first);
    expect(t.items.filter((i) => i.kind === 'assistant')).toHaveLength(1);
  });

  it('done ends the run; cancelled and error finish reasons are kept', () => {
    expect(play(ev({ type: 'done', finishReason: 'stop', text: '' })).runStatus).toBe('done');
    expect(play(ev({ type: 'done', finishReason: 'cancelled', text: '' })).runStatus).toBe('cancelled');
    expect(play(ev({ type: 'done', finishReason: 'error', text: '' })).runStatus).toBe('failed');
  });

  it('a subagent call carries the agent and its parents', () => {
    const t = play(
      ev({
        type: 'tool_call',
        toolCallId: 'c9',
        name: 'read_file',
        params: {},
        agentId: 'reviewer',
        parents: ['main'],
      }),
    );
    expect(tool(t)).toMatchObject({ agentId: 'reviewer', parents: ['main'] });
  });

  it('a follow-up sends the conversation so far as user and assistant messages', () => {
    const t = play(
      ev({ type: 'tool_call', toolCallId: 'c1', name: 'bash', params: {} }),
      ev({ type: 'text', content: 'bash: ok' }),
    );
    expect(toMessages(t)).toEqual([
      { role: 'user', content: '$ ls' },
      { role: 'assistant', content: 'bash: ok' },
    ]);
  });

  it('loading a run brings back every earlier turn of its session with its tool cards, then its own prompt', () => {
    const earlierEvent = (seq: number, event: Record<string, unknown>) =>
      ({ runId: 'run-0', seq, agentId: 'main', parents: [], ...event }) as unknown as LoggedEvent;
    const earlier = [
      {
        prompt: 'ls .',
        events: [
          earlierEvent(1, {
            type: 'tool_call',
            toolCallId: 'c0',
            name: 'list_files',
            params: { path: '.' },
            decision: { action: 'allow', reason: 'matched_rule', explanation: '' },
          }),
          earlierEvent(2, {
            type: 'tool_result',
            toolCallId: 'c0',
            name: 'list_files',
            output: 'a.txt',
            isError: false,
            denied: false,
          }),
          earlierEvent(3, { type: 'text', content: 'list_files: a.txt' }),
          earlierEvent(4, { type: 'done', finishReason: 'stop', text: 'list_files: a.txt' }),
        ],
      },
    ];
    const t = transcriptReducer(emptyTranscript, {
      type: 'load',
      runId: RUN,
      sessionId: 's1',
      runStatus: 'live',
      earlier,
      prompt: '$ ls',
    });
    expect(t.items.map((i) => i.kind)).toEqual(['user', 'tool', 'assistant', 'user']);
    expect(t.items[1]).toMatchObject({ kind: 'tool', tool: 'list_files', status: 'done', output: 'a.txt' });
    expect(t.runStatus).toBe('live');
    expect(toMessages(t)).toEqual([
      { role: 'user', content: 'ls .' },
      { role: 'assistant', content: 'list_files: a.txt' },
      { role: 'user', content: '$ ls' },
    ]);
  });

  it('one status per card: a call that ran and failed is `error`, not done', () => {
    const t = play(
      ev({ type: 'tool_call', toolCallId: 'c1', name: 'bash', params: {} }),
      ev({ type: 'tool_result', toolCallId: 'c1', name: 'bash', output: 'boom', isError: true, denied: false }),
    );
    expect(tool(t)).toMatchObject({ status: 'error', output: 'boom' });
  });

  it('a decided relay keeps who decided it, whether it was Always Allow, and the reason', () => {
    const t = play(
      ev({ type: 'tool_call', toolCallId: 'c1', name: 'bash', params: {} }),
      ev({ ...relay(), type: 'relay' }),
      ev({
        type: 'relay_resolved',
        relayId: 'r1',
        toolCallId: 'c1',
        status: 'approved',
        decidedBy: 'alice',
        always: true,
      }),
    );
    expect(tool(t)).toMatchObject({ resolution: { status: 'approved', decidedBy: 'alice', always: true } });
  });

  it('a message whose run could not start stays visible but is not sent with the next message', () => {
    const failed = [
      { type: 'send', text: 'first' },
      { type: 'failed', message: 'Could not start the run: bad agent' },
      { type: 'send', text: 'second' },
    ] as TranscriptAction[];
    const t = failed.reduce(transcriptReducer, emptyTranscript);
    expect(t.items.filter((i) => i.kind === 'user').map((i) => i.kind === 'user' && i.text)).toEqual([
      'first',
      'second',
    ]);
    expect(toMessages(t)).toEqual([{ role: 'user', content: 'second' }]);
  });
});

describe('MCP results in the transcript', () => {
  it("keeps an MCP tool result's content blocks and structuredContent for the chat", () => {
    expect(
      mcpResultOf({
        mcp: {
          content: [{ type: 'text', text: 'hi' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }, 'junk'],
          structuredContent: { temp: 20 },
        },
      }),
    ).toEqual({
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      structuredContent: { temp: 20 },
    });
    expect(mcpResultOf({ exitCode: 0 })).toBeUndefined();
  });
});
