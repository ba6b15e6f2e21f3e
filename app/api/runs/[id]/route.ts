// GET /api/runs/:id: the run with its pending relays.
import { visibleRun } from '@/lib/server/runs/run-access';
import { handle } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle<{ id: string }>('runs:read:own', async (_request, { id }, rt, user) => {
  const run = await visibleRun(rt.q, user, id);
  const pending = await rt.q.relays.listPendingRelays({ runId: id });
  return Response.json({ run, pendingRelays: pending.map((row) => row.request), live: rt.runs.isLive(id) });
});
