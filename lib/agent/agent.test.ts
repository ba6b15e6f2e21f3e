// The gated loop end to end with the offline model and the real built-in tools: every outcome of
// a relay, parallel calls, grants, subagents, and that nothing runs that was not allowed.
import { mkdtemp, readFile, rm, writeFile, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, MemoryGrantStore, type AgentEvent, type AgentOptions, type AgentRun } from './index';
import type { PolicyInput } from '../policy';
import { DurableRelayBroker, MemoryRelayBroker, MemoryRelayStore } from '../relay';

let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-agent-')));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const askBash: PolicyInput = { riskDefaults: { write: 'ask', read_only: 'allow' }, rules: [] };

function agent(options: AgentOptions = {}) {
  return createAgent({ workspace, policy: askBash, ...options });
}

/** Runs to the end, answering relays with `answer`; returns all events. */
async function collect(
  run: AgentRun,
  answer?: (event: Extract<AgentEvent, { type: 'relay' }>, all: AgentEvent[]) => void,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) {
    events.push(event);
    if (event.type === 'relay' && answer) answer(event, events);
  }
  return events;
}

const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
const finalText = (events: AgentEvent[]) => of(events, 'done')[0]?.text ?? '';
const say = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

describe('the gated loop', () => {
  it('a second answer without await (a late timer, a double key press) is refused without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const events = await collect(agent().invoke(say('$ echo answered-twice')), (e) => {
        void e.respond({ approved: true });
        void e.respond({ approved: false, reason: 'Approval timeout' });
      });
      expect(of(events, 'tool_result')[0]).toMatchObject({ denied: false });
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('approve once: the tool runs and its output reaches the model', async () => {
    const events = await collect(
      agent().invoke(say('$ echo approved-once')),
      (e) => void e.respond({ approved: true }),
    );
    expect(of(events, 'relay')).toHaveLength(1);
    expect(of(events, 'relay_resolved')[0]).toMatchObject({ status: 'approved', decidedBy: 'user' });
    expect(of(events, 'tool_result')[0]).toMatchObject({ output: 'approved-once\n', denied: false });
    expect(finalText(events)).toContain('approved-once');
  });

  it('a relay carries why it asks, the rules Always Allow would add, the prompt and a deadline', async () => {
    const events = await collect(
      agent({ approvalTimeoutS: 60 }).invoke(say('$ git status')),
      (e) => void e.respond({ approved: false }),
    );
    const relay = of(events, 'relay')[0]!;
    expect(relay).toMatchObject({
      kind: 'permission',
      tool: 'bash',
      params: { command: 'git status' },
      risk: 'write',
      agentId: 'main',
      parents: [],
    });
    expect(relay.decision).toMatchObject({ action: 'ask', reason: 'risk_default' });
    expect(relay.suggestedRules).toEqual([
      expect.objectContaining({ action: 'allow', tool: 'bash', params: { command: 'git status *' } }),
    ]);
    expect(relay.prompt).toBe(`Run 'bash' with arguments {"command":"git status"}?`);
    expect(relay.expiresAt - relay.createdAt).toBe(60_000);
  });

  it('always allow: the next matching call runs without a relay, a non-matching one still asks', async () => {
    const a = agent();
    const first = await collect(
      a.invoke({ ...say('$ echo one'), sessionId: 's1' }),
      (e) => void e.respond({ approved: true, always: true }),
    );
    expect(of(first, 'tool_result')[0]!.output).toBe('one\n');
    expect(await a.grants.list('s1')).toEqual([expect.objectContaining({ params: { command: 'echo *' } })]);
    const second = await collect(a.invoke({ ...say('$ echo two'), sessionId: 's1' }), () => {
      throw new Error('no relay expected');
    });
    expect(of(second, 'relay')).toHaveLength(0);
    expect(of(second, 'tool_call')[0]!.decision).toMatchObject({ action: 'allow', reason: 'session_grant' });
    expect(of(second, 'tool_result')[0]!.output).toBe('two\n');
    const third = await collect(
      a.invoke({ ...say('$ pwd'), sessionId: 's1' }),
      (e) => void e.respond({ approved: false }),
    );
    expect(of(third, 'relay')).toHaveLength(1);
    const otherSession = await collect(
      a.invoke({ ...say('$ echo three'), sessionId: 's2' }),
      (e) => void e.respond({ approved: false }),
    );
    expect(of(otherSession, 'relay')).toHaveLength(1);
  });

  it('an allow-once grant is consumed by the call it allows', async () => {
    const grants = new MemoryGrantStore({
      sessionId: 's',
      grants: [{ action: 'allow', tool: 'bash', params: { command: 'echo *' }, once: true }],
    });
    const a = agent({ grants });
    const first = await collect(a.invoke({ ...say('$ echo once'), sessionId: 's' }));
    expect(of(first, 'tool_result')[0]!.output).toBe('once\n');
    expect(await grants.list('s')).toEqual([]);
    const second = await collect(
      a.invoke({ ...say('$ echo twice'), sessionId: 's' }),
      (e) => void e.respond({ approved: false }),
    );
    expect(of(second, 'relay')).toHaveLength(1);
  });

  it('a call whose allow-once grant another call used up first does not run', async () => {
    const once = { action: 'allow' as const, tool: 'bash', params: { command: 'echo *' }, once: true };
    // A store whose grant was taken by a concurrent call between the listing and the consumption.
    const grants = { list: async () => [once], add: async () => undefined, consume: async () => false };
    const a = agent({ grants });
    const events = await collect(a.invoke({ ...say('$ echo raced'), sessionId: 's' }));
    const [result] = of(events, 'tool_result');
    expect(result).toMatchObject({ isError: true, denied: true });
    expect(result!.output).toMatch(/allow-once grant/);
  });

  it('always allow stores the rule the human edited', async () => {
    const a = agent();
    await collect(
      a.invoke({ ...say('$ echo one'), sessionId: 's' }),
      (e) =>
        void e.respond({
          approved: true,
          always: true,
          rule: { action: 'allow', tool: 'bash', params: { command: 'echo one' } },
        }),
    );
    expect(await a.grants.list('s')).toEqual([{ action: 'allow', tool: 'bash', params: { command: 'echo one' } }]);
  });

  it('deny with a reason: nothing runs and the model reply contains the reason', async () => {
    const events = await collect(
      agent().invoke(say(`$ touch ${workspace}/never`)),
      (e) => void e.respond({ approved: false, reason: 'not on a Friday' }),
    );
    expect(of(events, 'tool_result')[0]).toMatchObject({ denied: true, isError: true });
    expect(of(events, 'tool_result')[0]!.output).toMatch(
      /^Tool execution denied: not on a Friday\. Do not retry the same call\.$/,
    );
    expect(finalText(events)).toContain('not on a Friday');
    await expect(readFile(path.join(workspace, 'never'))).rejects.toThrow();
  });

  it('a policy deny never raises a relay and tells the model why', async () => {
    const policy: PolicyInput = {
      rules: [{ action: 'deny', tool: 'bash', params: { command: 'rm *' }, description: 'No deleting' }],
    };
    const events = await collect(agent({ policy }).invoke(say('$ rm -f important')), () => {
      throw new Error('no relay expected');
    });
    expect(of(events, 'tool_result')[0]!.output).toContain('No deleting');
    expect(finalText(events)).toContain('No deleting');
  });

  it('timeout: the call is denied with "Approval timeout" and relay_resolved says expired', async () => {
    const policy: PolicyInput = { rules: [{ action: 'ask', tool: 'bash', timeoutS: 1 }] };
    const events = await collect(agent({ policy }).invoke(say('$ echo late')));
    expect(of(events, 'relay_resolved')[0]).toMatchObject({ status: 'expired', reason: 'Approval timeout' });
    expect(of(events, 'tool_result')[0]!.output).toContain('Approval timeout');
    expect(finalText(events)).toContain('Approval timeout');
  });

  it('abort: a pending relay becomes a denial, nothing runs, the run ends cancelled', async () => {
    const controller = new AbortController();
    const run = agent().invoke({ ...say(`$ touch ${workspace}/aborted`), signal: controller.signal });
    const events = await collect(run, () => controller.abort());
    expect(of(events, 'relay_resolved')[0]).toMatchObject({ status: 'cancelled' });
    expect(of(events, 'done')[0]).toMatchObject({ finishReason: 'cancelled' });
    await expect(readFile(path.join(workspace, 'aborted'))).rejects.toThrow();
  });

  it('detach: the run stops here without settling its relay or saving more state; the event stream ends', async () => {
    const broker = new DurableRelayBroker(new MemoryRelayStore());
    const saved: number[] = [];
    const run = agent({ broker }).invoke({
      ...say(`$ touch ${workspace}/detached`),
      checkpoint: async (messages) => void saved.push(messages.length),
    });
    let relayId = '';
    const events = await collect(run, (event) => {
      relayId = event.id;
      run.detach();
    });
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'relay']);
    const result = await run.result;
    expect(result.finishReason).toBe('cancelled');
    // Still open for whoever continues the run; the unwinding (the call ending as denied) was not saved.
    expect((await broker.get(relayId))?.outcome).toBeUndefined();
    expect(saved).toEqual([2]);
    await expect(readFile(path.join(workspace, 'detached'))).rejects.toThrow();
  });

  for (const letToolsFinish of [true, false]) {
    it(`detach while a tool runs: ${letToolsFinish ? 'the tool finishes and its result is logged' : 'the tool is stopped'}; nothing new starts`, async () => {
      const finished: string[] = [];
      const holder: { run?: AgentRun } = {};
      const executions = {
        claim: async () => {
          setTimeout(() => holder.run?.detach({ letToolsFinish }), 100);
          return true;
        },
        finish: async ({ output }: { output: string }) => void finished.push(output),
      };
      const run = (holder.run = agent({ executions, onApproval: 'auto-approve' }).invoke(
        say(`$ sleep 0.4 && echo done > ${workspace}/slow`),
      ));
      await collect(run);
      await run.result;
      if (letToolsFinish) {
        expect(await readFile(path.join(workspace, 'slow'), 'utf8')).toBe('done\n');
        expect(finished).toEqual(['(no output)']);
      } else {
        await expect(readFile(path.join(workspace, 'slow'))).rejects.toThrow();
        expect(finished[0]).toContain('aborted');
      }
    });
  }

  it('parallel calls: all asks are raised at once, answered out of order, results in call order', async () => {
    const run = agent().invoke(say('$ echo first\n$ echo second\n$ echo third'));
    const events = await collect(run, (_e, all) => {
      const relays = of(all, 'relay');
      if (relays.length < 3) return;
      void relays[2]!.respond({ approved: true });
      void relays[0]!.respond({ approved: false, reason: 'not the first' });
      void relays[1]!.respond({ approved: true });
    });
    expect(of(events, 'relay')).toHaveLength(3);
    expect(finalText(events).split('\n')).toEqual([
      expect.stringContaining('not the first'),
      expect.stringContaining('second'),
      expect.stringContaining('third'),
    ]);
  });

  it('an always-allow grant resolves the other pending relays it covers', async () => {
    const run = agent().invoke(say('$ echo a\n$ echo b\n$ pwd'));
    const events = await collect(run, (_e, all) => {
      const relays = of(all, 'relay');
      if (relays.length !== 3) return;
      void relays[0]!.respond({ approved: true, always: true });
      void relays[2]!.respond({ approved: false, reason: 'pwd is not covered' });
    });
    const resolved = of(events, 'relay_resolved');
    const relays = of(events, 'relay');
    expect(resolved.find((r) => r.relayId === relays[1]!.id)).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    expect(resolved.find((r) => r.relayId === relays[2]!.id)).toMatchObject({ status: 'denied' });
    expect(finalText(events).split('\n')).toEqual([
      'bash: a',
      'bash: b',
      expect.stringContaining('pwd is not covered'),
    ]);
  });

  it('an always-allow grant also settles the covered relays of other runs of the session, not of other sessions', async () => {
    const a = agent();
    const other = a.invoke({ ...say('$ echo b'), sessionId: 's' });
    const stranger = a.invoke({ ...say('$ echo c'), sessionId: 't' });
    const otherEvents: AgentEvent[] = [];
    const strangerEvents: AgentEvent[] = [];
    const following = (async () => {
      for await (const e of other) otherEvents.push(e);
    })();
    const watching = (async () => {
      for await (const e of stranger) {
        strangerEvents.push(e);
        if (e.type === 'relay') setTimeout(() => void e.respond({ approved: false, reason: 'other session' }), 200);
      }
    })();
    await expect.poll(async () => (await a.broker.listPending({ sessionId: 's' })).length).toBe(1);
    await collect(
      a.invoke({ ...say('$ echo a'), sessionId: 's' }),
      (e) => void e.respond({ approved: true, always: true }),
    );
    await following;
    await watching;
    expect(of(otherEvents, 'relay_resolved')[0]).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    expect(of(strangerEvents, 'relay_resolved')[0]).toMatchObject({ status: 'denied' });
  });

  it('an always-allow grant for everyone (scope global) also settles the covered relays of other sessions', async () => {
    const a = agent();
    const stranger = a.invoke({ ...say('$ echo c'), sessionId: 't' });
    const strangerEvents: AgentEvent[] = [];
    const watching = (async () => {
      for await (const e of stranger) strangerEvents.push(e);
    })();
    await expect.poll(async () => (await a.broker.listPending({ sessionId: 't' })).length).toBe(1);
    await collect(
      a.invoke({ ...say('$ echo a'), sessionId: 's' }),
      (e) => void e.respond({ approved: true, always: true, scope: 'global' }),
    );
    await watching;
    expect(of(strangerEvents, 'relay_resolved')[0]).toMatchObject({ status: 'approved', decidedBy: 'grant' });
    expect(finalText(strangerEvents)).toBe('bash: c');
  });

  it('a second answer to the same relay gets the first decision', async () => {
    let second: unknown;
    await collect(agent().invoke(say('$ echo x')), (e) => {
      void e.respond({ approved: true });
      e.respond({ approved: false }).catch((error) => (second = error));
    });
    expect(second).toMatchObject({ code: 'conflict:relay_resolved', outcome: { status: 'approved' } });
  });

  it('invalid tool input goes back to the model as a tool error and never runs', async () => {
    const { readFileTool } = await import('./tools');
    let ran = false;
    const strict = {
      ...readFileTool,
      inputSchema: z.object({ path: z.string().regex(/^\d+$/, 'must be digits') }),
      execute: async () => ((ran = true), { output: 'ran' }),
    };
    const events = await collect(
      agent({ tools: [strict] as never, policy: { defaultAction: 'allow', rules: [] } }).invoke(say('read notes.md')),
      () => {
        throw new Error('no relay expected');
      },
    );
    expect(of(events, 'tool_result')[0]).toMatchObject({
      isError: true,
      output: 'Invalid input for read_file: path: must be digits',
    });
    expect(ran).toBe(false);
    expect(finalText(events)).toContain('must be digits');
  });

  it('workspace escapes are refused by the tools even when allowed', async () => {
    const events = await collect(
      agent({ policy: { defaultAction: 'allow', rules: [] } }).invoke(
        say('read ../../../etc/passwd\nwrite /tmp/gatehouse-escape.txt: x'),
      ),
    );
    for (const result of of(events, 'tool_result')) expect(result).toMatchObject({ isError: true });
    await expect(readFile('/tmp/gatehouse-escape.txt')).rejects.toThrow();
  });

  it('a write relay carries a diff preview of what would change', async () => {
    await writeFile(path.join(workspace, 'notes.md'), 'one\ntwo\n');
    const events = await collect(
      agent().invoke(say('edit notes.md: two => three')),
      (e) => void e.respond({ approved: true }),
    );
    const preview = of(events, 'relay')[0]!.preview as { kind: string; diff: string };
    expect(preview.kind).toBe('diff');
    expect(preview.diff).toContain('-two');
    expect(preview.diff).toContain('+three');
    expect(await readFile(path.join(workspace, 'notes.md'), 'utf8')).toBe('one\nthree\n');
  });

  it('fetch_url to a loopback address is refused by the default policy', async () => {
    const events = await collect(createAgent({ workspace }).invoke(say('fetch http://127.0.0.1:9/')), () => {
      throw new Error('no relay expected');
    });
    expect(of(events, 'tool_result')[0]).toMatchObject({ denied: true });
    expect(of(events, 'tool_result')[0]!.output).toContain('no-private-network');
  });
});

