// GET /api/runs/:id: the run with its pending relays, and who started it.
import { visibleRun } from '@/lib/server/runs/run-access';
import { handle } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle<{ id: string }>('runs:read:own', async (_request, { id }, rt, user) => {
  const run = await visibleRun(rt.q, user, id);
  const pending = await rt.q.relays.listPendingRelays({ runId: id });
  const startedBy = run.owner ? ((await rt.q.users.getUser({ id: run.owner }))?.username ?? null) : null;
  return Response.json({ run, pendingRelays: pending.map((row) => row.request), live: rt.runs.isLive(id), startedBy });
});
