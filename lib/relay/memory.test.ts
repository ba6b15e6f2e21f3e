import { describe, expect, it, vi, afterEach } from 'vitest';
import { MemoryRelayBroker, RelayAlreadyResolvedError, RelayNotFoundError, type RelayRequest } from './index';

function request(id: string, overrides: Partial<RelayRequest> = {}): RelayRequest {
  return {
    id,
    kind: 'permission',
    runId: 'run-1',
    sessionId: 'session-1',
    agentId: 'main',
    parents: [],
    toolCallId: `call-${id}`,
    tool: 'bash',
    params: { command: 'ls' },
    decision: { action: 'ask', reason: 'default_action', explanation: 'asks' },
    suggestedRules: [],
    prompt: 'Run it?',
    createdAt: Date.now(),
    expiresAt: Date.now() + 60_000,
    ...overrides,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('MemoryRelayBroker', () => {
  it('a waiter gets the decision', async () => {
    const broker = new MemoryRelayBroker();
    await broker.register(request('a'));
    const waiting = broker.wait('a');
    await broker.resolve('a', { approved: true }, 'alice');
    await expect(waiting).resolves.toMatchObject({ status: 'approved', decidedBy: 'alice' });
  });

  it('resolves exactly once: the second answer gets the first decision', async () => {
    const broker = new MemoryRelayBroker();
    await broker.register(request('a'));
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => broker.resolve('a', { approved: i % 2 === 0, reason: `r${i}` }, `u${i}`)),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of results.filter((r) => r.status === 'rejected')) {
      const error = (lost as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(RelayAlreadyResolvedError);
      expect(error.outcome).toEqual((won[0] as PromiseFulfilledResult<unknown>).value);
    }
  });

  it('a denial carries the reason, or a default one', async () => {
    const broker = new MemoryRelayBroker();
    await broker.register(request('a'));
    await broker.register(request('b'));
    expect(await broker.resolve('a', { approved: false, reason: 'not on main' })).toMatchObject({
      status: 'denied',
      reason: 'not on main',
    });
    expect(await broker.resolve('b', { approved: false })).toMatchObject({
      status: 'denied',
      reason: 'Denied by the user',
    });
  });

  it('expires at the deadline with reason "Approval timeout"', async () => {
    vi.useFakeTimers();
    const broker = new MemoryRelayBroker();
    await broker.register(request('a', { expiresAt: Date.now() + 2_000 }));
    const waiting = broker.wait('a');
    await vi.advanceTimersByTimeAsync(2_001);
    await expect(waiting).resolves.toMatchObject({ status: 'expired', reason: 'Approval timeout' });
    await expect(broker.resolve('a', { approved: true })).rejects.toBeInstanceOf(RelayAlreadyResolvedError);
  });

  it('an answer after the deadline is refused even before the timer fires', async () => {
    let now = 1_000;
    const broker = new MemoryRelayBroker(() => now);
    await broker.register(request('a', { createdAt: now, expiresAt: now + 10 }));
    now += 11;
    await expect(broker.resolve('a', { approved: true })).rejects.toMatchObject({ outcome: { status: 'expired' } });
  });

  it('an aborted wait cancels the relay', async () => {
    const broker = new MemoryRelayBroker();
    await broker.register(request('a'));
    const controller = new AbortController();
    const waiting = broker.wait('a', { signal: controller.signal });
    controller.abort();
    await expect(waiting).resolves.toMatchObject({ status: 'cancelled' });
    expect(await broker.listPending()).toEqual([]);
  });

  it('lists pending relays oldest first, by run and session', async () => {
    const broker = new MemoryRelayBroker();
    await broker.register(request('b', { createdAt: 2 }));
    await broker.register(request('a', { createdAt: 1 }));
    await broker.register(request('c', { createdAt: 3, runId: 'run-2', sessionId: 'session-2' }));
    expect((await broker.listPending()).map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect((await broker.listPending({ runId: 'run-2' })).map((r) => r.id)).toEqual(['c']);
    expect((await broker.listPending({ sessionId: 'session-1' })).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('cancels every pending relay of a run', async () => {
    const broker = new MemoryRelayBroker();
    await broker.register(request('a'));
    await broker.register(request('b'));
    await broker.register(request('c', { runId: 'run-2' }));
    await broker.resolve('b', { approved: true });
    const waiting = broker.wait('a');
    expect(await broker.cancelRun('run-1')).toBe(1);
    await expect(waiting).resolves.toMatchObject({ status: 'cancelled' });
    expect((await broker.listPending()).map((r) => r.id)).toEqual(['c']);
  });

  it('unknown relays are a typed not-found error', async () => {
    const broker = new MemoryRelayBroker();
    await expect(broker.resolve('nope', { approved: true })).rejects.toBeInstanceOf(RelayNotFoundError);
    await expect(broker.wait('nope')).rejects.toBeInstanceOf(RelayNotFoundError);
    expect(await broker.get('nope')).toBeUndefined();
  });
});
