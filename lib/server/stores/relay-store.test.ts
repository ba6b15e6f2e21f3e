// The broker over the database, on PGlite and PostgreSQL: exactly one of many concurrent answers
// wins (through two brokers, as two instances would), the deadline holds, and an agent run pauses
// and resumes through it.
import { mkdtemp, rm, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeStores } from '../../db/test-support/stores';
import { DurableRelayBroker, RelayAlreadyResolvedError, RelayNotFoundError, type RelayRequest } from '../../relay';
import { createAgent, type AgentEvent } from '../../agent';
import { DbRelayStore } from './relay-store';

const request = (id: string, expiresIn = 60_000): RelayRequest => ({
  id,
  kind: 'permission',
  runId: 'run-1',
  sessionId: 's1',
  agentId: 'main',
  parents: [],
  toolCallId: `call-${id}`,
  tool: 'bash',
  params: { command: 'ls' },
  decision: { action: 'ask', reason: 'default_action', explanation: 'asks' },
  suggestedRules: [],
  prompt: '?',
  createdAt: Date.now(),
  expiresAt: Date.now() + expiresIn,
});

describeStores('DbRelayStore', (store) => {
  it("stores an outside agent's relay without a lease (nobody executes its run here); any other needs the lease", async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'run-1', sessionId: 's1' });
    const fenced = new DbRelayStore(q.relays, { leaseOwner: 'instance-a' });
    await expect(fenced.insert(request('needs-lease'))).rejects.toThrow();
    await fenced.insert(request('outside-1'), { outside: true });
    expect((await q.relays.getRelay({ id: 'outside-1' }))?.status).toBe('pending');
  });

  it('announces each settlement it wins once, after storing it; a failing announcement does not undo it', async () => {
    const announced: string[] = [];
    const errors: Error[] = [];
    const broker = new DurableRelayBroker(
      new DbRelayStore(store().q.relays, {
        onSettled: async (id) => {
          announced.push(id);
          expect((await store().q.relays.getRelay({ id }))?.status).not.toBe('pending');
          if (id === 'r2') throw new Error('notify failed');
        },
        onError: (error) => errors.push(error),
      }),
    );
    await broker.register(request('r1'));
    await broker.register(request('r2'));
    await broker.resolve('r1', { approved: true }, 'alice');
    await expect(broker.resolve('r1', { approved: false }, 'bob')).rejects.toBeInstanceOf(RelayAlreadyResolvedError);
    await expect(broker.resolve('r2', { approved: true }, 'alice')).resolves.toMatchObject({ status: 'approved' });
    expect(announced).toEqual(['r1', 'r2']);
    expect(errors.map((e) => e.message)).toEqual(['notify failed']);
  });

  it('50 concurrent answers through two brokers: exactly one wins, the rest get its decision', async () => {
    const a = new DurableRelayBroker(new DbRelayStore(store().q.relays));
    const b = new DurableRelayBroker(new DbRelayStore(store().q.relays));
    await a.register(request('r'));
    const waiting = a.wait('r');
    const answers = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? a : b).resolve('r', { approved: i % 3 === 0, reason: `r${i}` }, `user${i}`),
      ),
    );
    const winners = answers.filter(
      (r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof a.resolve>>> => r.status === 'fulfilled',
    );
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((r) => r.status === 'rejected')) {
      expect((loser as PromiseRejectedResult).reason).toBeInstanceOf(RelayAlreadyResolvedError);
      expect((loser as PromiseRejectedResult).reason.outcome).toMatchObject({
        status: winners[0]!.value.status,
        decidedBy: winners[0]!.value.decidedBy,
      });
    }
    await a.notify('r');
    await expect(waiting).resolves.toMatchObject({ decidedBy: winners[0]!.value.decidedBy });
  });

  it('the approval claim is a parameter of resolve: the settle statement claims the call, and the claim is told before the waiter wakes', async () => {
    const broker = new DurableRelayBroker(new DbRelayStore(store().q.relays));
    await broker.register(request('c1'));
    const order: string[] = [];
    const waiting = broker.wait('c1').then(() => order.push('woken'));
    const claim = { toolCallId: 'call-c1', done: (claimed: boolean) => order.push(`claimed: ${claimed}`) };
    await broker.resolve('c1', { approved: true }, 'alice', claim);
    await waiting;
    expect(order).toEqual(['claimed: true', 'woken']);
    expect(await store().q.toolExecutions.getToolExecution({ runId: 'run-1', toolCallId: 'call-c1' })).toMatchObject({
      status: 'claimed',
    });
    // A denial, or a losing answer, claims nothing, and says so.
    await broker.register(request('c2'));
    const told: boolean[] = [];
    await broker.resolve('c2', { approved: false }, 'alice', {
      toolCallId: 'call-c2',
      done: (claimed) => told.push(claimed),
    });
    await expect(
      broker.resolve('c1', { approved: true }, 'bob', { toolCallId: 'call-c1', done: (claimed) => told.push(claimed) }),
    ).rejects.toBeInstanceOf(RelayAlreadyResolvedError);
    expect(told).toEqual([false, false]);
    expect(await store().q.toolExecutions.getToolExecution({ runId: 'run-1', toolCallId: 'call-c2' })).toBeUndefined();
  });

  it('a relay expires at its deadline and a late answer gets the expiry', async () => {
    const broker = new DurableRelayBroker(new DbRelayStore(store().q.relays), { pollMs: 200 });
    await broker.register(request('late', 300));
    await expect(broker.wait('late')).resolves.toMatchObject({ status: 'expired', reason: 'Approval timeout' });
    await expect(broker.resolve('late', { approved: true })).rejects.toMatchObject({ outcome: { status: 'expired' } });
  });

  it('unknown relays are not found; pending ones are listed and cancelled by run', async () => {
    const broker = new DurableRelayBroker(new DbRelayStore(store().q.relays));
    await expect(broker.resolve('nope', { approved: true })).rejects.toBeInstanceOf(RelayNotFoundError);
    await broker.register(request('x'));
    await broker.register(request('y'));
    expect((await broker.listPending({ runId: 'run-1' })).map((r) => r.id).sort()).toEqual(['x', 'y']);
    expect(await broker.cancelRun('run-1')).toBe(2);
    expect(await broker.listPending()).toEqual([]);
  });

  it('an agent run pauses on a relay stored in the database and resumes on the decision', async () => {
    const workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-db-agent-')));
    try {
      const broker = new DurableRelayBroker(new DbRelayStore(store().q.relays));
      const agent = createAgent({ workspace, broker });
      const run = agent.invoke({ messages: [{ role: 'user', content: '$ echo stored' }] });
      const events: AgentEvent[] = [];
      for await (const event of run) {
        events.push(event);
        if (event.type === 'relay') {
          expect((await store().q.relays.getRelay({ id: event.id }))?.status).toBe('pending');
          await broker.resolve(event.id, { approved: true }, 'alice');
        }
      }
      expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ output: 'stored\n' });
      const relayId = (events.find((e) => e.type === 'relay') as Extract<AgentEvent, { type: 'relay' }>).id;
      expect(await store().q.relays.getRelay({ id: relayId })).toMatchObject({
        status: 'approved',
        decidedBy: 'alice',
      });
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});
