// What a `user` or `approver` token may decide through POST /api/chat/relay/:relayId (the Next
// route handler; the fast path runs the same function, lib/server/routes/decide-relay.ts): not
// another user's relay, not a grant past its role, not an edit into a call needing more approvers,
// not a decision twice, one person once toward a quorum; bad decisions are 4xx, never stored.
// Relays are stored as a run raises them (no live run), so each decision takes the database path.
import { describe, expect, it } from 'vitest';
import { createApiToken } from '@/lib/auth';
import type { RelayRequest } from '@/lib/contract';
import { apiRequest, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { POST as decideRelay } from './[relayId]/route';

const server = withRouteRuntime('gatehouse-relay-limits-');
let n = 0;

/** A pending bash relay of a run owned by `owner`, as the loop stores it. */
async function raise(owner: string, overrides: Partial<RelayRequest> = {}): Promise<RelayRequest> {
  const q = server.rt().q;
  const runId = `run-attack-${++n}`;
  await q.runs.createRun({ id: runId, sessionId: `s-${runId}`, status: 'waiting', owner });
  const now = Date.now();
  const request: RelayRequest = {
    id: `relay-attack-${n}`,
    kind: 'permission',
    runId,
    sessionId: `s-${runId}`,
    agentId: 'main',
    parents: [],
    toolCallId: `call_${n}`,
    tool: 'bash',
    params: { command: 'echo hello' },
    risk: 'write',
    decision: { action: 'ask', reason: 'risk_default', explanation: 'bash asks' },
    suggestedRules: [],
    prompt: 'Run bash?',
    createdAt: now,
    expiresAt: now + 60_000,
    ...overrides,
  };
  await q.relays.insertRelay({ request });
  return request;
}

const decide = (relay: RelayRequest, token: string, response: unknown, sessionId = relay.sessionId) =>
  decideRelay(apiRequest('POST', `/api/chat/relay/${relay.id}`, { token, json: { sessionId, response } }), {
    params: Promise.resolve({ relayId: relay.id }),
  });

const rawDecide = (relay: RelayRequest, token: string, body: string) =>
  decideRelay(
    new Request(new URL(`/api/chat/relay/${relay.id}`, 'http://127.0.0.1:3000'), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    }),
    { params: Promise.resolve({ relayId: relay.id }) },
  );

const statusOf = async (id: string) => (await server.rt().q.relays.getRelay({ id }))?.status;

describe('POST /api/chat/relay/:id: what a token may decide', () => {
  it('an edit is judged by the approvals its own call needs: a user cannot edit a plain ask into a two-admin call and approve it alone', async () => {
    await server.prependRules([
      { action: 'ask', tool: 'bash', params: { command: 'echo pay*' }, approvals: { count: 2, roles: ['admin'] } },
    ]);
    const owner = await server.person('user');
    const relay = await raise(owner.user.id);
    const response = await decide(relay, owner.token, { approved: true, params: { command: 'echo pay-1000000' } });
    const stored = await server.rt().q.relays.getRelay({ id: relay.id });
    // Today: 200, and the relay is approved with `echo pay-1000000` as the call to run, on one user's word.
    expect({ status: response.status, params: stored?.response?.params }).not.toEqual({
      status: 200,
      params: { command: 'echo pay-1000000' },
    });
    expect(stored?.status).toBe('pending');
  });

  it("a user cannot decide another user's relay, even naming its session: 403, and it stays pending", async () => {
    const owner = await server.person('user');
    const other = await server.person('user');
    const relay = await raise(owner.user.id);
    for (const response of [{ approved: true }, { approved: false, reason: 'no' }]) {
      const answer = await decide(relay, other.token, response);
      expect(answer.status).toBe(403);
    }
    expect(await statusOf(relay.id)).toBe('pending');
  });

  it('a user may not grant for everyone (403) nor add a rule of their own (422); the relay stays pending', async () => {
    const owner = await server.person('user');
    const relay = await raise(owner.user.id);
    const global = await decide(relay, owner.token, { approved: true, always: true, scope: 'global' });
    expect(global.status).toBe(403);
    const wide = await decide(relay, owner.token, {
      approved: true,
      always: true,
      rule: { action: 'allow', tool: 'bash', params: { command: '*' } },
    });
    expect(wide.status).toBe(422);
    expect(await statusOf(relay.id)).toBe('pending');
  });

  it('unstorable or oversized decisions are a 400 naming the field, never a 500, and leave the relay pending', async () => {
    const owner = await server.person('user');
    const relay = await raise(owner.user.id);
    const bodies: unknown[] = [
      { approved: false, reason: 'bad\u0000reason' },
      { approved: false, reason: 'cut \ud83d' },
      { approved: false, reason: 'x'.repeat(2001) },
      { approved: true, params: { command: 'echo \u0000' } },
      { approved: true, params: { ['\ud800']: 'x' } },
      { approved: true, params: [] },
      { approved: true, params: null },
      { approved: false, params: { command: 'echo' } },
      { approved: 'yes' },
      { approved: true, always: true, rule: [] },
      { approved: true, always: true, rule: { action: 'allow' } },
      { approved: true, tool: 'write_file' },
    ];
    for (const response of bodies) {
      const answer = await decide(relay, owner.token, response);
      expect([400, 409, 422], JSON.stringify(response)).toContain(answer.status);
    }
    for (const body of ['{', '[]', 'null', '"x"', '{"sessionId":1}', `{"sessionId":"${relay.sessionId}"}`]) {
      const answer = await rawDecide(relay, owner.token, body);
      expect(answer.status, body).toBe(400);
    }
    expect(await statusOf(relay.id)).toBe('pending');
  });

  it('a decided relay cannot be decided again or changed: 409 with the first decision', async () => {
    const owner = await server.person('user');
    const approver = await server.person('approver');
    const relay = await raise(owner.user.id);
    const answers = await Promise.all([
      decide(relay, owner.token, { approved: true }),
      decide(relay, approver.token, { approved: false, reason: 'late' }),
      decide(relay, owner.token, { approved: false, reason: 'changed my mind' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const stored = await server.rt().q.relays.getRelay({ id: relay.id });
    const winner = answers.findIndex((a) => a.status === 200);
    expect(stored?.status).toBe(winner === 0 ? 'approved' : 'denied');
  });

  it('two tokens of one approver count once toward a quorum', async () => {
    await server.prependRules([
      { action: 'ask', tool: 'bash', params: { command: 'echo deploy*' }, approvals: { count: 2 } },
    ]);
    const owner = await server.person('user');
    const approver = await server.person('approver');
    const second = (await createApiToken({ q: server.rt().q, userId: approver.user.id, name: 't2' })).token;
    const relay = await raise(owner.user.id, {
      params: { command: 'echo deploy' },
      approvals: { count: 2, roles: ['approver', 'admin'] },
    });
    const [a, b] = await Promise.all([
      decide(relay, approver.token, { approved: true }),
      decide(relay, second, { approved: true }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await statusOf(relay.id)).toBe('pending');
    // The owner (role user) does not count either.
    expect((await decide(relay, owner.token, { approved: true })).status).toBe(403);
    expect(await statusOf(relay.id)).toBe('pending');
  });
});
