// GET /api/runs/:id: the run with its pending relays.
import { AppError } from '@/lib/server/errors';
import { handle } from '@/lib/server/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle<{ id: string }>(async (_request, { id }, rt) => {
  const run = await rt.q.runs.getRun({ id });
  if (!run) throw new AppError('not_found:run', 404, 'No such run');
  const pending = await rt.q.relays.listPendingRelays({ runId: id });
  return Response.json({ run, pendingRelays: pending.map((row) => row.request), live: rt.runs.isLive(id) });
});
