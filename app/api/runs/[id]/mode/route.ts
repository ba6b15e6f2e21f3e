// POST /api/runs/:id/mode: switches a live or paused run's mode (e.g. "Approve all for this
// session" → bypassPermissions). 404 unknown run; 409 when the run has finished.
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { actionableRun } from '@/lib/server/runs/run-access';
import { SetModeSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ id: string }>('relays:decide:own', async (request, { id }, rt, user) => {
  await actionableRun(rt.q, user, id);
  const body = await readJson(request, SetModeSchema, rt.config.maxBodyBytes);
  return Response.json(await rt.runs.setMode(id, body.mode));
});
