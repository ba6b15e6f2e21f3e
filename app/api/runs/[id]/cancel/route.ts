// POST /api/runs/:id/cancel: stops the run; its pending relays become denials.
import { handle } from '@/lib/server/http/handler';
import { actionableRun } from '@/lib/server/runs/run-access';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ id: string }>('relays:decide:own', async (_request, { id }, rt, user) => {
  await actionableRun(rt.q, user, id);
  await rt.runs.cancel(id);
  return Response.json({ success: true });
});
