// Runs through the database on PGlite and PostgreSQL: events stored in order before they are
// delivered, replay after a sequence number, human decisions checked against the session and
// recorded once, the run's status following its relays, and every decision audited.
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { expect, it, vi } from 'vitest';
import { createOfflineModel } from '../../agent';
import { LoggedEventSchema, type LoggedEvent } from '../../contract';
import type { Queries } from '../../db';
import { describeStores } from '../../db/test-support/stores';
import { RelayAlreadyResolvedError } from '../../relay';
import { loadPolicy } from '../stores/policy-store';
import { auditParams } from './run-manager';
import { followRun, testRunManager, useTempWorkspace, ofType } from '../test-support/run-manager';

const workspace = useTempWorkspace('gatehouse-runs-');

type ToolCallPart = { type: 'tool-call'; toolCallId: string; toolName: string; input: Record<string, unknown> };

/** A relay for `call` as the agent leaves it before a crash: the row, and its `relay` event in the log. */
async function raiseRelay(
  q: Queries,
  { id, runId, sessionId, call }: { id: string; runId: string; sessionId: string; call: ToolCallPart },
) {
  const relay = {
    id,
    kind: 'permission' as const,
    runId,
    sessionId,
    agentId: 'main',
    parents: [],
    toolCallId: call.toolCallId,
    tool: call.toolName,
    params: call.input,
    decision: { action: 'ask' as const, reason: 'risk_default' as const, explanation: 'asks' },
    suggestedRules: [],
    prompt: '?',
    createdAt: Date.now() - 1_000,
    expiresAt: Date.now() + 60_000,
  };
  await q.relays.insertRelay({ request: relay });
  await q.events.appendEvent({ runId, type: 'relay', data: { ...relay, type: 'relay' } });
  return relay;
}

