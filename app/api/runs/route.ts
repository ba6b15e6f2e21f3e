// GET /api/runs: runs, newest first, paginated.
import { AppError } from '@/lib/server/errors';
import { handle, searchParams } from '@/lib/server/handler';
import { ListRunsQuerySchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle(async (request, _params, rt) => {
  const query = ListRunsQuerySchema.safeParse(searchParams(request));
  if (!query.success) throw AppError.fromZod(query.error, 'query');
  const page = await rt.q.runs.listRuns(query.data);
  return Response.json({ items: page.items.map(({ state: _state, ...run }) => run), nextCursor: page.nextCursor ?? null });
});
