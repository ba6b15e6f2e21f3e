// What the hook routes' tests share (Claude Code, Gemini CLI, Codex CLI): the stored policy set
// through the policy route, and the relay a held hook request waits on.
import type { RouteRuntime } from '@/lib/server/test-support/route-runtime';

export { setPolicy } from '../policy/set-policy.test-support';

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
