// The shadow monitor: differences are found and written off the decision path, the queue is
// bounded, and nothing the shadow or the writer does reaches a decision.
import { describe, expect, it } from 'vitest';
import type { DecisionObservation } from '../../agent';
import type { ShadowBatch } from '../../db';
import { compilePolicy, evaluate, type Decision, type Policy, type ToolCall } from '../../policy';
import { ShadowMonitor, type ShadowWriter } from './monitor';

const live = compilePolicy({
  defaultAction: 'ask',
  rules: [
    { action: 'allow', tool: 'bash', params: { command: 'echo *' } },
    { action: 'allow', tool: 'read_file' },
  ],
});
const denyBash: Policy = {
  defaultAction: 'ask',
  rules: [
    { action: 'deny', tool: 'bash' },
    { action: 'allow', tool: 'read_file' },
  ],
};

function observation(call: ToolCall, overrides: Partial<DecisionObservation> = {}): DecisionObservation {
  const context = { mode: 'default' as const, grants: [], workspaceRoot: '/ws' };
  return {
    runId: 'run-1',
    sessionId: 's-1',
    toolCallId: `c-${Math.random()}`,
    agentId: 'main',
    call,
    context,
    decision: evaluate(live, call, context),
    policy: live.policy,
    adjust: (d: Decision) => d,
    ...overrides,
  };
}
const echo = (text = 'hi'): ToolCall => ({ tool: 'bash', params: { command: `echo ${text}` } });
const read: ToolCall = { tool: 'read_file', params: { path: 'a.txt' } };

function recorder(fail = false) {
  const batches: ShadowBatch[] = [];
  const writer: ShadowWriter = {
    async recordShadowBatch(batch) {
      if (fail) throw new Error('database down');
      batches.push(batch);
      return batch.diffs.length;
    },
  };
  return { batches, writer };
}

const total = (batches: ShadowBatch[], key: 'compared' | 'same' | 'dropped') => batches.reduce((n, b) => n + b[key], 0);

