// The decision observer port: it sees every real decision, and nothing it does changes one.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type AgentEvent, type DecisionObservation, type DecisionObserver } from '../index';
import { evaluate, compilePolicy, type PolicyInput } from '../../policy';
import { adjuster } from './observe';

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-observe-')));
});
afterEach(() => rm(workspace, { recursive: true, force: true }));

const allowsEcho: PolicyInput = {
  riskDefaults: { write: 'ask', read_only: 'allow' },
  rules: [{ action: 'allow', tool: 'bash', params: { command: 'echo *' } }],
};

async function run(observer: DecisionObserver, say: string, permissions?: unknown) {
  const events: AgentEvent[] = [];
  for await (const event of createAgent({ workspace, policy: allowsEcho, observer }).invoke({
    messages: [{ role: 'user', content: say }],
    permissions,
  })) {
    events.push(event);
    if (event.type === 'relay') void event.respond({ approved: false, reason: 'no' });
  }
  return events;
}

describe('decision observer', () => {
  it('sees each real decision with its call, context, run and policy', async () => {
    const seen: DecisionObservation[] = [];
    const events = await run({ observe: (o) => seen.push(o) }, '$ echo hi', { deny: [{ tool: 'fetch_url' }] });
    expect(seen).toHaveLength(1);
    const [o] = seen;
    const call = events.find((e) => e.type === 'tool_call');
    expect(o).toMatchObject({
      agentId: 'main',
      call: { tool: 'bash', params: { command: 'echo hi' } },
      decision: { action: 'allow' },
      toolCallId: (call as { toolCallId: string }).toolCallId,
    });
    expect(o!.runId).toBe(call!.runId);
    // The run's permissions follow the agent's rules in the policy it was judged by.
    expect(o!.policy.rules.map((r) => `${r.action} ${r.tool}`)).toEqual(['allow bash', 'deny fetch_url']);
    // Re-evaluating with what it carries gives the enforced decision.
    expect(o!.adjust(evaluate(compilePolicy(o!.policy), o!.call, o!.context)).action).toBe('allow');
  });

  it('an observer that throws changes no decision and no result', async () => {
    const quiet = await run({ observe: () => undefined }, '$ echo hi');
    const loud = await run(
      {
        observe: () => {
          throw new Error('observer down');
        },
      },
      '$ echo hi',
    );
    const shape = (events: AgentEvent[]) =>
      events.map((e) =>
        e.type === 'tool_call'
          ? { decision: e.decision }
          : e.type === 'tool_result'
            ? { output: e.output, isError: e.isError, denied: e.denied }
            : e.type,
      );
    expect(shape(loud)).toEqual(shape(quiet));
    expect(loud.find((e) => e.type === 'tool_result')).toMatchObject({
      output: expect.stringContaining('hi'),
      isError: false,
    });
  });

  it('an inactive observer is not called', async () => {
    let calls = 0;
    await run({ observe: () => void calls++, active: false }, '$ echo hi');
    expect(calls).toBe(0);
  });

  it('adjust applies what the gate applies after the policy: an inspection asks what an allow would run', () => {
    const adjust = adjuster({ path: 'x' }, 'read_file', { inspection: 'x has several hard links', mode: 'default' });
    expect(adjust({ action: 'allow', reason: 'matched_rule', explanation: 'Allowed.' })).toMatchObject({
      action: 'ask',
    });
    expect(adjust({ action: 'deny', reason: 'matched_rule', explanation: 'Denied.' })).toMatchObject({
      action: 'deny',
    });
    const dontAsk = adjuster({ path: 'x' }, 'read_file', { inspection: 'x has several hard links', mode: 'dontAsk' });
    expect(dontAsk({ action: 'allow', reason: 'matched_rule', explanation: 'Allowed.' })).toMatchObject({
      action: 'deny',
    });
  });
});
