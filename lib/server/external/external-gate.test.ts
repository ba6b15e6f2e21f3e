// The outside-agent gate's lifecycle: a held request's relay never outlives the process that held
// it (cancelled at shutdown, and at the next start with one instance), and the run records why.
import { describe, expect, it } from 'vitest';
import { withRouteRuntime } from '../test-support/route-runtime';

const server = withRouteRuntime('gatehouse-outside-');
const session = { owner: 'u-outside', source: 'hook', agent: 'claude-code', title: '/w' } as const;
// `touch` asks under the default policy (a write with no rule for it).
const asking = { tool: 'bash', params: { command: 'touch a-file' }, workspace: '/w' };

async function pendingOf(runId: string) {
  const { q } = server.rt();
  for (let i = 0; i < 400; i++) {
    const [relay] = await q.relays.listPendingRelays({ runId });
    if (relay) return relay;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no pending relay');
}

describe('outside relays never outlive their request', () => {
  it('cancels the relays held here at shutdown: the caller is answered deny, and nothing stays pending', async () => {
    const { external, q } = server.rt();
    const run = await q.runs.openExternalRun({ ...session, externalId: 'shutdown-1' });
    const answer = external.decide({ ...session, externalId: 'shutdown-1' }, asking, {
      signal: new AbortController().signal,
    });
    const relay = await pendingOf(run.id);
    await external.shutdown();
    expect(await answer).toMatchObject({ decision: 'deny', reason: 'Gatehouse shut down before a decision' });
    expect(await q.relays.getRelay({ id: relay.id })).toMatchObject({ status: 'cancelled' });
  });

  it('cancels, at the next start, a relay whose request died with the last process, and records it in the run', async () => {
    const { external, q, broker } = server.rt();
    const run = await q.runs.openExternalRun({ ...session, externalId: 'orphan-1' });
    const now = Date.now();
    await broker.register({
      id: 'orphan-relay-1',
      kind: 'permission',
      runId: run.id,
      sessionId: run.sessionId,
      agentId: 'claude-code',
      parents: [],
      toolCallId: 'toolu_orphan',
      tool: 'bash',
      params: { command: 'touch x' },
      decision: { action: 'ask', reason: 'default', explanation: 'asks' } as never,
      suggestedRules: [],
      prompt: 'x?',
      createdAt: now,
      expiresAt: now + 60_000,
    });
    expect(await external.cancelOrphans()).toBe(1);
    expect(await q.relays.getRelay({ id: 'orphan-relay-1' })).toMatchObject({
      status: 'cancelled',
      reason: 'Gatehouse restarted before a decision',
    });
    const events = await q.events.listEvents({ runId: run.id });
    expect(events.map((e) => e.type)).toEqual(['relay_resolved', 'tool_result']);
  });
});

describe('a retried call id gets its decision, and only for the very same call', () => {
  it('answers the same call id with the same tool and params by its relay; another call reusing the id is denied', async () => {
    const { external, q, runs } = server.rt();
    const ref = { ...session, externalId: 'retry-1' };
    const call = { ...asking, params: { command: 'touch retried' }, callId: 'toolu_same' };
    const first = external.decide(ref, call, { signal: new AbortController().signal });
    const run = await q.runs.openExternalRun(ref);
    const relay = await pendingOf(run.id);
    await runs.decideChecked(relay.id, { approved: true }, 'someone');
    expect(await first).toMatchObject({ decision: 'allow', relayId: relay.id });
    // The same call again (a retry, keys in another order): the same answer, no new relay.
    const again = await external.decide(
      ref,
      { ...call, params: { command: 'touch retried' } },
      {
        signal: new AbortController().signal,
      },
    );
    expect(again).toMatchObject({ decision: 'allow', relayId: relay.id });
    // The id reused for another call: never the earlier approval.
    const other = await external.decide(
      ref,
      { ...call, params: { command: 'touch another-file' } },
      {
        signal: new AbortController().signal,
      },
    );
    expect(other).toMatchObject({ decision: 'deny', reason: expect.stringContaining('already used') });
  });
});

describe('a call allowed at once, for a caller that runs the tool itself', () => {
  it('is claimed with its decision: once per call id, and never without `claim`', async () => {
    const { external, q } = server.rt();
    const ref = { ...session, externalId: 'claim-1' };
    // A grant of the session allows `ls` at once.
    const run = await q.runs.openExternalRun(ref);
    const rule = { action: 'allow' as const, tool: 'bash', params: { command: 'ls' } };
    await q.grants.createGrant({ rule, scope: 'session', sessionId: run.sessionId, createdBy: 'u' });
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-1' };
    const options = { signal: new AbortController().signal, claim: true, waitForHuman: false };
    const first = await external.decide(ref, call, options);
    expect(first).toMatchObject({ decision: 'allow', claimed: true });
    // On PGlite the claim is won in memory and stored after the answer (with the result, or on flush).
    expect(await external.decide(ref, call, options)).toMatchObject({ decision: 'allow', claimed: false });
    await external.flushRecords();
    expect(await q.toolExecutions.getToolExecution({ runId: first.runId, toolCallId: 'mcp-1' })).toMatchObject({
      status: 'claimed',
    });
    const unclaimed = await external.decide(ref, { ...call, callId: 'hook-1' }, { signal: options.signal });
    expect(unclaimed).toMatchObject({ decision: 'allow' });
    expect(unclaimed).not.toHaveProperty('claimed');
    expect(await q.toolExecutions.getToolExecution({ runId: first.runId, toolCallId: 'hook-1' })).toBeUndefined();
  });
});
