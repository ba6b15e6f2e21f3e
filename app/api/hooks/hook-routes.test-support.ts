// What the hook routes' tests share (Claude Code, Gemini CLI, Codex CLI): the stored policy set
// through the policy route, and the relay a held hook request waits on.
import { expect } from 'vitest';
import { PUT as putPolicy, GET as getPolicy } from '@/app/api/policy/route';
import { apiRequest, noParams, type RouteRuntime } from '@/lib/server/test-support/route-runtime';

/** Stores a policy of these rules (through PUT /api/policy, as an admin). */
export async function setPolicy(rules: unknown[], defaultAction: 'ask' | 'deny' = 'ask'): Promise<void> {
  const { version } = await (await getPolicy(apiRequest('GET', '/api/policy'), noParams)).json();
  const response = await putPolicy(
    apiRequest('PUT', '/api/policy', {
      json: { policy: { defaultAction, rules } },
      headers: { 'if-match': `"${version}"` },
    }),
    noParams,
  );
  expect(response.status).toBe(200);
}

/** Polls until the hook session's run has a pending relay (its hook request is being held). */
export async function pendingHookRelay(server: RouteRuntime, sessionId: string) {
  const { q } = server.rt();
  for (let i = 0; i < 400; i++) {
    const runs = await q.runs.listRuns({ source: 'hook' });
    const run = runs.items.find((r) => r.externalId === sessionId);
    if (run) {
      const [relay] = await q.relays.listPendingRelays({ runId: run.id });
      if (relay) return { run, relay };
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no pending relay');
}
