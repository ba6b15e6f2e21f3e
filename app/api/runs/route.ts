// GET /api/runs: runs, newest first, paginated.
import { can } from '@/lib/auth';
import { AppError } from '@/lib/server/http/errors';
import { handle, searchParams, signedIn } from '@/lib/server/http/handler';
import { ListRunsQuerySchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('runs:read:own', async (request, _params, rt, user) => {
  const me = signedIn(user);
  const query = ListRunsQuerySchema.safeParse(searchParams(request));
  if (!query.success) throw AppError.fromZod(query.error, 'query');
  // Users see their own runs; approvers and admins everyone's (optionally by owner).
  const page = await rt.q.runs.listRuns({ ...query.data, owner: can(me, 'runs:read:any') ? query.data.owner : me.id });
  return Response.json({ items: page.items.map(({ state: _state, ...run }) => run), nextCursor: page.nextCursor ?? null });
});
