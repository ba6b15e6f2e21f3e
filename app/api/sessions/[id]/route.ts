// GET /api/sessions/:id: one conversation with every turn (run), its prompt and its events, so
// the chat reopens it whole. 404 for a session the caller may not see.
import { handle } from '@/lib/server/http/handler';
import { sessionDetail } from '@/lib/server/runs/sessions';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle<{ id: string }>('runs:read:own', async (_request, { id }, rt, user) => {
  return Response.json(await sessionDetail(rt.q, user, id));
});
