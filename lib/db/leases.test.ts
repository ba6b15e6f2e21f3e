import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { RelayRequest } from '../contract';
import { runLeases } from './schema';
import { describeStores, type StoreContext } from './test-support/stores';

/** Backdates a lease so it is expired by the database clock. */
async function expire({ db }: StoreContext, runId: string): Promise<void> {
  await db
    .update(runLeases)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(runLeases.runId, runId));
}

function relayOf(runId: string, id: string): RelayRequest {
  const now = Date.now();
  return {
    id,
    kind: 'permission',
    runId,
    sessionId: 's1',
    agentId: 'main',
    parents: [],
    toolCallId: `call-${id}`,
    tool: 'bash',
    params: { command: 'ls' },
    decision: { action: 'ask', reason: 'risk_default', explanation: 'bash asks' },
    suggestedRules: [],
    prompt: 'Run bash?',
    createdAt: now,
    expiresAt: now + 60_000,
  };
}

const ids = (renewed: { runId: string }[]) => renewed.map((r) => r.runId);

describeStores('run leases', (store) => {
  it('acquires a free lease, lets its owner re-acquire it and keeps others out while it is live', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's1' });
    const first = await q.leases.acquireLease({ runId: 'r1', owner: 'a', ttlS: 30 });
    expect(first).toMatchObject({ runId: 'r1', owner: 'a', epoch: 1 });
    expect(first!.expiresAt.getTime() - first!.acquiredAt.getTime()).toBeGreaterThan(29_000);
    expect(await q.leases.acquireLease({ runId: 'r1', owner: 'b', ttlS: 30 })).toBeUndefined();
    const again = await q.leases.acquireLease({ runId: 'r1', owner: 'a', ttlS: 60 });
    expect(again).toMatchObject({ owner: 'a', epoch: 1 });
    expect(again!.expiresAt.getTime()).toBeGreaterThan(first!.expiresAt.getTime());
    expect(await q.leases.getLease({ runId: 'r1' })).toMatchObject({ owner: 'a', epoch: 1 });
  });

  it('does not lease a run that does not exist', async () => {
    const { q } = store();
    expect(await q.leases.acquireLease({ runId: 'nope', owner: 'a', ttlS: 30 })).toBeUndefined();
    expect(await q.leases.getLease({ runId: 'nope' })).toBeUndefined();
  });

  it('rejects a ttl that is not a positive number', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's1' });
    await expect(q.leases.acquireLease({ runId: 'r1', owner: 'a', ttlS: 0 })).rejects.toThrow(RangeError);
    await expect(q.leases.renewLeases({ owner: 'a', ttlS: Number.NaN })).rejects.toThrow(RangeError);
  });

  it('has exactly one winner when many owners race for one lease', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's1' });
    const owners = Array.from({ length: 20 }, (_, i) => `owner-${i}`);
    const results = await Promise.all(owners.map((owner) => q.leases.acquireLease({ runId: 'r1', owner, ttlS: 30 })));
    const winners = results.filter((row) => row !== undefined);
    expect(winners).toHaveLength(1);
    expect((await q.leases.getLease({ runId: 'r1' }))?.owner).toBe(winners[0]!.owner);
  });

  it('has exactly one winner when many owners race to take over an expired lease', async () => {
    const ctx = store();
    await ctx.q.runs.createRun({ id: 'r1', sessionId: 's1', status: 'waiting' });
    await ctx.q.leases.acquireLease({ runId: 'r1', owner: 'dead', ttlS: 30 });
    await expire(ctx, 'r1');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ctx.q.leases.acquireLease({ runId: 'r1', owner: `o${i}`, ttlS: 30 })),
    );
    const winners = results.filter((row) => row !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ epoch: 2 });
  });

  it('lets another owner take over after the lease expires by the database clock, bumping the epoch', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's1', status: 'waiting' });
    await q.leases.acquireLease({ runId: 'r1', owner: 'a', ttlS: 0.05 });
    expect(await q.leases.acquireLease({ runId: 'r1', owner: 'b', ttlS: 30 })).toBeUndefined();
    // Wait on the database clock, not a fixed sleep: poll until the lease is judged expired.
    await expect
      .poll(async () => (await q.leases.listTakeoverCandidates()).map((c) => c.runId), { interval: 20, timeout: 5_000 })
      .toEqual(['r1']);
    const taken = await q.leases.acquireLease({ runId: 'r1', owner: 'b', ttlS: 30 });
    expect(taken).toMatchObject({ owner: 'b', epoch: 2 });
    // The old owner learns it lost the run when it renews.
    expect(await q.leases.renewLeases({ owner: 'a', ttlS: 30 })).toEqual([]);
    expect(await q.leases.releaseLease({ runId: 'r1', owner: 'a' })).toBe(false);
    expect(await q.leases.listTakeoverCandidates()).toEqual([]);
  });

  it('renews all of an owner’s leases in one call, or only the runs named', async () => {
    const ctx = store();
    const { q } = ctx;
    for (const id of ['r1', 'r2', 'r3']) await q.runs.createRun({ id, sessionId: 's1' });
    await q.leases.acquireLease({ runId: 'r1', owner: 'a', ttlS: 1 });
    await q.leases.acquireLease({ runId: 'r2', owner: 'a', ttlS: 1 });
    await q.leases.acquireLease({ runId: 'r3', owner: 'b', ttlS: 1 });
    const before = (await q.leases.getLease({ runId: 'r1' }))!.expiresAt;
    expect(ids(await q.leases.renewLeases({ owner: 'a', ttlS: 120 }))).toEqual(['r1', 'r2']);
    expect((await q.leases.getLease({ runId: 'r1' }))!.expiresAt.getTime()).toBeGreaterThan(before.getTime() + 100_000);
    expect((await q.leases.getLease({ runId: 'r3' }))!.expiresAt.getTime()).toBeLessThan(before.getTime() + 10_000);
    expect(ids(await q.leases.renewLeases({ owner: 'a', ttlS: 30, runIds: ['r2', 'r3'] }))).toEqual(['r2']);
    expect(await q.leases.renewLeases({ owner: 'a', ttlS: 30, runIds: [] })).toEqual([]);
    // Lapsed but not taken: the owner never changed, so renewing is still safe.
    await expire(ctx, 'r1');
    expect(ids(await q.leases.renewLeases({ owner: 'a', ttlS: 30, runIds: ['r1'] }))).toEqual(['r1']);
    expect(await q.leases.getLease({ runId: 'r1' })).toMatchObject({ owner: 'a', epoch: 1 });
  });

  it('a renewal reports each run’s status and mode now (changed through another instance)', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's1', status: 'waiting', mode: 'default' });
    await q.runs.createRun({ id: 'r2', sessionId: 's1', status: 'running' });
    await q.leases.acquireLease({ runId: 'r1', owner: 'a', ttlS: 30 });
    await q.leases.acquireLease({ runId: 'r2', owner: 'a', ttlS: 30 });
    await q.runs.updateRun({ id: 'r1', mode: 'bypassPermissions' });
    await q.runs.updateRun({ id: 'r2', status: 'cancelled' });
    expect(await q.leases.renewLeases({ owner: 'a', ttlS: 30, runIds: ['r1', 'r2'] })).toEqual([
      { runId: 'r1', status: 'waiting', mode: 'bypassPermissions' },
      { runId: 'r2', status: 'cancelled', mode: null },
    ]);
  });

  it('fences the executor’s writes: appends, checkpoints and claims only while it holds the lease', async () => {
    const ctx = store();
    const { q } = ctx;
    await q.runs.createRun({ id: 'r1', sessionId: 's1', status: 'running' });
    await q.leases.acquireLease({ runId: 'r1', owner: 'a', ttlS: 0.05 });
    expect((await q.events.appendEvent({ runId: 'r1', type: 'text', data: { n: 1 }, leaseOwner: 'a' })).seq).toBe(1);
    expect(await q.runs.updateRun({ id: 'r1', state: { step: 1 }, leaseOwner: 'a' })).toMatchObject({
      state: { step: 1 },
    });
    expect(await q.toolExecutions.claimToolExecution({ runId: 'r1', toolCallId: 'c1', leaseOwner: 'a' })).toBe(true);
    expect(await q.toolExecutions.claimToolExecution({ runId: 'r1', toolCallId: 'c1', leaseOwner: 'a' })).toBe(false);
    // B adopts the run once A's lease lapsed: A's late writes change nothing.
    await expect
      .poll(async () => (await q.leases.acquireLease({ runId: 'r1', owner: 'b', ttlS: 30 }))?.owner, {
        interval: 20,
        timeout: 5_000,
      })
      .toBe('b');
    const lost = { code: 'conflict:lease_lost', runId: 'r1', owner: 'a', holder: 'b' };
    await expect(
      q.events.appendEvents({
        runId: 'r1',
        events: [{ type: 'text', data: { n: 2 } }],
        status: { to: 'done' },
        audit: [{ kind: 'decision', runId: 'r1' }],
        leaseOwner: 'a',
      }),
    ).rejects.toMatchObject(lost);
    await expect(
      q.toolExecutions.claimToolExecution({ runId: 'r1', toolCallId: 'c2', leaseOwner: 'a' }),
    ).rejects.toMatchObject(lost);
    expect(await q.runs.updateRun({ id: 'r1', state: { step: 2 }, leaseOwner: 'a' })).toBeUndefined();
    await expect(q.relays.insertRelay({ request: relayOf('r1', 'late'), leaseOwner: 'a' })).rejects.toMatchObject(lost);
    expect(await q.relays.getRelay({ id: 'late' })).toBeUndefined();
    expect(await q.events.listEvents({ runId: 'r1' })).toHaveLength(1);
    expect(await q.runs.getRun({ id: 'r1' })).toMatchObject({ status: 'running', state: { step: 1 }, lastEventSeq: 1 });
    expect(await q.toolExecutions.getToolExecution({ runId: 'r1', toolCallId: 'c2' })).toBeUndefined();
    expect(await q.audit.listAudit({ runId: 'r1' })).toMatchObject({ items: [] });
    // B's fenced writes go through; an unknown run is still "not found".
    expect((await q.events.appendEvent({ runId: 'r1', type: 'resumed', data: {}, leaseOwner: 'b' })).seq).toBe(2);
    expect((await q.relays.insertRelay({ request: relayOf('r1', 'fresh'), leaseOwner: 'b' })).id).toBe('fresh');
    await expect(
      q.events.appendEvent({ runId: 'ghost', type: 'text', data: {}, leaseOwner: 'b' }),
    ).rejects.toMatchObject({ code: 'not_found:run' });
  });

  it('releases only our own lease; a released lease is free and changes hands with a new epoch', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's1', status: 'running' });
    await q.leases.acquireLease({ runId: 'r1', owner: 'a', ttlS: 30 });
    expect(await q.leases.releaseLease({ runId: 'r1', owner: 'b' })).toBe(false);
    expect(await q.leases.releaseLease({ runId: 'r1', owner: 'a' })).toBe(true);
    expect(await q.leases.getLease({ runId: 'r1' })).toMatchObject({ owner: null, epoch: 1 });
    expect(await q.leases.renewLeases({ owner: 'a', ttlS: 30 })).toEqual([]);
    expect((await q.leases.listTakeoverCandidates()).map((c) => c.runId)).toEqual(['r1']);
    expect(await q.leases.acquireLease({ runId: 'r1', owner: 'a', ttlS: 30 })).toMatchObject({ owner: 'a', epoch: 2 });
    expect(await q.leases.acquireLease({ runId: 'r1', owner: 'b', ttlS: 30 })).toBeUndefined();
  });

  it('lists as takeover candidates only running or waiting runs without a live lease, oldest first', async () => {
    const ctx = store();
    const { q } = ctx;
    await q.runs.createRun({ id: 'never-leased', sessionId: 's1', status: 'waiting' });
    await q.runs.createRun({ id: 'expired', sessionId: 's1', status: 'running' });
    await q.runs.createRun({ id: 'live', sessionId: 's1', status: 'running' });
    await q.runs.createRun({ id: 'done', sessionId: 's1', status: 'done' });
    await q.runs.createRun({ id: 'failed', sessionId: 's1', status: 'failed' });
    await q.leases.acquireLease({ runId: 'expired', owner: 'dead', ttlS: 30 });
    await expire(ctx, 'expired');
    await q.leases.acquireLease({ runId: 'live', owner: 'a', ttlS: 30 });
    const candidates = await q.leases.listTakeoverCandidates();
    expect(candidates.map((c) => c.runId).sort()).toEqual(['expired', 'never-leased']);
    expect(candidates.find((c) => c.runId === 'expired')).toMatchObject({ status: 'running', leaseOwner: 'dead' });
    expect(candidates.find((c) => c.runId === 'never-leased')).toMatchObject({
      status: 'waiting',
      leaseOwner: null,
      leaseExpiresAt: null,
    });
    expect(await q.leases.listTakeoverCandidates({ limit: 1 })).toHaveLength(1);
  });

  it('drops a run’s lease with the run', async () => {
    const { q, db } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's1' });
    await q.leases.acquireLease({ runId: 'r1', owner: 'a', ttlS: 30 });
    await db.execute(sql`DELETE FROM runs WHERE id = 'r1'`);
    expect(await q.leases.getLease({ runId: 'r1' })).toBeUndefined();
  });
});
