// POST /api/runs/:id/mode: switches a live or paused run's mode. With `approvePending` (and
// bypassPermissions), "approve this and all later calls": the run's pending calls that Auto-approve
// allows are approved too, each as this user's decision -> `{ runId, mode, approved, left }`.
// 404 unknown run; 409 when the run has finished; 400 approvePending with another mode.
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { actionableRun } from '@/lib/server/runs/run-access';
import { approveAllPending } from '@/lib/server/runs/approve-all';
import { SetModeSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ id: string }>('relays:decide:own', async (request, { id }, rt, user) => {
  // Deciding every relay of the run: the same check as deciding one of them (canDecideRelay).
  await actionableRun(rt.q, user, id);
  const body = await readJson(request, SetModeSchema, rt.config.maxBodyBytes);
  if (!body.approvePending) return Response.json(await rt.runs.setMode(id, body.mode));
  const result = await approveAllPending(rt.runs, rt.q, id, user.username);
  return Response.json({ runId: id, mode: body.mode, ...result });
});