describeStores('RunManager', (store) => {
  const manager = () => testRunManager(store().q, workspace());
  const follow = followRun;

  it('stores every event in order, pauses on a relay, resumes on the decision, audits it', async () => {
    const m = manager();
    const { runId, sessionId } = await m.start({ messages: [{ role: 'user', content: '$ echo stored' }] });
    const events = await follow(m, runId, 0, async (event) => {
      if (event.type !== 'relay') return;
      const relayId = event.id;
      expect(await store().q.runs.getRun({ id: runId })).toMatchObject({ status: 'waiting' });
      await expect(
        m.resolve(relayId, { sessionId: 'someone-else', response: { approved: true }, decidedBy: 'mallory' }),
      ).rejects.toMatchObject({ status: 404 });
      await m.resolve(relayId, { sessionId, response: { approved: true }, decidedBy: 'alice' });
      await expect(
        m.resolve(relayId, { sessionId, response: { approved: false }, decidedBy: 'bob' }),
      ).rejects.toBeInstanceOf(RelayAlreadyResolvedError);
    });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'relay', 'relay_resolved', 'tool_result', 'text', 'done']);
    // Stored in the contract's shape (the seed design's names), each with its origin.
    for (const event of events) expect(LoggedEventSchema.safeParse(event).error, JSON.stringify(event)).toBeUndefined();
    expect(ofType(events, 'relay')[0]).toMatchObject({
      kind: 'permission',
      tool: 'bash',
      runId,
      sessionId,
      params: { command: 'echo stored' },
    });
    expect(ofType(events, 'tool_result')[0]!).toMatchObject({ name: 'bash', output: 'stored\n' });
    expect(await store().q.runs.getRun({ id: runId })).toMatchObject({ status: 'done' });
    const toolCallId = ofType(events, 'tool_result')[0]!.toolCallId as string;
    expect(await store().q.toolExecutions.getToolExecution({ runId, toolCallId })).toMatchObject({
      status: 'done',
      result: { output: 'stored\n', isError: false },
    });
    const audit = (await store().q.audit.listAudit({ runId })).items;
    expect(audit.map((a) => [a.action, a.decidedBy ?? null]).sort()).toEqual([
      ['allow', 'alice'],
      ['ask', null],
    ]);
    // The human's row names the call, so filtering the audit by tool finds it.
    expect(audit.find((a) => a.decidedBy === 'alice')).toMatchObject({
      tool: 'bash',
      params: { command: 'echo stored' },
    });
  });

  it('a subscriber that comes back with the last sequence it saw gets exactly the rest', async () => {
    const m = manager();
    const { runId } = await m.start({ messages: [{ role: 'user', content: 'read missing.txt' }] });
    const all = await follow(m, runId, 0, () => undefined);
    const rest = await new Promise<LoggedEvent[]>((resolve) => {
      const got: LoggedEvent[] = [];
      void m.subscribe(runId, 2, (e) => got.push(e)).then(() => resolve(got));
    });
    expect(rest).toEqual(all.slice(2));
  });

  it("the seeds' per-run permissions apply on top of the stored policy", async () => {
    const m = manager();
    const { runId } = await m.start({
      messages: [{ role: 'user', content: '$ echo blocked' }],
      permissions: { deny: [{ tool: 'bash', params: { command: 'echo *' } }] },
    });
    const events = await follow(m, runId, 0, () => undefined);
    expect(events.some((e) => e.type === 'relay')).toBe(false);
    expect(ofType(events, 'tool_result')[0]!).toMatchObject({ denied: true });
  });

  it('the policy is seeded once with the built-in default', async () => {
    const [a, b] = await Promise.all([loadPolicy(store().q), loadPolicy(store().q)]);
    expect(a.version).toBe(1);
    expect(b.version).toBe(1);
    expect(a.policy.rules.some((r) => r.id === 'no-private-network')).toBe(true);
  });

  it('a stored policy that no longer validates is used salvaged, never more permissive, and runs still start', async () => {
    const { q } = store();
    await loadPolicy(q);
    const saved = await q.policies.savePolicy({
      policy: {
        defaultAction: 'ask',
        rules: [{ action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'regex', value: '(?=never)' }] }],
      } as never,
      expectedVersion: 1,
      createdBy: 'older-version',
    });
    expect(saved.ok).toBe(true);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { policy } = await loadPolicy(q);
      expect(policy.rules[0]).toMatchObject({ action: 'deny', tool: 'bash' });
      expect(policy.rules[0]!.when).toBeUndefined();
      const m = manager();
      const { runId } = await m.start({ messages: [{ role: 'user', content: '$ echo salvaged' }] });
      const events = await follow(m, runId, 0);
      expect(ofType(events, 'tool_result')[0]).toMatchObject({ denied: true });
    } finally {
      error.mockRestore();
    }
  });

  it('after a restart, a paused run is resumed from its checkpoint and finishes on the decision', async () => {
    // What a crash leaves behind: the checkpoint (the step's tool calls), the relay and its event.
    const { q } = store();
    const runId = 'crashed-run';
    const sessionId = 'crashed-session';
    const call = {
      type: 'tool-call' as const,
      toolCallId: 'call-1',
      toolName: 'bash',
      input: { command: `echo resumed >> ${workspace()}/log` },
    };
    const ran = {
      type: 'tool-call' as const,
      toolCallId: 'call-2',
      toolName: 'bash',
      input: { command: `echo never >> ${workspace()}/log` },
    };
    await q.runs.createRun({
      id: runId,
      sessionId,
      status: 'waiting',
      state: {
        messages: [
          { role: 'user', content: 'two calls' },
          { role: 'assistant', content: [call, ran] },
        ],
      },
    });
    const relay = await raiseRelay(q, { id: 'relay-1', runId, sessionId, call });
    // call-2 had started executing when the process died.
    await q.toolExecutions.claimToolExecution({ runId, toolCallId: 'call-2' });
    // A relay registered but never announced (the process died in between): nothing would act on it.
    await q.relays.insertRelay({ request: { ...relay, id: 'relay-stray', toolCallId: 'call-2' } });

    const m = manager();
    expect(await m.recover()).toEqual([runId]);
    const events = await follow(m, runId, 1, async (event) => {
      if (event.type === 'resumed')
        await m.resolve('relay-1', { sessionId, response: { approved: true }, decidedBy: 'alice' });
    });
    const results = ofType(events, 'tool_result').map((e) => [e.toolCallId, e.output]);
    expect(results).toEqual(
      expect.arrayContaining([
        ['call-1', '(no output)'],
        ['call-2', expect.stringContaining('was interrupted while running')],
      ]),
    );
    expect(events.at(-1)?.type).toBe('done');
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(path.join(workspace(), 'log'), 'utf8')).toBe('resumed\n');
    expect(await q.runs.getRun({ id: runId })).toMatchObject({ status: 'done' });
    expect(await q.relays.getRelay({ id: 'relay-stray' })).toMatchObject({
      status: 'cancelled',
      reason: 'The run was resumed without this call',
      decidedBy: 'system',
    });
  });

  it('after a database outage, a decision and a result the log lost are stored (and the decision audited) on resume', async () => {
    const { q } = store();
    const runId = 'lost-writes';
    const sessionId = 'lost-session';
    const call = {
      type: 'tool-call' as const,
      toolCallId: 'call-9',
      toolName: 'bash',
      input: { command: 'echo before' },
    };
    await q.runs.createRun({
      id: runId,
      sessionId,
      status: 'waiting',
      state: {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [call] },
        ],
      },
    });
    await raiseRelay(q, { id: 'relay-9', runId, sessionId, call });
    // Approved and executed, but the append of relay_resolved and tool_result failed with the connection.
    await q.relays.resolveRelay({
      id: 'relay-9',
      status: 'approved',
      response: { approved: true },
      decidedBy: 'alice',
    });
    await q.toolExecutions.claimToolExecution({ runId, toolCallId: 'call-9' });
    await q.toolExecutions.finishToolExecution({
      runId,
      toolCallId: 'call-9',
      result: { output: 'before\n', isError: false },
    });

    const m = manager();
    expect(await m.recover()).toEqual([runId]);
    const events = await follow(m, runId, 1);
    expect(events.map((e) => e.type)).toEqual(['relay_resolved', 'tool_result', 'resumed', 'text', 'done']);
    expect(events[0]!).toMatchObject({ relayId: 'relay-9', status: 'approved', decidedBy: 'alice' });
    expect(events[1]!).toMatchObject({ toolCallId: 'call-9', output: 'before\n', isError: false });
    const decisions = (await q.audit.listAudit({ runId })).items.filter((row) => row.kind === 'decision');
    expect(decisions).toMatchObject([{ action: 'allow', decidedBy: 'alice', tool: 'bash' }]);
    expect((await q.toolExecutions.listToolExecutions({ runId })).length).toBe(1);
  });

  it('a run whose answer was checkpointed but whose `done` was not stored is finished on resume, without asking the model again', async () => {
    const { q } = store();
    const call = { type: 'tool-call' as const, toolCallId: 'call-7', toolName: 'bash', input: { command: 'echo x' } };
    const messages = [
      { role: 'user', content: '$ echo x' },
      { role: 'assistant', content: [call] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call-7', toolName: 'bash', output: { type: 'text', value: 'x' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'bash: x' }] },
    ];
    await q.runs.createRun({ id: 'answered', sessionId: 's', status: 'running', state: { messages } });
    // Executed (its result stored), but the log lost the tool_result with the copy that ran it.
    await q.toolExecutions.claimToolExecution({ runId: 'answered', toolCallId: 'call-7' });
    await q.toolExecutions.finishToolExecution({
      runId: 'answered',
      toolCallId: 'call-7',
      result: { output: 'x', isError: false },
    });
    const m = manager();
    expect(await m.recover()).toEqual(['answered']);
    const events = await follow(m, 'answered', 0);
    expect(
      events.map((e) => [
        e.type,
        e.type === 'tool_result'
          ? e.output
          : e.type === 'text'
            ? e.content
            : e.type === 'done'
              ? e.finishReason
              : undefined,
      ]),
    ).toEqual([
      ['tool_result', 'x'],
      ['text', 'bash: x'],
      ['done', 'stop'],
    ]);
    expect(await q.runs.getRun({ id: 'answered' })).toMatchObject({ status: 'done' });
    expect(await q.toolExecutions.listToolExecutions({ runId: 'answered' })).toHaveLength(1);
  });

  it('a run whose step results were checkpointed while its log could not be written gets the lost decisions and results on resume, then goes on', async () => {
    // The pump's append of relay_resolved failed (its connection was cut) while the run went on:
    // the tools ran and the step's results were checkpointed before the copy was detached.
    const { q } = store();
    const runId = 'results-checkpointed';
    const sessionId = 'results-session';
    const approved = {
      type: 'tool-call' as const,
      toolCallId: 'call-a',
      toolName: 'bash',
      input: { command: 'echo ran' },
    };
    const refused = {
      type: 'tool-call' as const,
      toolCallId: 'call-d',
      toolName: 'bash',
      input: { command: 'echo never' },
    };
    const messages = [
      { role: 'user', content: 'two calls' },
      { role: 'assistant', content: [approved, refused] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call-a', toolName: 'bash', output: { type: 'text', value: 'ran\n' } },
          {
            type: 'tool-result',
            toolCallId: 'call-d',
            toolName: 'bash',
            output: { type: 'error-text', value: 'Denied: not this one' },
          },
        ],
      },
    ];
    await q.runs.createRun({ id: runId, sessionId, status: 'running', state: { messages } });
    await raiseRelay(q, { id: 'relay-a', runId, sessionId, call: approved });
    await raiseRelay(q, { id: 'relay-d', runId, sessionId, call: refused });
    await q.relays.resolveRelay({
      id: 'relay-a',
      status: 'approved',
      response: { approved: true },
      decidedBy: 'alice',
    });
    await q.relays.resolveRelay({
      id: 'relay-d',
      status: 'denied',
      response: { approved: false, reason: 'not this one' },
      reason: 'not this one',
      decidedBy: 'bob',
    });
    await q.toolExecutions.claimToolExecution({ runId, toolCallId: 'call-a' });
    await q.toolExecutions.finishToolExecution({
      runId,
      toolCallId: 'call-a',
      result: { output: 'ran\n', isError: false },
    });

    const m = manager();
    expect(await m.recover()).toEqual([runId]);
    const events = await follow(m, runId, 2);
    expect(events.map((e) => e.type)).toEqual([
      'relay_resolved',
      'tool_result',
      'relay_resolved',
      'tool_result',
      'resumed',
      'text',
      'done',
    ]);
    expect(events[0]!).toMatchObject({ relayId: 'relay-a', status: 'approved', decidedBy: 'alice' });
    expect(events[1]!).toMatchObject({ toolCallId: 'call-a', output: 'ran\n', isError: false, denied: false });
    expect(events[2]!).toMatchObject({ relayId: 'relay-d', status: 'denied', decidedBy: 'bob' });
    expect(events[3]!).toMatchObject({
      toolCallId: 'call-d',
      output: 'Denied: not this one',
      isError: true,
      denied: true,
    });
    const decisions = (await q.audit.listAudit({ runId })).items.filter((row) => row.kind === 'decision');
    expect(decisions.map((row) => [row.action, row.decidedBy]).sort()).toEqual([
      ['allow', 'alice'],
      ['deny', 'bob'],
    ]);
    // Nothing ran again.
    expect(await q.toolExecutions.listToolExecutions({ runId })).toHaveLength(1);
    expect(await q.runs.getRun({ id: runId })).toMatchObject({ status: 'done' });
  });

  it('a policy-denied call whose result the log lost is stored as denied on resume, from the logged decision or the fact in the checkpoint, never from the wording', async () => {
    const { q } = store();
    const runId = 'policy-denied-lost';
    const logged = {
      type: 'tool-call' as const,
      toolCallId: 'call-logged',
      toolName: 'bash',
      input: { command: 'sudo ls' },
    };
    const unlogged = {
      type: 'tool-call' as const,
      toolCallId: 'call-unlogged',
      toolName: 'bash',
      input: { command: 'sudo id' },
    };
    const failed = { type: 'tool-call' as const, toolCallId: 'call-failed', toolName: 'nope', input: {} };
    // A call that ran and printed the runtime's wording itself: not a denial.
    const mimic = { type: 'tool-call' as const, toolCallId: 'call-mimic', toolName: 'nope', input: {} };
    const refusal = 'Tool execution denied: sudo is denied. Do not retry the same call.';
    const denied = { gatehouse: { denied: true } };
    const messages = [
      { role: 'user', content: 'four calls' },
      { role: 'assistant', content: [logged, unlogged, failed, mimic] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call-logged',
            toolName: 'bash',
            output: { type: 'error-text', value: refusal },
            providerOptions: denied,
          },
          {
            type: 'tool-result',
            toolCallId: 'call-unlogged',
            toolName: 'bash',
            output: { type: 'error-text', value: refusal },
            providerOptions: denied,
          },
          {
            type: 'tool-result',
            toolCallId: 'call-failed',
            toolName: 'nope',
            output: { type: 'error-text', value: 'Unknown tool nope' },
          },
          {
            type: 'tool-result',
            toolCallId: 'call-mimic',
            toolName: 'nope',
            output: { type: 'error-text', value: refusal },
          },
        ],
      },
    ];
    await q.runs.createRun({ id: runId, sessionId: 'denied-session', status: 'running', state: { messages } });
    const decision = { action: 'deny', reason: 'rule', explanation: 'sudo is denied' };
    await q.events.appendEvent({
      runId,
      type: 'tool_call',
      data: {
        type: 'tool_call',
        agentId: 'main',
        parents: [],
        runId,
        toolCallId: 'call-logged',
        name: 'bash',
        params: logged.input,
        decision,
      },
    });

    const m = manager();
    expect(await m.recover()).toEqual([runId]);
    const results = (await follow(m, runId, 0)).filter((e) => e.type === 'tool_result');
    expect(results.map((r) => [r.toolCallId, r.denied])).toEqual([
      ['call-logged', true],
      ['call-unlogged', true],
      ['call-failed', false],
      ['call-mimic', false],
    ]);
    expect(await q.toolExecutions.listToolExecutions({ runId })).toEqual([]);
    expect(await q.runs.getRun({ id: runId })).toMatchObject({ status: 'done' });
  });

  it('a run that went a step further than its log is reconciled for every answered step, then continues its last one', async () => {
    const { q } = store();
    const runId = 'two-steps-ahead';
    const first = {
      type: 'tool-call' as const,
      toolCallId: 'call-1',
      toolName: 'bash',
      input: { command: 'echo one' },
    };
    const second = { type: 'tool-call' as const, toolCallId: 'call-2', toolName: 'list_files', input: { path: '.' } };
    const messages = [
      { role: 'user', content: 'two steps' },
      { role: 'assistant', content: [first] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call-1', toolName: 'bash', output: { type: 'text', value: 'one\n' } },
        ],
      },
      { role: 'assistant', content: [second] },
    ];
    await q.runs.createRun({ id: runId, sessionId: 's2', status: 'running', state: { messages } });
    await raiseRelay(q, { id: 'relay-1', runId, sessionId: 's2', call: first });
    await q.relays.resolveRelay({
      id: 'relay-1',
      status: 'approved',
      response: { approved: true },
      decidedBy: 'alice',
    });
    await q.toolExecutions.claimToolExecution({ runId, toolCallId: 'call-1' });
    await q.toolExecutions.finishToolExecution({
      runId,
      toolCallId: 'call-1',
      result: { output: 'one\n', isError: false },
    });

    const m = manager();
    expect(await m.recover()).toEqual([runId]);
    const events = await follow(m, runId, 1);
    const results = ofType(events, 'tool_result').map((e) => e.toolCallId);
    expect(events.slice(0, 3).map((e) => e.type)).toEqual(['relay_resolved', 'tool_result', 'resumed']);
    expect(results).toEqual(['call-1', 'call-2']);
    expect(events.at(-1)?.type).toBe('done');
    expect(
      (await q.audit.listAudit({ runId })).items.filter((row) => row.kind === 'decision' && row.decidedBy !== 'policy'),
    ).toMatchObject([{ action: 'allow', decidedBy: 'alice', tool: 'bash' }]);
  });

  it('cancelling a waiting run that nothing executes (before recovery) ends it with `done`, its relays cancelled', async () => {
    const { q } = store();
    await q.runs.createRun({
      id: 'idle-run',
      sessionId: 's',
      status: 'waiting',
      state: { messages: [{ role: 'user', content: 'x' }] },
    });
    const m = manager();
    const events = follow(m, 'idle-run', 0);
    await m.cancel('idle-run');
    expect((await events).map((e) => [e.type, e.type === 'done' && e.finishReason])).toEqual([['done', 'cancelled']]);
    expect(await q.runs.getRun({ id: 'idle-run' })).toMatchObject({ status: 'cancelled' });
    // Cancelling again, or a finished run, changes nothing; an unknown run is a 404.
    await m.cancel('idle-run');
    expect(await q.events.listEvents({ runId: 'idle-run' })).toHaveLength(1);
    await expect(m.cancel('no-such-run')).rejects.toMatchObject({ status: 404 });
  });

  it('tells who may decide a relay from memory while it waits here, else from the database', async () => {
    const m = manager();
    const { runId, sessionId } = await m.start({
      messages: [{ role: 'user', content: '$ echo access' }],
      owner: 'alice',
    });
    await follow(m, runId, 0, async (event) => {
      if (event.type !== 'relay') return;
      const relayId = event.id;
      const read = vi.spyOn(store().q.relays, 'getRelayAccess');
      try {
        expect(await m.relayAccess(relayId)).toEqual({ sessionId, runId, owner: 'alice' });
        expect(read).not.toHaveBeenCalled();
        // Another instance (or this one after a restart) reads it: the same answer.
        expect(await manager().relayAccess(relayId)).toEqual({ sessionId, runId, owner: 'alice' });
        expect(await m.relayAccess('no-such-relay')).toBeUndefined();
        expect(read).toHaveBeenCalledTimes(2);
      } finally {
        read.mockRestore();
      }
      await m.decideChecked(relayId, { approved: true }, 'alice');
    });
  });

  it('an approval of a call waiting here claims it in the settle statement: the run makes no claim of its own, the tool runs once', async () => {
    const m = manager();
    const { q } = store();
    const claims = vi.spyOn(q.toolExecutions, 'claimToolExecution');
    try {
      const { runId } = await m.start({
        messages: [{ role: 'user', content: `$ echo once >> ${workspace()}/claimed` }],
      });
      let relayId = '';
      const events = await follow(m, runId, 0, async (event) => {
        if (event.type !== 'relay') return;
        relayId = event.id;
        await m.decideChecked(relayId, { approved: true }, 'alice');
      });
      expect(ofType(events, 'tool_result')[0]).toMatchObject({ isError: false });
      expect(claims).not.toHaveBeenCalled();
      const relay = await q.relays.getRelay({ id: relayId });
      const execution = await q.toolExecutions.getToolExecution({ runId, toolCallId: relay!.toolCallId });
      // One statement: the claim carries the settle's transaction time.
      expect(execution).toMatchObject({ status: 'done' });
      expect(execution!.claimedAt.getTime()).toBe(relay!.decidedAt!.getTime());
      const { readFile } = await import('node:fs/promises');
      expect(await readFile(path.join(workspace(), 'claimed'), 'utf8')).toBe('once\n');
    } finally {
      claims.mockRestore();
    }
  });

  it('a denial, or an approval through resolve(), claims nothing in the settle: the run claims (or not) as before', async () => {
    const m = manager();
    const { q } = store();
    const claims = vi.spyOn(q.toolExecutions, 'claimToolExecution');
    try {
      const { runId, sessionId } = await m.start({ messages: [{ role: 'user', content: '$ echo via-resolve' }] });
      await follow(m, runId, 0, async (event) => {
        if (event.type === 'relay')
          await m.resolve(event.id, { sessionId, response: { approved: true }, decidedBy: 'alice' });
      });
      expect(claims).toHaveBeenCalledTimes(1);
      const denied = await m.start({ messages: [{ role: 'user', content: '$ echo denied' }] });
      const events = await follow(m, denied.runId, 0, async (event) => {
        if (event.type === 'relay') await m.decideChecked(event.id, { approved: false, reason: 'no' }, 'alice');
      });
      expect(ofType(events, 'tool_result')[0]).toMatchObject({ denied: true });
      expect(await q.toolExecutions.listToolExecutions({ runId: denied.runId })).toEqual([]);
    } finally {
      claims.mockRestore();
    }
  });

  it("a run does not carry the starting request's async context (so it does not keep Next's request store alive)", async () => {
    const request = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const offline = createOfflineModel();
    const model = Object.assign(Object.create(offline) as typeof offline, {
      doStream: (options: Parameters<typeof offline.doStream>[0]) => {
        seen.push(request.getStore());
        return offline.doStream(options);
      },
    });
    const m = testRunManager(store().q, workspace(), { model });
    const { runId } = await request.run('the request', () =>
      m.start({ messages: [{ role: 'user', content: 'hello' }] }),
    );
    await follow(m, runId);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual(seen.map(() => undefined));
  });

  it('cancelling a paused run denies its relay and marks it cancelled', async () => {
    const m = manager();
    const { runId } = await m.start({ messages: [{ role: 'user', content: `$ touch ${workspace()}/never` }] });
    const events = await follow(m, runId, 0, (event) => (event.type === 'relay' ? m.cancel(runId) : undefined));
    expect(ofType(events, 'relay_resolved')[0]!).toMatchObject({ status: 'cancelled' });
    expect(await store().q.runs.getRun({ id: runId })).toMatchObject({ status: 'cancelled' });
  });
});

it('the audit keeps small params whole and large ones as a digest', () => {
  expect(auditParams({ command: 'ls' })).toEqual({ command: 'ls' });
  const large = auditParams({ path: 'a.txt', content: 'x'.repeat(10_000) });
  expect(large).toMatchObject({ digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), bytes: expect.any(Number) });
});