describe('at most once', () => {
  it('a call whose id was already executed does not run again', async () => {
    const claimed = new Set<string>();
    const finished: string[] = [];
    const executions = {
      claim: async ({ toolCallId }: { toolCallId: string }) =>
        !claimed.has(toolCallId) && Boolean(claimed.add(toolCallId)),
      finish: async ({ output }: { output: string }) => void finished.push(output),
    };
    const events = await collect(
      agent({ executions, onApproval: 'auto-approve' }).invoke(say(`$ echo once >> ${workspace}/log`)),
    );
    expect(of(events, 'tool_result')[0]).toMatchObject({ isError: false });
    expect(finished).toEqual(['(no output)']);
    const replayed = await collect(
      agent({ executions: { ...executions, claim: async () => false }, onApproval: 'auto-approve' }).invoke(
        say(`$ echo twice >> ${workspace}/log`),
      ),
    );
    expect(of(replayed, 'tool_result')[0]!.output).toContain('has already been executed');
    expect(await readFile(path.join(workspace, 'log'), 'utf8')).toBe('once\n');
  });

  it('an approval is announced (relay_resolved) once the call is claimed, before the tool runs', async () => {
    const order: string[] = [];
    const executions = {
      claim: async () => {
        order.push('claim');
        await new Promise((resolve) => setTimeout(resolve, 50));
        order.push('claimed');
        return true;
      },
      finish: async () => undefined,
    };
    for await (const event of agent({ executions }).invoke(say('$ echo ran'))) {
      if (event.type === 'relay') void event.respond({ approved: true });
      if (event.type === 'relay_resolved' || event.type === 'tool_result') order.push(event.type);
    }
    expect(order).toEqual(['claim', 'claimed', 'relay_resolved', 'tool_result']);
  });

  it('a call whose execution cannot be recorded does not run', async () => {
    const executions = {
      claim: async () => {
        throw new Error('database down');
      },
      finish: async () => undefined,
    };
    const events = await collect(
      agent({ executions, onApproval: 'auto-approve' }).invoke(say(`$ touch ${workspace}/unrecorded`)),
    );
    expect(of(events, 'tool_result')[0]!.output).toContain('could not be recorded (database down)');
    await expect(readFile(path.join(workspace, 'unrecorded'))).rejects.toThrow();
  });
});

