// POST /api/chat and a policy saved while a run waits: the run's next decision is the saved
// policy's (README, Security: "a saved policy ... applies to the next call at once").
import { describe, expect, it } from 'vitest';
import { readEvents } from '@/lib/server/runs/run-log';
import { apiRequest, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { startAndAsk } from './chat-run.test-support';
import { POST as decideRelay } from './relay/[relayId]/route';

const server = withRouteRuntime('gatehouse-chat-saved-policy-');

describe('POST /api/chat: a policy saved while a run waits reaches its next decision', () => {
  it("a subagent's call after the save is decided by the saved policy (README: a saved policy applies to the next call at once)", async () => {
    await server.prependRules([{ action: 'ask', tool: 'task' }]);
    const owner = await server.person('user');
    const started = await startAndAsk(server, owner.token, {
      messages: [{ role: 'user', content: 'task reviewer: read notes.md' }],
    });
    expect(started.relay.tool).toBe('task');
    // While the run waits, an admin denies reading notes.md.
    await server.prependRules([{ action: 'deny', tool: 'read_file', params: { path: 'notes.md' } }]);
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
