// Relays whose rule names approvers, on PGlite and PostgreSQL: distinct people are counted (the
// same person twice is refused), only the last approval settles, an approval without a person
// never counts (one named approver included), one denial ends it, an edit resets the count (or,
// for one approver, is the approval), and concurrent approvals through two brokers (two
// instances) settle it exactly once.
import { expect, it } from 'vitest';
import { describeStores } from '../../db/test-support/stores';
import {
  DurableRelayBroker,
  RelayAlreadyResolvedError,
  RelayQuorumError,
  type RelayProgress,
  type RelayRequest,
} from '../../relay';
import { DbRelayStore } from './relay-store';

const request = (id: string, count: number, expiresIn = 60_000): RelayRequest => ({
  id,
  kind: 'permission',
  runId: 'run-1',
  sessionId: 's1',
  agentId: 'main',
  parents: [],
  toolCallId: `call-${id}`,
  tool: 'bash',
  params: { command: 'deploy prod' },
  decision: { action: 'ask', reason: 'default_action', explanation: 'asks' },
  suggestedRules: [],
  approvals: { count },
  prompt: '?',
  createdAt: Date.now(),
  expiresAt: Date.now() + expiresIn,
});

const alice = { user: 'alice', role: 'approver' };
const bob = { user: 'bob', role: 'admin' };

describeStores('quorum relays', (store) => {
  const broker = () => new DurableRelayBroker(new DbRelayStore(store().q.relays, { quorum: store().q.quorum }));

  it('two approvers: the first leaves it pending (1 of 2), the same person again is refused, the second approves', async () => {
    const b = broker();
    await b.register(request('q1', 2));
    const progress: RelayProgress[] = [];
    const waiting = b.wait('q1', { onProgress: (p) => progress.push(p) });
    const first = await b.decide('q1', { approved: true }, alice);
    expect(first).toMatchObject({ status: 'partial', progress: { needed: 2, approvals: [{ by: 'alice' }] } });
    await expect(b.decide('q1', { approved: true }, alice)).rejects.toMatchObject({ why: 'same_approver' });
    expect((await b.get('q1'))?.outcome).toBeUndefined();
    const last = await b.decide('q1', { approved: true }, bob);
    expect(last).toMatchObject({ status: 'decided', outcome: { status: 'approved', decidedBy: 'bob' } });
    const outcome = await waiting;
    expect(outcome.status).toBe('approved');
    expect(progress.map((p) => p.approvals.map((a) => a.by))).toEqual([['alice']]);
    expect((await b.get('q1'))?.outcome?.approvals?.map((a) => [a.by, a.role])).toEqual([
      ['alice', 'approver'],
      ['bob', 'admin'],
    ]);
  });

  it('an approval without a person (a handler, approve-all, a grant) never counts: the relay stays pending', async () => {
    const b = broker();
    await b.register(request('q2', 2));
    await expect(b.resolve('q2', { approved: true }, 'handler')).rejects.toBeInstanceOf(RelayQuorumError);
    await b.decide('q2', { approved: true }, alice);
    await expect(b.resolve('q2', { approved: true }, 'grant')).rejects.toBeInstanceOf(RelayQuorumError);
    expect((await b.get('q2'))?.outcome).toBeUndefined();
  });

  it('a single denial after a partial approval denies at once', async () => {
    const b = broker();
    await b.register(request('q3', 3));
    await b.decide('q3', { approved: true }, alice);
    const denied = await b.decide('q3', { approved: false, reason: 'not today' }, bob);
    expect(denied).toMatchObject({ status: 'decided', outcome: { status: 'denied', reason: 'not today' } });
    await expect(b.decide('q3', { approved: true }, { user: 'carol', role: 'approver' })).rejects.toBeInstanceOf(
      RelayAlreadyResolvedError,
    );
  });

  it('an edit resets the approvals (the editor counts first); the outcome carries the edited call', async () => {
    const b = broker();
    await b.register(request('q4', 2));
    await b.decide('q4', { approved: true }, alice);
    const edited = await b.decide('q4', { approved: true, params: { command: 'deploy staging' } }, bob);
    expect(edited).toMatchObject({
      status: 'partial',
      progress: { approvals: [{ by: 'bob' }], params: { command: 'deploy staging' } },
    });
    const last = await b.decide('q4', { approved: true }, alice);
    expect(last).toMatchObject({
      status: 'decided',
      outcome: { status: 'approved', response: { params: { command: 'deploy staging' } } },
    });
  });

  it('one named approver: a person approves at once, an edit included; an approval without a person never counts', async () => {
    const b = broker();
    await b.register(request('n1', 1));
    await expect(b.resolve('n1', { approved: true }, 'handler')).rejects.toBeInstanceOf(RelayQuorumError);
    expect((await b.get('n1'))?.outcome).toBeUndefined();
    const approved = await b.decide('n1', { approved: true }, bob);
    expect(approved).toMatchObject({ status: 'decided', outcome: { status: 'approved', decidedBy: 'bob' } });
    await b.register(request('n2', 1));
    const edited = await b.decide(
      'n2',
      { approved: true, reason: 'staging first', params: { command: 'deploy staging' } },
      alice,
    );
    expect(edited).toMatchObject({
      status: 'decided',
      outcome: { status: 'approved', reason: 'staging first', response: { params: { command: 'deploy staging' } } },
    });
    expect((await b.get('n2'))?.outcome?.approvals?.map((a) => a.by)).toEqual(['alice']);
    await expect(b.decide('n2', { approved: true }, bob)).rejects.toBeInstanceOf(RelayAlreadyResolvedError);
  });

  it('a partial quorum at the deadline ends as expired', async () => {
    const b = broker();
    await b.register(request('q5', 2, 300));
    await b.decide('q5', { approved: true }, alice);
    await expect(b.wait('q5')).resolves.toMatchObject({ status: 'expired' });
    await expect(b.decide('q5', { approved: true }, bob)).rejects.toMatchObject({ outcome: { status: 'expired' } });
  });

  it('concurrent approvals by six people through two brokers: settled exactly once, by three', async () => {
    const [a, b] = [broker(), broker()];
    await a.register(request('q6', 3));
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? a : b).decide('q6', { approved: true }, { user: `u${i}`, role: 'approver' }),
      ),
    );
    const decided = results.filter((r) => r.status === 'fulfilled' && r.value.status === 'decided');
    const partial = results.filter((r) => r.status === 'fulfilled' && r.value.status === 'partial');
    expect(decided).toHaveLength(1);
    expect(partial).toHaveLength(2);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RelayAlreadyResolvedError);
    expect((await a.get('q6'))?.outcome?.approvals).toHaveLength(3);
  });
});