describe('failures', () => {
  it('a relay that cannot be registered fails that call alone; nothing unapproved runs', async () => {
    const broker = new MemoryRelayBroker();
    broker.register = async () => {
      throw new Error('storage down');
    };
    const events = await collect(
      agent({ broker, policy: { riskDefaults: { write: 'ask', read_only: 'allow' }, rules: [] } }).invoke(
        say(`$ touch ${workspace}/never\nls`),
      ),
    );
    const results = of(events, 'tool_result');
    expect(results.find((r) => r.name === 'bash')!.output).toContain('could not be decided (storage down)');
    expect(results.find((r) => r.name === 'list_files')).toMatchObject({ isError: false });
    expect(of(events, 'done')[0]).toMatchObject({ finishReason: 'stop' });
    await expect(readFile(path.join(workspace, 'never'))).rejects.toThrow();
  });
});

describe('approval handlers', () => {
  it('auto-approve runs the call', async () => {
    const events = await collect(agent({ onApproval: 'auto-approve' }).invoke(say('$ echo auto')));
    expect(of(events, 'tool_result')[0]!.output).toBe('auto\n');
    expect(of(events, 'relay_resolved')[0]).toMatchObject({ decidedBy: 'handler' });
  });

  it('auto-deny denies it', async () => {
    const events = await collect(agent({ onApproval: 'auto-deny' }).invoke(say('$ echo no')));
    expect(of(events, 'tool_result')[0]).toMatchObject({ denied: true });
  });

  it('a callback decides; a throwing callback is a denial', async () => {
    const ok = await collect(
      agent({ onApproval: (relay) => ({ approved: relay.params.command === 'echo yes' }) }).invoke(say('$ echo yes')),
    );
    expect(of(ok, 'tool_result')[0]!.output).toBe('yes\n');
    const broken = await collect(
      agent({
        onApproval: () => {
          throw new Error('boom');
        },
      }).invoke(say('$ echo yes')),
    );
    expect(of(broken, 'tool_result')[0]!.output).toContain('The approval handler failed: boom');
  });

  it('a broker resolves it from outside the event stream', async () => {
    const a = agent();
    const run = a.invoke(say('$ echo remote'));
    const answered = (async () => {
      for (;;) {
        const [pending] = await a.broker.listPending({ runId: run.runId });
        if (pending) return a.broker.resolve(pending.id, { approved: true }, 'remote-admin');
        await new Promise((r) => setImmediate(r));
      }
    })();
    const events = await collect(run);
    await answered;
    expect(of(events, 'relay_resolved')[0]).toMatchObject({ decidedBy: 'remote-admin' });
    expect(of(events, 'tool_result')[0]!.output).toBe('remote\n');
  });

  it('interruptOn: true asks, false allows, shouldApprove decides per call', async () => {
    const interruptOn = {
      read_file: true,
      bash: { shouldApprove: (args: Record<string, unknown>) => String(args.command).startsWith('rm') },
    };
    await writeFile(path.join(workspace, 'a.txt'), 'A');
    const events = await collect(
      agent({ interruptOn, policy: { defaultAction: 'allow', rules: [] } }).invoke(
        say('read a.txt\n$ echo free\n$ rm -f a.txt'),
      ),
      (e) => void e.respond({ approved: false }),
    );
    expect(
      of(events, 'relay')
        .map((e) => e.tool)
        .sort(),
    ).toEqual(['bash', 'read_file']);
    expect(of(events, 'tool_result').find((r) => r.output === 'free\n')).toBeDefined();
  });

  it('a tool approval flag and prompt template map onto the same engine', async () => {
    const { bashTool } = await import('./tools');
    const tools = [{ ...bashTool, approval: 'required' as const, approvalPrompt: 'Shell: {args}' }];
    const events = await collect(
      agent({ tools: tools as never, policy: { defaultAction: 'allow', rules: [] } }).invoke(say('$ echo x')),
      (e) => void e.respond({ approved: true }),
    );
    expect(of(events, 'relay')[0]!.prompt).toBe('Shell: {"command":"echo x"}');
  });
});

