// GET /api/sessions: the signed-in user's conversations (chat sessions), newest activity first,
// paginated; approvers and admins may pass `user` to list someone else's.
import { AppError } from '@/lib/server/http/errors';
import { handle, searchParams, signedIn } from '@/lib/server/http/handler';
import { listSessions } from '@/lib/server/runs/sessions';
import { ListSessionsQuerySchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('runs:read:own', async (request, _params, rt, user) => {
  const query = ListSessionsQuerySchema.safeParse(searchParams(request));
  if (!query.success) throw AppError.fromZod(query.error, 'query');
  return Response.json(await listSessions(rt.q, signedIn(user), query.data));
});
