// POST /api/runs/:id/cancel: stops the run; its pending relays become denials.
import { handle } from '@/lib/server/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ id: string }>(async (_request, { id }, rt) => {
  await rt.runs.cancel(id);
  return Response.json({ success: true });
});
