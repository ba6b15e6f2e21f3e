// POST /api/chat and a run's own `permissions`: a caller's rules come after the stored ones and
// may make their run stricter or, for calls nobody else constrains, laxer; they never take away
// what the stored policy demands. Pinned here: an ask rule of the run never replaces a stored ask
// rule's approvers (README: "Several approvers means several people").
import { describe, expect, it } from 'vitest';
import { apiRequest, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { startAndAsk } from './chat-run.test-support';
import { POST as decideRelay } from './relay/[relayId]/route';

const server = withRouteRuntime('gatehouse-chat-permissions-');

describe("POST /api/chat: a run's permissions never lift a stored rule's approvers", () => {
  it('a stored two-person ask rule on a file still needs two people when the run adds its own ask rule for bash', async () => {
    await server.prependRules([
      { action: 'ask', tool: 'read_file', params: { path: 'vault/**' }, approvals: { count: 2 } },
    ]);
    const owner = await server.person('user');
    // Without the run's rule, the shell reading the file asks for two people.
    const plain = await startAndAsk(server, owner.token, {
      messages: [{ role: 'user', content: '$ cat vault/key.txt' }],
    });
    expect(plain.relay.approvals).toEqual({ count: 2 });
    await server.rt().runs.cancel(plain.runId);

    const overlaid = await startAndAsk(server, owner.token, {
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
