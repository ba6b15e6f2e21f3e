// A policy source: the agent reads its policy for every decision, so a policy changed while a run
// waits decides the run's next call (the main agent's and a subagent's), with the run's own
// permissions still after it; a fixed compiled policy behaves as before.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type AgentEvent } from '../index';
import { compilePolicy, type CompiledPolicy, type Rule } from '../../policy';

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-policy-source-')));
  await writeFile(path.join(workspace, 'notes.md'), 'hello');
});
afterEach(() => rm(workspace, { recursive: true, force: true }));

const policyOf = (...rules: Rule[]) => compilePolicy({ riskDefaults: { read_only: 'allow' }, rules });

/** Runs `say`; at the first relay the source switches to `after`, then the relay is approved. */
async function runSwitching(
  say: string,
  after: CompiledPolicy,
  options: { permissions?: unknown; agents?: boolean } = {},
) {
  let current = policyOf({ action: 'ask', tool: options.agents ? 'task' : 'bash' });
  let reads = 0;
  const agent = createAgent({
    workspace,
    policy: () => {
      reads++;
      return current;
    },
    ...(options.agents ? { agents: [{ name: 'reviewer', tools: ['read_file'] }] } : {}),
  });
  const events: AgentEvent[] = [];
  for await (const event of agent.invoke({
    messages: [{ role: 'user', content: say }],
    permissions: options.permissions,
  })) {
    events.push(event);
    if (event.type === 'relay' && current !== after) {
      current = after;
      void event.respond({ approved: true });
    } else if (event.type === 'relay') void event.respond({ approved: false, reason: 'no' });
  }
  const decisions = events.flatMap((e) =>
    e.type === 'tool_call' && e.decision ? [`${e.name} ${e.decision.action}`] : [],
  );
  return { decisions, reads };
}

describe('createAgent with a policy source', () => {
  it("a deny rule set while the run waits decides the subagent's next call", async () => {
    const after = policyOf(
      { action: 'ask', tool: 'task' },
      { action: 'deny', tool: 'read_file', params: { path: 'notes.md' } },
    );
    const { decisions } = await runSwitching('task reviewer: read notes.md', after, { agents: true });
    expect(decisions).toEqual(['task ask', 'read_file deny']);
  });

  it("the run's permissions still come after the changed policy: its allow does not beat the new deny", async () => {
    const after = policyOf(
      { action: 'ask', tool: 'task' },
      { action: 'deny', tool: 'read_file', params: { path: 'notes.md' } },
    );
    const { decisions, reads } = await runSwitching('task reviewer: read notes.md', after, {
      agents: true,
      permissions: { allowlist: [{ tool: 'read_file' }] },
    });
    expect(decisions).toEqual(['task ask', 'read_file deny']);
    expect(reads).toBeGreaterThanOrEqual(2);
  });

  it("the main agent's call is decided by the policy of the moment, not the one of the run's start", async () => {
    let current = policyOf();
    const agent = createAgent({ workspace, policy: () => current });
    const run = agent.invoke({ messages: [{ role: 'user', content: 'read notes.md' }] });
    current = policyOf({ action: 'deny', tool: 'read_file' });
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({ decision: { action: 'deny' } });
  });

  it('a fixed compiled policy is used as it is', async () => {
    const fixed = policyOf({ action: 'deny', tool: 'read_file' });
    const events: AgentEvent[] = [];
    for await (const event of createAgent({ workspace, policy: fixed }).invoke({
      messages: [{ role: 'user', content: 'read notes.md' }],
    }))
      events.push(event);
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({ decision: { action: 'deny' } });
  });

  it('a source that fails fails the call closed: nothing runs', async () => {
    const agent = createAgent({
      workspace,
      policy: () => Promise.reject(new Error('store down')),
    });
    const events: AgentEvent[] = [];
    for await (const event of agent.invoke({ messages: [{ role: 'user', content: 'read notes.md' }] }))
      events.push(event);
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ isError: true });
    expect((result as { output: string }).output).toContain('could not be decided');
    expect((result as { output: string }).output).not.toContain('hello');
  });
});