describe('subagents', () => {
  it("a subagent's relay surfaces in the parent's stream with its agentId and parents, and agent rules apply", async () => {
    const a = agent({
      agents: [{ name: 'reviewer', description: 'reads and runs checks', tools: ['bash', 'read_file'] }],
      policy: {
        riskDefaults: { write: 'ask', read_only: 'allow' },
        rules: [{ action: 'deny', tool: 'bash', agent: 'reviewer', params: { command: 'rm *' } }],
      },
    });
    const events = await collect(
      a.invoke(say('task reviewer: $ echo from-sub\ntask reviewer: $ rm -f x\n$ rm -f x')),
      (e) => void e.respond({ approved: true }),
    );
    const relays = of(events, 'relay');
    expect(relays.map((r) => [r.agentId, r.params.command])).toEqual(
      expect.arrayContaining([
        ['reviewer', 'echo from-sub'],
        ['main', 'rm -f x'],
      ]),
    );
    expect(relays.find((r) => r.agentId === 'reviewer')).toMatchObject({ parents: ['main'], agentId: 'reviewer' });
    expect(of(events, 'agent_start')[0]).toMatchObject({ agentId: 'reviewer', parents: ['main'] });
    const subResults = of(events, 'tool_result').filter((r) => r.agentId === 'reviewer');
    expect(subResults.map((r) => r.output).sort()).toEqual([
      expect.stringContaining('Tool execution denied'),
      'from-sub\n',
    ]);
    expect(finalText(events)).toContain('from-sub');
  });
});
