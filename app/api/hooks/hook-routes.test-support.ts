// What the hook routes' tests share (Claude Code, Gemini CLI, Codex CLI): the stored policy set
// through the policy route, and the relay a held hook request waits on.
import { expect } from 'vitest';
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

/**
 * An approval with an edit the CLI cannot run is refused with a 409 before anything is stored (no
 * approval, no grant); the relay stays pending, and is then denied so the held request ends.
 */
export async function expectEditRefused(server: RouteRuntime, relayId: string, params: Record<string, unknown>) {
  const { runs, q } = server.rt();
  await expect(runs.decideChecked(relayId, { approved: true, always: true, params }, 'someone')).rejects.toMatchObject({
    code: 'conflict:edit_not_runnable',
    status: 409,
  });
  expect(await q.relays.getRelay({ id: relayId })).toMatchObject({ status: 'pending' });
  expect((await q.grants.listGrants({ sessionId: (await q.relays.getRelay({ id: relayId }))!.sessionId })).length).toBe(
    0,
  );
  await runs.decideChecked(relayId, { approved: false, reason: 'the edit cannot run' }, 'someone');
}
