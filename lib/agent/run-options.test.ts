// What one run may bring to `invoke`: permissions overlaying the agent's policy for that run only
// (as POST /api/chat does), a model (object or spec) and tools (objects, or names of the agent's).
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  createOfflineModel,
  ModelConfigError,
  ToolSelectionError,
  type AgentEvent,
  type AgentOptions,
  type AgentRun,
  type AgentTool,
  type InvokeOptions,
} from './index';
import { PolicyValidationError, type PolicyInput } from '../policy';

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-run-options-')));
});
afterEach(() => rm(workspace, { recursive: true, force: true }));

/** Bash is allowed outright, other writes ask: the agent's own policy. */
const allowsBash: PolicyInput = {
  riskDefaults: { write: 'ask', read_only: 'allow' },
  rules: [{ action: 'allow', tool: 'bash' }],
};
const asksBash: PolicyInput = { riskDefaults: { write: 'ask', read_only: 'allow' }, rules: [] };

async function run(
  options: AgentOptions,
  invoke: Omit<InvokeOptions, 'messages'> & { say: string },
  answer?: (e: Extract<AgentEvent, { type: 'relay' }>) => void,
) {
  const { say, ...rest } = invoke;
  const events: AgentEvent[] = [];
  const started: AgentRun = createAgent({ workspace, ...options }).invoke({
    messages: [{ role: 'user', content: say }],
    ...rest,
  });
  for await (const event of started) {
    events.push(event);
    if (event.type === 'relay')
      (answer ?? ((e) => void e.respond({ approved: false, reason: 'not asked for' })))(event);
  }
  const of = <T extends AgentEvent['type']>(type: T) =>
    events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
  return { events, of };
}

describe('per-run permissions', () => {
  it("the seeds' deny rule applies to that run: denied at once, no relay, nothing runs", async () => {
    const { of } = await run(
      { policy: allowsBash },
      { say: '$ rm -rf notes', permissions: { deny: [{ tool: 'bash', params: { command: 'rm **' } }] } },
    );
    expect(of('tool_call')[0]?.decision).toMatchObject({ action: 'deny', reason: 'matched_rule' });
    expect(of('relay')).toHaveLength(0);
    expect(of('tool_result')[0]).toMatchObject({ denied: true, isError: true });
  });

  it('an allowlist entry allows what the agent would ask about, for that run only', async () => {
    const agent = createAgent({ workspace, policy: asksBash });
    const events = async (permissions?: unknown) => {
      const seen: AgentEvent[] = [];
      for await (const event of agent.invoke({ messages: [{ role: 'user', content: '$ echo once' }], permissions })) {
        seen.push(event);
        if (event.type === 'relay') void event.respond({ approved: false });
      }
      return seen;
    };
    const allowed = await events({ allowlist: [{ tool: 'bash', params: { command: 'echo **' } }] });
    expect(allowed.filter((e) => e.type === 'relay')).toHaveLength(0);
    expect(allowed.find((e) => e.type === 'tool_result')).toMatchObject({ output: 'once\n', denied: false });
    // The next run of the same agent, without them, asks again.
    expect((await events()).filter((e) => e.type === 'relay')).toHaveLength(1);
  });

  it('a deny rule of the agent still wins over a run allowing everything', async () => {
    const policy: PolicyInput = { ...asksBash, rules: [{ action: 'deny', tool: 'bash', params: { command: 'rm *' } }] };
    const { of } = await run({ policy }, { say: '$ rm x', permissions: { allowlist: [{ tool: 'bash' }] } });
    expect(of('tool_call')[0]?.decision).toMatchObject({ action: 'deny' });
  });

  it('permissions that do not validate throw before the run starts', () => {
    const agent = createAgent({ workspace });
    expect(() =>
      agent.invoke({ messages: [{ role: 'user', content: 'ls' }], permissions: { allowlist: [{ params: {} }] } }),
    ).toThrow(PolicyValidationError);
  });
});

describe('per-run model', () => {
  it('a spec is resolved (offline), a model object is used as given, a bad spec throws ModelConfigError', async () => {
    const { of } = await run({ policy: allowsBash, model: undefined }, { say: '$ echo spec', model: 'offline' });
    expect(of('tool_result')[0]).toMatchObject({ output: 'spec\n' });
    const object = await run({ policy: allowsBash }, { say: '$ echo object', model: createOfflineModel() });
    expect(object.of('tool_result')[0]).toMatchObject({ output: 'object\n' });
    expect(() =>
      createAgent({ workspace }).invoke({ messages: [{ role: 'user', content: 'ls' }], model: 'glm-4.7' }),
    ).toThrow(ModelConfigError);
  });
});

describe('per-run tools', () => {
  const fakeBash: AgentTool = {
    name: 'bash',
    description: 'Pretends to run a command',
    inputSchema: z.object({ command: z.string() }) as never,
    risk: 'write',
    paramKinds: { command: 'command' },
    execute: async (input: { command: string }) => ({ output: `pretended ${input.command}` }),
  } as unknown as AgentTool;

  it("names select from the agent's tools: bash not named is not offered, so it never runs", async () => {
    const { of } = await run({ policy: allowsBash }, { say: '$ echo hidden\nls', tools: ['list_files'] });
    expect(of('tool_call').map((e) => e.name)).toEqual(['list_files']);
  });

  it("a tool object replaces the agent's and is still gated (asks, runs only when approved)", async () => {
    const denied = await run({ policy: asksBash }, { say: '$ echo x', tools: [fakeBash] });
    expect(denied.of('relay')[0]).toMatchObject({ tool: 'bash', params: { command: 'echo x' } });
    expect(denied.of('tool_result')[0]).toMatchObject({ denied: true });
    const approved = await run(
      { policy: asksBash },
      { say: '$ echo x', tools: [fakeBash] },
      (e) => void e.respond({ approved: true }),
    );
    expect(approved.of('tool_result')[0]).toMatchObject({ output: 'pretended echo x', denied: false });
  });

  it('an unknown or repeated name throws ToolSelectionError before the run starts', () => {
    const agent = createAgent({ workspace });
    const invoke = (tools: InvokeOptions['tools']) => () =>
      agent.invoke({ messages: [{ role: 'user', content: 'ls' }], tools });
    expect(invoke(['list_files', 'nope'])).toThrow(ToolSelectionError);
    expect(invoke(['list_files', 'nope'])).toThrow(/Unknown tool "nope"/);
    expect(invoke(['bash', fakeBash])).toThrow(/named twice/);
    // `task` names the subagent tool only when the agent has subagents.
    expect(invoke(['task'])).toThrow(ToolSelectionError);
  });

  it('`task` keeps the subagents when named; left out, they are not offered', async () => {
    const agents = [{ name: 'reviewer', tools: ['list_files'] }];
    const withTask = await run(
      { policy: allowsBash, agents },
      { say: 'task reviewer: ls', tools: ['list_files', 'task'] },
    );
    expect(withTask.of('agent_start')).toHaveLength(1);
    const without = await run({ policy: allowsBash, agents }, { say: 'task reviewer: ls', tools: ['list_files'] });
    expect(without.of('agent_start')).toHaveLength(0);
  });
});

describe('an agent whose workspace cannot be made', () => {
  it('leaves no unhandled rejection when it never runs', async () => {
    // Under a regular file: mkdir fails at once (as realpath did when a test removed the directory
    // in between), and the eager promise rejected with nobody listening.
    const file = path.join(workspace, 'a-file');
    await writeFile(file, 'x');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      createAgent({ workspace: path.join(file, 'sub') });
      await new Promise((r) => setTimeout(r, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
