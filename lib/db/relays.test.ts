import { expect, it } from 'vitest';
import type { RelayRequest } from '../relay';
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
    expect(row).toMatchObject({ id: req.id, runId: 'r1', sessionId: 's1', tool: 'bash', params: req.params, status: 'pending', response: null });
    expect(row.expiresAt.getTime()).toBe(req.expiresAt);
    expect(row.createdAt.getTime()).toBe(req.createdAt);
    expect(toRelayRecord((await q.relays.getRelay({ id: req.id }))!)).toEqual({ request: req });
    expect(await q.relays.getRelay({ id: 'missing' })).toBeUndefined();
  });

  it('resolves once and records the decision', async () => {
    const { q } = store();
    const req = request();
    await q.relays.insertRelay({ request: req });
    const response = { approved: true, always: true, scope: 'session' as const, rule: { action: 'allow' as const, tool: 'bash' } };
    const first = await q.relays.resolveRelay({ id: req.id, status: 'approved', response, decidedBy: 'alice' });
    expect(first).toMatchObject({ ok: true, relay: { status: 'approved', response, decidedBy: 'alice' } });
    const second = await q.relays.resolveRelay({ id: req.id, status: 'denied', reason: 'no', decidedBy: 'bob' });
    expect(second).toMatchObject({ ok: false, reason: 'already_decided', current: { status: 'approved', decidedBy: 'alice' } });
    const record = toRelayRecord((await q.relays.getRelay({ id: req.id }))!);
    expect(record.outcome).toMatchObject({ status: 'approved', response, decidedBy: 'alice' });
    expect(typeof record.outcome?.decidedAt).toBe('number');
    expect(await q.relays.resolveRelay({ id: 'missing', status: 'approved', decidedBy: 'alice' })).toEqual({ ok: false, reason: 'not_found' });
  });

  it('has exactly one winner among 50 concurrent resolutions; the rest see its decision', async () => {
    const { q } = store();
    const req = request();
    await q.relays.insertRelay({ request: req });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        q.relays.resolveRelay({ id: req.id, status: i % 2 ? 'approved' : 'denied', response: { approved: i % 2 === 1, reason: `by ${i}` }, decidedBy: `user${i}` }),
      ),
    );
    const winners = results.flatMap((r) => (r.ok ? [r.relay] : []));
    expect(winners).toHaveLength(1);
    const winner = winners[0]!;
    for (const r of results) {
      if (r.ok) continue;
      expect(r.reason).toBe('already_decided');
      expect(r.current).toMatchObject({ status: winner.status, decidedBy: winner.decidedBy, response: winner.response });
    }
  });

  it('refuses a decision after the deadline and records the expiry instead', async () => {
    const { q } = store();
    const req = request({ createdAt: Date.now() - 10_000, expiresAt: Date.now() - 1_000 });
    await q.relays.insertRelay({ request: req });
    const result = await q.relays.resolveRelay({ id: req.id, status: 'approved', response: { approved: true }, decidedBy: 'alice' });
    expect(result).toMatchObject({ ok: false, reason: 'expired', current: { status: 'expired', reason: APPROVAL_TIMEOUT_REASON, decidedBy: 'system' } });
    expect(toRelayRecord((await q.relays.getRelay({ id: req.id }))!).outcome).toMatchObject({ status: 'expired', reason: APPROVAL_TIMEOUT_REASON });
  });

  it('expires only what is due and still pending', async () => {
    const { q } = store();
    const due = request({ expiresAt: Date.now() - 1 });
    const live = request();
    const decided = request({ expiresAt: Date.now() - 1 });
    for (const r of [due, live, decided]) await q.relays.insertRelay({ request: r });
    await q.relays.resolveRelay({ id: decided.id, status: 'cancelled', decidedBy: 'system', reason: 'stopped' });
    expect((await q.relays.listExpiredPending({})).map((r) => r.id)).toEqual([due.id]);
    expect((await q.relays.listExpiredPending({ now: new Date(Date.now() + 120_000) })).map((r) => r.id).sort()).toEqual([due.id, live.id].sort());
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
    expect((await q.relays.listPendingRelays({ sessionId: 's1' })).map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
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
    expect(cancelled.every((r) => r.status === 'cancelled' && r.reason === 'Run stopped by alice' && r.decidedBy === 'system')).toBe(true);
    expect((await q.relays.getRelay({ id: approved.id }))?.status).toBe('approved');
    expect((await q.relays.getRelay({ id: other.id }))?.status).toBe('pending');
    expect(await q.relays.resolveRelay({ id: a.id, status: 'approved', decidedBy: 'bob' })).toMatchObject({ ok: false, reason: 'already_decided', current: { status: 'cancelled' } });
  });
});