describe('shadow monitor', () => {
  it('records a difference off the decision path, and counts identical decisions without storing them', async () => {
    const { batches, writer } = recorder();
    const monitor = new ShadowMonitor({ writer, writeDelayMs: 60_000 });
    monitor.set({ id: 'sh-1', policy: denyBash });
    let judged = 0;
    const counting = (d: Decision) => (judged++, d);
    monitor.observe(observation(echo(), { adjust: counting }), live.policy);
    monitor.observe(observation(read, { adjust: counting }), live.policy);
    // Nothing was evaluated or written while the gate was deciding.
    expect(judged).toBe(0);
    expect(batches).toEqual([]);
    await monitor.flush();
    expect(judged).toBe(2);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ shadowId: 'sh-1', compared: 2, same: 1, dropped: 0 });
    expect(batches[0]!.diffs).toEqual([
      expect.objectContaining({
        runId: 'run-1',
        agentId: 'main',
        tool: 'bash',
        params: { command: 'echo hi' },
        liveAction: 'allow',
        shadowAction: 'deny',
        live: expect.objectContaining({ action: 'allow' }),
        shadow: expect.objectContaining({ action: 'deny', reason: 'matched_rule' }),
      }),
    ]);
  });

  it('does nothing without a shadow, and tells the gate so (no observation is built)', async () => {
    const { batches, writer } = recorder();
    const monitor = new ShadowMonitor({ writer });
    const observer = monitor.observerFor(live);
    expect(observer.active).toBe(false);
    monitor.observe(observation(echo()), live.policy);
    await monitor.flush();
    expect(batches).toEqual([]);
    monitor.set({ id: 'sh-1', policy: denyBash });
    expect(observer.active).toBe(true);
  });

  it('holds a bounded queue: past it observations are dropped and counted, never queued', async () => {
    const { batches, writer } = recorder();
    const monitor = new ShadowMonitor({ writer, maxQueue: 3, writeDelayMs: 60_000 });
    monitor.set({ id: 'sh-1', policy: denyBash });
    for (let i = 0; i < 10; i++) monitor.observe(observation(echo(String(i))), live.policy);
    expect(monitor.stats.dropped).toBe(7);
    await monitor.flush();
    expect(total(batches, 'compared')).toBe(3);
    expect(total(batches, 'dropped')).toBe(7);
    expect(batches.flatMap((b) => b.diffs)).toHaveLength(3);
  });

  it('writes differences in batches of maxBatch', async () => {
    const { batches, writer } = recorder();
    const monitor = new ShadowMonitor({ writer, maxBatch: 2, writeDelayMs: 60_000 });
    monitor.set({ id: 'sh-1', policy: denyBash });
    for (let i = 0; i < 5; i++) monitor.observe(observation(echo(String(i))), live.policy);
    await monitor.flush();
    expect(batches.map((b) => b.diffs.length)).toEqual([2, 2, 1]);
    expect(total(batches, 'compared')).toBe(5);
  });

  it('a shadow that throws is not compared (counted as dropped), and observing never throws', async () => {
    const { batches, writer } = recorder();
    const errors: Error[] = [];
    const monitor = new ShadowMonitor({ writer, onError: (e) => errors.push(e), writeDelayMs: 60_000 });
    monitor.set({ id: 'sh-1', policy: denyBash });
    const throwing = observation(echo(), {
      adjust: () => {
        throw new Error('shadow broke');
      },
    });
    expect(() => monitor.observe(throwing, live.policy)).not.toThrow();
    await monitor.flush();
    expect(batches[0]).toMatchObject({ compared: 0, dropped: 1, diffs: [] });
    expect(errors.map((e) => e.message)).toEqual(['shadow broke']);
  });

  it('a failing writer loses only its batch, counted as dropped with the next one', async () => {
    let fail = true;
    const batches: ShadowBatch[] = [];
    const writer: ShadowWriter = {
      async recordShadowBatch(batch) {
        if (fail) throw new Error('database down');
        batches.push(batch);
        return batch.diffs.length;
      },
    };
    const monitor = new ShadowMonitor({ writer, onError: () => undefined, writeDelayMs: 60_000 });
    monitor.set({ id: 'sh-1', policy: denyBash });
    monitor.observe(observation(echo()), live.policy);
    await monitor.flush();
    expect(monitor.stats.writeFailures).toBe(1);
    fail = false;
    monitor.observe(observation(echo('again')), live.policy);
    await monitor.flush();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ compared: 1, dropped: 1 });
  });

  it('a new shadow starts fresh: what was queued for the old one is discarded', async () => {
    const { batches, writer } = recorder();
    const monitor = new ShadowMonitor({ writer, writeDelayMs: 60_000 });
    monitor.set({ id: 'sh-1', policy: denyBash });
    monitor.observe(observation(echo()), live.policy);
    monitor.set({ id: 'sh-2', policy: live.policy });
    monitor.observe(observation(echo()), live.policy);
    await monitor.flush();
    expect(batches).toEqual([expect.objectContaining({ shadowId: 'sh-2', compared: 1, same: 1, diffs: [] })]);
  });

  it("judges the shadow with the run's own rules after it, as the live policy was", async () => {
    const { batches, writer } = recorder();
    const monitor = new ShadowMonitor({ writer, writeDelayMs: 60_000 });
    // The shadow allows fetch_url; the run's permissions deny it, in the live decision and the shadow's alike.
    monitor.set({ id: 'sh-1', policy: { defaultAction: 'ask', rules: [{ action: 'allow', tool: 'fetch_url' }] } });
    const withRun = compilePolicy({
      ...live.policy,
      rules: [...live.policy.rules, { action: 'deny', tool: 'fetch_url' }],
    });
    const call: ToolCall = { tool: 'fetch_url', params: { url: 'https://example.com/' } };
    const context = { mode: 'default' as const, grants: [], workspaceRoot: '/ws' };
    monitor.observe(
      observation(call, { policy: withRun.policy, decision: evaluate(withRun, call, context) }),
      live.policy,
    );
    await monitor.flush();
    expect(batches[0]).toMatchObject({ compared: 1, same: 1, diffs: [] });
  });

  it('a stored shadow that no longer validates is used salvaged, never refused (the server must start)', async () => {
    const { batches, writer } = recorder();
    const errors: Error[] = [];
    const monitor = new ShadowMonitor({ writer, onError: (e) => errors.push(e), writeDelayMs: 60_000 });
    const stale = {
      defaultAction: 'ask',
      rules: [{ action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'no_such_op', value: 'x' }] }],
    } as unknown as Policy;
    expect(() => monitor.set({ id: 'sh-1', policy: stale })).not.toThrow();
    expect(errors).toHaveLength(1);
    monitor.observe(observation(echo()), live.policy);
    await monitor.flush();
    // Salvaged: the invalid deny rule is widened to its whole tool, never dropped.
    expect(batches[0]!.diffs).toEqual([expect.objectContaining({ liveAction: 'allow', shadowAction: 'deny' })]);
  });

  it('cuts long parameters in what it stores', async () => {
    const { batches, writer } = recorder();
    const monitor = new ShadowMonitor({ writer, writeDelayMs: 60_000 });
    monitor.set({ id: 'sh-1', policy: denyBash });
    monitor.observe(observation(echo('x'.repeat(5000))), live.policy);
    await monitor.flush();
    const stored = batches[0]!.diffs[0]!.params.command as string;
    expect(stored.length).toBeLessThan(600);
    expect(stored).toMatch(/\(5005 characters\)$/);
  });
});
