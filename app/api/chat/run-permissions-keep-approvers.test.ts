// POST /api/chat and a run's own `permissions`: a caller's rules come after the stored ones and
// may make their run stricter or, for calls nobody else constrains, laxer; they never take away
// what the stored policy demands. Pinned here: an ask rule of the run never replaces a stored ask
// rule's approvers (README: "Several approvers means several people").
import { describe, expect, it } from 'vitest';
import { createApiToken, createUser, type Role } from '@/lib/auth';
import type { RelayRequest } from '@/lib/contract';
import { loadPolicy, savePolicyVersion } from '@/lib/server/stores/policy-store';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { POST as chat } from './route';
import { POST as decideRelay } from './relay/[relayId]/route';

const server = withRouteRuntime('gatehouse-chat-permissions-');
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

describe("POST /api/chat: a run's permissions never lift a stored rule's approvers", () => {
  it('a stored two-person ask rule on a file still needs two people when the run adds its own ask rule for bash', async () => {
    await withRules([{ action: 'ask', tool: 'read_file', params: { path: 'vault/**' }, approvals: { count: 2 } }]);
    const owner = await person('user');
    // Without the run's rule, the shell reading the file asks for two people.
    const plain = await startAndAsk(owner.token, { messages: [{ role: 'user', content: '$ cat vault/key.txt' }] });
    expect(plain.relay.approvals).toEqual({ count: 2 });
    await server.rt().runs.cancel(plain.runId);

    const overlaid = await startAndAsk(owner.token, {
      messages: [{ role: 'user', content: '$ cat vault/key.txt' }],
      permissions: { rules: [{ action: 'ask', tool: 'bash' }] },
    });
    try {
      expect(overlaid.relay.approvals).toEqual({ count: 2 });
      // The run's owner alone may not approve the read (before the fix: 200, and `cat` ran).
      const answer = await decideRelay(
        apiRequest('POST', `/api/chat/relay/${overlaid.relay.id}`, {
          token: owner.token,
          json: { sessionId: overlaid.relay.sessionId, response: { approved: true } },
        }),
        { params: Promise.resolve({ relayId: overlaid.relay.id }) },
      );
      expect(answer.status).not.toBe(200);
      expect((await server.rt().q.relays.getRelay({ id: overlaid.relay.id }))?.status).toBe('pending');
    } finally {
      await server.rt().runs.cancel(overlaid.runId);
    }
  });
});
