// GET /api/grants: the live Always Allow grants (of a session plus the global ones, or all).
import { z } from 'zod';
import { handle, searchParams } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const QuerySchema = z.object({ sessionId: z.string().min(1).optional() });

export const GET = handle('grants:read', async (request, _params, rt) => {
  const query = searchParams(request, QuerySchema);
  return Response.json({ items: await rt.q.grants.listGrants({ sessionId: query.sessionId }) });
});
