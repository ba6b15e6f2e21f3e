// Runs stored by earlier versions of Gatehouse: their events are in the log in the old shapes
// (`text.delta`, `tool_call.tool`, `tool_result.tool`, a `relay` nested under `relay`, rows without
// `parents`). They replay in today's shape, and a paused run resumes from them, on PGlite and
// PostgreSQL alike.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { LoggedEventSchema } from '../../contract';
import { describeStores } from '../../db/test-support/stores';
import { followRun, ofType, testRunManager, useTempWorkspace } from '../test-support/run-manager';

const workspace = useTempWorkspace('gatehouse-stored-events-');

describeStores('events stored by earlier versions', (store) => {
  it('replay in the contract shape, and the paused run resumes from them and finishes on the decision', async () => {
    const { q } = store();
    const runId = 'old-run';
    const sessionId = 'old-session';
    const log = path.join(workspace(), 'log');
    const callA = {
      type: 'tool-call' as const,
      toolCallId: 'call-a',
      toolName: 'bash',
      input: { command: `echo a >> ${log}` },
    };
    const callB = {
      type: 'tool-call' as const,
      toolCallId: 'call-b',
      toolName: 'bash',
      input: { command: `echo b >> ${log}` },
    };
    await q.runs.createRun({
      id: runId,
      sessionId,
      status: 'waiting',
      state: {
        messages: [
          { role: 'user', content: 'two calls' },
          { role: 'assistant', content: [{ type: 'text', text: 'Working on it. ' }, callA, callB] },
        ],
      },
    });
    const allow = { action: 'allow', reason: 'matched_rule', explanation: 'allowed' };
    const ask = { action: 'ask', reason: 'risk_default', explanation: 'asks' };
    const relay = {
      id: 'relay-b',
      kind: 'permission' as const,
      runId,
      sessionId,
      agentId: 'main',
      parents: [],
      toolCallId: 'call-b',
      tool: 'bash',
      params: callB.input,
      decision: ask as never,
      suggestedRules: [],
      prompt: 'Run?',
      createdAt: Date.now() - 1_000,
      expiresAt: Date.now() + 60_000,
    };
    await q.relays.insertRelay({ request: relay });
    // call-a was allowed and ran before the upgrade; call-b waits for its relay.
    await q.toolExecutions.claimToolExecution({ runId, toolCallId: 'call-a' });
    await q.toolExecutions.finishToolExecution({
      runId,
      toolCallId: 'call-a',
      result: { output: 'a\n', isError: false },
    });
    const origin = { runId, agentId: 'main', parents: [] };
    // Exactly as the earlier versions wrote them.
    for (const [type, data] of [
      ['text', { delta: 'Working on it. ', agentId: 'main' }],
      [
        'tool_call',
        { ...origin, type: 'tool_call', toolCallId: 'call-a', tool: 'bash', params: callA.input, decision: allow },
      ],
      [
        'tool_call',
        { ...origin, type: 'tool_call', toolCallId: 'call-b', tool: 'bash', params: callB.input, decision: ask },
      ],
      ['relay', { ...origin, type: 'relay', relay }],
      [
        'tool_result',
        {
          ...origin,
          type: 'tool_result',
          toolCallId: 'call-a',
          tool: 'bash',
          output: 'a\n',
          isError: false,
          denied: false,
        },
      ],
      ['mode_changed', { type: 'mode_changed', runId, mode: 'default' }],
    ] as const)
      await q.events.appendEvent({ runId, type, data });

    const m = testRunManager(q, workspace());
    expect(await m.recover()).toEqual([runId]);
    const events = await followRun(m, runId, 0, async (event) => {
      if (event.type === 'resumed')
        await m.resolve('relay-b', { sessionId, response: { approved: true }, decidedBy: 'alice' });
    });

    for (const event of events) expect(LoggedEventSchema.safeParse(event).error, JSON.stringify(event)).toBeUndefined();
    expect(events.slice(0, 6)).toMatchObject([
      { type: 'text', content: 'Working on it. ', runId, agentId: 'main', parents: [] },
      { type: 'tool_call', name: 'bash', toolCallId: 'call-a' },
      { type: 'tool_call', name: 'bash', toolCallId: 'call-b' },
      {
        type: 'relay',
        id: 'relay-b',
        kind: 'permission',
        tool: 'bash',
        toolCallId: 'call-b',
        params: callB.input,
        sessionId,
      },
      { type: 'tool_result', name: 'bash', toolCallId: 'call-a', output: 'a\n' },
      { type: 'mode_changed', mode: 'default', agentId: 'main', parents: [] },
    ]);
    expect(events[0]).not.toHaveProperty('delta');
    expect(events[3]).not.toHaveProperty('relay');
    expect(events.slice(6).map((e) => e.type)).toEqual(['resumed', 'relay_resolved', 'tool_result', 'text', 'done']);
    // The old relay was the one waited on (not raised again), and call-a, which had run, did not run again.
    expect(ofType(events, 'relay')).toHaveLength(1);
    expect(ofType(events, 'tool_result').map((e) => [e.toolCallId, e.output])).toEqual([
      ['call-a', 'a\n'],
      ['call-b', '(no output)'],
    ]);
    expect(await readFile(log, 'utf8')).toBe('b\n');
    expect(await q.runs.getRun({ id: runId })).toMatchObject({ status: 'done' });

    // Read again from the log later (a reload), the old rows come out the same way.
    const replayed = await followRun(m, runId, 0);
    expect(replayed.slice(0, 6)).toEqual(events.slice(0, 6));
  });
});
