// What one user may hold on a server at once, so that no `user` can tie up its memory and sockets
// or flood the approvers' inbox: runs of Gatehouse's agent going (GATEHOUSE_MAX_RUNS_PER_USER,
// here 2) and outside agents' calls held waiting for a person (GATEHOUSE_MAX_WAITING_PER_USER,
// here 2). Past either cap nothing starts, nothing runs and no relay is raised; each place is given
// back however its run or wait ends.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { streamSlots } from '@/lib/server/http/stream-slots';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { POST as chat } from './route';

const CAP = 2;
vi.stubEnv('GATEHOUSE_MAX_RUNS_PER_USER', String(CAP));
vi.stubEnv('GATEHOUSE_MAX_WAITING_PER_USER', String(CAP));
afterAll(() => void vi.unstubAllEnvs());

const server = withRouteRuntime('gatehouse-held-');

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}`);
}

const pendingOfRun = (runId: string) =>
  until(async () => (await server.rt().q.relays.listPendingRelays({ runId }))[0], `a pending relay of ${runId}`);

describe('runs of Gatehouse’s agent: at most GATEHOUSE_MAX_RUNS_PER_USER going per user', () => {
  // `$ touch …` asks under the default policy: the run waits for a person.
  const asking = (n: number) => ({ messages: [{ role: 'user' as const, content: `$ touch held-${n}` }] });

  it('refuses run cap+1 with a 429 too_many_runs naming the limit, starts nothing, and frees a place when a run ends', async () => {
    const { user } = await server.person('user');
    const { runs, q } = server.rt();
    const first = await runs.start({ ...asking(1), owner: user.id });
    await runs.start({ ...asking(2), owner: user.id });
    await pendingOfRun(first.runId);
    expect(runs.runsGoing(user.id)).toBe(CAP);
    const before = (await q.runs.listRuns({ owner: user.id })).items.length;
    await expect(runs.start({ ...asking(3), owner: user.id })).rejects.toMatchObject({
      code: 'too_many_runs',
      status: 429,
      details: { limit: CAP },
    });
    expect((await q.runs.listRuns({ owner: user.id })).items.length).toBe(before);
    expect(runs.runsGoing(user.id)).toBe(CAP);

    // Someone else is not held back by them.
    const other = await server.person('user');
    const theirs = await runs.start({ ...asking(4), owner: other.user.id });
    await runs.cancel(theirs.runId);

    // A run that ends (here: its relay denied) gives its place back.
    const relay = await pendingOfRun(first.runId);
    await runs.decideChecked(relay.id, { approved: false, reason: 'no' }, 'someone');
    await until(async () => (runs.runsGoing(user.id) < CAP ? true : undefined), 'the place given back');
    const again = await runs.start({ ...asking(5), owner: user.id });
    expect(again.runId).toBeTruthy();
  });

  it('POST /api/chat over the cap is a 429 too_many_runs, with no run and no stream held', async () => {
    const { user, token } = await server.person('user');
    const { runs, q } = server.rt();
    for (const n of [6, 7]) await runs.start({ ...asking(n), owner: user.id });
    const before = (await q.runs.listRuns({ owner: user.id })).items.length;
    const refused = await chat(apiRequest('POST', '/api/chat', { token, json: asking(8) }), noParams);
    expect(refused.status).toBe(429);
    const { error } = (await refused.json()) as { error: { code: string; message: string; limit: number } };
    expect(error).toMatchObject({ code: 'too_many_runs', limit: CAP });
    expect(error.message).toContain(`${CAP} at once on this server (GATEHOUSE_MAX_RUNS_PER_USER)`);
    expect((await q.runs.listRuns({ owner: user.id })).items.length).toBe(before);
    expect(streamSlots().heldBy(user.id)).toBe(0);
  });

  it('runs started together cannot all pass the cap', async () => {
    const { user } = await server.person('user');
    const { runs } = server.rt();
    const started = await Promise.allSettled(
      [1, 2, 3, 4, 5].map((n) => runs.start({ ...asking(10 + n), owner: user.id })),
    );
    expect(started.filter((s) => s.status === 'fulfilled')).toHaveLength(CAP);
    expect(started.filter((s) => s.status === 'rejected')).toHaveLength(5 - CAP);
    expect(runs.runsGoing(user.id)).toBe(CAP);
  });
});

describe('outside calls: at most GATEHOUSE_MAX_WAITING_PER_USER held waiting for a person per user', () => {
  const hookSession = (owner: string, externalId: string) =>
    ({ owner, source: 'hook', agent: 'claude-code', title: '/w', externalId }) as const;
  // `touch` asks under the default policy.
  const touch = (name: string, callId?: string) => ({
    tool: 'bash',
    params: { command: `touch ${name}` },
    workspace: '/w',
    ...(callId ? { callId } : {}),
  });

  it('denies call cap+1 at once with the reason, raises no relay, records the refusal, and asks again once a wait ends', async () => {
    const { user } = await server.person('user');
    const { external, q } = server.rt();
    const ref = hookSession(user.id, 'held-1');
    const waits = [new AbortController(), new AbortController()];
    const answers = waits.map((w, i) => external.decide(ref, touch(`a${i}`), { signal: w.signal }));
    const run = await q.runs.openExternalRun(ref);
    await until(
      async () => ((await q.relays.listPendingRelays({ runId: run.id })).length === CAP ? true : undefined),
      'both calls waiting',
    );
    expect(external.waitingOf(user.id)).toBe(CAP);

    const refused = await external.decide(ref, touch('a2', 'toolu_over'), { signal: new AbortController().signal });
    expect(refused.decision).toBe('deny');
    expect(refused.decision === 'deny' && refused.reason).toContain(
      `${CAP} calls of this user are already waiting for a person's decision on this server (GATEHOUSE_MAX_WAITING_PER_USER)`,
    );
    expect(await q.relays.listPendingRelays({ runId: run.id })).toHaveLength(CAP);
    await external.flushRecords();
    const events = await q.events.listEvents({ runId: run.id });
    const over = events.filter((e) => e.data.toolCallId === 'toolu_over');
    expect(over.map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
    expect(over[1]!.data).toMatchObject({ isError: true, denied: true });

    // A call the policy allows at once needs no place: it is decided as always.
    await server.prependRules([{ action: 'allow', tool: 'read_file', params: { path: '/w/held.md' } }]);
    const allowed = await external.decide(
      ref,
      { tool: 'read_file', params: { path: '/w/held.md' }, workspace: '/w' },
      {
        signal: new AbortController().signal,
      },
    );
    expect(allowed.decision).toBe('allow');

    // Another user is not held back.
    const other = await server.person('user');
    const theirs = new AbortController();
    const theirAnswer = external.decide(hookSession(other.user.id, 'held-2'), touch('b'), { signal: theirs.signal });
    await until(async () => (external.waitingOf(other.user.id) === 1 ? true : undefined), 'their call waiting');
    theirs.abort();
    expect((await theirAnswer).decision).toBe('deny');

    // The caller of one went away: its relay is cancelled and its place is free.
    waits[0]!.abort();
    expect((await answers[0]!).decision).toBe('deny');
    expect(external.waitingOf(user.id)).toBe(CAP - 1);
    const next = external.decide(ref, touch('a3'), { signal: new AbortController().signal });
    await until(async () => (external.waitingOf(user.id) === CAP ? true : undefined), 'the next call waiting');
    for (const relay of await q.relays.listPendingRelays({ runId: run.id }))
      await server.rt().runs.decideChecked(relay.id, { approved: true }, 'someone');
    expect((await next).decision).toBe('allow');
    expect((await answers[1]!).decision).toBe('allow');
    expect(external.waitingOf(user.id)).toBe(0);
  });

  it('a retry of a pending call past the cap is denied and leaves the relay pending; a decided one is answered at once', async () => {
    const { user } = await server.person('user');
    const { external, q, runs } = server.rt();
    const ref = hookSession(user.id, 'held-3');
    const signal = new AbortController().signal;
    const first = external.decide(ref, touch('r1', 'toolu_r1'), { signal });
    const second = external.decide(ref, touch('r2', 'toolu_r2'), { signal });
    const run = await q.runs.openExternalRun(ref);
    await until(async () => (external.waitingOf(user.id) === CAP ? true : undefined), 'both waiting');

    const retry = await external.decide(ref, touch('r1', 'toolu_r1'), { signal });
    expect(retry.decision).toBe('deny');
    const [relay] = (await q.relays.listPendingRelays({ runId: run.id })).filter((r) => r.toolCallId === 'toolu_r1');
    expect(relay).toBeDefined();

    await runs.decideChecked(relay!.id, { approved: true }, 'someone');
    expect((await first).decision).toBe('allow');
    // Decided: a retry is answered from its relay, which holds no place.
    const pending = await q.relays.listPendingRelays({ runId: run.id });
    expect(pending).toHaveLength(1);
    expect((await external.decide(ref, touch('r1', 'toolu_r1'), { signal })).decision).toBe('allow');
    await runs.decideChecked(pending[0]!.id, { approved: false }, 'someone');
    expect((await second).decision).toBe('deny');
    expect(external.waitingOf(user.id)).toBe(0);
  });
});
