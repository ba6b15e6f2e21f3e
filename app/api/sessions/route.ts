// GET /api/sessions: the signed-in user's conversations (chat sessions), newest activity first,
// paginated; approvers and admins may pass `user` to list someone else's.
import { handle, searchParams } from '@/lib/server/http/handler';
import { listSessions } from '@/lib/server/runs/sessions';
import { ListSessionsQuerySchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('runs:read:own', async (request, _params, rt, user) => {
  const query = searchParams(request, ListSessionsQuerySchema);
  return Response.json(await listSessions(rt.q, user, query));
});
