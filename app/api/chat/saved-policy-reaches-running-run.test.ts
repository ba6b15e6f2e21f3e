// POST /api/chat and a policy saved while a run waits: the run's next decision is the saved
// policy's (README, Security: "a saved policy ... applies to the next call at once").
import { describe, expect, it } from 'vitest';
import { createApiToken, createUser, type Role } from '@/lib/auth';
import type { RelayRequest } from '@/lib/contract';
import { readEvents } from '@/lib/server/runs/run-log';
import { loadPolicy, savePolicyVersion } from '@/lib/server/stores/policy-store';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { POST as chat } from './route';
import { POST as decideRelay } from './relay/[relayId]/route';

const server = withRouteRuntime('gatehouse-chat-saved-policy-');
let n = 0;

async function person(role: Role) {
  const q = server.rt().q;
  const user = await createUser({ q, username: `${role}-perm-${++n}`, role });
  return { user, token: (await createApiToken({ q, userId: user.id, name: 't' })).token };
}

async function withRules(rules: unknown[]) {
  const q = server.rt().q;
  const { version, policy } = await loadPolicy(q);
  await savePolicyVersion(q, {
    policy: { ...policy, rules: [...rules, ...policy.rules] },
    expectedVersion: version,
    createdBy: 'admin',
  });
}

/** Starts a run through POST /api/chat; its run id and its first pending relay. */
async function startAndAsk(token: string, body: Record<string, unknown>) {
  const response = await chat(apiRequest('POST', '/api/chat', { token, json: body }), noParams);
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let text = '';
  let found: RegExpExecArray | null = null;
  while (!found) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`no connected event in: ${text}`);
    text += new TextDecoder().decode(value);
    found = /"runId":"([^"]+)"/.exec(text);
  }
  const runId = found[1]!;
  await reader.cancel();
  const q = server.rt().q;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const pending = await q.relays.listPendingRelays({ runId });
    if (pending[0]) return { runId, relay: pending[0].request as RelayRequest };
    if (Date.now() > deadline) throw new Error('no relay raised');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('POST /api/chat: a policy saved while a run waits reaches its next decision', () => {
  it("a subagent's call after the save is decided by the saved policy (README: a saved policy applies to the next call at once)", async () => {
    await withRules([{ action: 'ask', tool: 'task' }]);
    const owner = await person('user');
    const started = await startAndAsk(owner.token, {
      messages: [{ role: 'user', content: 'task reviewer: read notes.md' }],
    });
    expect(started.relay.tool).toBe('task');
    // While the run waits, an admin denies reading notes.md.
    await withRules([{ action: 'deny', tool: 'read_file', params: { path: 'notes.md' } }]);
    const answer = await decideRelay(
      apiRequest('POST', `/api/chat/relay/${started.relay.id}`, {
        token: owner.token,
        json: { sessionId: started.relay.sessionId, response: { approved: true } },
      }),
      { params: Promise.resolve({ relayId: started.relay.id }) },
    );
    expect(answer.status).toBe(200);
    const q = server.rt().q;
    const deadline = Date.now() + 10_000;
    let call: { decision?: { action: string } } | undefined;
    while (!call && Date.now() < deadline) {
      const events = await readEvents(q.events, started.runId);
      call = events.find((e) => e.type === 'tool_call' && e.name === 'read_file') as typeof call;
      if (!call) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await server.rt().runs.cancel(started.runId);
    expect(call?.decision?.action).toBe('deny');
  });
});
