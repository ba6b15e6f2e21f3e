// GET /api/runs: runs, newest first, paginated; filtered by status, session, owner or source.
import { can } from '@/lib/auth';
import { handle, searchParams } from '@/lib/server/http/handler';
import { ListRunsQuerySchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('runs:read:own', async (request, _params, rt, me) => {
  const query = searchParams(request, ListRunsQuerySchema);
  // Users see their own runs; approvers and admins everyone's (optionally by owner).
  const page = await rt.q.runs.listRuns({ ...query, owner: can(me, 'runs:read:any') ? query.owner : me.id });
  return Response.json({
    items: page.items.map(({ state: _state, ...run }) => run),
    nextCursor: page.nextCursor ?? null,
  });
});
