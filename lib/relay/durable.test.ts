// The broker over a store that another process also writes, and that can fail: decisions made
// elsewhere wake local waiters, and an expiry that failed is retried, never skipped.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DurableRelayBroker, MemoryRelayStore, type RelayOutcome, type RelayRequest } from './index';

const request = (id: string, expiresIn = 60_000): RelayRequest => ({
  id,
  kind: 'permission',
  runId: 'run',
  sessionId: 's',
  agentId: 'main',
  parents: [],
  toolCallId: `c-${id}`,
  tool: 'bash',
  params: { command: 'ls' },
  decision: { action: 'ask', reason: 'default_action', explanation: 'asks' },
  suggestedRules: [],
  prompt: '?',
  createdAt: Date.now(),
  expiresAt: Date.now() + expiresIn,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('DurableRelayBroker', () => {
  it('two brokers over one store: a decision through one wakes a waiter of the other', async () => {
    const store = new MemoryRelayStore();
    const a = new DurableRelayBroker(store);
    const b = new DurableRelayBroker(store);
    await a.register(request('r'));
    const waiting = a.wait('r');
    await b.resolve('r', { approved: true }, 'bob');
    await a.notify('r');
    await expect(waiting).resolves.toMatchObject({ status: 'approved', decidedBy: 'bob' });
    await expect(a.resolve('r', { approved: false })).rejects.toMatchObject({ outcome: { decidedBy: 'bob' } });
  });

  it('notifyAll re-reads every relay waited for here, and settles only the decided ones', async () => {
    const store = new MemoryRelayStore();
    const a = new DurableRelayBroker(store);
    const b = new DurableRelayBroker(store);
    await a.register(request('r1'));
    await a.register(request('r2'));
    const first = a.wait('r1');
    const second = a.wait('r2');
    let secondSettled = false;
    void second.then(() => (secondSettled = true));
    await b.resolve('r1', { approved: true }, 'bob');
    await a.notifyAll();
    await expect(first).resolves.toMatchObject({ status: 'approved', decidedBy: 'bob' });
    expect(secondSettled).toBe(false);
    await b.resolve('r2', { approved: false }, 'bob');
    await a.notifyAll();
    await expect(second).resolves.toMatchObject({ status: 'denied' });
  });

  it('without a notification, the periodic re-read picks the decision up', async () => {
    vi.useFakeTimers();
    const store = new MemoryRelayStore();
    const a = new DurableRelayBroker(store, { pollMs: 1_000 });
    await a.register(request('r'));
    const waiting = a.wait('r');
    const outcome: RelayOutcome = { status: 'denied', reason: 'elsewhere', decidedBy: 'carol', decidedAt: Date.now() };
    await store.settle('r', outcome);
    await vi.advanceTimersByTimeAsync(1_001);
    await expect(waiting).resolves.toEqual(outcome);
  });

  it('an expiry that fails while storage is down is retried, and the call is never approved', async () => {
    vi.useFakeTimers();
    const store = new MemoryRelayStore();
    let down = true;
    const settle = store.settle.bind(store);
    store.settle = async (id, outcome) => {
      if (down) throw new Error('connection refused');
      return settle(id, outcome);
    };
    const broker = new DurableRelayBroker(store, { pollMs: 500 });
    await broker.register(request('r', 1_000));
    let settled: RelayOutcome | undefined;
    void broker.wait('r').then((o) => (settled = o));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(settled).toBeUndefined();
    down = false;
    await vi.advanceTimersByTimeAsync(600);
    expect(settled).toMatchObject({ status: 'expired', reason: 'Approval timeout' });
  });
});
