import { expect, it } from 'vitest';
import type { RelayRequest } from '../contract';
import { APPROVAL_TIMEOUT_REASON, toRelayRecord } from './relays';
import { describeStores } from './test-support/stores';

let counter = 0;
function request(overrides: Partial<RelayRequest> = {}): RelayRequest {
  counter += 1;
  const now = Date.now();
  return {
    id: `relay-${counter}`,
    kind: 'permission',
    runId: 'r1',
    sessionId: 's1',
    agentId: 'main',
    parents: [],
    toolCallId: `call_${counter}`,
    tool: 'bash',
    params: { command: 'ls -la' },
    decision: { action: 'ask', reason: 'risk_default', explanation: 'bash asks' },
    suggestedRules: [{ action: 'allow', tool: 'bash', params: { command: 'ls *' } }],
    prompt: 'Run bash?',
    createdAt: now,
    expiresAt: now + 60_000,
    ...overrides,
  };
}

describeStores('relays', (store) => {
  it('stores the whole request and reads it back as a broker record', async () => {
    const { q } = store();
    const req = request({ preview: { diff: '+a' } });
    const row = await q.relays.insertRelay({ request: req });
    expect(row).toMatchObject({
      id: req.id,
      runId: 'r1',
      sessionId: 's1',
      tool: 'bash',
      params: req.params,
      status: 'pending',
      response: null,
    });
    expect(row.expiresAt.getTime()).toBe(req.expiresAt);
    expect(row.createdAt.getTime()).toBe(req.createdAt);
    expect(toRelayRecord((await q.relays.getRelay({ id: req.id }))!)).toEqual({ request: req });
    expect(await q.relays.getRelay({ id: 'missing' })).toBeUndefined();
  });

  it('resolves once and records the decision', async () => {
    const { q } = store();
    const req = request();
    await q.relays.insertRelay({ request: req });
    const response = {
      approved: true,
      always: true,
      scope: 'session' as const,
      rule: { action: 'allow' as const, tool: 'bash' },
    };
    const first = await q.relays.resolveRelay({ id: req.id, status: 'approved', response, decidedBy: 'alice' });
    expect(first).toMatchObject({ ok: true, relay: { status: 'approved', response, decidedBy: 'alice' } });
    const second = await q.relays.resolveRelay({ id: req.id, status: 'denied', reason: 'no', decidedBy: 'bob' });
    expect(second).toMatchObject({
      ok: false,
      reason: 'already_decided',
      current: { status: 'approved', decidedBy: 'alice' },
    });
    const record = toRelayRecord((await q.relays.getRelay({ id: req.id }))!);
    expect(record.outcome).toMatchObject({ status: 'approved', response, decidedBy: 'alice' });
    expect(typeof record.outcome?.decidedAt).toBe('number');
    expect(await q.relays.resolveRelay({ id: 'missing', status: 'approved', decidedBy: 'alice' })).toEqual({
      ok: false,
      reason: 'not_found',
    });
  });

  it('an approval with `claim` also claims its tool call in the same statement; the decision reads back as without it', async () => {
    const { q } = store();
    const req = request();
    await q.relays.insertRelay({ request: req });
    const response = { approved: true, reason: 'fine' };
    const result = await q.relays.resolveRelay({
      id: req.id,
      status: 'approved',
      response,
      decidedBy: 'alice',
      claim: { toolCallId: req.toolCallId },
    });
    expect(result).toMatchObject({
      ok: true,
      claimed: true,
      relay: {
        id: req.id,
        runId: 'r1',
        sessionId: 's1',
        status: 'approved',
        response,
        reason: 'fine',
        decidedBy: 'alice',
      },
    });
    if (!result.ok) throw new Error('not settled');
    expect(result.relay.decidedAt).toBeInstanceOf(Date);
    expect(result.relay.expiresAt.getTime()).toBe(req.expiresAt);
    expect(await q.toolExecutions.getToolExecution({ runId: 'r1', toolCallId: req.toolCallId })).toMatchObject({
      status: 'claimed',
    });
    // Claimed already: the executor's own claim loses, so the call cannot run twice.
    expect(await q.toolExecutions.claimToolExecution({ runId: 'r1', toolCallId: req.toolCallId })).toBe(false);
    // A second approval carrying the claim loses the settle and claims nothing.
    expect(
      await q.relays.resolveRelay({
        id: req.id,
        status: 'approved',
        response,
        decidedBy: 'bob',
        claim: { toolCallId: req.toolCallId },
      }),
    ).toMatchObject({ ok: false, reason: 'already_decided' });
  });

  it('`claim` claims nothing for a denial, over an earlier claim, or without the lease', async () => {
    const { q } = store();
    const denied = request();
    await q.relays.insertRelay({ request: denied });
    expect(
      await q.relays.resolveRelay({
        id: denied.id,
        status: 'denied',
        reason: 'no',
        decidedBy: 'alice',
        claim: { toolCallId: denied.toolCallId },
      }),
    ).toMatchObject({ ok: true, relay: { status: 'denied' } });
    expect(await q.toolExecutions.getToolExecution({ runId: 'r1', toolCallId: denied.toolCallId })).toBeUndefined();

    const twice = request();
    await q.relays.insertRelay({ request: twice });
    expect(await q.toolExecutions.claimToolExecution({ runId: 'r1', toolCallId: twice.toolCallId })).toBe(true);
    expect(
      await q.relays.resolveRelay({
        id: twice.id,
        status: 'approved',
        decidedBy: 'alice',
        claim: { toolCallId: twice.toolCallId },
      }),
    ).toMatchObject({ ok: true, claimed: false, relay: { status: 'approved' } });

    const unleased = request();
    await q.relays.insertRelay({ request: unleased });
    const settled = await q.relays.resolveRelay({
      id: unleased.id,
      status: 'approved',
      decidedBy: 'alice',
      claim: { toolCallId: unleased.toolCallId, leaseOwner: 'nobody-holds-it' },
    });
    expect(settled).toMatchObject({ ok: true, claimed: false, relay: { status: 'approved' } });
    expect(await q.toolExecutions.getToolExecution({ runId: 'r1', toolCallId: unleased.toolCallId })).toBeUndefined();
  });

  it('has exactly one winner among 50 concurrent resolutions; the rest see its decision', async () => {
    const { q } = store();
    const req = request();
    await q.relays.insertRelay({ request: req });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        q.relays.resolveRelay({
          id: req.id,
          status: i % 2 ? 'approved' : 'denied',
          response: { approved: i % 2 === 1, reason: `by ${i}` },
          decidedBy: `user${i}`,
        }),
      ),
    );
    const winners = results.flatMap((r) => (r.ok ? [r.relay] : []));
    expect(winners).toHaveLength(1);
    const winner = winners[0]!;
    for (const r of results) {
      if (r.ok) continue;
      expect(r.reason).toBe('already_decided');
      expect(r.current).toMatchObject({
        status: winner.status,
        decidedBy: winner.decidedBy,
        response: winner.response,
      });
    }
  });

  it('refuses a decision after the deadline and records the expiry instead', async () => {
    const { q } = store();
    const req = request({ createdAt: Date.now() - 10_000, expiresAt: Date.now() - 1_000 });
    await q.relays.insertRelay({ request: req });
    const result = await q.relays.resolveRelay({
      id: req.id,
      status: 'approved',
      response: { approved: true },
      decidedBy: 'alice',
    });
    expect(result).toMatchObject({
      ok: false,
      reason: 'expired',
      current: { status: 'expired', reason: APPROVAL_TIMEOUT_REASON, decidedBy: 'system' },
    });
    expect(toRelayRecord((await q.relays.getRelay({ id: req.id }))!).outcome).toMatchObject({
      status: 'expired',
      reason: APPROVAL_TIMEOUT_REASON,
    });
  });

  it('expires only what is due and still pending', async () => {
    const { q } = store();
    const due = request({ expiresAt: Date.now() - 1 });
    const live = request();
    const decided = request({ expiresAt: Date.now() - 1 });
    for (const r of [due, live, decided]) await q.relays.insertRelay({ request: r });
    await q.relays.resolveRelay({ id: decided.id, status: 'cancelled', decidedBy: 'system', reason: 'stopped' });
    expect((await q.relays.listExpiredPending({})).map((r) => r.id)).toEqual([due.id]);
    expect(
      (await q.relays.listExpiredPending({ now: new Date(Date.now() + 120_000) })).map((r) => r.id).sort(),
    ).toEqual([due.id, live.id].sort());
    expect(await q.relays.expireRelay({ id: live.id })).toBeUndefined();
    expect(await q.relays.expireRelay({ id: decided.id })).toBeUndefined();
    expect(await q.relays.expireRelay({ id: due.id })).toMatchObject({ status: 'expired' });
    expect(await q.relays.expireRelay({ id: due.id })).toBeUndefined();
    expect(await q.relays.listExpiredPending({})).toEqual([]);
  });

  it('lists live pending relays by run and session', async () => {
    const { q } = store();
    const a = request({ runId: 'r1', sessionId: 's1' });
    const b = request({ runId: 'r2', sessionId: 's1' });
    const c = request({ runId: 'r3', sessionId: 's2' });
    const overdue = request({ runId: 'r1', sessionId: 's1', expiresAt: Date.now() - 1 });
    const done = request({ runId: 'r1', sessionId: 's1' });
    for (const r of [a, b, c, overdue, done]) await q.relays.insertRelay({ request: r });
    await q.relays.resolveRelay({ id: done.id, status: 'denied', decidedBy: 'alice' });
    expect((await q.relays.listPendingRelays()).map((r) => r.id).sort()).toEqual([a.id, b.id, c.id].sort());
    expect((await q.relays.listPendingRelays({ runId: 'r1' })).map((r) => r.id)).toEqual([a.id]);
    expect((await q.relays.listPendingRelays({ sessionId: 's1' })).map((r) => r.id).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect(await q.relays.listPendingRelays({ runId: 'r2', sessionId: 's2' })).toEqual([]);
  });

  it('cancels every pending relay of a run, and only those', async () => {
    const { q } = store();
    const a = request({ runId: 'r1' });
    const b = request({ runId: 'r1' });
    const other = request({ runId: 'r2' });
    const approved = request({ runId: 'r1' });
    for (const r of [a, b, other, approved]) await q.relays.insertRelay({ request: r });
    await q.relays.resolveRelay({ id: approved.id, status: 'approved', decidedBy: 'alice' });
    const cancelled = await q.relays.cancelRunRelays({ runId: 'r1', reason: 'Run stopped by alice' });
    expect(cancelled.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    expect(
      cancelled.every(
        (r) => r.status === 'cancelled' && r.reason === 'Run stopped by alice' && r.decidedBy === 'system',
      ),
    ).toBe(true);
    expect((await q.relays.getRelay({ id: approved.id }))?.status).toBe('approved');
    expect((await q.relays.getRelay({ id: other.id }))?.status).toBe('pending');
    expect(await q.relays.resolveRelay({ id: a.id, status: 'approved', decidedBy: 'bob' })).toMatchObject({
      ok: false,
      reason: 'already_decided',
      current: { status: 'cancelled' },
    });
  });
});
